package receipts

import (
	"html"
	"strings"
	"unicode/utf8"
)

// Clean removes layout markup from a model's raw output, so that only the
// text a person would read remains (SPEC B.3 step 2 and its decisions).
// Each removed construct becomes one space, so neighbouring cells never
// fuse into one number. In order:
//
//  1. Nemotron-Parse coordinate and class tokens: <x_0.123>, <y_0.456>,
//     <class_Text> and the like.
//  2. HTML tags (<td colspan="2">, </p>, <br/>) and comments (<!-- … -->).
//  3. HTML entities are decoded (&amp; → &, &#55; → 7).
//  4. LaTeX layout: \begin{env} with every directly adjacent [..] or {..}
//     group (so \begin{tabular}{|c|c|} leaves nothing), \end{env},
//     \multicolumn{n}{spec}{X} and \multirow[..]{n}{w}{X} keep only X,
//     the layout-only commands of [layoutOnly] (\cline{2-3}, \hline, …)
//     disappear with their arguments, column separators & and row ends \\
//     (with a [2pt] spacing argument) become spaces, and every other
//     command loses its name and any [..] option directly after it but
//     keeps its text arguments (\textbf{X} → X). Braces become spaces.
//     % is not a comment.
//
// Clean does not fold case; [Tokenize] does.
func Clean(raw string) string {
	s := removeNemotron(raw)
	s = removeHTMLTags(s)
	if strings.IndexByte(s, '&') >= 0 {
		s = html.UnescapeString(s)
	}
	return cleanLaTeX(s)
}

// removeNemotron replaces <x_NUM>, <y_NUM> and <class_NAME> with a space.
func removeNemotron(s string) string { return spaceOutTags(s, nemotronToken) }

// spaceOutTags replaces with a space every construct starting with "<"
// whose byte length the matcher returns (0: not one).
func spaceOutTags(s string, match func(string) int) string {
	if !strings.Contains(s, "<") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if s[i] == '<' {
			if n := match(s[i:]); n > 0 {
				b.WriteByte(' ')
				i += n
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// nemotronToken returns the byte length of the Nemotron token at the start
// of s, or 0. Coordinates are <x_…> or <y_…> with digits and dots; classes
// are <class_…> with letters, digits, '-' and '_'.
func nemotronToken(s string) int {
	switch {
	case strings.HasPrefix(s, "<x_") || strings.HasPrefix(s, "<y_"):
		j := 3
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
			j++
		}
		if j > 3 && j < len(s) && s[j] == '>' {
			return j + 1
		}
	case strings.HasPrefix(s, "<class_"):
		j := 7
		for j < len(s) && (isASCIILetter(s[j]) || s[j] >= '0' && s[j] <= '9' || s[j] == '-' || s[j] == '_') {
			j++
		}
		if j > 7 && j < len(s) && s[j] == '>' {
			return j + 1
		}
	}
	return 0
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// removeHTMLTags replaces every HTML tag and comment with a space. A tag
// starts with "<" and a letter, or "</" and a letter, and runs to the next
// ">" outside quoted attribute values; "<" followed by anything else (a
// space, a digit) is text. A comment runs from "<!--" to "-->", a
// declaration from "<!" to ">". An unterminated tag is left as text.
func removeHTMLTags(s string) string { return spaceOutTags(s, htmlTag) }

// htmlTag returns the byte length of the tag or comment at the start of s,
// or 0 when s does not start with one.
func htmlTag(s string) int {
	if strings.HasPrefix(s, "<!--") {
		if end := strings.Index(s[4:], "-->"); end >= 0 {
			return 4 + end + 3
		}
		return 0
	}
	j := 1
	switch {
	case j < len(s) && s[j] == '!':
		j++
	case j < len(s) && s[j] == '/':
		j++
	}
	if j >= len(s) || !isASCIILetter(s[j]) {
		return 0
	}
	var quote byte
	for ; j < len(s); j++ {
		c := s[j]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			return j + 1
		case c == '<':
			return 0
		}
	}
	return 0
}

// layoutOnly lists the LaTeX commands whose arguments are all layout
// (rules, spacing, colours, labels): the command and every directly
// adjacent [..], (..) or {..} group are removed.
var layoutOnly = map[string]bool{
	"cline": true, "cmidrule": true, "cdashline": true, "hhline": true,
	"addlinespace": true, "specialrule": true, "rule": true,
	"vspace": true, "hspace": true, "setlength": true, "arrayrulecolor": true,
	"rowcolor": true, "columncolor": true, "cellcolor": true, "label": true,
}

// cleanLaTeX removes LaTeX layout syntax; see Clean.
func cleanLaTeX(s string) string {
	if !strings.ContainsAny(s, "\\&{}") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	latexInto(&b, s)
	return b.String()
}

// latexInto writes the cleaned form of s to b.
func latexInto(b *strings.Builder, s string) {
	for i := 0; i < len(s); {
		c := s[i]
		switch c {
		case '&', '{', '}':
			b.WriteByte(' ')
			i++
		case '\\':
			i = latexCommand(b, s, i)
		default:
			b.WriteByte(c)
			i++
		}
	}
}

// latexCommand handles the command starting at s[i] == '\\' and returns the
// index after what it consumed.
func latexCommand(b *strings.Builder, s string, i int) int {
	j := i + 1
	if j >= len(s) {
		b.WriteByte(' ')
		return j
	}
	if !isASCIILetter(s[j]) {
		// A control symbol. \\ ends a row and takes an optional [..]
		// spacing argument; \%, \&, \_, \{ … are removed whole; before a
		// non-ASCII character only the backslash goes.
		b.WriteByte(' ')
		if s[j] == '\\' {
			return skipGroups(s, j+1, "[", 1, adjacent)
		}
		if s[j] >= utf8.RuneSelf {
			return j // not LaTeX: keep the character, drop the backslash
		}
		return j + 1
	}
	for j < len(s) && isASCIILetter(s[j]) {
		j++
	}
	name := s[i+1 : j]
	if j < len(s) && s[j] == '*' {
		j++
	}
	b.WriteByte(' ')
	switch {
	case name == "begin":
		j = skipGroups(s, j, "{", 1, spaced)
		return skipGroups(s, j, "[{", -1, sameLine)
	case name == "end":
		return skipGroups(s, j, "{", 1, spaced)
	case layoutOnly[name]:
		return skipGroups(s, j, "[({", -1, sameLine)
	case name == "multicolumn":
		// \multicolumn{n}{spec}{content}: keep only the content.
		j = skipGroups(s, j, "{", 2, spaced)
		return keepLastGroup(b, s, j)
	case name == "multirow":
		// \multirow[vpos]{n}[bigstruts]{width}[fixup]{content}.
		for k := 0; k < 2; k++ {
			j = skipGroups(s, j, "[", -1, sameLine)
			j = skipGroups(s, j, "{", 1, spaced)
		}
		j = skipGroups(s, j, "[", -1, sameLine)
		return keepLastGroup(b, s, j)
	default:
		// Other commands lose their name and options; their braced
		// arguments are text and stay (the braces become spaces).
		return skipGroups(s, j, "[", -1, adjacent)
	}
}

// keepLastGroup writes the cleaned content of the {..} group at s[j] and
// returns the index after it. Without a group nothing is consumed; an
// unbalanced group keeps the rest of the text.
func keepLastGroup(b *strings.Builder, s string, j int) int {
	if k := skipSpace(s, j, spaced); k < len(s) && s[k] == '{' {
		j = k
	} else {
		return j
	}
	end := matchGroup(s, j)
	if end < 0 {
		b.WriteByte(' ')
		return j + 1
	}
	latexInto(b, s[j+1:end])
	b.WriteByte(' ')
	return end + 1
}

// skipGroups skips up to max (all when max < 0) balanced groups at s[j],
// each opened by one of the bytes in opens ('[', '(' or '{'), and returns
// the index after the last one; gap says what may stand before each
// group. An unbalanced {..} group is skipped to the end of s, so a
// truncated layout argument never leaks; an unbalanced [..] or (..) is
// left as text.
func skipGroups(s string, j int, opens string, max int, gap gapMode) int {
	for n := 0; max < 0 || n < max; n++ {
		k := skipSpace(s, j, gap)
		if k >= len(s) || strings.IndexByte(opens, s[k]) < 0 {
			return j
		}
		end := matchGroup(s, k)
		if end < 0 {
			if s[k] == '{' {
				return len(s)
			}
			return j
		}
		j = end + 1
	}
	return j
}

// gapMode says what may separate a command from its next argument.
type gapMode int

const (
	adjacent gapMode = iota // nothing: the group follows directly
	sameLine                // spaces and tabs
	spaced                  // spaces, tabs and one line break, as LaTeX reads a mandatory argument
)

// skipSpace returns the index after the gap that mode allows at s[j].
func skipSpace(s string, j int, mode gapMode) int {
	if mode == adjacent {
		return j
	}
	newline := false
	for j < len(s) {
		switch s[j] {
		case ' ', '\t', '\r':
			j++
		case '\n':
			if newline || mode != spaced {
				return j
			}
			newline = true
			j++
		default:
			return j
		}
	}
	return j
}

// matchGroup returns the index of the bracket closing the one at s[j],
// counting nesting of the same kind; -1 when it is never closed.
func matchGroup(s string, j int) int {
	open := s[j]
	var close byte
	switch open {
	case '{':
		close = '}'
	case '[':
		close = ']'
	case '(':
		close = ')'
	}
	depth := 0
	for k := j; k < len(s); k++ {
		switch s[k] {
		case '\\':
			k++ // an escaped brace does not count
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}
