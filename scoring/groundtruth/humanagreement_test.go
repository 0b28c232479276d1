package groundtruth

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/agreement"
	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/judging"
)

// humanGen builds a generation of $.currency: reads maps a provider to its
// value ("" for no claim, "!" for an unusable answer); the field is agreed
// when agreedValue is set, disputed otherwise.
func humanGen(t *testing.T, caseID string, reads [][2]string, agreedValue string) *GroundTruthReport {
	t.Helper()
	rep := &GroundTruthReport{Kind: GroundTruthReportKind, CaseID: caseID, Agreed: []AgreedField{}, Disputed: []DisputedField{}}
	for _, r := range reads {
		rd := ProviderReading{Name: r[0], Purpose: judging.PurposeGroundTruth, Status: "ok", Claims: []GroundTruthClaim{}}
		switch r[1] {
		case "":
		case "!":
			rd.Status = "unusable"
		default:
			rd.Claims = append(rd.Claims, GroundTruthClaim{Path: "$.currency", Value: r[1]})
		}
		rep.Readings = append(rep.Readings, rd)
	}
	var rows []evalcase.Field
	if agreedValue != "" {
		rep.Agreed = append(rep.Agreed, AgreedField{Path: "$.currency", Value: agreedValue, Agreement: 1, Providers: []string{"a", "b"}, Resolution: "consensus"})
		rows = append(rows, evalcase.Field{Path: "$.currency", Value: agreedValue})
	} else {
		rep.Disputed = append(rep.Disputed, DisputedField{Path: "$.currency", Kind: DisputeConflict, Candidates: []Candidate{}, Omitted: []string{}})
	}
	ref, err := evalcase.FieldTable(caseID+"-generated", evalcase.AuthorityGenerated, rows, map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	rep.ProvisionalReference = ref
	return rep
}

// humanReview writes rep's review file and decides it: every review item
// with decision ("set" with value, or "omit"), signed unless sign is "".
func humanReview(t *testing.T, rep *GroundTruthReport, decision string, value any, sign string) []byte {
	t.Helper()
	data, err := WriteGroundTruthReview(rep)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for _, it := range m["review_items"].([]any) {
		it.(map[string]any)["decision"] = decision
		it.(map[string]any)["value"] = value
	}
	if sign != "" {
		m["status"], m["approved_by"] = "approved", sign
	}
	out, _ := json.MarshalIndent(m, "", "  ")
	return out
}

func near(p *float64, want float64) bool { return p != nil && math.Abs(*p-want) < 1e-12 }

// TestJudgeHumanAgreementWorked is worked by hand. Four cases of one field,
// $.currency, read by providers a and b and decided by a person:
//
//	case   a     b       person
//	c1     USD   USD     USD (agreed claim kept)
//	c2     USD   EUR     EUR (set)
//	c3     USD   —       USD (set)
//	c4     EUR   —       omit (absent)
//
// a: po = 2/4; marginals a {USD 3/4, EUR 1/4}, person {USD 2/4, EUR 1/4,
// absent 1/4}; pe = 3/4·2/4 + 1/4·1/4 = 7/16; κ = (8/16 − 7/16)/(9/16) = 1/9.
// b: po = 3/4; b {USD 1/4, EUR 1/4, absent 2/4}; pe = 2/16 + 1/16 + 2/16 =
// 5/16; κ = (12/16 − 5/16)/(11/16) = 7/11.
// c answered only c1, unusably: no pair (skipped 1), κ undefined. A fifth,
// unsigned review is listed and not counted.
func TestJudgeHumanAgreementWorked(t *testing.T) {
	g1 := humanGen(t, "c1", [][2]string{{"a", "USD"}, {"b", "USD"}, {"c", "!"}}, "USD")
	g2 := humanGen(t, "c2", [][2]string{{"a", "USD"}, {"b", "EUR"}}, "")
	g3 := humanGen(t, "c3", [][2]string{{"a", "USD"}, {"b", ""}}, "")
	g4 := humanGen(t, "c4", [][2]string{{"a", "EUR"}, {"b", ""}}, "")
	g5 := humanGen(t, "c5", [][2]string{{"a", "EUR"}, {"b", "USD"}}, "")
	// a's blind second reading of c2 agrees with the person; it is not a
	// first reading and does not count.
	g2.Readings = append(g2.Readings, ProviderReading{Name: "a", Purpose: judging.PurposeAdjudication, Status: "ok",
		Claims: []GroundTruthClaim{{Path: "$.currency", Value: "EUR"}}})
	reports := []NamedReport{{"g1.json", g1}, {"g2.json", g2}, {"g3.json", g3}, {"g4.json", g4}, {"g5.json", g5}}
	reviews := []NamedFile{
		{"r1.json", humanReview(t, g1, "", nil, "ann@example.org")},
		{"r2.json", humanReview(t, g2, "set", "EUR", "ann@example.org")},
		{"r3.json", humanReview(t, g3, "set", "USD", "bob@example.org")},
		{"r4.json", humanReview(t, g4, "omit", nil, "bob@example.org")},
		{"r5.json", humanReview(t, g5, "set", "USD", "")},
	}
	rep, err := JudgeHumanAgreement(reports, reviews)
	if err != nil {
		t.Fatal(err)
	}
	h := rep.Agreement.Human
	if a := h["a"]; !near(a.Kappa, 1.0/9) || a.N != 4 || !near(&a.Observed, 0.5) || !near(&a.Expected, 7.0/16) {
		t.Errorf("a: %+v", a)
	}
	if b := h["b"]; !near(b.Kappa, 7.0/11) || b.N != 4 || !near(&b.Expected, 5.0/16) {
		t.Errorf("b: %+v", b)
	}
	if c := h["c"]; c.Kappa != nil || c.N != 0 || c.Skipped != 1 || c.Reason != agreement.ReasonNoKappaPair {
		t.Errorf("c: %+v", c)
	}
	wantA := []agreement.Cell{
		{Judge: "$.currency=str:EUR", Human: "$.currency=absent", N: 1},
		{Judge: "$.currency=str:USD", Human: "$.currency=str:EUR", N: 1},
		{Judge: "$.currency=str:USD", Human: "$.currency=str:USD", N: 2},
	}
	if !reflect.DeepEqual(h["a"].Confusion, wantA) {
		t.Errorf("a's confusion %+v", h["a"].Confusion)
	}
	if len(rep.Reviews) != 5 || !rep.Reviews[0].Used || rep.Reviews[0].Report != "g1.json" || rep.Reviews[0].ApprovedBy != "ann@example.org" ||
		rep.Reviews[4].Used || !strings.Contains(rep.Reviews[4].Reason, `status "pending"`) {
		t.Errorf("reviews %+v", rep.Reviews)
	}
	js, err := rep.JSON()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"kind": "docscore-ground-truth-human-agreement"`, `"human": {`, `"kappa": 0.1111111111111111`} {
		if !strings.Contains(string(js), want) {
			t.Errorf("JSON lacks %q:\n%s", want, js)
		}
	}
	md := rep.Markdown()
	for _, want := range []string{"4 signed review(s) counted, 1 not signed", "| a | 0.1111 | 4 | 0 | 0.5 | 0.4375 |", "| b | 0.6364 | 4 | 0 | 0.75 | 0.3125 |",
		"| c | undefined (no unit carries both ratings) | 0 | 1 |", "| a | `$.currency=str:EUR` | `$.currency=absent` | 1 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
}

// TestJudgeHumanAgreementEdges: no signed review leaves "human" absent with
// the reason; one case where everyone read one value uses one category on
// both sides, so κ is 0/0 and undefined; a corrected claim counts as the
// person's value; pairing errors name the file.
func TestJudgeHumanAgreementEdges(t *testing.T) {
	g := humanGen(t, "c1", [][2]string{{"a", "USD"}, {"b", "USD"}}, "USD")
	rep, err := JudgeHumanAgreement([]NamedReport{{"g.json", g}}, []NamedFile{{"r.json", humanReview(t, g, "", nil, "")}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Agreement.Human != nil || rep.Agreement.HumanReason != ReasonNoHumanDecisions {
		t.Errorf("unsigned: %+v", rep.Agreement)
	}
	if js, _ := rep.JSON(); strings.Contains(string(js), `"human":`) || !strings.Contains(string(js), `"human_reason"`) {
		t.Errorf("unsigned JSON %s", js)
	}
	if md := rep.Markdown(); !strings.Contains(md, "not computed: "+ReasonNoHumanDecisions) {
		t.Errorf("unsigned Markdown %s", md)
	}

	signed := humanReview(t, g, "", nil, "ann@example.org")
	rep, err = JudgeHumanAgreement([]NamedReport{{"g.json", g}}, []NamedFile{{"r.json", signed}})
	if err != nil {
		t.Fatal(err)
	}
	if a := rep.Agreement.Human["a"]; a.Kappa != nil || a.Reason != agreement.ReasonKappaChance || a.N != 1 || a.Observed != 1 {
		t.Errorf("one category: %+v", a)
	}

	// The person corrects the agreed claim: both providers now disagree.
	corrected := strings.Replace(string(signed), `"value": "USD"`, `"value": "EUR"`, 1)
	rep, err = JudgeHumanAgreement([]NamedReport{{"g.json", g}}, []NamedFile{{"r.json", []byte(corrected)}})
	if err != nil {
		t.Fatal(err)
	}
	if a := rep.Agreement.Human["a"]; a.Observed != 0 || len(a.Confusion) != 1 || a.Confusion[0].Human != "$.currency=str:EUR" {
		t.Errorf("corrected: %+v", a)
	}

	other := humanGen(t, "c2", [][2]string{{"a", "USD"}, {"b", "USD"}}, "USD")
	tests := []struct {
		name    string
		reports []NamedReport
		reviews []NamedFile
		want    string
	}{
		{"no report", []NamedReport{{"g2.json", other}}, []NamedFile{{"r.json", signed}}, `r.json`},
		{"same content, other case", []NamedReport{{"g2.json", other}}, []NamedFile{{"r.json", signed}}, `case "c1"`},
		{"two reports", []NamedReport{{"g.json", g}, {"again.json", g}}, []NamedFile{{"r.json", signed}}, "2 reports (g.json and again.json)"},
		{"two reviews", []NamedReport{{"g.json", g}}, []NamedFile{{"r.json", signed}, {"r2.json", signed}}, "r2.json: decides the same generation (g.json) as r.json"},
		{"not a review", []NamedReport{{"g.json", g}}, []NamedFile{{"r.json", []byte(`{"kind": "harness"}`)}}, `expected "docscore-ground-truth-review"`},
		{"undecided", []NamedReport{{"g.json", g}}, []NamedFile{{"r.json", []byte(strings.Replace(string(humanReview(t, humanGen(t, "c1", [][2]string{{"a", "USD"}, {"b", "EUR"}}, ""), "", nil, "x@example.org")), `"decision": ""`, `"decision": null`, 1))}}, "undecided"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := JudgeHumanAgreement(tc.reports, tc.reviews)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want %q", err, tc.want)
			}
		})
	}
}
