package tabular_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/tabular"
	"github.com/docscore/docscore/scoring/tabular/tabularreport"
	"github.com/docscore/docscore/scoring/tabular/tabulartest"
	"github.com/docscore/docscore/scoring/text"
)

// TestDetailAgreesWithReport checks, for every image of the sample and of a
// generated corpus, settled and previewed, that the drill-down holds the
// report's pairs, scores, misses and extras.
func TestDetailAgreesWithReport(t *testing.T) {
	sampleReq, err := sample.TabularRequest(true)
	if err != nil {
		t.Fatal(err)
	}
	gt, runs := tabulartest.Generate(tabulartest.Spec{Models: 2, Runs: 2, Pages: 2, Travelers: 12, Phases: []string{"G"}, Seed: 7})
	corpus := tabular.Request{GT: gt, Runs: runs, Rules: sampleReq.Rules}
	noRules, err := sample.TabularRequest(false)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		req     tabular.Request
		preview string
	}{
		{"sample", sampleReq, ""},
		{"sample_preview_open", sampleReq, "open"},
		{"sample_preview_line", sampleReq, "51"},
		{"sample_no_rules", noRules, ""},
		{"corpus", corpus, ""},
		{"corpus_preview", corpus, "open"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := tc.req
			req.Preview = tc.preview
			rep, err := tabular.ScoreRequest(req)
			if err != nil {
				t.Fatal(err)
			}
			failed := 0
			for _, im := range rep.Images {
				d, err := tabular.Detail(req, im.Line)
				if err != nil {
					t.Fatalf("line %d: %v", im.Line, err)
				}
				checkDetail(t, im, d, tc.preview != "")
				if d.Status == "failed" {
					failed++
				}
			}
			if tc.name == "sample" && failed != 1 {
				t.Errorf("sample: %d failed images in the details, want 1", failed)
			}
		})
	}
}

func checkDetail(t *testing.T, im *tabularreport.ImageScore, d *tabular.ImageDetail, preview bool) {
	t.Helper()
	where := fmt.Sprintf("line %d", im.Line)
	if d.Line != im.Line || d.Model != im.Model || d.Phase != im.Phase || string(d.Run) != string(im.Run) || d.Page != im.Page ||
		d.Status != im.Status || d.Failure != im.Failure || d.Preview != preview {
		t.Fatalf("%s: header %+v, report %+v", where, d, im)
	}
	if d.Matched != im.Matched || d.NModel != im.NModel || d.NGT != im.NGT || d.F1 != im.F1 || d.Precision != im.Precision || d.Recall != im.Recall {
		t.Fatalf("%s: counts %d/%d/%d f1 %v, report %d/%d/%d f1 %v", where, d.Matched, d.NModel, d.NGT, d.F1, im.Matched, im.NModel, im.NGT, im.F1)
	}
	if len(d.Pairs) != len(im.Pairs) {
		t.Fatalf("%s: %d pairs, report %d", where, len(d.Pairs), len(im.Pairs))
	}
	for i, p := range im.Pairs {
		dp := d.Pairs[i]
		if dp.Name.GT != p.GT || dp.Name.Model != p.Model || dp.Similarity != p.Similarity || dp.SimilarityGT != p.SimilarityGT ||
			dp.GTIndex != p.GTIndex || dp.ModelIndex != p.ModelIndex || dp.GTLine != p.GTLine ||
			dp.Name.GTResolved != p.GTResolved || dp.Name.ModelReading != p.ModelReading || dp.Name.Edits != p.NameEdits {
			t.Fatalf("%s pair %d: %+v, report %+v", where, i, dp, p)
		}
		checkSpans(t, dp.Name.Diff, dp.Name.GTResolved, dp.Name.ModelReading)
		for j, f := range p.Fields {
			df := dp.Fields[j]
			if df.Name != f.Name || (df.Score == nil) != (f.Score == nil) || (df.Score != nil && *df.Score != *f.Score) {
				t.Fatalf("%s pair %d field %s: score %v, report %v", where, i, f.Name, df.Score, f.Score)
			}
			if df.Score == nil {
				continue
			}
			checkSpans(t, df.Diff, df.GTCompared, df.ModelCompared)
			// A text field's score is the character accuracy of the
			// compared forms; the others are exact matches.
			want := 0.0
			if df.GTCompared == df.ModelCompared {
				want = 1
			}
			if isText(d, df.Name) {
				want = text.CharAccuracy(df.GTCompared, df.ModelCompared)
			}
			if *df.Score != want {
				t.Fatalf("%s pair %d field %s: score %v, but the compared forms %q/%q give %v", where, i, df.Name, *df.Score, df.GTCompared, df.ModelCompared, want)
			}
		}
	}
	var misses, extras []string
	for _, r := range d.Misses {
		misses = append(misses, r.Key)
	}
	for _, r := range d.Extras {
		extras = append(extras, r.Key)
	}
	if !reflect.DeepEqual(nonNil(misses), nonNil(im.UnmatchedGT)) || !reflect.DeepEqual(nonNil(extras), nonNil(im.UnmatchedModel)) {
		t.Fatalf("%s: misses %q extras %q, report %q %q", where, misses, extras, im.UnmatchedGT, im.UnmatchedModel)
	}
}

func isText(d *tabular.ImageDetail, field string) bool {
	for _, c := range d.Columns {
		if c.Name == field {
			return c.Kind.IsText()
		}
	}
	return false
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// checkSpans checks that the spans spell both sides and that non-equal
// spans never hold equal text.
func checkSpans(t *testing.T, spans []tabular.Span, gt, model string) {
	t.Helper()
	var g, m strings.Builder
	for _, s := range spans {
		g.WriteString(s.GT)
		m.WriteString(s.Model)
	}
	if g.String() != gt || m.String() != model {
		t.Fatalf("spans %+v spell %q/%q, want %q/%q", spans, g.String(), m.String(), gt, model)
	}
}

func TestDetailFields(t *testing.T) {
	gt := "name,title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count\n" +
		"Leon q.m. Iacob Tedesco,,February 09 1769,,all'Ospizio,Praga,N,,2\n" +
		"Anzola Benetti,Abate,February 1 1769,,San Geremia,Rovigo,Y,N,0\n" +
		"Zuane Rizzo,,March 3 1769,,San Moisè,Vienna,N,N,1\n"
	runs := "\n" + `{"model": "m", "phase": "G", "run": 1, "page": "27", "records": [` +
		`{"name": "Leon qm Iacob Tedesco", "title": "Conte", "arrival_date": "Febrary 9 1769", "place_of_stay": "all' Ospizio", "with_spouse": false, "children_count": "02"},` +
		`{"name": "Anzola Benetti", "title": "Abate", "with_spouse": "y", "children_count": 1},` +
		`{"name": "Marco Polo", "title": "Messer", "children_count": 3}]}` + "\n"
	req := tabular.Request{
		GT:   []tabular.File{{Name: "gt_page_27.csv", Data: []byte(gt)}},
		Runs: tabular.File{Name: "runs.jsonl", Data: []byte(runs)},
	}
	d, err := tabular.Detail(req, 2)
	if err != nil {
		t.Fatal(err)
	}
	if d.GTFile != "gt_page_27.csv" || d.Key != "name" || len(d.Columns) != 8 || len(d.Pairs) != 2 {
		t.Fatalf("detail %+v", d)
	}
	field := func(p int, name string) tabular.FieldDetail {
		for _, f := range d.Pairs[p].Fields {
			if f.Name == name {
				return f
			}
		}
		t.Fatalf("no field %s", name)
		return tabular.FieldDetail{}
	}
	one, zero := 1.0, 0.0
	cases := []struct {
		pair                   int
		field                  string
		gt, model, gtC, modelC string
		score                  *float64
		diff                   []tabular.Span
	}{
		{0, "title", "", "Conte", "", "conte", &zero, []tabular.Span{{Op: "insert", Model: "conte"}}},
		{0, "arrival_date", "February 09 1769", "Febrary 9 1769", "february 9 1769", "febrary 9 1769", ptr(1 - 1.0/15),
			[]tabular.Span{{Op: "equal", GT: "febr", Model: "febr"}, {Op: "delete", GT: "u"}, {Op: "equal", GT: "ary 9 1769", Model: "ary 9 1769"}}},
		{0, "departure_date", "", "", "", "", nil, []tabular.Span{}},
		{0, "place_of_stay", "all'Ospizio", "all' Ospizio", "all' ospizio", "all' ospizio", &one, []tabular.Span{{Op: "equal", GT: "all' ospizio", Model: "all' ospizio"}}},
		{0, "place_of_origin", "Praga", "", "praga", "", &zero, []tabular.Span{{Op: "delete", GT: "praga"}}},
		{0, "with_spouse", "N", "N", "N", "N", &one, []tabular.Span{{Op: "equal", GT: "N", Model: "N"}}},
		{0, "with_siblings", "", "", "", "", nil, []tabular.Span{}},
		{0, "children_count", "2", "02", "2", "2", &one, []tabular.Span{{Op: "equal", GT: "2", Model: "2"}}},
		{1, "title", "Abate", "Abate", "abate", "abate", &one, []tabular.Span{{Op: "equal", GT: "abate", Model: "abate"}}},
		{1, "with_spouse", "Y", "y", "Y", "Y", &one, []tabular.Span{{Op: "equal", GT: "Y", Model: "Y"}}},
		{1, "children_count", "0", "1", "0", "1", &zero, []tabular.Span{{Op: "replace", GT: "0", Model: "1"}}},
	}
	for _, c := range cases {
		f := field(c.pair, c.field)
		if f.GT != c.gt || f.Model != c.model || f.GTCompared != c.gtC || f.ModelCompared != c.modelC {
			t.Errorf("pair %d %s: values %q/%q compared %q/%q, want %q/%q %q/%q", c.pair, c.field, f.GT, f.Model, f.GTCompared, f.ModelCompared, c.gt, c.model, c.gtC, c.modelC)
		}
		if (f.Score == nil) != (c.score == nil) || (f.Score != nil && *f.Score != *c.score) {
			t.Errorf("pair %d %s: score %v, want %v", c.pair, c.field, f.Score, c.score)
		}
		if !reflect.DeepEqual(f.Diff, c.diff) {
			t.Errorf("pair %d %s: diff %+v, want %+v", c.pair, c.field, f.Diff, c.diff)
		}
	}
	if len(d.Misses) != 1 || d.Misses[0].Key != "Zuane Rizzo" || d.Misses[0].Line != 4 || d.Misses[0].Index != 2 ||
		!reflect.DeepEqual(d.Misses[0].Values, []string{"", "March 3 1769", "", "San Moisè", "Vienna", "N", "N", "1"}) {
		t.Errorf("misses %+v", d.Misses)
	}
	if len(d.Extras) != 1 || d.Extras[0].Key != "Marco Polo" || d.Extras[0].Index != 2 || d.Extras[0].Line != 0 ||
		!reflect.DeepEqual(d.Extras[0].Values, []string{"Messer", "", "", "", "", "", "", "3"}) {
		t.Errorf("extras %+v", d.Extras)
	}
}

func ptr(v float64) *float64 { return &v }

func TestDetailErrors(t *testing.T) {
	gt := []tabular.File{{Name: "gt_page_27.csv", Data: []byte("name,title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count\nAnzola Benetti,,,,,,,,\n")}}
	runs := `{"model": "m", "phase": "G", "run": 1, "page": "27", "records": []}` + "\n\n" +
		`{"model": "m", "page": "99", "records": []}` + "\n" + `{oops` + "\n"
	req := tabular.Request{GT: gt, Runs: tabular.File{Name: "runs.jsonl", Data: []byte(runs)}}
	for _, c := range []struct {
		line    int
		preview string
		want    string // "" for no error
		wantAt  int
	}{
		{1, "", "", 0},
		{0, "", "expected an image on this line", 0},
		{2, "", "expected an image on this line", 2},
		{9, "", "expected an image on this line", 9},
		{3, "", "page 99 has no ground-truth file", 3},
		{4, "", "expected a JSON object (one image per line)", 4},
		{1, "open", "a preview needs a rule file", 0},
	} {
		req.Preview = c.preview
		_, err := tabular.Detail(req, c.line)
		if c.want == "" {
			if err != nil {
				t.Errorf("line %d: %v", c.line, err)
			}
			continue
		}
		e, ok := inputerr.As(err)
		if !ok || !strings.Contains(err.Error(), c.want) || e.Line != c.wantAt {
			t.Errorf("line %d: error %v, want %q at line %d", c.line, err, c.want, c.wantAt)
		}
	}
}

func TestDiff(t *testing.T) {
	for _, c := range []struct {
		gt, model string
		wildcard  bool
		want      []tabular.Span
	}{
		{"", "", false, []tabular.Span{}},
		{"abc", "abc", false, []tabular.Span{{Op: "equal", GT: "abc", Model: "abc"}}},
		{"abc", "", false, []tabular.Span{{Op: "delete", GT: "abc"}}},
		{"", "xy", false, []tabular.Span{{Op: "insert", Model: "xy"}}},
		{"kitten", "sitting", false, []tabular.Span{{Op: "replace", GT: "k", Model: "s"}, {Op: "equal", GT: "itt", Model: "itt"},
			{Op: "replace", GT: "e", Model: "i"}, {Op: "equal", GT: "n", Model: "n"}, {Op: "insert", Model: "g"}}},
		{"nicolò", "nicolo", false, []tabular.Span{{Op: "equal", GT: "nicol", Model: "nicol"}, {Op: "replace", GT: "ò", Model: "o"}}},
		{"an?ola", "anzola", true, []tabular.Span{{Op: "equal", GT: "an?ola", Model: "anzola"}}},
		{"an?ola", "anzola", false, []tabular.Span{{Op: "equal", GT: "an", Model: "an"}, {Op: "replace", GT: "?", Model: "z"}, {Op: "equal", GT: "ola", Model: "ola"}}},
		{"anzola", "an?ola", true, []tabular.Span{{Op: "equal", GT: "an", Model: "an"}, {Op: "replace", GT: "z", Model: "?"}, {Op: "equal", GT: "ola", Model: "ola"}}},
	} {
		got := tabular.Diff(c.gt, c.model, c.wildcard)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("Diff(%q, %q, %v) = %+v, want %+v", c.gt, c.model, c.wildcard, got, c.want)
		}
	}
}

// TestDiffProperties checks on random strings that the spans spell both
// sides, that their cost is the Levenshtein distance and that neighbours
// differ in kind.
func TestDiffProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune("abcò? ")
	randString := func() string {
		r := make([]rune, rng.IntN(12))
		for i := range r {
			r[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(r)
	}
	for i := 0; i < 2000; i++ {
		a, b := randString(), randString()
		spans := tabular.Diff(a, b, false)
		checkSpans(t, spans, a, b)
		cost := 0
		for k, s := range spans {
			if k > 0 && spans[k-1].Op == s.Op {
				t.Fatalf("Diff(%q, %q): neighbouring %s spans", a, b, s.Op)
			}
			switch s.Op {
			case "equal":
				if s.GT != s.Model {
					t.Fatalf("Diff(%q, %q): equal span %+v", a, b, s)
				}
			case "replace":
				cost += len([]rune(s.GT))
				if len([]rune(s.GT)) != len([]rune(s.Model)) {
					t.Fatalf("Diff(%q, %q): uneven replace %+v", a, b, s)
				}
			case "delete":
				cost += len([]rune(s.GT))
			case "insert":
				cost += len([]rune(s.Model))
			}
		}
		if want := text.Levenshtein(a, b); cost != want {
			t.Fatalf("Diff(%q, %q) costs %d, Levenshtein %d: %+v", a, b, cost, want, spans)
		}
	}
}

func ExampleDetail() {
	gt := "name,title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count\n" +
		"Leon q.m. Iacob Tedesco,,February 9 1769,,,,,,\n" +
		"Anzola Benetti,,February 1 1769,,,,,,\n"
	runs := `{"model": "m", "phase": "G", "run": 1, "page": "27", "records": [{"name": "Leon qm Iacob Tedesco", "arrival_date": "Febrary 9 1769"}]}`
	d, err := tabular.Detail(tabular.Request{
		GT:   []tabular.File{{Name: "gt_page_27.csv", Data: []byte(gt)}},
		Runs: tabular.File{Name: "runs.jsonl", Data: []byte(runs)},
	}, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	p := d.Pairs[0]
	fmt.Printf("%s ~ %s (similarity %.2f)\n", p.Name.GT, p.Name.Model, p.Similarity)
	for _, s := range p.Fields[1].Diff {
		fmt.Printf("%s %q %q\n", s.Op, s.GT, s.Model)
	}
	fmt.Println("misses:", d.Misses[0].Key)
	// Output:
	// Leon q.m. Iacob Tedesco ~ Leon qm Iacob Tedesco (similarity 1.00)
	// equal "febr" "febr"
	// delete "u" ""
	// equal "ary 9 1769" "ary 9 1769"
	// misses: Anzola Benetti
}

// TestDetailResponse checks the model's answer a drill-down carries: a
// failed response line's text exactly, a records line's records as
// written, a line with neither none.
func TestDetailResponse(t *testing.T) {
	req, err := sample.TabularRequest(true)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(req.Runs.Data), "\n")
	var line17 struct{ Response string }
	if err := json.Unmarshal([]byte(lines[16]), &line17); err != nil {
		t.Fatal(err)
	}
	d, err := tabular.Detail(req, 17)
	if err != nil {
		t.Fatal(err)
	}
	if d.Status != "failed" || d.Failure != "no JSON array of objects in response" || d.Response != line17.Response || len(d.Response) < 100 {
		t.Fatalf("line 17: status %q failure %q, response of %d bytes (the line's: %d)", d.Status, d.Failure, len(d.Response), len(line17.Response))
	}
	var line2 struct{ Records json.RawMessage }
	if err := json.Unmarshal([]byte(lines[1]), &line2); err != nil {
		t.Fatal(err)
	}
	if d, err = tabular.Detail(req, 2); err != nil {
		t.Fatal(err)
	}
	if d.Status != "ok" || d.Response != string(line2.Records) {
		t.Fatalf("line 2: status %q, response %.80q, want the records as written %.80q", d.Status, d.Response, line2.Records)
	}
	for _, tc := range []struct{ line, want string }{
		{`{"model": "m", "page": "27", "status": "timeout"}`, ""},
		{`{"model": "m", "page": "27", "status": "timeout", "response": "partial [{"}`, "partial [{"},
		{`{"model": "m", "page": "27", "records": null, "response": "say \"hi\""}`, `say "hi"`},
		{`{"model": "m", "page": "27", "response": 42}`, "42"},
	} {
		req.Runs.Data = []byte(tc.line)
		d, err := tabular.Detail(req, 1)
		if err != nil {
			t.Fatalf("%s: %v", tc.line, err)
		}
		if d.Response != tc.want {
			t.Errorf("%s: response %q, want %q", tc.line, d.Response, tc.want)
		}
	}
}
