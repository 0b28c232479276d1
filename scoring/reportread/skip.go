package reportread

import (
	"math/bits"

	"github.com/docscore/docscore/scoring/internal/jsonscan"
)

// skipValue returns the index after the JSON value starting at data[i]
// (a non-space byte), inside depth open containers. It checks the value's
// syntax as jsonscan does — it refuses exactly the values encoding/json
// refuses, nesting past encoding/json's limit included — but walks nested
// containers in one loop, from structural byte to structural byte, with
// a stack of closers instead of a call per value: an image row's "pairs",
// most of a report's bytes, are only checked.
func skipValue(data string, i, depth int) (end int, ok bool) {
	var buf [32]byte
	stack := buf[:0] // the closers of the containers opened here
value:
	for {
		if i >= len(data) {
			return 0, false
		}
		switch c := data[i]; {
		case c == '"':
			if i, ok = jsonscan.StringEnd(data, i); !ok {
				return 0, false
			}
		case c == '{' || c == '[':
			if depth+len(stack)+1 > jsonscan.MaxDepth {
				return 0, false
			}
			closer := c + 2 // '}' or ']'
			i = indent(data, i+1)
			if i < len(data) && data[i] == closer {
				i++
				break
			}
			stack = append(stack, closer)
			if closer == '}' {
				if i, ok = skipKey(data, i); !ok {
					return 0, false
				}
			}
			continue value
		case c == '-' || c >= '0' && c <= '9':
			if i, ok = jsonscan.NumberEnd(data, i); !ok {
				return 0, false
			}
		case c == 't':
			if i, ok = literal(data, i, "true"); !ok {
				return 0, false
			}
		case c == 'f':
			if i, ok = literal(data, i, "false"); !ok {
				return 0, false
			}
		case c == 'n':
			if i, ok = literal(data, i, "null"); !ok {
				return 0, false
			}
		default:
			return 0, false
		}
		// after a value: a comma and the next one, or closers
		for len(stack) > 0 {
			i = jsonscan.SkipSpace(data, i)
			if i >= len(data) {
				return 0, false
			}
			closer := stack[len(stack)-1]
			switch data[i] {
			case ',':
				i = indent(data, i+1)
				if closer == '}' {
					if i, ok = skipKey(data, i); !ok {
						return 0, false
					}
				}
				continue value
			case closer:
				stack = stack[:len(stack)-1]
				i++
			default:
				return 0, false
			}
		}
		return i, true
	}
}

// skipKey returns the index of the member value after the key at data[i],
// its colon and the whitespace around it.
func skipKey(data string, i int) (int, bool) {
	if i >= len(data) || data[i] != '"' {
		return 0, false
	}
	i, ok := jsonscan.StringEnd(data, i)
	if !ok {
		return 0, false
	}
	if i < len(data) && data[i] <= ' ' {
		i = jsonscan.SkipSpace(data, i)
	}
	if i >= len(data) || data[i] != ':' {
		return 0, false
	}
	// an indented text's one space after the colon
	if i += 1; i+1 < len(data) && data[i] == ' ' && data[i+1] > ' ' {
		return i + 1, true
	}
	return jsonscan.SkipSpace(data, i), true
}

// indent returns the index of the first non-space byte at or after i,
// the start of a line of an indented text: a newline and a run of
// spaces, measured eight bytes at a time here, inlined; the rest goes to
// jsonscan.SkipSpace.
func indent(data string, i int) int {
	if i < len(data) && data[i] == '\n' {
		i++
		for i+8 <= len(data) {
			n := bits.TrailingZeros64(load64(data, i)^spaces) >> 3
			i += n
			if n < 8 {
				break
			}
		}
	}
	if i < len(data) && data[i] <= ' ' {
		return jsonscan.SkipSpace(data, i)
	}
	return i
}

// spaces is eight spaces as a word.
const spaces = 0x2020202020202020

// load64 is data[i:i+8] as a little-endian word.
func load64(data string, i int) uint64 {
	b := data[i : i+8]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

func literal(data string, i int, word string) (end int, ok bool) {
	if len(data)-i < len(word) || data[i:i+len(word)] != word {
		return 0, false
	}
	return i + len(word), true
}
