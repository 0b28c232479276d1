package jsonout

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/docscore/docscore/scoring/internal/swar"
)

// encodingJSON is the oracle: the Encoder with no HTML escaping and two
// spaces of indentation.
func encodingJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestMarshal pins the one Encoder set-up: two spaces of indentation, no
// HTML escaping, a final newline, struct field order; errors pass through.
func TestMarshal(t *testing.T) {
	type s struct {
		B string   `json:"b"`
		A []int    `json:"a"`
		E struct{} `json:"e"`
	}
	for _, c := range []struct {
		v    any
		want string
	}{
		{s{B: "<a&b>", A: []int{1, 2}}, "{\n  \"b\": \"<a&b>\",\n  \"a\": [\n    1,\n    2\n  ],\n  \"e\": {}\n}\n"},
		{[]string{}, "[]\n"},
		{nil, "null\n"},
		{1.5, "1.5\n"},
	} {
		got, err := Marshal(c.v)
		if err != nil || string(got) != c.want {
			t.Errorf("Marshal(%#v) = %q, %v; want %q", c.v, got, err, c.want)
		}
	}
	if _, err := Marshal(math.Inf(1)); err == nil {
		t.Error("Marshal(+Inf): no error")
	}
}

var strs = []string{"", "plain", `q"uote\back`, "tab\tnl\ncr\rbs\bff\f", "\x00\x01\x1f\x7f", "<a&b>",
	"é ü 中 😀", "\u2028\u2029", "bad\xffutf8\xc3", "\xed\xa0\x80 surrogate bytes",
	// Eight bytes at a time: a special byte at each place of a word.
	"place_of_origin", "01234567\"9abcdef", "0123456\\89abcdef", "012345678\x1fabcdef", "abcdefgh\u00e9ijklmnop\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f",
	"abcdefghijklmno\xff", "\"bcdefgh\"jklmnop\"", " !#$%&'()*+,-./0123456789:;<=>?@[]^_`{|}~"}

func FuzzAppendString(f *testing.F) {
	for _, s := range strs {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := string(AppendString(nil, s)) + "\n"
		if want := encodingJSON(t, s); got != want {
			t.Fatalf("AppendString(%q) = %s, encoding/json %s", s, got, want)
		}
	})
}

func FuzzAppendFloat(f *testing.F) {
	for _, x := range []float64{0, math.Copysign(0, -1), 1, -1.5, 0.1, 1e-6, 9.99e-7, 1e-7, 1e20, 1e21, 123456789e13,
		math.MaxFloat64, math.SmallestNonzeroFloat64, 1.0 / 3, 2.5e-10,
		// Whole numbers, on both sides of the short path's bound.
		2, -7, 123456, 1e15 - 1, -(1e15 - 1), 1e15, 1<<53 + 2, 1e15 + 0.5} {
		f.Add(x)
	}
	f.Fuzz(func(t *testing.T, x float64) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			w := NewWriter(0)
			w.Float(x)
			if _, err := w.Bytes(); err == nil {
				t.Fatalf("Float(%v) gave no error", x)
			}
			return
		}
		got := string(AppendFloat(nil, x)) + "\n"
		if want := encodingJSON(t, x); got != want {
			t.Fatalf("AppendFloat(%v) = %s, encoding/json %s", x, got, want)
		}
	})
}

// TestLayout writes nested and empty containers, raw values with their own
// whitespace and values through encoding/json, and compares with the
// Encoder's bytes for the same document.
func TestLayout(t *testing.T) {
	raw := json.RawMessage(" { \"k\" : [1, {\"x\":[]}, {}], \"e\":\"<&>\"} ")
	doc := map[string]any{} // the oracle's document, written in key order below
	w := NewWriter(0)
	w.Open('{')
	w.Key("a")
	w.Open('[')
	w.Close(']')
	doc["a"] = []int{}
	w.Key("b")
	w.Open('{')
	w.Close('}')
	doc["b"] = struct{}{}
	w.Key("c")
	w.Open('[')
	for _, s := range strs[:3] {
		w.Elem()
		w.String(s)
	}
	w.Elem()
	w.Open('{')
	w.Key("n")
	w.Int(-3)
	w.Key("s")
	w.OptString(nil)
	w.Key("t")
	w.Bool(true)
	w.Key("u")
	w.OptString(&strs[1])
	w.Key("z")
	w.OptFloat(nil)
	w.Close('}')
	w.Close(']')
	doc["c"] = []any{strs[0], strs[1], strs[2], map[string]any{"n": -3, "t": true, "z": nil, "s": nil, "u": strs[1]}}
	w.Key("d")
	w.Raw(raw)
	doc["d"] = raw
	w.Key("e")
	w.Value(map[string][]float64{"x": {0.5, 1e-7}, "y": nil})
	doc["e"] = map[string][]float64{"x": {0.5, 1e-7}, "y": nil}
	w.Key("f")
	w.Raw(nil)
	doc["f"] = json.RawMessage(nil)
	w.Close('}')
	got, err := w.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if want := encodingJSON(t, doc); string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestErrorsStick(t *testing.T) {
	w := NewWriter(0)
	w.Open('[')
	w.Elem()
	w.Raw(json.RawMessage("{bad"))
	w.Elem()
	w.Float(math.NaN())
	w.Close(']')
	if _, err := w.Bytes(); err == nil {
		t.Fatal("no error for an invalid raw value")
	}
}

// TestPlain checks the table of bytes AppendString copies as they are.
func TestPlain(t *testing.T) {
	for b := 0; b < 256; b++ {
		want := b >= 0x20 && b < 0x80 && b != '"' && b != '\\'
		if got := plain[b>>6]>>(b&63)&1 != 0; got != want {
			t.Errorf("byte %#x: plain %v, want %v", b, got, want)
		}
		if w := uint64(b) * swar.Ones; (special(w) == 0) != want {
			t.Errorf("word of %#x: special %#x, want plain %v", b, special(w), want)
		}
	}
}
