package mdread

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// inlineText returns the text of a cell or heading as the reader keeps
// it: plain text, backslash escapes and entities resolved, inline code
// without its backticks, emphasis without its markers, a link's text,
// HTML spans as written. plain reports whether any of it is a slice of
// content as written (not inline code, not a resolved entity), which is
// how the parser placed a heading on its line.
//
// read is false when the markup would cost more than inlineBudget and
// the text is content as written.
func inlineText(content []byte) (text string, plain, read bool) {
	in := inliner{named: ruleEntity, budget: inlineBudget(len(content))}
	in.run(content, 0)
	if in.budget < 0 {
		return string(content), len(content) > 0, false
	}
	return string(in.out), in.plain, true
}

// inlineBudget is the work a cell of n bytes may cost: the positions its
// markup's searches look at. Some markup (a run of "[" that nothing
// closes) makes the searches quadratic in n; a cell that would cost more
// is read as plain text, as written.
func inlineBudget(n int) int { return 64*n + 1<<20 }

// Markup is a piece of a table cell's inline content (ReadInline), in
// order: text, or a tag ("b", "i", "strike", "code") opening or closing
// around the pieces between.
type Markup struct {
	Tag   string // "" for text
	Close bool
	Text  string
}

// ReadInline reads a cell's inline content as gomarkdown does with the
// tables family's extensions: strong emphasis is "b" (with "**" or
// "__"), emphasis "i", "~~" strikethrough "strike", inline code "code"
// (its text without the backticks), a link or image its text; backslash
// escapes and numeric character references are resolved, and named ones
// by named (html.UnescapeString, say), which returns a name it does not
// know unchanged; HTML spans are text as written. See package rules'
// doc.go for where this reader and gomarkdown read differently.
//
// read is false for a cell whose markup would cost more than a bound
// linear in its length to read (a long run of "[" that nothing closes,
// say): it is taken as written, one text.
func ReadInline(content []byte, named func(ent string) string) (markup []Markup, read bool) {
	if len(content) == 0 {
		return nil, true
	}
	if !bytes.ContainsAny(content, inlineStarts) {
		return []Markup{{Text: string(content)}}, true
	}
	in := inliner{named: named, marks: true, out: make([]byte, 0, len(content)), budget: inlineBudget(len(content))}
	in.run(content, 0)
	if in.budget < 0 {
		return []Markup{{Text: string(content)}}, false
	}
	var out []Markup
	at := 0
	for _, t := range in.tags {
		if t.at > at {
			out = append(out, Markup{Text: string(in.out[at:t.at])})
			at = t.at
		}
		out = append(out, Markup{Tag: t.tag, Close: !t.open})
	}
	if at < len(in.out) {
		out = append(out, Markup{Text: string(in.out[at:])})
	}
	return out, true
}

// inlineStarts are the bytes that may start inline markup (inliner.node).
const inlineStarts = "*_~`[<\\&!"

type inliner struct {
	out   []byte
	plain bool
	// marks: keep the tags, in tags, at their places in out.
	marks bool
	tags  []tagMark
	named func(ent string) string
	// budget is the scanning left (inlineBudget); below 0, no markup
	// is read any more and the content is taken as written.
	budget int
}

// spend charges n positions looked at to the budget.
func (in *inliner) spend(n int) { in.budget -= n }

// tagMark is a tag opening or closing before out[at].
type tagMark struct {
	at   int
	tag  string
	open bool
}

func (in *inliner) text(b []byte) {
	if len(b) > 0 {
		in.out = append(in.out, b...)
		in.plain = true
	}
}

func (in *inliner) open(tag string) {
	if in.marks {
		in.tags = append(in.tags, tagMark{at: len(in.out), tag: tag, open: true})
	}
}

func (in *inliner) close(tag string) {
	if in.marks {
		in.tags = append(in.tags, tagMark{at: len(in.out), tag: tag})
	}
}

// wrap reads data as the content of an element tag.
func (in *inliner) wrap(tag string, data []byte, depth int) {
	in.open(tag)
	in.run(data, depth+1)
	in.close(tag)
}

func (in *inliner) run(data []byte, depth int) {
	if depth >= maxMDNesting || len(data) == 0 {
		return
	}
	beg, end := 0, 0
	for end < len(data) {
		switch data[end] {
		case '*', '_', '~', '`', '[', '<', '\\', '&', '!':
		default:
			end++
			continue
		}
		mark, tags, plain := len(in.out), len(in.tags), in.plain
		n := in.node(data, end, depth)
		if n == 0 {
			in.out, in.tags, in.plain = in.out[:mark], in.tags[:tags], plain
			end++
			continue
		}
		// The text before the node goes before it.
		if beg < end {
			node := append([]byte(nil), in.out[mark:]...)
			in.out = in.out[:mark]
			in.text(data[beg:end])
			for k := tags; k < len(in.tags); k++ {
				in.tags[k].at += end - beg
			}
			in.out = append(in.out, node...)
		}
		beg = end + n
		end = beg
	}
	in.text(data[beg:end])
}

func (in *inliner) node(data []byte, i, depth int) int {
	if in.budget < 0 {
		return 0
	}
	switch data[i] {
	case '*', '_', '~':
		return in.emphasis(data, i, depth)
	case '`':
		return in.codeSpan(data, i)
	case '[':
		return in.link(data, i, depth, false)
	case '!':
		if i+1 < len(data) && data[i+1] == '[' {
			if n := in.link(data, i+1, depth, true); n > 0 {
				return n + 1
			}
		}
	case '<':
		return in.angle(data, i)
	case '\\':
		if i+1 < len(data) && strings.IndexByte("\\`*_{}[]()#+-.!:|&<>~^$", data[i+1]) >= 0 {
			in.text(data[i+1 : i+2])
			return 2
		}
	case '&':
		return in.entity(data, i)
	}
	return 0
}

// codeSpan reads inline code: a run of backticks closed by the first
// later run at least as long (ending at as many backticks), its content
// without the spaces around it.
func (in *inliner) codeSpan(data []byte, i int) int {
	nb := skipRun(data, i, '`') - i
	// The parser retries a run without a closer from each of its
	// backticks; a shorter closer then matches.
	closer := 0
	if j, _ := closingRun(data, i+nb, nb); j >= 0 {
		closer = j + 1
	}
	if closer == 0 {
		in.spend(len(data) - i)
		return 0
	}
	in.spend(closer - i)
	d := data[i:]
	end := closer - i
	b := nb
	for b < end && d[b] == ' ' {
		b++
	}
	e := end - nb
	for e > b && d[e-1] == ' ' {
		e--
	}
	if b < e {
		in.open("code")
		in.out = append(in.out, d[b:e]...)
		in.close("code")
	}
	return end
}

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func isPunct2(d []byte) bool {
	if len(d) == 0 {
		return false
	}
	if strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", d[0]) >= 0 {
		return true
	}
	r, _ := utf8.DecodeRune(d)
	return r != utf8.RuneError && unicode.IsPunct(r)
}

func (in *inliner) emphasis(data []byte, off, depth int) int {
	d := data[off:]
	c := d[0]
	n := len(d)
	if n > 2 && d[1] != c {
		if isSpaceByte(d[1]) || c == '~' {
			return 0
		}
		if k := in.emph1(d[1:], c, depth); k > 0 {
			return k + 1
		}
		return 0
	}
	if n > 3 && d[1] == c && d[2] != c {
		if isSpaceByte(d[2]) {
			return 0
		}
		if k := in.emph2(d[2:], c, depth); k > 0 {
			return k + 2
		}
		return 0
	}
	if n > 4 && d[1] == c && d[2] == c && d[3] != c {
		if c == '~' || isSpaceByte(d[3]) {
			return 0
		}
		if k := in.emph3(d, 3, c, depth); k > 0 {
			return k + 3
		}
	}
	return 0
}

// findEmphChar returns the index of the next c in data not in inline code
// or a link, or 0.
func (in *inliner) findEmphChar(data []byte, c byte) (at int) {
	i := 0
	// Every search below looks at most at the positions up to the last
	// i, or a bracket's search beyond it (charged by matchBracket).
	defer func() { in.spend(max(i, at) + 1) }()
	for i < len(data) {
		for i < len(data) && data[i] != c && data[i] != '`' && data[i] != '[' {
			i++
		}
		if i >= len(data) {
			return 0
		}
		if IsEscaped(data, i) {
			i++
			continue
		}
		if data[i] == c {
			return i
		}
		if data[i] == '`' {
			tmp := 0
			i++
			for i < len(data) && data[i] != '`' {
				if tmp == 0 && data[i] == c {
					tmp = i
				}
				i++
			}
			if i >= len(data) {
				return tmp
			}
			i++
			continue
		}
		// A link: see doc.go; links are skipped to their closing bracket.
		tmp := 0
		closeAt := in.matchBracket(data, i)
		end := len(data)
		if closeAt >= 0 {
			end = closeAt
		}
		if k := bytes.IndexByte(data[i+1:end], c); k >= 0 {
			tmp = i + 1 + k
		}
		if closeAt < 0 {
			return tmp
		}
		i = closeAt + 1
		for i < len(data) && (data[i] == ' ' || data[i] == '\n') {
			i++
		}
		if i >= len(data) {
			return tmp
		}
		if data[i] != '[' && data[i] != '(' {
			if tmp > 0 {
				return tmp
			}
			continue
		}
		cc := data[i]
		i++
		for i < len(data) && data[i] != cc {
			if tmp == 0 && data[i] == c {
				return i
			}
			i++
		}
		if i >= len(data) {
			return tmp
		}
		i++
	}
	return 0
}

// matchBracket returns the index of the "]" that closes the "[" at
// data[i], or -1.
func (in *inliner) matchBracket(data []byte, i int) (closeAt int) {
	level := 0
	j := i
	defer func() { in.spend(j - i + 1) }()
	for ; j < len(data); j++ {
		switch {
		case data[j] == '\\':
			j++
		case data[j] == '[':
			level++
		case data[j] == ']':
			level--
			if level == 0 {
				return j
			}
		}
	}
	return -1
}

func (in *inliner) emph1(data []byte, c byte, depth int) int {
	i := 0
	if len(data) > 1 && data[0] == c && data[1] == c {
		i = 2
	}
	for i < len(data) {
		length := in.findEmphChar(data[i:], c)
		i += length
		if i >= len(data) {
			return 0
		}
		if length == 0 && data[i] != c {
			return 0
		}
		if i+1 < len(data) && data[i+1] == c {
			i += 2
			continue
		}
		if data[i] == c && !isSpaceByte(data[i-1]) {
			rest := data[i+1:]
			if !(len(rest) == 0 || isSpaceByte(rest[0]) || isPunct2(rest)) {
				if length == 0 {
					return 0
				}
				continue
			}
			in.wrap("i", data[:i], depth)
			return i + 1
		}
		if length == 0 {
			return 0
		}
	}
	return 0
}

func (in *inliner) emph2(data []byte, c byte, depth int) int {
	i := 0
	for i < len(data) {
		length := in.findEmphChar(data[i:], c)
		if length == 0 {
			return 0
		}
		i += length
		if i+1 < len(data) && data[i] == c && data[i+1] == c && i > 0 && !isSpaceByte(data[i-1]) {
			end := i
			if i+2 < len(data) && data[i+2] == c && c != '~' {
				if last := bytes.LastIndexByte(data[:i], c); last >= 0 &&
					(last == 0 || isSpaceByte(data[last-1])) && last+1 < i && !isSpaceByte(data[last+1]) {
					end = i + 1
				}
			}
			tag := "b"
			if c == '~' {
				tag = "strike"
			}
			in.wrap(tag, data[:end], depth)
			return end + 2
		}
		i++
	}
	return 0
}

func (in *inliner) emph3(orig []byte, offset int, c byte, depth int) int {
	data := orig[offset:]
	i := 0
	for i < len(data) {
		length := in.findEmphChar(data[i:], c)
		if length == 0 {
			return 0
		}
		i += length
		if data[i] != c || isSpaceByte(data[i-1]) {
			continue
		}
		switch {
		case i+2 < len(data) && data[i+1] == c && data[i+2] == c:
			in.open("b")
			in.wrap("i", data[:i], depth)
			in.close("b")
			return i + 3
		case i+1 < len(data) && data[i+1] == c:
			n := in.emph1(orig[offset-2:], c, depth)
			if n == 0 {
				return 0
			}
			return n - 2
		default:
			n := in.emph2(orig[offset-1:], c, depth)
			if n == 0 {
				return 0
			}
			return n - 1
		}
	}
	return 0
}

// link reads an inline link or image, "[text](destination)", keeping its
// text: a link's read as inline content, an image's (its alt) as written.
// Reference links are not read (see doc.go).
func (in *inliner) link(data []byte, i, depth int, image bool) int {
	closeAt := in.matchBracket(data, i)
	if closeAt < 0 || closeAt+1 >= len(data) || data[closeAt+1] != '(' {
		return 0
	}
	level := 0
	j := closeAt + 1
	defer func() { in.spend(j - closeAt) }()
	for ; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '(':
			level++
		case ')':
			level--
			if level == 0 {
				if image {
					in.text(data[i+1 : closeAt])
				} else {
					in.run(data[i+1:closeAt], depth+1)
				}
				return j + 1 - i
			}
		}
	}
	return 0
}

// angle reads an autolink "<scheme:...>", keeping its address, or an HTML
// tag, kept as written.
func (in *inliner) angle(data []byte, i int) int {
	end := bytes.IndexByte(data[i:], '>')
	if end < 0 {
		in.spend(len(data) - i)
		return 0
	}
	in.spend(end)
	tag := data[i : i+end+1]
	if len(tag) < 3 {
		return 0
	}
	in.out = append(in.out, tag...)
	return len(tag)
}

// entity resolves a character reference: numeric ones, and the named
// ones a rule file might hold (doc.go lists them); another name stays as
// written.
func (in *inliner) entity(data []byte, i int) int {
	d := data[i:]
	end := skipN(d, 1, '#', 1)
	for end < len(d) && (d[end] >= '0' && d[end] <= '9' || d[end] >= 'a' && d[end] <= 'z' || d[end] >= 'A' && d[end] <= 'Z') {
		end++
	}
	if end >= len(d) || d[end] != ';' {
		return 0
	}
	end++
	ent := d[:end]
	if ent[1] != '#' {
		if s := in.named(string(ent)); s != string(ent) {
			in.out = append(in.out, s...)
		} else {
			in.text(ent)
		}
		return end
	}
	if len(ent) < 4 {
		in.text(ent)
		return end
	}
	digits, base := ent[2:len(ent)-1], 10
	if ent[2] == 'x' || ent[2] == 'X' {
		digits, base = ent[3:len(ent)-1], 16
	}
	cp, err := strconv.ParseUint(string(digits), base, 64)
	if err != nil {
		in.text(ent)
		return end
	}
	r := '\uFFFD'
	if cp != 0 && (cp < 0xD800 || cp > 0xDFFF) && cp <= 0x10FFFF {
		r = rune(cp)
	}
	in.out = utf8.AppendRune(in.out, r)
	return end
}

// ruleEntity resolves the named character references a rule file reads
// (doc.go lists them): ent is "&name;"; another name is returned as is.
func ruleEntity(ent string) string {
	switch ent {
	case "&amp;":
		return "&"
	case "&lt;":
		return "<"
	case "&gt;":
		return ">"
	case "&quot;":
		return "\""
	case "&apos;":
		return "'"
	case "&nbsp;":
		return "\u00a0"
	}
	return ent
}

// IsEscaped reports whether data[i] follows an odd number of backslashes.
func IsEscaped(data []byte, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && data[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

// SkipCodeSpan returns the index of the last backtick of the code span
// that opens at data[i], or i when none does. Like the parser's table
// scanner, a later run that reaches the opener's length closes it; without
// one, the longest later run does.
func SkipCodeSpan(data []byte, i int) int {
	if data[i] != '`' || IsEscaped(data, i) {
		return i
	}
	k := skipRun(data, i, '`') - i
	if j, longest := closingRun(data, i+k, k); j >= 0 {
		return j
	} else if longest >= 0 {
		return longest
	}
	return i + k - 1
}

// closingRun looks in data[from:] for the first run of backticks that
// reaches k: at, the index of its k-th backtick, or -1; and the index
// where the longest run before it first reached its length, or -1.
func closingRun(data []byte, from, k int) (at, longest int) {
	best, longest, run := 0, -1, 0
	for j := from; j < len(data); j++ {
		if data[j] != '`' {
			run = 0
			continue
		}
		run++
		if run == k {
			return j, longest
		}
		if run > best {
			best, longest = run, j
		}
	}
	return -1, longest
}
