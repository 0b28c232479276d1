package evalcase

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestFlatten(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string // path=JSON value
	}{
		{"scalar root", `"x"`, []string{`$="x"`}},
		{"flat object, keys sorted", `{"b": 1, "a": "x"}`, []string{`$.a="x"`, `$.b=1`}},
		{"nested arrays of objects", `{"items": [{"code": "A-12", "qty": 3}, {"code": "B", "tags": ["x", "y"]}]}`,
			[]string{`$.items[0].code="A-12"`, `$.items[0].qty=3`, `$.items[1].code="B"`, `$.items[1].tags[0]="x"`, `$.items[1].tags[1]="y"`}},
		{"arrays of arrays", `[[1, 2], [], [[null]]]`, []string{`$[0][0]=1`, `$[0][1]=2`, `$[1]=[]`, `$[2][0][0]=null`}},
		{"empty object leaf", `{"a": {}, "b": false}`, []string{`$.a={}`, `$.b=false`}},
		{"odd keys are quoted", `{"unit price": 1, "a.b": 2, "ok_1": 3}`, []string{`$["a.b"]=2`, `$.ok_1=3`, `$["unit price"]=1`}},
		{"numbers keep their text", `{"n": 11.50}`, []string{`$.n=11.50`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := ParseJSONValue([]byte(tt.in), "t.json")
			if err != nil {
				t.Fatal(err)
			}
			leaves, err := Flatten(v)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range leaves {
				b, _ := json.Marshal(l.Value)
				got = append(got, l.Path+"="+string(b))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Flatten(%s)\n got %v\nwant %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestFlattenGoValues(t *testing.T) {
	type item struct {
		Code string  `json:"code"`
		Qty  float64 `json:"qty"`
	}
	leaves, err := Flatten(map[string]any{"items": []item{{"A", 2.5}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(leaves) != 2 || leaves[0].Path != "$.items[0].code" || leaves[1].Path != "$.items[0].qty" {
		t.Fatalf("Go structs flatten like their JSON: %+v", leaves)
	}
	if ScalarKey(leaves[1].Value) != ScalarKey(2.5) {
		t.Errorf("2.5 round-trips to %v", leaves[1].Value)
	}
}

func TestCanonicalPath(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{"$.items[0].code", "$.items[0].code", ""},
		{"items[0].code", "$.items[0].code", ""},
		{" $.heading ", "$.heading", ""},
		{"$['unit price']", `$["unit price"]`, ""},
		{`$["a.b"][2]`, `$["a.b"][2]`, ""},
		{"$[3]", "$[3]", ""},
		{"$", "$", ""},
		{"", "", "empty path"},
		{"$.items[", "", "not closed"},
		{"$.items[x]", "", "neither an array index"},
		{"$..a", "", "empty name"},
		{"$.a[-1]", "", "neither an array index"},
		{"$['a", "", "not closed"},
		{"$['a]'", "", "quoted key"},
		{"$x", "", "unexpected"},
	}
	for _, tt := range tests {
		got, err := CanonicalPath(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("CanonicalPath(%q) = %q, %v; want error containing %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("CanonicalPath(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestScalarEquality(t *testing.T) {
	tests := []struct {
		a, b  any
		equal bool
	}{
		{json.Number("11.50"), 11.5, true},
		{json.Number("3"), "3", true},
		{"3.0", json.Number("3"), true},
		{json.Number("1e2"), 100, true},
		{0.1, "0.1", true},
		{json.Number("12345678901234567891"), json.Number("12345678901234567890"), false},
		{"007", json.Number("7"), false}, // not a JSON number: compared as text
		{" A-12 ", "A-12", true},
		{"a-12", "A-12", false},
		{true, "true", true},
		{false, "true", false},
		{nil, "", true},
		{nil, "null", true},
		{nil, json.Number("0"), false},
		{"{}", emptyObject, true},
		{emptyArray, emptyObject, false},
	}
	for _, tt := range tests {
		if got := ScalarKey(tt.a) == ScalarKey(tt.b); got != tt.equal {
			t.Errorf("equal(%#v, %#v) = %v, want %v", tt.a, tt.b, got, tt.equal)
		}
	}
}

func TestNumber(t *testing.T) {
	for _, tt := range []struct {
		in   any
		want float64
		ok   bool
	}{
		{json.Number("4.25"), 4.25, true}, {3, 3, true}, {2.5, 2.5, true}, {" 7 ", 7, true}, {"x", 0, false}, {nil, 0, false}, {true, 0, false},
	} {
		got, ok := Number(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Number(%#v) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
