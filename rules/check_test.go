package rules

import (
	"reflect"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/schema"
)

const (
	ignoreHeader = "## Ignore rules\n| field | token | position | side | status | witness |\n|---|---|---|---|---|---|\n"
	equivHeader  = "## Equivalences\n| field | forms | canonical | status | witness |\n|---|---|---|---|---|\n"
)

// ruleFile builds a rule file whose first row is at line 4: a heading, a
// header and a delimiter row, then one row per line.
func ruleFile(header string, rows ...string) string {
	return header + strings.Join(rows, "\n") + "\n"
}

func mustParse(t *testing.T, src string) *File {
	t.Helper()
	f, err := Parse("check.md", []byte(src))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return f
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name string
		src  string
		gt   map[string][]string
		want []string
	}{
		{
			name: "known fields pass",
			src: ruleFile(equivHeader,
				"| title | ab. / abate | abate | settled | w |",
				"| place_of_stay, place_of_origin | s. / san | san | settled | w |",
				"| arrival_date, departure_date | feb. / february | february | OPEN | w |"),
		},
		{
			name: "unknown field",
			src:  ruleFile(equivHeader, "| titel | ab. | abate | settled | w |"),
			want: []string{`check.md:4:3: unknown field "titel" (expected name, title, arrival_date, departure_date, place_of_stay, place_of_origin, with_spouse, with_siblings, children_count or *) (row: titel | ab. | abate | settled)`},
		},
		{
			name: "unknown field in a list",
			src:  ruleFile(ignoreHeader, "| title, plaec_of_stay | in | leading | model | settled | w |"),
			want: []string{`check.md:4:10: unknown field "plaec_of_stay" (expected name, title, arrival_date, departure_date, place_of_stay, place_of_origin, with_spouse, with_siblings, children_count or *) (row: title, plaec_of_stay | in | leading | model | settled)`},
		},
		{
			name: "star covers title: a conflicting title row is caught",
			src: ruleFile(equivHeader,
				"| * | ab. | abate | settled | w |",
				"| title | ab. | abbot | settled | w |"),
			want: []string{`check.md:5:11: form "ab." of field title maps to "abbot" here and to "abate" at line 4 (row: title | ab. | abbot | settled)`},
		},
		{
			name: "star covers every text field and neither the key nor yes/no columns",
			src:  ruleFile(ignoreHeader, "| * | in | leading | model | settled | w |"),
			gt: map[string][]string{
				"name":            {"In Bianchi"},
				"with_spouse":     {"in"},
				"title":           {"Nobile"},
				"arrival_date":    {"in February 1769"},
				"departure_date":  {"March 1 1769"},
				"place_of_stay":   {"Casa di Pietro in Ghetto"},
				"place_of_origin": {"In Vienna"},
			},
			want: []string{
				`check.md:4:7: model-side ignore "in" (leading) of field arrival_date matches the ground truth "in February 1769": it would split identical pairs (row: * | in | leading | model | settled)`,
				`check.md:4:7: model-side ignore "in" (leading) of field place_of_origin matches the ground truth "In Vienna": it would split identical pairs (row: * | in | leading | model | settled)`,
			},
		},
		{
			name: "equivalence on the key field",
			src:  ruleFile(equivHeader, "| name | co. / conte | conte | settled | w |"),
			want: []string{`check.md:4:3: equivalences do not apply to the key field name (only ignore rows do) (row: name | co. / conte | conte | settled)`},
		},
		{
			name: "ignore on the key field",
			src:  ruleFile(ignoreHeader, "| name | conte / co. | leading | model | settled | w |"),
		},
		{
			name: "rule on a yes/no column",
			src:  ruleFile(equivHeader, "| with_spouse | si / yes | Y | settled | w |"),
			want: []string{`check.md:4:3: field with_spouse is of kind yesno; rules apply only to text, date and place columns and to name (row: with_spouse | si / yes | Y | settled)`},
		},
		{
			name: "rule on an integer column",
			src:  ruleFile(ignoreHeader, "| title, children_count | circa | anywhere | both | settled | w |"),
			want: []string{`check.md:4:10: field children_count is of kind integer; rules apply only to text, date and place columns and to name (row: title, children_count | circa | anywhere | both | settled)`},
		},
		{
			name: "a form mapped to two canonicals names both lines",
			src: ruleFile(equivHeader,
				"| title | ab. / abate | abate | settled | w |",
				"| title | co. / conte | conte | settled | w |",
				"| title | Ab / abbas | abbot | OPEN | w |"),
			want: []string{`check.md:6:11: form "Ab" of field title maps to "abbot" here and to "abate" at line 4 (row: title | Ab / abbas | abbot | OPEN)`},
		},
		{
			name: "the same form to the same canonical twice, or in other fields, is no conflict",
			src: ruleFile(equivHeader,
				"| title | ab. / abate | abate | settled | w |",
				"| title | ab | Abate | settled | w |",
				"| place_of_stay | ab. | abbazia | settled | w |",
				"| place_of_stay | san moise | San  Moisè | settled | w |",
				"| place_of_stay | s. moise | san moisè | settled | w |"),
		},
		{
			name: "forms and canonicals empty after normalization",
			src: ruleFile(equivHeader,
				"| title | . / ab. | abate | settled | w |",
				"| title | co. | ; | settled | w |") + "\n" + ruleFile(ignoreHeader,
				"| name | ... | leading | model | settled | w |"),
			want: []string{
				`check.md:4:11: form "." is empty after normalization (row: title | . / ab. | abate | settled)`,
				`check.md:5:17: canonical ";" is empty after normalization (row: title | co. | ; | settled)`,
				`check.md:10:10: token "..." is empty after normalization (row: name | ... | leading | model | settled)`,
			},
		},
		{
			name: "model-side leading ignore on a GT value that starts with it",
			src:  ruleFile(ignoreHeader, "| place_of_stay | in | leading | model | settled | w |"),
			gt:   map[string][]string{"place_of_stay": {"Locanda del Cappello Nero", "In casa di Pietro"}},
			want: []string{`check.md:4:19: model-side ignore "in" (leading) of field place_of_stay matches the ground truth "In casa di Pietro": it would split identical pairs (row: place_of_stay | in | leading | model | settled)`},
		},
		{
			name: "the same token elsewhere in the GT value is no error",
			src: ruleFile(ignoreHeader,
				"| place_of_stay | in | leading | model | settled | w |",
				"| place_of_origin | da | trailing | model | settled | w |"),
			gt: map[string][]string{
				"place_of_stay":   {"Casa di Pietro in Ghetto", "Ospizio degli Armeni"},
				"place_of_origin": {"da Vienna", "Napoli da Romania"},
			},
		},
		{
			name: "trailing and anywhere ignores fire at their position",
			src: ruleFile(ignoreHeader,
				"| place_of_origin | da | trailing | model | settled | w |",
				"| place_of_stay | in | anywhere | model | OPEN | w |"),
			gt: map[string][]string{
				"place_of_origin": {"Vienna", "Napoli da"},
				"place_of_stay":   {"Casa di Pietro in Ghetto"},
			},
			want: []string{
				`check.md:4:21: model-side ignore "da" (trailing) of field place_of_origin matches the ground truth "Napoli da": it would split identical pairs (row: place_of_origin | da | trailing | model | settled)`,
				`check.md:5:19: model-side ignore "in" (anywhere) of field place_of_stay matches the ground truth "Casa di Pietro in Ghetto": it would split identical pairs (row: place_of_stay | in | anywhere | model | OPEN)`,
			},
		},
		{
			name: "name ignores are tested on normalized GT names, multi-token forms as sequences",
			src: ruleFile(ignoreHeader,
				"| name | conte / co. | leading | model | settled | w |",
				"| name | da venezia | trailing | model | OPEN | w |"),
			gt: map[string][]string{"name": {"Nicolò Conte", "Co. Nicolò Valier", "Venezia da Marco", "Marco da  Venezia."}},
			want: []string{
				`check.md:4:18: model-side ignore "co." (leading) of field name matches the ground truth "Co. Nicolò Valier": it would split identical pairs (row: name | conte / co. | leading | model | settled)`,
				`check.md:5:10: model-side ignore "da venezia" (trailing) of field name matches the ground truth "Marco da  Venezia.": it would split identical pairs (row: name | da venezia | trailing | model | OPEN)`,
			},
		},
		{
			name: "side both is never an error",
			src: ruleFile(ignoreHeader,
				"| place_of_stay | in | leading | both | settled | w |",
				"| name | conte | anywhere | both | settled | w |",
				"| * | circa | anywhere | both | OPEN | w |"),
			gt: map[string][]string{
				"place_of_stay": {"In casa di Pietro circa"},
				"name":          {"Conte Nicolò Valier"},
				"title":         {"circa"},
			},
		},
		{
			name: "without GT no model-side ignore is checked against values",
			src:  ruleFile(ignoreHeader, "| place_of_stay | in | leading | model | settled | w |"),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := mustParse(t, tt.src)
			errs := Check(f, schema.Default(), tt.gt)
			var got []string
			for _, e := range errs {
				got = append(got, e.Head())
				// Every error shows its row with a caret under the cell
				// at fault (checked to start with the text it names).
				if e.Source == "" || e.Column == 0 || e.Error() != e.Head()+"\n"+inputerr.Render(e.Source, e.Line, e.Column) {
					t.Errorf("%s: no source line and caret: %q", e.Head(), e.Error())
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Check errors:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestCheckCustomSchema checks that fields and kinds come from the schema.
func TestCheckCustomSchema(t *testing.T) {
	s := &schema.Schema{Key: "item", Columns: []schema.Column{
		{Name: "vendor", Kind: schema.Text},
		{Name: "city", Kind: schema.Place},
		{Name: "qty", Kind: schema.Integer},
	}}
	src := ruleFile(ignoreHeader,
		"| item | the | leading | model | settled | w |",
		"| * | ltd | trailing | model | settled | w |",
		"| title | ab. | leading | model | settled | w |",
		"| qty | ca. | leading | model | settled | w |")
	errs := Check(mustParse(t, src), s, map[string][]string{"city": {"Ltd"}, "vendor": {"Acme Ltd."}})
	var got []string
	for _, e := range errs {
		got = append(got, e.Head())
	}
	want := []string{
		`check.md:5:7: model-side ignore "ltd" (trailing) of field vendor matches the ground truth "Acme Ltd.": it would split identical pairs (row: * | ltd | trailing | model | settled)`,
		`check.md:5:7: model-side ignore "ltd" (trailing) of field city matches the ground truth "Ltd": it would split identical pairs (row: * | ltd | trailing | model | settled)`,
		`check.md:6:3: unknown field "title" (expected item, vendor, city, qty or *) (row: title | ab. | leading | model | settled)`,
		`check.md:7:3: field qty is of kind integer; rules apply only to text, date and place columns and to item (row: qty | ca. | leading | model | settled)`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Check errors:\n got %q\nwant %q", got, want)
	}
}

func TestParseSelection(t *testing.T) {
	tests := []struct {
		in      string
		want    Selection
		wantErr bool
	}{
		{in: "", want: Selection{}},
		{in: "  ", want: Selection{}},
		{in: "open", want: Selection{All: true}},
		{in: "OPEN", want: Selection{All: true}},
		{in: " all ", want: Selection{All: true}},
		{in: "12", want: Selection{Lines: []int{12}}},
		{in: "15, 12", want: Selection{Lines: []int{12, 15}}},
		{in: "L15,L12", want: Selection{Lines: []int{12, 15}}},
		{in: "x", wantErr: true},
		{in: "0", wantErr: true},
		{in: "-3", wantErr: true},
		{in: "12,", wantErr: true},
		{in: "12,,13", wantErr: true},
		{in: "open,12", wantErr: true},
		{in: "1.5", wantErr: true},
	}
	for _, tt := range tests {
		got, err := ParseSelection(tt.in)
		if tt.wantErr {
			want := `preview "` + strings.TrimSpace(tt.in) + `": expected "open" or a comma-separated list of OPEN rows' line numbers`
			if err == nil || err.Error() != want {
				t.Errorf("ParseSelection(%q) = %+v, %v; want error %q", tt.in, got, err, want)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseSelection(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
		if got.IsZero() != (tt.in == "" || strings.TrimSpace(tt.in) == "") {
			t.Errorf("ParseSelection(%q).IsZero() = %v", tt.in, got.IsZero())
		}
	}
}

// activeSrc has settled rows at lines 5 and 13 and OPEN rows at 6, 7, 14.
const activeSrc = `## Ignore rules

| field | token | position | side | status | witness |
|---|---|---|---|---|---|
| name | conte | leading | model | settled | w |
| name | il | leading | model | OPEN | w |
| name | la | leading | model | OPEN | w |

## Equivalences

| field | forms | canonical | status | witness |
|---|---|---|---|---|
| title | ab. / abate | abate | settled | w |
| title | co. / conte | conte | OPEN | w |
`

func TestActive(t *testing.T) {
	f := mustParse(t, activeSrc)
	tests := []struct {
		name          string
		sel           string
		active, shown []int
		err           string
	}{
		{name: "no preview", sel: "", active: []int{5, 13}},
		{name: "every OPEN row", sel: "open", active: []int{5, 6, 7, 13, 14}, shown: []int{6, 7, 14}},
		{name: "one OPEN row", sel: "14", active: []int{5, 13, 14}, shown: []int{14}},
		{name: "two OPEN rows, in file order", sel: "14,6", active: []int{5, 6, 13, 14}, shown: []int{6, 14}},
		{name: "a settled row", sel: "5", err: "check.md:5: no OPEN row at line 5 to preview (OPEN rows are at lines 6, 7, 14)"},
		{name: "a header line", sel: "6,3", err: "check.md:3: no OPEN row at line 3 to preview (OPEN rows are at lines 6, 7, 14)"},
		{name: "past the end", sel: "7,99", err: "check.md:99: no OPEN row at line 99 to preview (OPEN rows are at lines 6, 7, 14)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := ParseSelection(tt.sel)
			if err != nil {
				t.Fatal(err)
			}
			active, shown, err := f.Active(sel)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("Active(%q) error = %v, want %q", tt.sel, err, tt.err)
				}
				if active != nil || shown != nil {
					t.Errorf("Active returned rows along with its error")
				}
				return
			}
			if err != nil {
				t.Fatalf("Active(%q): %v", tt.sel, err)
			}
			if got := rowLines(active); !reflect.DeepEqual(got, tt.active) {
				t.Errorf("active lines = %v, want %v", got, tt.active)
			}
			if got := rowLines(shown); !reflect.DeepEqual(got, tt.shown) {
				t.Errorf("previewed lines = %v, want %v", got, tt.shown)
			}
			for _, r := range shown {
				if r.Status != Open {
					t.Errorf("previewed row at line %d is %s", r.Line, r.Status)
				}
			}
		})
	}
}

// TestActiveWithoutOpenRows checks the message when a file has no OPEN
// row at all.
func TestActiveWithoutOpenRows(t *testing.T) {
	f := mustParse(t, ruleFile(ignoreHeader, "| name | conte | leading | model | settled | w |"))
	_, _, err := f.Active(Selection{Lines: []int{4}})
	want := "check.md:4: no OPEN row at line 4 to preview (the file has no OPEN rows)"
	if err == nil || err.Error() != want {
		t.Errorf("Active error = %v, want %q", err, want)
	}
	active, shown, err := f.Active(Selection{All: true})
	if err != nil || len(active) != 1 || len(shown) != 0 {
		t.Errorf("Active(all) = %d active, %d previewed, %v; want 1, 0, nil", len(active), len(shown), err)
	}
}

func rowLines(rows []Row) []int {
	var out []int
	for _, r := range rows {
		out = append(out, r.Line)
	}
	return out
}

// TestCheckCaretFollowsTheHeader: a table whose columns are in another
// order has its carets under the cells its header names.
func TestCheckCaretFollowsTheHeader(t *testing.T) {
	src := "## Equivalences\n| canonical | status | forms | field | witness |\n|---|---|---|---|---|\n" +
		"| abate | settled | ab. | titel | w |\n" +
		"| abate | settled | ab. | title | w |\n" +
		"| abbot | settled | ab. | title | w |\n"
	errs := Check(mustParse(t, src), schema.Default(), nil)
	want := []string{
		"check.md:4:27: unknown field \"titel\"",
		"check.md:6:21: form \"ab.\" of field title maps to \"abbot\"",
	}
	if len(errs) != len(want) {
		t.Fatalf("errors %v, want %d", errs, len(want))
	}
	for i, e := range errs {
		if !strings.HasPrefix(e.Head(), want[i]) {
			t.Errorf("error %d = %q, want it to start %q", i, e.Head(), want[i])
		}
	}
}
