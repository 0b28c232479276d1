// Package doccheck reads the parts of Markdown that the documentation tests
// need: fenced blocks, console examples with their expected output, links
// and heading anchors. The tests themselves are in the docs subpackage:
// they check that every relative link (and #anchor) of README.md and
// docs/*.md resolves, run every ```console example through the command
// line in-process and compare what it prints, and parse every docscore
// command shown in a ```sh block or in a command's --help Example against
// the real command tree.
//
// The agreed forms of a fenced block:
//
//   - ```console: run. A line starting with "$ " is a command (a trailing
//     backslash continues it on the next line); the lines up to the next
//     command are its expected output, standard output and standard error
//     together as a terminal shows them. A line that is only "…" stands for
//     any number of lines (none included). Commands: docscore …, echo $?
//     (the last exit code), cat FILE, cd DIR (inside the repository) and
//     "$ # comment" lines.
//   - ```sh: not run (it needs a network, a model or a long build); every
//     line that starts with "docscore " must name a real command and real
//     flags.
//   - ``` or any other info string: not checked (synopses, JSON, reports).
package doccheck

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// Ellipsis is the line that stands for any number of output lines.
const Ellipsis = "…"

// Block is one fenced code block of a Markdown file.
type Block struct {
	Info  string   // the info string after the opening fence ("console", "sh", …)
	Line  int      // 1-based line of the opening fence
	Lines []string // the lines between the fences
}

// Blocks returns the fenced code blocks of a Markdown text, in order. A
// fence is three or more backticks at the start of a line; it closes at a
// line of at least as many backticks and nothing else. An unclosed block
// runs to the end of the text.
func Blocks(md string) []Block {
	var out []Block
	lines := strings.Split(md, "\n")
	for i := 0; i < len(lines); i++ {
		n := fenceLen(lines[i])
		if n == 0 {
			continue
		}
		b := Block{Info: strings.TrimSpace(lines[i][n:]), Line: i + 1}
		for i++; i < len(lines); i++ {
			if m := fenceLen(lines[i]); m >= n && strings.TrimSpace(lines[i][m:]) == "" {
				break
			}
			b.Lines = append(b.Lines, lines[i])
		}
		out = append(out, b)
	}
	return out
}

// fenceLen is the number of backticks opening line, or 0 when it is no fence.
func fenceLen(line string) int {
	n := 0
	for n < len(line) && line[n] == '`' {
		n++
	}
	if n < 3 {
		return 0
	}
	return n
}

// Step is one command of a console block and the output shown for it.
type Step struct {
	Line    int      // 1-based line of the command in the Markdown file
	Command string   // the command as shown, continuations joined
	Want    []string // the expected output lines
}

// ParseConsole splits a console block into its commands and their expected
// output. Output before the first command is an error.
func ParseConsole(b Block) ([]Step, error) {
	var steps []Step
	for i := 0; i < len(b.Lines); i++ {
		line := b.Lines[i]
		if !strings.HasPrefix(line, "$ ") {
			if len(steps) == 0 {
				return nil, fmt.Errorf("line %d: expected a command starting with \"$ \", got %q", b.Line+1+i, line)
			}
			steps[len(steps)-1].Want = append(steps[len(steps)-1].Want, line)
			continue
		}
		s := Step{Line: b.Line + 1 + i}
		cmd := strings.TrimPrefix(line, "$ ")
		for strings.HasSuffix(cmd, "\\") && i+1 < len(b.Lines) {
			i++
			cmd = strings.TrimRight(strings.TrimSuffix(cmd, "\\"), " ") + " " + strings.TrimSpace(b.Lines[i])
		}
		if strings.TrimSpace(cmd) == "" {
			return nil, fmt.Errorf("line %d: expected a command after \"$ \"", s.Line)
		}
		s.Command = cmd
		steps = append(steps, s)
	}
	return steps, nil
}

// MatchOutput reports whether got matches want, line by line, where an
// Ellipsis line of want matches any number of lines of got. Trailing spaces
// and tabs are ignored on both sides (Markdown editors strip them). When
// they do not match, it returns the 1-based index into want of the first
// line that could not be matched (len(want)+1 when got has lines left over).
func MatchOutput(want, got []string) (ok bool, firstBad int) {
	w := trimAll(want)
	g := trimAll(got)
	best := 0
	failed := map[[2]int]bool{} // (i, j) pairs known not to match
	var match func(i, j int) bool
	match = func(i, j int) bool {
		if failed[[2]int{i, j}] {
			return false
		}
		if i > best {
			best = i
		}
		for i < len(w) && w[i] != Ellipsis {
			if j >= len(g) || w[i] != g[j] {
				return false
			}
			i, j = i+1, j+1
			if i > best {
				best = i
			}
		}
		if i == len(w) {
			return j == len(g)
		}
		for k := j; k <= len(g); k++ { // the ellipsis takes g[j:k]
			if match(i+1, k) {
				return true
			}
			failed[[2]int{i + 1, k}] = true
		}
		return false
	}
	if match(0, 0) {
		return true, 0
	}
	return false, best + 1
}

// Lines splits a command's output into lines, without the final newline's
// empty line; no output is no lines.
func Lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func trimAll(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(l, " \t")
	}
	return out
}

// Link is one Markdown link or image target outside code.
type Link struct {
	Line   int
	Target string
}

var (
	linkRe       = regexp.MustCompile(`\]\(([^()\s]+)(?:\s+"[^"]*")?\)`)
	inlineCodeRe = regexp.MustCompile("`[^`]*`")
)

// Links returns the link and image targets of a Markdown text, leaving out
// fenced code blocks and inline code spans.
func Links(md string) []Link {
	var out []Link
	for i, line := range proseLines(md) {
		for _, m := range linkRe.FindAllStringSubmatch(inlineCodeRe.ReplaceAllString(line, ""), -1) {
			out = append(out, Link{Line: i + 1, Target: m[1]})
		}
	}
	return out
}

// proseLines returns the lines of md with every line of a fenced code
// block (fences included) blanked, so indexes stay line numbers - 1.
func proseLines(md string) []string {
	lines := strings.Split(md, "\n")
	for _, b := range Blocks(md) {
		for k := b.Line - 1; k <= b.Line+len(b.Lines) && k < len(lines); k++ {
			lines[k] = ""
		}
	}
	return lines
}

// Anchors returns the anchors GitHub gives the headings of a Markdown text:
// lower case, spaces to hyphens, punctuation other than - and _ dropped, a
// repeated heading numbered -1, -2, ….
func Anchors(md string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, line := range proseLines(md) {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		slug := b.String()
		if n := seen[slug]; n > 0 {
			out[fmt.Sprintf("%s-%d", slug, n)] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
	}
	return out
}
