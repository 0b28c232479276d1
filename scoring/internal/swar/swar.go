// Package swar holds the word-at-a-time tests the JSON reader (jsonscan)
// and writer (jsonout) share: eight bytes of a string looked at in one
// 64-bit word.
package swar

// Ones has a one in each byte: Ones*c is c in every byte.
const Ones = 0x0101010101010101

// Load64 is s[i:i+8] as a little-endian word (one load where the
// compiler merges loads).
func Load64(s string, i int) uint64 {
	b := s[i : i+8]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// StringStops returns a mask of w's bytes that end a JSON string's plain
// run — a quote, a backslash, a control character — whose lowest set bit
// is the high bit of the first such byte (a byte's borrow reaches only
// the bytes above it).
func StringStops(w uint64) uint64 {
	q, b := w^(Ones*'"'), w^(Ones*'\\')
	return ((q-Ones)&^q | (b-Ones)&^b | (w-Ones*0x20)&^w) & (Ones * 0x80)
}
