package tabular

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/docscore/docscore/rules"
	"github.com/docscore/docscore/scoring/tabular/tabularreport"
	"github.com/docscore/docscore/scoring/text"
)

func ptr(v float64) *float64 { return &v }

func TestSeedWorkedExamples(t *testing.T) {
	tests := []struct {
		name     string
		gt       string
		model    string
		matched  bool
		sim      float64
		edits    int
		refChars int
		resolved string
	}{
		// Quondam forms collapse to one short canonical.
		{"quondam", "Leon q.m. Iacob Tedesco", "Leon qm Iacob Tedesco", true, 1, 0, 21, "leon qm iacob tedesco"},
		{"quondam long form", "Leon quondam Iacob Tedesco", "Leon q. Iacob Tedesco", true, 1, 0, 21, "leon qm iacob tedesco"},
		// A GT '?' asserts a glyph: reading none pays a deletion.
		{"wildcard deletion", "Francesco Kin?gsech", "Francesco Kingsech", true, 18.0 / 18.5 / 1, 1, 19, "francesco kinngsech"},
		// Reading a letter where the verifier could not costs nothing.
		{"wildcard read", "Francesco Kin?gsech", "Francesco Kinzgsech", true, 1, 0, 19, "francesco kinzgsech"},
		// A model '?' is a literal character (a hedge, not a wildcard).
		{"model hedge literal", "Pavel Rossi", "Pavel Rossi (?)", true, 2.0 * 11 / 24, 2, 11, "pavel rossi"},
		{"model ? substitutes", "Pavel", "Pav?l", true, 0.8, 1, 5, "pavel"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			im := scoreOne(t, []gtRow{{"name": tt.gt}}, rec(map[string]any{"name": tt.model}), "", "")
			if !tt.matched {
				if im.Matched != 0 {
					t.Fatalf("matched %d, want 0", im.Matched)
				}
				return
			}
			if im.Matched != 1 {
				t.Fatalf("matched %d, want 1 (unmatched %v)", im.Matched, im.UnmatchedModel)
			}
			p := im.Pairs[0]
			want := tt.sim
			if tt.name == "wildcard deletion" {
				want = text.Ratio("francesco kinngsech", "francesco kingsech")
			}
			if p.Similarity != want {
				t.Errorf("similarity = %v, want %v", p.Similarity, want)
			}
			if p.NameEdits != tt.edits || p.NameRefChars != tt.refChars {
				t.Errorf("CER = %d/%d, want %d/%d", p.NameEdits, p.NameRefChars, tt.edits, tt.refChars)
			}
			if p.GTResolved != tt.resolved {
				t.Errorf("resolved = %q, want %q", p.GTResolved, tt.resolved)
			}
		})
	}
}

func TestSeedFieldExamples(t *testing.T) {
	gt := func(f map[string]string) []gtRow {
		r := gtRow{"name": "Karl Müller"}
		for k, v := range f {
			r[k] = v
		}
		return []gtRow{r}
	}
	model := func(f map[string]any) string {
		m := map[string]any{"name": "Karl Müller"}
		for k, v := range f {
			m[k] = v
		}
		return rec(m)
	}
	tests := []struct {
		name  string
		field string
		gt    map[string]string
		model map[string]any
		want  *float64 // nil: unscorable
	}{
		// Dates: day leading zero stripped on both sides.
		{"date zero strip", "arrival_date", map[string]string{"arrival_date": "February 9 1769"}, map[string]any{"arrival_date": "February 09 1769"}, ptr(1)},
		{"date zero strip gt", "arrival_date", map[string]string{"arrival_date": "February 09 1769"}, map[string]any{"arrival_date": "February 9 1769"}, ptr(1)},
		{"date day-first differs", "arrival_date", map[string]string{"arrival_date": "February 9 1769"}, map[string]any{"arrival_date": "9 February 1769"}, ptr(1 - float64(text.Levenshtein("february 9 1769", "9 february 1769"))/15)},
		{"date three digits untouched", "arrival_date", map[string]string{"arrival_date": "February 9 1769"}, map[string]any{"arrival_date": "February 009 1769"}, ptr(1 - 2.0/15)},
		{"date blank gt unscorable", "departure_date", map[string]string{}, map[string]any{"departure_date": "March 1 1769"}, nil},
		// Title: blank GT is scored, unlike every other field.
		{"blank title, blank model", "title", map[string]string{}, map[string]any{"title": ""}, ptr(1)},
		{"blank title, missing model", "title", map[string]string{}, map[string]any{}, ptr(1)},
		{"blank title, supplied title", "title", map[string]string{}, map[string]any{"title": "Conte"}, ptr(0)},
		{"blank title, whitespace model", "title", map[string]string{"title": "  "}, map[string]any{"title": " \t"}, ptr(1)},
		{"title char accuracy", "title", map[string]string{"title": "Abate"}, map[string]any{"title": "Abbate"}, ptr(0.8)},
		{"title normalizes to empty", "title", map[string]string{"title": "."}, map[string]any{"title": ""}, ptr(1)},
		{"title normalizes to empty, model text", "title", map[string]string{"title": "."}, map[string]any{"title": "x"}, ptr(0)},
		{"title accents kept", "title", map[string]string{"title": "Abbé"}, map[string]any{"title": "Abbe"}, ptr(0.75)},
		{"title courtesy form is wrong", "title", map[string]string{"title": ""}, map[string]any{"title": "Signor"}, ptr(0)},
		// Yes/no: exact after trim and upper-case; booleans map to Y/N.
		{"yes/no exact", "with_spouse", map[string]string{"with_spouse": "Y"}, map[string]any{"with_spouse": "Y"}, ptr(1)},
		{"yes/no case", "with_spouse", map[string]string{"with_spouse": "N"}, map[string]any{"with_spouse": " n "}, ptr(1)},
		{"yes/no bool false", "with_siblings", map[string]string{"with_siblings": "N"}, map[string]any{"with_siblings": false}, ptr(1)},
		{"yes/no bool true", "with_siblings", map[string]string{"with_siblings": "N"}, map[string]any{"with_siblings": true}, ptr(0)},
		{"yes/no missing model", "with_siblings", map[string]string{"with_siblings": "N"}, map[string]any{}, ptr(0)},
		{"yes/no blank gt", "with_spouse", map[string]string{}, map[string]any{"with_spouse": "Y"}, nil},
		// children_count: integers from literals or integral numbers.
		{"integer number", "children_count", map[string]string{"children_count": "2"}, map[string]any{"children_count": 2}, ptr(1)},
		{"integer 2.0", "children_count", map[string]string{"children_count": "2"}, map[string]any{"children_count": 2.0}, ptr(1)},
		{"integer leading zeros", "children_count", map[string]string{"children_count": " 02 "}, map[string]any{"children_count": "2"}, ptr(1)},
		{"integer wrong", "children_count", map[string]string{"children_count": "2"}, map[string]any{"children_count": 3}, ptr(0)},
		{"integer 2.5", "children_count", map[string]string{"children_count": "2"}, map[string]any{"children_count": 2.5}, ptr(0)},
		{"integer string 2.0 is not an integer literal", "children_count", map[string]string{"children_count": "2"}, map[string]any{"children_count": "2.0"}, ptr(0)},
		{"non-integer gt compared as string", "children_count", map[string]string{"children_count": "2?"}, map[string]any{"children_count": "2? "}, ptr(1)},
		{"integer array is blank", "children_count", map[string]string{"children_count": "2"}, map[string]any{"children_count": []int{2}}, ptr(0)},
		{"integer blank gt", "children_count", map[string]string{}, map[string]any{"children_count": 1}, nil},
		// Places: elided articles split at the apostrophe; trailing '?'.
		{"place typographic apostrophe", "place_of_stay", map[string]string{"place_of_stay": "all'Ospizio"}, map[string]any{"place_of_stay": "all\u2019Ospizio"}, ptr(1)},
		{"place gt lookup aid", "place_of_origin", map[string]string{"place_of_origin": "Lubiana?"}, map[string]any{"place_of_origin": "Lubiana"}, ptr(1)},
		{"place model ? literal", "place_of_origin", map[string]string{"place_of_origin": "Lubiana"}, map[string]any{"place_of_origin": "Lubiana?"}, ptr(1 - 1.0/7)},
		{"place trailing punctuation", "place_of_origin", map[string]string{"place_of_origin": "Napoli di Romania"}, map[string]any{"place_of_origin": "Napoli, di Romania."}, ptr(1)},
		{"place misreading not rescued", "place_of_stay", map[string]string{"place_of_stay": "Feltrina"}, map[string]any{"place_of_stay": "Pestiora"}, ptr(1 - float64(text.Levenshtein("feltrina", "pestiora"))/8)},
		{"place blank gt", "place_of_stay", map[string]string{}, map[string]any{"place_of_stay": "San Marco"}, nil},
		{"place blank model", "place_of_stay", map[string]string{"place_of_stay": "San Marco"}, map[string]any{"place_of_stay": nil}, ptr(0)},
		{"place number value", "place_of_stay", map[string]string{"place_of_stay": "12"}, map[string]any{"place_of_stay": 12}, ptr(1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			im := scoreOne(t, gt(tt.gt), model(tt.model), "", "")
			got := fieldScore(t, im, tt.field)
			switch {
			case tt.want == nil && got != nil:
				t.Fatalf("%s = %v, want unscorable", tt.field, *got)
			case tt.want != nil && got == nil:
				t.Fatalf("%s unscorable, want %v", tt.field, *tt.want)
			case tt.want != nil && math.Abs(*got-*tt.want) > 1e-12:
				t.Fatalf("%s = %v, want %v", tt.field, *got, *tt.want)
			}
		})
	}
}

func TestDecisionArgumentOrder(t *testing.T) {
	// ratio("babna", "baaba") = 0.8 but ratio("baaba", "babna") = 0.6: the
	// GT is difflib's a, the model reading its b.
	if text.Ratio("babna", "baaba") != 0.8 || text.Ratio("baaba", "babna") != 0.6 {
		t.Fatalf("fixture is not asymmetric")
	}
	im := scoreOne(t, []gtRow{{"name": "babna"}}, rec(map[string]any{"name": "baaba"}), "", "")
	if im.Matched != 1 || im.Pairs[0].Similarity != 0.8 {
		t.Fatalf("GT babna vs model baaba: matched %d", im.Matched)
	}
	im = scoreOne(t, []gtRow{{"name": "baaba"}}, rec(map[string]any{"name": "babna"}), "", "")
	if im.Matched != 0 {
		t.Fatalf("GT baaba vs model babna matched with similarity %v, want under the gate (0.6)", im.Pairs[0].Similarity)
	}
}

func TestDecisionWildcardAlignment(t *testing.T) {
	var w text.WildcardAligner
	tests := []struct {
		gt, model, resolved string
		dist                int
	}{
		{"bello?to", "belloto", "bellooto", 1},    // diagonal preferred: ? takes the o, the GT o is deleted
		{"kin?gsech", "kingsech", "kinngsech", 1}, // a glyph read as nothing still costs its deletion
		{"kin?gsech", "kinzgsech", "kinzgsech", 0},
		{"?lelingen", "flelingen", "flelingen", 0},
		{"a??", "a", "a?a", 2}, // the diagonal is preferred: the last ? takes the a
		{"ab", "a?", "ab", 1},  // a model ? is literal
		{"?", "", "?", 1},
		{"", "x", "", 1},
	}
	for _, tt := range tests {
		got := string(w.Resolve([]rune(tt.gt), []rune(tt.model)))
		if got != tt.resolved {
			t.Errorf("Resolve(%q, %q) = %q, want %q", tt.gt, tt.model, got, tt.resolved)
		}
		if d := w.Distance([]rune(tt.gt), []rune(tt.model)); d != tt.dist {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.gt, tt.model, d, tt.dist)
		}
	}
}

func TestDecisionMonotone(t *testing.T) {
	// Resolving "ababa?a" against "aaaa" gives "ababaaa" (ratio 0.545); the
	// GT as written scores 0.727: the larger one counts.
	im := scoreOne(t, []gtRow{{"name": "ababa?a"}}, rec(map[string]any{"name": "aaaa"}), "", "")
	if im.Matched != 1 {
		t.Fatalf("not matched; the GT as written clears the gate")
	}
	p := im.Pairs[0]
	if p.SimilarityGT != "written" || p.Similarity != text.Ratio("ababa?a", "aaaa") {
		t.Fatalf("similarity %v from %s, want %v from written", p.Similarity, p.SimilarityGT, text.Ratio("ababa?a", "aaaa"))
	}
	// CER always uses the resolved GT.
	if p.GTResolved != "ababaaa" {
		t.Fatalf("resolved %q", p.GTResolved)
	}
}

func TestDecisionReadings(t *testing.T) {
	ig := []rules.IgnoreRule{
		{Forms: [][]string{{"conte"}, {"contessa"}}, Position: rules.Leading},
		{Forms: [][]string{{"il"}, {"la"}}, Position: rules.Leading},
		{Forms: [][]string{{"da", "venezia"}}, Position: rules.Trailing},
		{Forms: [][]string{{"detto"}}, Position: rules.Anywhere},
	}
	tests := []struct {
		name string
		want []string
	}{
		{"il conte x", []string{"il conte x", "conte x", "x"}},
		{"conte il x", []string{"conte il x", "il x", "x"}},
		{"x da venezia", []string{"x da venezia", "x"}},
		{"conte", []string{"conte"}}, // the empty reading is dropped
		{"a detto b detto c", []string{"a detto b detto c", "a b detto c", "a detto b c", "a b c"}},
	}
	for _, tt := range tests {
		got := Readings(text.NameTokens(tt.name), ig)
		var s []string
		for _, r := range got {
			s = append(s, joinTokens(r))
		}
		if !slices.Equal(s, tt.want) {
			t.Errorf("Readings(%q) = %q, want %q", tt.name, s, tt.want)
		}
	}
	// At most 64 readings.
	many := []string{}
	for i := 0; i < 10; i++ {
		many = append(many, "detto", "x")
	}
	if got := Readings(many, ig); len(got) != 64 {
		t.Errorf("Readings of 10 removable tokens = %d, want the 64 cap", len(got))
	}
}

func joinTokens(t []string) string {
	s := ""
	for i, x := range t {
		if i > 0 {
			s += " "
		}
		s += x
	}
	return s
}

func TestReadingsInScoring(t *testing.T) {
	md := ignoreRules("name | conte / co. | leading | model | settled", "name | il | leading | both | settled")
	// The best reading wins; titles and articles are stepped over.
	im := scoreOne(t, []gtRow{{"name": "Nicolò Valier"}}, rec(map[string]any{"name": "Il Co. Nicolò Valier"}), md, "")
	if im.Matched != 1 || im.Pairs[0].ModelReading != "nicolò valier" || im.Pairs[0].NameEdits != 0 {
		t.Fatalf("reading not used: %+v", im.Pairs)
	}
	// GT names are never stripped, whatever the side.
	im = scoreOne(t, []gtRow{{"name": "Il Moro"}}, rec(map[string]any{"name": "Il Moro"}), md, "")
	if im.Pairs[0].Similarity != 1 || im.Pairs[0].GTResolved != "il moro" || im.Pairs[0].ModelReading != "il moro" {
		t.Fatalf("GT name stripped or reading 0 lost: %+v", im.Pairs[0])
	}
	// Ties keep the earlier reading: "x y" and "y" both score 1 by token overlap? No:
	// reading 0 is "conte x", reading 1 "x"; GT "x" prefers the exact reading.
	im = scoreOne(t, []gtRow{{"name": "x"}}, rec(map[string]any{"name": "conte x"}), md, "")
	if im.Pairs[0].ModelReading != "x" {
		t.Fatalf("reading %q", im.Pairs[0].ModelReading)
	}
	// Equal similarities keep the first reading: both readings share the
	// token "moro" and score 1/2 by overlap... use token overlap ties.
	im = scoreOne(t, []gtRow{{"name": "conte abc def"}}, rec(map[string]any{"name": "conte abc def"}), md, "")
	if im.Pairs[0].ModelReading != "conte abc def" {
		t.Fatalf("tie did not keep reading 0: %q", im.Pairs[0].ModelReading)
	}
}

func TestDecisionNameNormalization(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Leon q.m. Iacob", "leon qm iacob"},
		{"Leon Q. Iacob", "leon qm iacob"},
		{"Leon quondam, Iacob", "leon qm iacob"},
		{"Leon q(uonda)m Iacob", "leon qm iacob"},
		{"Leon q(uondam) Iacob", "leon qm iacob"},
		{"Leon qm. Iacob", "leon qm iacob"},
		{"D\u2019Este", "deste"},
		{"  Anna\u00a0\u2003Maria\u3000 ", "anna maria"}, // Unicode White_Space
		{"Niccolò ?lelingen", "niccolò ?lelingen"},       // accents and ? kept
		{"Pavel (?)", "pavel ?"},                         // parentheses are punctuation
		{"Anna - Maria", "anna maria"},                   // collapsed again after stripping
		{"A+B °C", "a+b °c"},                             // symbols stay
		{"\u0130stanbul", "istanbul"},                    // simple lowercase: one code point
		{"ÉLISE", "élise"},
		{"...", ""},
	}
	for _, tt := range tests {
		if got := text.NormalizeName(tt.in); got != tt.want {
			t.Errorf("NormalizeName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDecisionEmptyNamesNeverMatch(t *testing.T) {
	gt := []gtRow{{"name": "Anna"}, {"name": "", "title": "Conte"}, {"name": "..."}}
	recs := `[{"name": null}, {"title": "x"}, {"name": "  "}, {"name": "?!"}, {"name": "Anna"}, {"name": "."}]`
	im := scoreOne(t, gt, recs, "", "")
	if im.Matched != 1 || im.NModel != 6 || im.NGT != 3 {
		t.Fatalf("matched %d, n_model %d, n_gt %d; want 1, 6, 3", im.Matched, im.NModel, im.NGT)
	}
	// "?!" normalizes to "?", which is a name; it does not match Anna.
	if len(im.UnmatchedModel) != 5 {
		t.Fatalf("unmatched model %q", im.UnmatchedModel)
	}
}

func TestDecisionPairing(t *testing.T) {
	// Global greedy: the best pair overall is taken first, even when an
	// earlier model row would have liked that GT row.
	gt := []gtRow{{"name": "Marco Rossi"}, {"name": "Marco Rosso"}}
	im := scoreOne(t, gt, `[{"name": "Marco Rosso"}, {"name": "Marco Rossi"}]`, "", "")
	if im.Matched != 2 || im.Pairs[0].ModelIndex != 1 || im.Pairs[1].ModelIndex != 0 {
		t.Fatalf("pairs %+v", im.Pairs)
	}
	// Ties: by model index, then GT index. Two identical model rows: the
	// first takes the GT row, the second is an extra.
	im = scoreOne(t, []gtRow{{"name": "Anna Bon"}}, `[{"name": "Anna Bon"}, {"name": "Anna Bon"}]`, "", "")
	if im.Matched != 1 || im.Pairs[0].ModelIndex != 0 || len(im.UnmatchedModel) != 1 {
		t.Fatalf("tie: %+v", im.Pairs)
	}
	// A GT row tied between two model rows with equal similarity goes to
	// the lower model index; the lower GT index wins for one model row.
	im = scoreOne(t, []gtRow{{"name": "Anna Bon"}, {"name": "Anna Bon X"}}, `[{"name": "Anna Bon X"}]`, "", "")
	if im.Matched != 1 || im.Pairs[0].GTIndex != 1 {
		t.Fatalf("best GT not chosen: %+v", im.Pairs)
	}
}

func TestDecisionFormulas(t *testing.T) {
	p, r, f1 := tabularreport.PRF(2, 3, 4)
	wp, wr := 2.0/3.0, 2.0/4.0
	if p != wp || r != wr || f1 != 2*wp*wr/(wp+wr) {
		t.Fatalf("prf = %v %v %v", p, r, f1)
	}
	if p, r, f1 := tabularreport.PRF(0, 0, 0); p != 0 || r != 0 || f1 != 0 {
		t.Fatalf("prf(0,0,0) = %v %v %v", p, r, f1)
	}
	if p, r, f1 := tabularreport.PRF(0, 0, 5); p != 0 || r != 0 || f1 != 0 {
		t.Fatalf("prf(0,0,5) = %v %v %v", p, r, f1)
	}
}

func TestCellsSortedByCodePoint(t *testing.T) {
	images := []*tabularreport.ImageScore{
		{Model: "b", Phase: "N", Status: "ok"}, {Model: "a", Phase: "é", Status: "ok"},
		{Model: "a", Phase: "z", Status: "ok"}, {Model: "B", Phase: "G", Status: "ok"},
		{Model: "a", Phase: "Z", Status: "failed"},
	}
	cells := tabularreport.PoolCells(defaultSchemaForTest(), images)
	var got []string
	for _, c := range cells {
		got = append(got, c.Model+"/"+c.Phase)
	}
	want := []string{"B/G", "a/Z", "a/z", "a/é", "b/N"}
	if !slices.Equal(got, want) {
		t.Fatalf("cells %q, want %q", got, want)
	}
	if cells[1].ImagesFailed != 1 || cells[1].ImagesOK != 0 {
		t.Fatalf("failed image not counted: %+v", cells[1])
	}
}

func TestRatioBoundIsAnUpperBound(t *testing.T) {
	sc := newScorer(defaultSchema(), &rules.Compiled{}, DefaultGate, &PageIndex{}, newBudget(context.Background(), Limits{}))
	var m text.Matcher
	names := []string{"anzolo rizzo", "zuane boscolo", "nicolò q.m. demetrio romanò", "", "a", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "ÉÈ ßü 12 ?", "mandolin todros", "todros mandolin", "xyz"}
	for _, x := range names {
		for _, y := range names {
			a, b := sc.nameForm(text.Fields(x)), sc.nameForm(text.Fields(y))
			if bound, q := ratioBound(&a, &b), m.QuickRatio(a.runes, b.runes); bound < q {
				t.Errorf("ratioBound(%q, %q) = %v < quick_ratio %v", x, y, bound, q)
			}
		}
	}
}

// TestWildBoundIsAnUpperBound holds wildBound to the similarity it lets
// similarity skip, on random GT names with wildcards (some resolved to a
// space, splitting their token) against random readings, from a small
// alphabet so that names share characters and tokens.
func TestWildBoundIsAnUpperBound(t *testing.T) {
	sc := newScorer(defaultSchema(), &rules.Compiled{}, DefaultGate, &PageIndex{}, newBudget(context.Background(), Limits{}))
	rng := rand.New(rand.NewPCG(34, 1))
	name := func(wild bool) string {
		const letters = "abcab ?"
		var b strings.Builder
		for range 1 + rng.IntN(14) {
			c := letters[rng.IntN(len(letters))]
			if c == '?' && !wild {
				c = 'c'
			}
			b.WriteByte(c)
		}
		return b.String()
	}
	tight := 0
	for range 20000 {
		g := sc.nameForm(text.Fields(name(true)))
		if g.wilds == 0 {
			continue
		}
		r := sc.nameForm(text.Fields(name(false)))
		s, _ := sc.wildSimilarity(&g, &r)
		bound := wildBound(&g, &r)
		if bound < s {
			t.Fatalf("wildBound(%q, %q) = %v < similarity %v", string(g.runes), string(r.runes), bound, s)
		}
		if bound < DefaultGate {
			tight++
		}
	}
	if tight == 0 {
		t.Fatal("wildBound never fell under the gate: it skips nothing")
	}
}

// TestJoinRunes: joinRunes is the conversion of the joined string,
// invalid UTF-8 read as U+FFFD alike.
func TestJoinRunes(t *testing.T) {
	for _, toks := range [][]string{nil, {}, {""}, {"a"}, {"anzolo", "q.m.", "nicolò"}, {"\xff\xfe", "é", ""}, {"", ""}} {
		if got, want := string(joinRunes(toks)), string([]rune(strings.Join(toks, " "))); got != want {
			t.Errorf("joinRunes(%q) = %q, want %q", toks, got, want)
		}
	}
}
