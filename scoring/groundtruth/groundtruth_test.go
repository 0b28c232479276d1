package groundtruth

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/docscore/docscore/internal/testkit"
	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/judging"
)

func TestGroundTruthPanel(t *testing.T) {
	a := &reader{name: "openai", answer: fixed(claims("$.currency", `"USD"`, "$.amount", `"1,250.00"`, "$.account_name", `"J.  Smith"`))}
	b := &reader{name: "claude", answer: fixed(claims("currency", `"USD"`, "$.amount", `"1,250.50"`))}
	c := &reader{name: "local", answer: fixed(claims("$.currency", `"USD"`, "$.amount", `"1,250.00"`, "$.account_name", `"J. Smith"`))}
	panel := &GroundTruthPanel{
		Providers:             []GroundTruthProvider{{"openai", a.adapter()}, {"claude", b.adapter()}, {"local", c.adapter()}},
		ExtractionInstruction: "Extract currency, amount, and account name.",
		ExpectedFields:        testkit.StatementFields,
	}
	rep, err := panel.Generate(context.Background(), "statement-001", testkit.PageSources(t))
	if err != nil {
		t.Fatal(err)
	}
	var agreed []string
	for _, f := range rep.Agreed {
		agreed = append(agreed, fmt.Sprintf("%s=%v@%.2f", f.Path, f.Value, f.Agreement))
	}
	if got := strings.Join(agreed, " "); got != "$.currency=USD@1.00" {
		t.Errorf("agreed %s", got)
	}
	var disputed []string
	for _, d := range rep.Disputed {
		disputed = append(disputed, fmt.Sprintf("%s:%s:%d:%v", d.Path, d.Kind, len(d.Candidates), d.Omitted))
	}
	want := "$.amount:conflict:2:[] $.account_name:omission:1:[claude] $.date:missing:0:[openai claude local]"
	if got := strings.Join(disputed, " "); got != want {
		t.Errorf("disputed %s\nwant     %s", got, want)
	}
	if !rep.RequiresHumanReview || fmt.Sprint(rep.OmittedFields) != "[$.date]" {
		t.Errorf("review %v, omitted %v", rep.RequiresHumanReview, rep.OmittedFields)
	}
	// White space is normalized, so the two account names agree.
	if d := rep.Disputed[1]; d.Candidates[0].Value != "J.  Smith" || fmt.Sprint(d.Candidates[0].Providers) != "[openai local]" {
		t.Errorf("account candidates %+v", d.Candidates)
	}
	// Citations keep the source's page metadata and the visual evidence.
	cit := rep.Agreed[0].Citations[0]
	if cit.ReferenceID != "page-001" || fmt.Sprint(cit.SourceMetadata["page"]) != "1" || cit.VisualEvidence == "" {
		t.Errorf("citation %+v", cit)
	}
	ref := rep.ProvisionalReference
	if ref.Authority != evalcase.AuthorityGenerated || ref.Kind != evalcase.KindCSV || ref.Value != "path,expected\n$.currency,USD\n" {
		t.Errorf("provisional reference %+v", ref)
	}
	gm, err := generatedMeta(ref)
	if err != nil || !gm.RequiresHumanReview || fmt.Sprint(gm.UnresolvedPaths) != "[$.amount $.account_name $.date]" {
		t.Errorf("generated metadata %+v %v", gm, err)
	}

	// Blind: every provider got the same request, with the sources and the
	// instruction and nothing else.
	if len(a.seen) != 1 || len(b.seen) != 1 || len(c.seen) != 1 {
		t.Fatal("each provider should be asked once")
	}
	fa, _ := a.seen[0].Fingerprint(judging.ModelInfo{})
	fb, _ := b.seen[0].Fingerprint(judging.ModelInfo{})
	if fa != fb {
		t.Error("providers received different requests: one saw something of another")
	}
	if len(a.seen[0].Attachments) != 2 || a.seen[0].Purpose != judging.PurposeGroundTruth || a.seen[0].Instructions != GroundTruthInstructions {
		t.Errorf("request %+v", a.seen[0])
	}
}

// TestGroundTruthIsBlindToThePrediction evaluates a case whose prediction
// carries a marker, generates ground truth from its evidence through the
// router, and checks the marker reached no provider.
func TestGroundTruthIsBlindToThePrediction(t *testing.T) {
	const marker = "PREDICTED-VALUE-7f3a"
	src := testkit.PageSources(t)
	stage := evalcase.EvaluationCase{CaseID: "statement-001", Prediction: map[string]any{"currency": marker, "amount": marker}, References: src}
	a := &reader{name: "openai", answer: fixed(claims("$.currency", `"USD"`))}
	b := &reader{name: "claude", answer: fixed(claims("$.currency", `"EUR"`))}
	router := &GroundTruthRouter{ImagePanel: &GroundTruthPanel{
		Providers:             []GroundTruthProvider{{"openai", a.adapter()}, {"claude", b.adapter()}},
		ExtractionInstruction: "Extract the currency.", ExpectedFields: []string{"$.currency"},
	}}
	prep, err := router.Prepare(context.Background(), stage.CaseID, stage.References)
	if err != nil {
		t.Fatal(err)
	}
	adj := &GroundTruthAdjudicator{Providers: []GroundTruthProvider{{"openai", a.adapter()}, {"claude", b.adapter()}}}
	if _, err := adj.Adjudicate(context.Background(), prep.ImageReport, src); err != nil {
		t.Fatal(err)
	}
	for _, r := range []*reader{a, b} {
		for _, req := range r.seen {
			b, _ := json.Marshal(req)
			for _, att := range req.Attachments {
				b = append(b, att.Content...)
			}
			if strings.Contains(string(b), marker) || strings.Contains(string(b), "prediction") {
				t.Errorf("%s was shown the prediction: %s", r.name, b)
			}
		}
	}
}

func TestGroundTruthMinimumAgreement(t *testing.T) {
	tests := []struct {
		name    string
		min     float64
		answers []string
		agreed  string
	}{
		{"unanimity by default", 0, []string{claims("$.amount", "12.5"), claims("$.amount", `"12.50"`)}, "$.amount=12.5"},
		{"numbers compare by value", 1, []string{claims("$.amount", "12.5"), claims("$.amount", "12.50")}, "$.amount=12.5"},
		{"one of two reaches 0.5", 0.5, []string{claims("$.amount", "12.5"), claims()}, "$.amount=12.5"},
		{"one of two misses 0.6", 0.6, []string{claims("$.amount", "12.5"), claims()}, ""},
		{"two of three reach 0.66", 0.66, []string{claims("$.amount", "12.5"), claims("$.amount", "12.5"), claims("$.amount", "13")}, "$.amount=12.5"},
		{"a tie never agrees", 0.5, []string{claims("$.amount", "12.5"), claims("$.amount", "13")}, ""},
		{"an unusable answer counts against", 1, []string{claims("$.amount", "12.5"), "not JSON"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var ps []GroundTruthProvider
			for i, ans := range tc.answers {
				r := &reader{name: fmt.Sprint("p", i), answer: fixed(ans)}
				ps = append(ps, GroundTruthProvider{r.name, r.adapter()})
			}
			p := &GroundTruthPanel{Providers: ps, ExtractionInstruction: "Read the amount.", ExpectedFields: []string{"$.amount"}, MinimumAgreement: tc.min}
			rep, err := p.Generate(context.Background(), "c", testkit.PageSources(t))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range rep.Agreed {
				got = append(got, fmt.Sprintf("%s=%v", f.Path, f.Value))
			}
			if strings.Join(got, " ") != tc.agreed || rep.RequiresHumanReview != (tc.agreed == "") {
				t.Errorf("agreed %v, review %v", got, rep.RequiresHumanReview)
			}
		})
	}
}

func TestGroundTruthUnusableAnswerKept(t *testing.T) {
	a := &reader{name: "a", answer: fixed(claims("$.x", `"1"`))}
	b := &reader{name: "b", answer: fixed(`{"claims": [{"path": "$.x", "value": {"nested": 1}, "reference_id": "page-001", "visual_evidence": "", "confidence": 1}]}`)}
	p := &GroundTruthPanel{Providers: []GroundTruthProvider{{"a", a.adapter()}, {"b", b.adapter()}}, ExtractionInstruction: "x", ExpectedFields: []string{"$.x"}}
	rep, err := p.Generate(context.Background(), "c", testkit.PageSources(t))
	if err != nil {
		t.Fatal(err)
	}
	rd := rep.Readings[1]
	if rd.Status != "unusable" || !strings.Contains(rd.Unusable, "claims[0].value") || !strings.Contains(rd.RawAnswer, "nested") {
		t.Errorf("reading %+v", rd)
	}
}

func TestParseGroundTruthClaims(t *testing.T) {
	ids := []string{"page-001"}
	tests := []struct {
		in, err string
	}{
		{claims("$.a", `"x"`, "b[0]", "1", "$.c", "null", "$.d", "true"), ""},
		{"```json\n" + claims("$.a", `"x"`) + "\n```", ""},
		{`{"claims": []}`, ""},
		{`[]`, "expected a JSON object"},
		{`{"claims": [], "notes": ""}`, "notes: unknown property"},
		{`{"claims": {}}`, "claims: expected an array"},
		{strings.Replace(claims("$.a", `"x"`), `"page-001"`, `"page-009"`, 1), `reference_id "page-009" is not a source`},
		{strings.Replace(claims("$.a", `"x"`), `0.9`, `1.5`, 1), "confidence: expected a number from 0 to 1"},
		{claims("$.a", `"x"`, "a", `"y"`), "path $.a is claimed twice"},
		{claims("$..a", `"x"`), "claims[0].path"},
		{claims("$.a", `[1]`), "claims[0].value: expected a string, number, boolean or null"},
		{`{"claims": [{"path": "$.a"}]}`, "claims[0].value: required"},
		{`{"claims": `, "unexpected end"},
	}
	for _, tc := range tests {
		got, err := ParseGroundTruthClaims([]byte(tc.in), ids)
		if tc.err == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.in, err)
			}
			continue
		}
		var ua *judging.UnusableAnswerError
		if err == nil || !strings.Contains(err.Error(), tc.err) || !asUnusable(err, &ua) || ua.Raw != tc.in {
			t.Errorf("%s: %v (%v), want %q", tc.in, err, got, tc.err)
		}
	}
}

func asUnusable(err error, ua **judging.UnusableAnswerError) bool {
	u, ok := err.(*judging.UnusableAnswerError)
	*ua = u
	return ok
}

func firstPass(t *testing.T) (*GroundTruthReport, []evalcase.ReferenceArtifact) {
	t.Helper()
	a := &reader{name: "openai", answer: fixed(claims("$.currency", `"USD"`, "$.amount", `"1,250.00"`, "$.account_name", `"J. Smith"`))}
	b := &reader{name: "claude", answer: fixed(claims("$.currency", `"USD"`, "$.amount", `"1,250.50"`))}
	src := testkit.PageSources(t)
	p := &GroundTruthPanel{Providers: []GroundTruthProvider{{"openai", a.adapter()}, {"claude", b.adapter()}}, ExtractionInstruction: "Extract currency, amount, and account name.", ExpectedFields: testkit.StatementFields}
	rep, err := p.Generate(context.Background(), "statement-001", src)
	if err != nil {
		t.Fatal(err)
	}
	return rep, src
}

func TestGroundTruthAdjudicator(t *testing.T) {
	rep, src := firstPass(t)
	// The second pass agrees on the amount and the account, not the date.
	second := func(name, date string) *reader {
		return &reader{name: name, answer: fixed(claims("$.amount", `"1,250.00"`, "$.account_name", `"J. Smith"`, "$.date", date, "$.currency", `"EUR"`))}
	}
	a, b := second("openai", `"2026-01-31"`), second("claude", `"2026-01-30"`)
	adj := &GroundTruthAdjudicator{Providers: []GroundTruthProvider{{"openai", a.adapter()}, {"claude", b.adapter()}}}
	out, err := adj.Adjudicate(context.Background(), rep, src)
	if err != nil {
		t.Fatal(err)
	}
	// Only the disputed paths were asked, and no first-pass value was shown.
	for _, r := range []*reader{a, b} {
		req := r.seen[0]
		task := req.Input.(groundTruthTask)
		if fmt.Sprint(task.DisputedPaths) != "[$.amount $.account_name $.date]" || task.ExpectedFields != nil || req.Purpose != judging.PurposeAdjudication || req.Instructions != AdjudicationInstructions {
			t.Errorf("adjudication request %+v", task)
		}
		body, _ := json.Marshal(req)
		for _, first := range []string{"1,250.00", "1,250.50", "J. Smith", "USD"} {
			if strings.Contains(string(body), first) {
				t.Errorf("the adjudicator was shown the first-pass value %q", first)
			}
		}
	}
	var got []string
	for _, f := range out.Agreed {
		got = append(got, fmt.Sprintf("%s=%v(%s)", f.Path, f.Value, f.Resolution))
	}
	if strings.Join(got, " ") != "$.currency=USD(consensus) $.amount=1,250.00(adjudicated) $.account_name=J. Smith(adjudicated)" {
		t.Errorf("agreed %v", got)
	}
	if len(out.Disputed) != 1 || out.Disputed[0].Path != "$.date" || len(out.Disputed[0].Adjudication) != 2 || !out.RequiresHumanReview {
		t.Errorf("disputed %+v", out.Disputed)
	}
	if out.ProvisionalReference.Authority != evalcase.AuthorityGenerated {
		t.Error("adjudication changed the authority")
	}
	// A claim outside the disputed paths is ignored, with a warning.
	if w := out.Readings[len(out.Readings)-1].Warnings; len(w) != 1 || !strings.Contains(w[0], "$.currency ignored") {
		t.Errorf("warnings %v", w)
	}
	if len(rep.Disputed) != 3 {
		t.Error("adjudication changed the first-pass report")
	}
	// Other sources are refused.
	other := testkit.PageSources(t)
	other[0].SHA256 = strings.Repeat("0", 64)
	if _, err := adj.Adjudicate(context.Background(), rep, other); err == nil {
		t.Error("adjudication accepted other sources")
	}
}

func TestResolveGroundTruthUnion(t *testing.T) {
	rep, _ := firstPass(t)
	out, err := ResolveGroundTruthUnion(rep)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range out.Agreed {
		got = append(got, fmt.Sprintf("%s(%s)", f.Path, f.Resolution))
	}
	if strings.Join(got, " ") != "$.currency(consensus) $.account_name(union)" {
		t.Errorf("agreed %v", got)
	}
	var still []string
	for _, d := range out.Disputed {
		still = append(still, d.Path+":"+d.Kind)
	}
	if strings.Join(still, " ") != "$.amount:conflict $.date:missing" || !out.RequiresHumanReview || out.ProvisionalReference.Authority != evalcase.AuthorityGenerated {
		t.Errorf("still disputed %v", still)
	}
	if out.ProvisionalReference.Value != "path,expected\n$.currency,USD\n$.account_name,J. Smith\n" {
		t.Errorf("reference %q", out.ProvisionalReference.Value)
	}
}

func TestGroundTruthPanelValidate(t *testing.T) {
	one := GroundTruthProvider{"a", (&reader{name: "a", answer: fixed(claims())}).adapter()}
	two := GroundTruthProvider{"b", one.Adapter}
	for _, tc := range []struct {
		p    GroundTruthPanel
		want string
	}{
		{GroundTruthPanel{Providers: []GroundTruthProvider{one}, ExtractionInstruction: "x"}, "at least 2 providers"},
		{GroundTruthPanel{Providers: []GroundTruthProvider{one, one}, ExtractionInstruction: "x"}, "listed twice"},
		{GroundTruthPanel{Providers: []GroundTruthProvider{one, two}}, "no extraction instruction"},
		{GroundTruthPanel{Providers: []GroundTruthProvider{one, two}, ExtractionInstruction: "x", MinimumAgreement: 1.5}, "minimum_agreement"},
		{GroundTruthPanel{Providers: []GroundTruthProvider{one, two}, ExtractionInstruction: "x", ExpectedFields: []string{"$.a", "a"}}, "listed twice"},
	} {
		if err := tc.p.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v, want %q", err, tc.want)
		}
	}
}

func TestGroundTruthRouter(t *testing.T) {
	pdf, _ := evalcase.ArtifactFromBytes("statement.pdf", []byte("%PDF-1.4"), evalcase.ArtifactOptions{})
	odt, _ := evalcase.ArtifactFromBytes("notes.odt", []byte("PK"), evalcase.ArtifactOptions{})
	png := testkit.PageSources(t)
	csvRef, _ := evalcase.ArtifactFromBytes("table.csv", []byte("a,b\n"), evalcase.ArtifactOptions{})
	a := &reader{name: "a", answer: fixed(claims("$.x", `"1"`))}
	b := &reader{name: "b", answer: fixed(claims("$.x", `"1"`))}
	panel := &GroundTruthPanel{Providers: []GroundTruthProvider{{"a", a.adapter()}, {"b", b.adapter()}}, ExtractionInstruction: "x", ExpectedFields: []string{"$.x"}}
	md := func(_ context.Context, d evalcase.ReferenceArtifact) (string, error) { return "# " + d.ArtifactID, nil }
	tests := []struct {
		name   string
		router GroundTruthRouter
		refs   []evalcase.ReferenceArtifact
		route  string
		derivs int
		report bool
		err    string
	}{
		{"documents are preserved", GroundTruthRouter{ImagePanel: panel}, []evalcase.ReferenceArtifact{pdf, odt}, RouteDocuments, 0, false, ""},
		{"images with a panel", GroundTruthRouter{ImagePanel: panel}, png, RouteImages, 0, true, ""},
		{"images without a panel", GroundTruthRouter{}, png, RouteImages, 0, false, ""},
		{"markdown derivatives", GroundTruthRouter{DocumentMode: DocumentMarkdown, Markdown: md}, []evalcase.ReferenceArtifact{pdf}, RouteDocuments, 1, false, ""},
		{"markdown without a deriver", GroundTruthRouter{DocumentMode: DocumentMarkdown}, []evalcase.ReferenceArtifact{pdf}, "", 0, false, "needs a Markdown deriver"},
		{"markdown of images", GroundTruthRouter{DocumentMode: DocumentMarkdown, Markdown: md}, png, "", 0, false, "derives text from documents"},
		{"mixed", GroundTruthRouter{ImagePanel: panel}, append([]evalcase.ReferenceArtifact{pdf}, png...), "", 0, false, "mixed inputs, 1 document(s) (statement.pdf) and 2 image(s) (page-001, page-002)"},
		{"unsupported", GroundTruthRouter{}, []evalcase.ReferenceArtifact{csvRef}, "", 0, false, "unsupported input(s) table.csv (text/csv)"},
		{"empty", GroundTruthRouter{}, nil, "", 0, false, "no inputs"},
		{"unknown mode", GroundTruthRouter{DocumentMode: "ocr"}, png, "", 0, false, "expected preserve or markdown"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := tc.router.Prepare(context.Background(), "c", tc.refs)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Route != tc.route || len(p.Derivatives) != tc.derivs || (p.ImageReport != nil) != tc.report || len(p.Sources) != len(tc.refs) {
				t.Errorf("prepared %+v", p)
			}
			for _, d := range p.Derivatives {
				if d.Authority != evalcase.AuthorityGenerated || d.Kind != evalcase.KindMarkdown || d.Metadata["derived_from"] != "statement.pdf" {
					t.Errorf("derivative %+v", d)
				}
			}
		})
	}
}

// TestGroundTruthAgreement: the first pass's providers agree on the
// currency, conflict on the amount and only one reads the account: α over
// the fields is 0.4 (gen_vectors.py's alpha_nominal on the same ratings),
// and neither provider dissents from the one agreed value.
func TestGroundTruthAgreement(t *testing.T) {
	rep, _ := firstPass(t)
	a := rep.Agreement
	if a == nil || a.Alpha.Alpha == nil || math.Abs(*a.Alpha.Alpha-0.4) > 1e-12 || a.Units != 2 || a.Values != 4 {
		t.Fatalf("agreement %+v", a)
	}
	if strings.Join(a.Providers, ",") != "openai,claude" {
		t.Errorf("providers %v", a.Providers)
	}
	for _, p := range a.Providers {
		if d := a.Dissent[p]; d.Count != 0 || d.N != 1 {
			t.Errorf("%s dissent %+v, expected 0 of 1 (the currency)", p, d)
		}
	}
	union, err := ResolveGroundTruthUnion(rep)
	if err != nil {
		t.Fatal(err)
	}
	if d := union.Agreement.Dissent["openai"]; d.Count != 0 || d.N != 2 {
		t.Errorf("after the union, openai dissent %+v, expected 0 of 2 (currency, account)", d)
	}
}
