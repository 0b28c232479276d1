package rules

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/schema"
)

// TestParseQuestions covers what the parser must question rather than
// accept in silence (issue 16, defect 4): warnings for a table, a column
// or cells it does not read and for a file without rules, an error for a
// code fence that never closes, and every error of a file in one pass
// (Parse's and Check's together, in line order).
func TestParseQuestions(t *testing.T) {
	const (
		ignoreCols = "| field | token | position | side | status | witness |\n|---|---|---|---|---|---|\n"
		equivCols  = "| field | forms | canonical | status | witness |\n|---|---|---|---|---|\n"
	)
	tests := []struct {
		name     string
		src      string
		rows     []int    // lines of the rows read
		warnings []string // f.Warnings
		errors   []string // Check(f, schema.Default(), nil): Parse's errors and Check's
	}{
		{
			name: "table with unknown column names under an ignore heading",
			src:  "# Rules\n\n## 1. Ignore rules\n\n| fld | tok | pos | sd | st |\n|---|---|---|---|---|\n| name | conte | leading | model | settled |\n",
			warnings: []string{
				`q.md:3: no rule table in the rule sections (expected a table with the columns field, token, position, side, status or field, forms, canonical, status); no rules read`,
				`q.md:5: table in an ignore section lacks the column(s) field, token, position, side, status; not read as rules (unknown column(s) "fld", "tok", "pos", "sd", "st")`,
			},
		},
		{
			name:     "a prose table is left alone while another table is read",
			src:      "## Ignore\n\n| symbol | meaning |\n|---|---|\n| settled | applied |\n\n" + ignoreCols + "| name | conte | leading | model | settled | w |\n",
			rows:     []int{9},
			warnings: nil,
		},
		{
			name: "the only table of the rule sections is prose",
			src:  "## Ignore\n\n| symbol | meaning |\n|---|---|\n| settled | applied |\n",
			warnings: []string{
				`q.md:1: no rule table in the rule sections (expected a table with the columns field, token, position, side, status or field, forms, canonical, status); no rules read; the table(s) at line(s) 3 have none of the rule columns`,
			},
		},
		{
			name: "no rule heading at all",
			src:  "# Notes\n\n" + ignoreCols + "| name | conte | leading | model | settled | w |\n",
			warnings: []string{
				`q.md:1: no rule section: expected a heading with "ignore" or "equivalen" in it, such as "## 1. Ignore rules" or "## 2. Equivalences"; no rules read`,
			},
		},
		{
			name: "an empty file",
			src:  "",
			warnings: []string{
				`q.md:1: no rule section: expected a heading with "ignore" or "equivalen" in it, such as "## 1. Ignore rules" or "## 2. Equivalences"; no rules read`,
			},
		},
		{
			name: "rule headings without a table",
			src:  "# Rules\n\n## 1. Ignore rules\n\nNone yet.\n\n## 2. Equivalences\n\nNone yet.\n",
			warnings: []string{
				`q.md:3: no rule table in the rule sections (expected a table with the columns field, token, position, side, status or field, forms, canonical, status); no rules read`,
			},
		},
		{
			name: "a header of the rule columns and no rows is a rule table",
			src:  "## Ignore\n" + ignoreCols,
		},
		{
			name: "extra cells",
			src: "## Ignore\n" + ignoreCols +
				"| name | conte | leading | model | settled | w | anywhere | both |\n" +
				"| name | il | leading | model | settled | w | |\n" +
				"| name | `a|b` | leading | model | settled | w \\| still the witness |\n",
			rows: []int{4, 5, 6},
			warnings: []string{
				`q.md:4: row has 2 cell(s) more than the header's 6; not read: "anywhere", "both"`,
			},
		},
		{
			name: "extra cells in a block quote",
			src:  "> ## Equivalences\n> " + strings.ReplaceAll(equivCols, "\n", "\n> ") + "| title | ab. | abate | settled | w | extra |\n",
			rows: []int{4},
			warnings: []string{
				`q.md:4: row has 1 cell(s) more than the header's 5; not read: "extra"`,
			},
		},
		{
			name: "unknown, repeated and inapplicable columns of a rule table",
			src:  "## Equivalences\n| field | forms | canonical | status | witness | Notes | token | side |\n|---|---|---|---|---|---|---|---|\n| title | ab. | abate | settled | w | n | t | s |\n",
			rows: []int{4},
			warnings: []string{
				`q.md:2: unknown column(s) "Notes" in an equivalence table (expected field, forms, canonical, status or witness); not read`,
				`q.md:2: column "token" repeats column "forms"; not read`,
				`q.md:2: column "side" does not apply to equivalence rows; not read`,
			},
		},
		{
			name: "a misspelt rule table beside a good one",
			src:  "## Ignore\n" + ignoreCols + "| name | conte | leading | model | settled | w |\n\n| field | tokn | postion | side | status |\n|---|---|---|---|---|\n| name | il | leading | model | settled |\n",
			rows: []int{4},
			warnings: []string{
				`q.md:6: table in an ignore section lacks the column(s) token, position; not read as rules (unknown column(s) "tokn", "postion")`,
			},
		},
		{
			name:   "a code fence never closed",
			src:    "## Ignore\n\n```markdown\nan example\n\n" + ignoreCols + "| name | conte | leading | model | settled | w |\n",
			rows:   []int{8},
			errors: []string{"q.md:3: code fence ``` is never closed: expected a line of exactly ``` before the file ends (a Markdown viewer shows what follows as code)"},
		},
		{
			name:   "a fence closed by a longer one is not closed for the parser",
			src:    "## Ignore\n\n~~~\n" + ignoreCols + "| name | conte | leading | model | settled | w |\n~~~~\n",
			rows:   []int{6},
			errors: []string{"q.md:3: code fence ~~~ is never closed: expected a line of exactly ~~~ before the file ends (a Markdown viewer shows what follows as code)"},
		},
		{
			// The parser lets a fence opened in a quote run on past the
			// quote to a closing line: the rule table is hidden in it.
			name: "a fence in a block quote closed after the quote ends",
			src:  "## Ignore\n\n> ```\n> quoted\n\n" + ignoreCols + "| name | conte | leading | model | settled | w |\n```\n",
			warnings: []string{
				`q.md:1: no rule table in the rule sections (expected a table with the columns field, token, position, side, status or field, forms, canonical, status); no rules read`,
			},
			errors: []string{
				"q.md:3: code fence ``` is never closed: expected a line of exactly ``` before its block quote ends (a Markdown viewer shows what follows as code)",
				"q.md:9: code fence ``` is never closed: expected a line of exactly ``` before the file ends (a Markdown viewer shows what follows as code)",
			},
		},
		{
			name:   "a code fence in a block quote closes before the quote ends",
			src:    "## Ignore\n\n> ```\n> quoted, never closed\n\n" + ignoreCols + "| name | conte | leading | model | settled | w |\n",
			rows:   []int{8},
			errors: []string{"q.md:3: code fence ``` is never closed: expected a line of exactly ``` before its block quote ends (a Markdown viewer shows what follows as code)"},
		},
		{
			name: "closed fences, inline code and fences in comments pass",
			src: "## Ignore\n\n```md\n" + ignoreCols + "| name | fenced | leading | model | settled | w |\n```\n\n" +
				"~~~~\n```\n~~~~\n\n```not a fence``` but inline code\n\n<!-- an example:\n```\n-->\n\n    ```\n    indented code\n\n" +
				"> ```\n> quoted\n> ```\n\n" + ignoreCols + "| name | conte | leading | model | settled | w |\n",
			rows: []int{28},
		},
		{
			name: "every error of the file in one pass: a field on one line, a side on the next",
			src: "## Ignore\n" + ignoreCols +
				"| nome | conte | leading | model | settled | w |\n" +
				"| name | il | leading | nobody | settled | w |\n",
			rows: []int{4},
			errors: []string{
				`q.md:4: unknown field "nome" (expected name, title, arrival_date, departure_date, place_of_stay, place_of_origin, with_spouse, with_siblings, children_count or *) (row: nome | conte | leading | model | settled)`,
				`q.md:5: unknown side "nobody" (expected model or both)`,
			},
		},
		{
			name: "every problem of one row",
			src:  "## Ignore\n" + ignoreCols + "| nome | il /  / lo | first | nobody | draft | w |\n",
			errors: []string{
				`q.md:4: empty form in "il /  / lo" (forms are separated by " / ")`,
				`q.md:4: unknown position "first" (expected leading, trailing or anywhere)`,
				`q.md:4: unknown side "nobody" (expected model or both)`,
				`q.md:4: unknown status "draft" (expected settled or OPEN)`,
				`q.md:4: unknown field "nome" (expected name, title, arrival_date, departure_date, place_of_stay, place_of_origin, with_spouse, with_siblings, children_count or *) (row: nome | il / lo | first | nobody | draft)`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse("q.md", []byte(tt.src))
			if f == nil {
				t.Fatalf("Parse returned no file (error %v)", err)
			}
			var rows []int
			for _, r := range f.Rows {
				rows = append(rows, r.Line)
			}
			if !reflect.DeepEqual(rows, tt.rows) {
				t.Errorf("rows at lines %v, want %v", rows, tt.rows)
			}
			var warnings []string
			for _, w := range f.Warnings {
				warnings = append(warnings, withoutColumn(w))
			}
			if !reflect.DeepEqual(warnings, tt.warnings) {
				t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(warnings, "\n"), strings.Join(tt.warnings, "\n"))
			}
			var errs []string
			for _, e := range Check(f, schema.Default(), nil) {
				errs = append(errs, withoutColumn(e))
			}
			if !reflect.DeepEqual(errs, tt.errors) {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(errs, "\n"), strings.Join(tt.errors, "\n"))
			}
			// Parse reports its own errors (all but Check's "unknown
			// field") as well.
			if (err != nil) != (len(tt.errors) > 0) {
				t.Errorf("Parse error = %v, want one only when there are errors", err)
			}
		})
	}
}

// withoutColumn is an error's first line without its column: these cases
// are about which problems are found; TestRowErrorsPointAtTheCell checks
// the columns and the caret.
func withoutColumn(e *inputerr.Error) string {
	c := *e
	c.Column = 0
	return c.Head()
}

// A row's problem shows its line with a caret under the cell at fault;
// one beyond the header's cells, under the first extra cell.
func TestRowErrorsPointAtTheCell(t *testing.T) {
	src := "## Ignore\n\n| field | token | position | side | status |\n|---|---|---|---|---|\n| nome | il | first | nobody | draft | w |\n"
	f, err := Parse("q.md", []byte(src))
	if f == nil || err == nil {
		t.Fatalf("Parse = %v, %v; want errors", f, err)
	}
	want := []string{
		"q.md:5:15: unknown position \"first\" (expected leading, trailing or anywhere)\n    5 | | nome | il | first | nobody | draft | w |\n      |               ^",
		"q.md:5:23: unknown side \"nobody\" (expected model or both)\n    5 | | nome | il | first | nobody | draft | w |\n      |                       ^",
		"q.md:5:32: unknown status \"draft\" (expected settled or OPEN)\n    5 | | nome | il | first | nobody | draft | w |\n      |                                ^",
	}
	var list inputerr.List
	if !errors.As(err, &list) || len(list) != len(want) {
		t.Fatalf("errors:\n%v\nwant %d", err, len(want))
	}
	for i, e := range list {
		if e.Error() != want[i] {
			t.Errorf("error %d:\n%s\nwant\n%s", i, e.Error(), want[i])
		}
	}
	if len(f.Warnings) != 1 || f.Warnings[0].Column != 40 || !strings.HasSuffix(f.Warnings[0].Error(), "^") {
		t.Errorf("warnings %v: want the extra cell's at column 40, with a caret", f.Warnings)
	}
}
