package inputerr

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// MaxExcerpt is the most characters of a source line Render shows; a
// longer line is cut to a window around the column, marked with "…".
const MaxExcerpt = 100

// Render shows line number n of a file, whose text is source, with a caret
// under column col (1-based, in characters; 0 shows no caret):
//
//	3 | {"id": x}
//	  |        ^
//
// A line longer than [MaxExcerpt] characters is cut to a window around
// the column. Tabs are kept (on both lines, so the caret stays under its
// character); other control characters and bytes that are not UTF-8 show
// as U+FFFD, one per character the column counts; East Asian wide
// characters take two cells of the caret line. A column past the end of
// the line points just after it. The result has no final newline.
func Render(source string, n, col int) string {
	source = strings.TrimSuffix(source, "\r")
	total := utf8.RuneCountInString(source)
	col = min(max(col, 0), total+1) // past the end points just after it
	runes := make([]rune, 0, min(len(source), 4*MaxExcerpt))
	for i := 0; i < len(source); {
		r, size := utf8.DecodeRuneInString(source[i:])
		i += size
		if r == '\t' || !unicode.IsControl(r) && r != utf8.RuneError {
			runes = append(runes, r)
		} else {
			runes = append(runes, utf8.RuneError)
		}
		if len(runes) > col+MaxExcerpt {
			break // the window never reaches further
		}
	}
	start, end := 0, len(runes)
	if end > total {
		end = total
	}
	if total > MaxExcerpt {
		// A window of MaxExcerpt characters holding the column, a third
		// of the way in.
		if col > 0 {
			start = max(0, min(col-1-MaxExcerpt/3, total-MaxExcerpt))
		}
		end = min(start+MaxExcerpt, len(runes))
	}
	var text strings.Builder
	var caret strings.Builder
	if start > 0 {
		text.WriteString("…")
		caret.WriteString(" ")
	}
	for i := start; i < end; i++ {
		r := runes[i]
		text.WriteRune(r)
		if col <= 0 || i >= col-1 {
			continue
		}
		switch {
		case r == '\t':
			caret.WriteByte('\t')
		case unicode.In(r, unicode.Mn, unicode.Me):
			// a combining mark takes no cell
		case wide(r):
			caret.WriteString("  ")
		default:
			caret.WriteByte(' ')
		}
	}
	if end < total {
		text.WriteString("…")
	}
	num := strconv.Itoa(n)
	pad := strings.Repeat(" ", max(5-len(num), 1))
	out := pad + num + " | " + text.String()
	if col > 0 {
		out += "\n" + strings.Repeat(" ", len(pad)+len(num)) + " | " + caret.String() + "^"
	}
	return out
}

// wide reports whether r takes two cells in a terminal.
func wide(r rune) bool {
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return true
	}
	return false
}
