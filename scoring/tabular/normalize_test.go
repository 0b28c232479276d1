package tabular

import (
	"strings"
	"testing"

	"github.com/docscore/docscore/rules"
	"github.com/docscore/docscore/scoring/schema"
)

// compileMD parses and compiles a rule file for the default schema with
// every row switched on.
func compileMD(t *testing.T, md string) *rules.Compiled {
	t.Helper()
	f, err := rules.Parse("EQUIVALENCES.md", []byte(md))
	if err != nil {
		t.Fatal(err)
	}
	s := schema.Default()
	if errs := rules.Check(f, s, nil); len(errs) > 0 {
		t.Fatal(errs)
	}
	active, _, err := f.Active(rules.Selection{All: true})
	if err != nil {
		t.Fatal(err)
	}
	return rules.Compile(active, s)
}

func TestBaseNormalization(t *testing.T) {
	md := ignoreRules(
		"place_of_stay | in | leading | model | settled",
		"place_of_stay | detto | anywhere | both | settled",
		"title | don / padre | leading | both | settled",
		"arrival_date | circa | trailing | model | settled",
	) + "\n" + equivRules(
		"place_of_stay, place_of_origin | s. / s / san / sant' / santo | san | settled",
		"place_of_stay | san moise / san moisè | san moisè | settled",
		"place_of_stay | all' ospizio / all ospizio | ospizio | settled",
		"title | ab. / abb. / abate | abate | settled",
		"* | feb. / febr. | february | settled",
	)
	c := compileMD(t, md)
	s := schema.Default()
	kind := func(f string) schema.Kind { return s.Columns[s.Index(f)].Kind }
	tests := []struct {
		field string
		in    string
		gt    bool
		want  string
	}{
		{"title", "Ab.", false, "abate"},       // form "ab." matches the token step 3 left as "ab"
		{"title", "ABB", true, "abate"},        // both sides
		{"title", "Don Ab.", true, "abate"},    // side both: GT too
		{"title", "abate?", true, "abate"},     // GT: one trailing ? stripped before lookup
		{"title", "abate??", true, "abate?"},   // only one
		{"title", "abate?", false, "abate?"},   // model side keeps it
		{"title", "x ? y", true, "x y"},        // a token emptied by step 4 is dropped
		{"title", "x ., y", false, "x y"},      // or by step 3
		{"title", "[Conte]", false, "[conte"},  // trailing ][ stripped, leading kept
		{"title", "d'Este`", false, "d'este`"}, // apostrophes and backticks stay
		{"place_of_stay", "in Casa di Iseppo", false, "casa di iseppo"},
		{"place_of_stay", "in Casa di Iseppo", true, "in casa di iseppo"}, // model-side only
		{"place_of_stay", "in in Casa", false, "in casa"},                 // leading removes one match
		{"place_of_stay", "Casa detto x detto", true, "casa x"},           // anywhere removes every one
		{"place_of_stay", "Sant'Angelo", false, "san angelo"},             // split, then single-token form
		{"place_of_stay", "Sant\u2019Angelo", false, "san angelo"},        // after straightening
		{"place_of_stay", "dell'all'Ospizio", false, "dell' ospizio"},     // every inner apostrophe; multi-token form
		{"place_of_stay", "S. Moise", false, "san moisè"},                 // multi-token runs after single-token
		{"place_of_stay", "all ospizio", false, "ospizio"},
		{"place_of_stay", "l'", false, "l'"},                                // apostrophe at the end: no split
		{"place_of_origin", "San Moise", false, "san moise"},                // row for place_of_stay only
		{"arrival_date", "Feb. 09 1769", false, "february 9 1769"},          // * rows reach dates; zero strip
		{"arrival_date", "February 9 1769 circa", false, "february 9 1769"}, // trailing ignore
		{"departure_date", "febr 1 1769", true, "february 1 1769"},
		{"arrival_date", "0 00 001", false, "0 0 001"},
	}
	// One scratch slice for every value, as the scorer lends it: a value
	// must not see the tokens of the one before.
	scratch := []string{"left", "over", "tokens"}
	for _, tt := range tests {
		got := normalizeField(tt.in, kind(tt.field), c.Fields[tt.field], tt.gt, nil)
		if got != tt.want {
			t.Errorf("%s %q (gt=%v) = %q, want %q", tt.field, tt.in, tt.gt, got, tt.want)
		}
		if lent := normalizeField(tt.in, kind(tt.field), c.Fields[tt.field], tt.gt, &scratch); lent != got {
			t.Errorf("%s %q (gt=%v) with a scratch slice = %q, without %q", tt.field, tt.in, tt.gt, lent, got)
		}
	}
}

func TestOpenRowsInertUnlessPreviewed(t *testing.T) {
	md := equivRules("title | ab. / abate | abate | OPEN")
	gt := []gtRow{{"name": "Anna", "title": "Abate"}}
	recs := rec(map[string]any{"name": "Anna", "title": "Ab."})
	if got := *fieldScore(t, scoreOne(t, gt, recs, md, ""), "title"); got != 1-3.0/5 {
		t.Fatalf("OPEN row applied without preview: title = %v", got)
	}
	if got := *fieldScore(t, scoreOne(t, gt, recs, md, "open"), "title"); got != 1 {
		t.Fatalf("previewed OPEN row not applied: title = %v", got)
	}
	if got := *fieldScore(t, scoreOne(t, gt, recs, md, "5"), "title"); got != 1 {
		t.Fatalf("OPEN row chosen by line not applied: title = %v", got)
	}
}

func TestPreviewReport(t *testing.T) {
	md := equivRules("title | ab. / abate | abate | OPEN", "title | co. / conte | conte | OPEN")
	gt := "name,title\nAnna,Abate\nBruno,Conte\n"
	runs := `{"model":"m","phase":"G","run":1,"page":"1","records":[{"name":"Anna","title":"Ab."},{"name":"Bruno","title":"Co."}]}`
	sch := `{"key":"name","columns":[{"name":"title","kind":"text","blank_gt":"score"}]}`
	req := Request{
		GT: []File{{Name: "gt_page_1.csv", Data: []byte(gt)}}, Runs: File{Name: "r.jsonl", Data: []byte(runs)},
		Rules: &File{Name: "E.md", Data: []byte(md)}, Schema: &File{Name: "s.json", Data: []byte(sch)}, Preview: "5",
	}
	rep, err := ScoreRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Rules.Preview || rep.Preview == nil || len(rep.Preview.Rows) != 1 || rep.Preview.Rows[0].Line != 5 {
		t.Fatalf("preview rows: %+v", rep.Preview)
	}
	d := rep.Preview.Cells[0].Fields[0].Delta
	settled, preview := ((1-3.0/5)+(1-3.0/5))/2, (1+(1-3.0/5))/2
	if *d.Settled != settled || *d.Preview != preview || *d.Delta != preview-settled {
		t.Fatalf("title delta %v → %v (%v), want %v → %v", *d.Settled, *d.Preview, *d.Delta, settled, preview)
	}
	if *rep.Cells[0].Fields[0].Accuracy != preview {
		t.Fatalf("cells do not hold the preview scores")
	}
	req.Preview = "4"
	if _, err := ScoreRequest(req); err == nil {
		t.Fatal("preview of a line with no OPEN row accepted")
	}
}

// TestJoinEqual: two readings are one when they join into the same text,
// tokens with spaces in them included.
func TestJoinEqual(t *testing.T) {
	cases := [][2][]string{
		{{"a", "b"}, {"a", "b"}}, {{"a", "b"}, {"a", "c"}}, {{"a", "b"}, {"a b"}}, {{"a b", "c"}, {"a", "b c"}},
		{{"a"}, {"a", ""}}, {{"", "a"}, {" a"}}, {{"ab"}, {"a", "b"}}, {{}, {""}},
	}
	for _, c := range cases {
		if got, want := joinEqual(c[0], c[1]), strings.Join(c[0], " ") == strings.Join(c[1], " "); got != want {
			t.Errorf("joinEqual(%q, %q) = %v, want %v", c[0], c[1], got, want)
		}
	}
}
