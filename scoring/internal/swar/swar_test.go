package swar

import "testing"

// TestStringStops puts each byte at each place of a word of spaces: the
// mask marks it, first, exactly when JSON ends a string's plain run there.
func TestStringStops(t *testing.T) {
	for c := 0; c < 256; c++ {
		want := c < 0x20 || c == '"' || c == '\\'
		for place := 0; place < 8; place++ {
			b := []byte("        ")
			b[place] = byte(c)
			m := StringStops(Load64(string(b), 0))
			if got := m != 0; got != want {
				t.Fatalf("byte %#x at %d: mask %#x, want a stop %v", c, place, m, want)
			}
			if want && m&(0x80<<(8*place)) == 0 {
				t.Fatalf("byte %#x at %d: mask %#x misses its place", c, place, m)
			}
		}
	}
	if got := Load64("\x01\x02\x03\x04\x05\x06\x07\x08x", 0); got != 0x0807060504030201 {
		t.Fatalf("Load64 = %#x", got)
	}
}
