package casefold

import (
	"strings"
	"unicode/utf8"
)

// foldRange maps lo, lo+stride, …, hi to the code point delta away.
type foldRange struct {
	lo, hi rune
	stride rune
	delta  rune
}

// foldMulti maps r to more than one code point.
type foldMulti struct {
	r rune
	s string
}

// String returns s with Unicode full case folding applied, as
// cases.Fold().String(s) does: each code point is replaced by its fold,
// and bytes that are not valid UTF-8 are copied unchanged. It returns s
// itself when nothing changes.
func String(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				break
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if _, _, ok := foldRune(r, size); ok {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b.WriteByte(c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if f, m, ok := foldRune(r, size); !ok {
			b.WriteString(s[i : i+size])
		} else if m != "" {
			b.WriteString(m)
		} else {
			b.WriteRune(f)
		}
		i += size
	}
	return b.String()
}

// Rune returns the full case folding of r, and whether it differs from r.
func Rune(r rune) (string, bool) {
	f, m, ok := foldRune(r, utf8.RuneLen(r))
	if !ok || m != "" {
		return m, ok
	}
	return string(f), true
}

// foldRune returns the fold of r, decoded from size bytes, when it is not
// r itself: one code point f, or more than one, m. Invalid UTF-8
// (utf8.RuneError of one byte) has none.
func foldRune(r rune, size int) (f rune, m string, ok bool) {
	if r == utf8.RuneError && size <= 1 {
		return 0, "", false
	}
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A', "", true
		}
		return 0, "", false
	}
	// The last range starting at or before r.
	lo, hi := 0, len(ranges)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if ranges[h].lo <= r {
			lo = h + 1
		} else {
			hi = h
		}
	}
	if lo > 0 {
		g := &ranges[lo-1]
		if r <= g.hi && (r-g.lo)%g.stride == 0 {
			return r + g.delta, "", true
		}
	}
	lo, hi = 0, len(multi)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if multi[h].r < r {
			lo = h + 1
		} else {
			hi = h
		}
	}
	if lo < len(multi) && multi[lo].r == r {
		return 0, multi[lo].s, true
	}
	return 0, "", false
}
