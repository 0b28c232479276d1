// Package htmltok reads HTML tokens as golang.org/x/net/html's Tokenizer
// gives them with Token — each text decoded, each tag's name and
// attributes lower-cased and their values decoded — without calling the
// library's Text, TagAttr or Token.
//
// Those three decode character references with the library's entity
// table, a map of 2,231 names built at every start of a program that
// can call them (0.1 ms and 126 KB of the command's start, the largest
// init left). This package still lets the library find the tokens (Next,
// Raw, TagName), reads a tag's attributes out of its raw bytes as the
// library's readTag does, and decodes references as its unescape does,
// from the same table held as static data (entities.go, written by
// scripts/htmlentities from the library's). FuzzTokenizerAgainstXNet
// holds every token to the library's.
package htmltok

import (
	"bytes"
	"io"
	"strings"

	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/docscore/docscore/internal/mdread"
)

// Token is one token: its type, a text's decoded text or a tag's lower-case
// name (Data), and a start tag's attributes, as xhtml.Token holds them.
type Token struct {
	Type  xhtml.TokenType
	Data  string
	Attrs []xhtml.Attribute
}

// Tokenizer reads the tokens of an HTML text.
type Tokenizer struct {
	z *xhtml.Tokenizer
	// raw is whether the next text token is a raw text element's content:
	// not decoded, NUL replaced (script, style and the like).
	raw bool
	// rcdata is whether it is a title's or textarea's: decoded, NUL
	// replaced.
	rcdata bool
}

// New returns a Tokenizer of the text r reads, with no limit on the
// buffered token (SetMaxBuf(0)).
func New(r io.Reader) *Tokenizer {
	z := xhtml.NewTokenizer(r)
	z.SetMaxBuf(0)
	return &Tokenizer{z: z}
}

// Err is the error of the last ErrorToken: io.EOF at the end of the text.
func (t *Tokenizer) Err() error { return t.z.Err() }

// Next reads the next token. Its type is xhtml.ErrorToken at the end of
// the text or on a read error (Err).
func (t *Tokenizer) Next() Token {
	tt := t.z.Next()
	raw, rcdata := t.raw, t.rcdata
	t.raw, t.rcdata = false, false
	switch tt {
	case xhtml.TextToken:
		// The library reads a raw text element's content as the one token
		// right after its start tag (none when it is empty: the flags were
		// cleared above).
		text := mdread.NormalizeNewlines(t.z.Raw())
		if raw || rcdata {
			text = noNUL(text)
		}
		if raw {
			return Token{Type: tt, Data: string(text)}
		}
		return Token{Type: tt, Data: unescape(string(text), false)}
	case xhtml.StartTagToken, xhtml.SelfClosingTagToken, xhtml.EndTagToken:
		rawTag := t.z.Raw()
		name, _ := t.z.TagName()
		tok := Token{Type: tt, Data: atomString(name)}
		if tt != xhtml.EndTagToken {
			tok.Attrs = attributes(rawTag)
			switch tok.Data {
			case "iframe", "noembed", "noframes", "noscript", "plaintext", "script", "style", "xmp":
				t.raw = true
			case "textarea", "title":
				t.rcdata = true
			}
		}
		return tok
	}
	return Token{Type: tt}
}

// Void reports whether tag (lower case) is a void element, one that never
// holds children: <br>, <img>, <meta> and the like.
func Void(tag string) bool {
	switch tag {
	case "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr":
		return true
	}
	return false
}

// isSpace reports whether c is HTML white space as the tokenizer skips it.
func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f'
}

// attributes reads the attributes of a start tag's raw bytes ("<a b=c>"),
// step for step as the library's readTag, readTagAttrKey and
// readTagAttrVal read them: a key ends at white space, '/', '>' or an '='
// that is not its first byte; a value is quoted or runs to white space or
// '>'; an empty key, or one given before (compared lower-cased), is
// dropped. Keys are lower-cased and values decoded as in an attribute.
func attributes(raw []byte) []xhtml.Attribute {
	i := 1 // the name's first byte, past '<'
	eof := func() bool { return i >= len(raw) }
	skip := func() {
		for !eof() && isSpace(raw[i]) {
			i++
		}
	}
	// readTagName: to white space (read), '/' or '>' (not read).
	for !eof() {
		c := raw[i]
		i++
		if isSpace(c) {
			break
		}
		if c == '/' || c == '>' {
			i--
			break
		}
	}
	skip()
	var attrs []xhtml.Attribute
	var keys [][]byte // the keys given, as written
	for !eof() && raw[i] != '>' {
		// readTagAttrKey.
		k0 := i
		for !eof() {
			c := raw[i]
			if c == '=' && i == k0 {
				i++
				continue
			}
			if c == '=' || isSpace(c) || c == '/' || c == '>' {
				break
			}
			i++
		}
		key := raw[k0:i]
		// readTagAttrVal.
		var val []byte
		skip()
		if !eof() {
			switch c := raw[i]; {
			case c == '/':
				i++
			case c == '=':
				i++
				skip()
				if eof() {
					break
				}
				switch q := raw[i]; q {
				case '>':
				case '"', '\'':
					i++
					v0 := i
					for !eof() && raw[i] != q {
						i++
					}
					val = raw[v0:i]
					if !eof() {
						i++
					}
				default:
					v0 := i
					for !eof() && !isSpace(raw[i]) && raw[i] != '>' {
						i++
					}
					val = raw[v0:i]
					if !eof() && raw[i] != '>' {
						i++ // the ending white space
					}
				}
			}
		}
		if len(key) > 0 && !given(keys, key) {
			keys = append(keys, key)
			attrs = append(attrs, xhtml.Attribute{
				Key: atomString(lower(noNUL(key))),
				Val: unescape(string(mdread.NormalizeNewlines(noNUL(val))), true),
			})
		}
		skip()
	}
	return attrs
}

// given reports whether key is one of keys, their ASCII letters compared
// in either case: the library drops an attribute given before.
func given(keys [][]byte, key []byte) bool {
	for _, k := range keys {
		if len(k) != len(key) {
			continue
		}
		same := true
		for i := range k {
			if lowerByte(k[i]) != lowerByte(key[i]) {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	return false
}

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// noNUL is s with each NUL byte replaced by U+FFFD, in a copy when it
// changes anything.
func noNUL(s []byte) []byte {
	if bytes.IndexByte(s, 0) < 0 {
		return s
	}
	return bytes.ReplaceAll(s, []byte{0}, []byte("\ufffd"))
}

// lower lower-cases the ASCII letters of s, in a copy when it changes
// anything.
func lower(s []byte) []byte {
	for i, c := range s {
		if 'A' <= c && c <= 'Z' {
			out := bytes.Clone(s)
			for j := i; j < len(out); j++ {
				out[j] = lowerByte(out[j])
			}
			return out
		}
	}
	return s
}

// atomString is s as a string, without a copy when it is one of HTML's
// names (atom.Lookup), as the library's Token gives tag names and keys.
func atomString(s []byte) string {
	if a := atom.Lookup(s); a != 0 {
		return a.String()
	}
	return string(s)
}

// entity is one entry of the entity table (entities.go): its name,
// entityNames[off:off+n], and its characters (r2 is 0 but for the few
// names of two).
type entity struct {
	off    uint16
	n      uint8
	r1, r2 rune
}

// lookup returns the characters of the entity name, r1 0 when there is
// none.
func lookup(name string) (r1, r2 rune) {
	lo, hi := 0, len(entities)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		e := &entities[m]
		if entityNames[e.off:int(e.off)+int(e.n)] < name {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(entities) {
		if e := &entities[lo]; entityNames[e.off:int(e.off)+int(e.n)] == name {
			return e.r1, e.r2
		}
	}
	return 0, 0
}

// longestEntityWithoutSemicolon is the length of the longest name that is
// an entity without its ';'.
const longestEntityWithoutSemicolon = 6

// replacementTable maps the numeric references 0x80–0x9F to the
// characters of Windows-1252, as the library and browsers do.
var replacementTable = [...]rune{
	'\u20AC', '\u0081', '\u201A', '\u0192', '\u201E', '\u2026', '\u2020', '\u2021',
	'\u02C6', '\u2030', '\u0160', '\u2039', '\u0152', '\u008D', '\u017D', '\u008F',
	'\u0090', '\u2018', '\u2019', '\u201C', '\u201D', '\u2022', '\u2013', '\u2014',
	'\u02DC', '\u2122', '\u0161', '\u203A', '\u0153', '\u009D', '\u017E', '\u0178',
}

// unescapeEntity reads the character reference at the start of s (s[0]
// is '&'), as the library's unescapeEntity does: its characters and its
// length, or '&' and 1 when there is none. attribute is whether s is in
// an attribute value.
func unescapeEntity(s string, attribute bool) (rune, rune, int) {
	i := 1
	if len(s) <= 1 {
		return '&', 0, 1
	}
	if s[i] == '#' {
		if len(s) <= 2 {
			return '&', 0, 1
		}
		i++
		c := s[i]
		hex := false
		if c == 'x' || c == 'X' {
			hex = true
			i++
		}
		i0 := i
		x := '\x00'
		for i < len(s) {
			c = s[i]
			var d, mult rune
			switch {
			case hex && '0' <= c && c <= '9':
				d, mult = rune(c)-'0', 16
			case hex && 'a' <= c && c <= 'f':
				d, mult = rune(c)-'a'+10, 16
			case hex && 'A' <= c && c <= 'F':
				d, mult = rune(c)-'A'+10, 16
			case !hex && '0' <= c && c <= '9':
				d, mult = rune(c)-'0', 10
			default:
				goto done
			}
			if x <= 0x10FFFF {
				x = mult*x + d
			}
			i++
		}
	done:
		if i == i0 {
			return '&', 0, 1
		}
		if i < len(s) && s[i] == ';' {
			i++
		}
		if 0x80 <= x && x <= 0x9F {
			x = replacementTable[x-0x80]
		} else if x == 0 || (0xD800 <= x && x <= 0xDFFF) || x > 0x10FFFF {
			x = '\uFFFD'
		}
		return x, 0, i
	}
	for i < len(s) {
		c := s[i]
		i++
		if isAlnum(c) {
			continue
		}
		if c != ';' {
			i--
		}
		break
	}
	name := s[1:i]
	if name == "" {
		// No reference.
	} else if attribute && name[len(name)-1] != ';' && len(s) > i && s[i] == '=' {
		// Left as written.
	} else if r1, r2 := lookup(name); r1 != 0 {
		return r1, r2, i
	} else if !attribute {
		for j := min(len(name)-1, longestEntityWithoutSemicolon); j > 1; j-- {
			if r1, r2 := lookup(name[:j]); r1 != 0 && r2 == 0 {
				return r1, 0, j + 1
			}
		}
	}
	return '&', 0, 1
}

// unescape decodes the character references of s, as the library's
// unescape does.
func unescape(s string, attribute bool) string {
	amp := strings.IndexByte(s, '&')
	if amp < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:amp])
	for i := amp; i < len(s); {
		if s[i] != '&' {
			b.WriteByte(s[i])
			i++
			continue
		}
		r1, r2, n := unescapeEntity(s[i:], attribute)
		b.WriteRune(r1)
		if r2 != 0 {
			b.WriteRune(r2)
		}
		i += n
	}
	return b.String()
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
