package inputerr

import (
	"fmt"
	"testing"
)

func TestErrorFormat(t *testing.T) {
	tests := []struct {
		err  *Error
		want string
	}{
		{&Error{Msg: "bad"}, "bad"},
		{&Error{File: "a.csv", Msg: "bad"}, "a.csv: bad"},
		{&Error{File: "a.csv", Line: 3, Msg: "bad"}, "a.csv:3: bad"},
		{&Error{File: "a.csv", Line: 3, Column: 7, Msg: "bad"}, "a.csv:3:7: bad"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func TestAsFindsWrapped(t *testing.T) {
	err := fmt.Errorf("context: %w", New("r.jsonl", 9, "expected %s", "an object"))
	e, ok := As(err)
	if !ok || e.Line != 9 || e.Msg != "expected an object" {
		t.Fatalf("As = %v, %v", e, ok)
	}
	if _, ok := As(fmt.Errorf("plain")); ok {
		t.Fatal("As found an input error in a plain error")
	}
	l := List{New("a", 1, "x"), New("b", 2, "y")}
	if e, ok := As(fmt.Errorf("w: %w", l)); !ok || e.File != "a" {
		t.Fatalf("As(List) = %v, %v", e, ok)
	}
	if l.Error() != "a:1: x\nb:2: y" {
		t.Fatalf("List.Error() = %q", l.Error())
	}
}
