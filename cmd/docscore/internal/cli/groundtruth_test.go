package cli

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/agreement"
	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/groundtruth"
)

var pages = filepath.Join("..", "..", "..", "..", "examples", "judges", "pages")

func generateArgs(bin string, extra ...string) []string {
	args := []string{"groundtruth", "generate", "--case-id", "statement-001",
		"--source", filepath.Join(pages, "page-001.png"), "--source", filepath.Join(pages, "page-002.png"),
		"--instruction", "Extract currency, amount and account name.",
		"--field", "$.currency", "--field", "$.amount", "--field", "$.account_name", "--field", "$.date",
		"--provider", "command:reader-a='" + bin + "'",
		"--provider", "command:reader-b='" + bin + "' -misread '$.amount=1,250.50' -skip '$.account_name'"}
	return append(args, extra...)
}

// TestGroundTruthFlow is the file-based flow end to end: generate with two
// providers, rerun from checkpoints, write the review file, refuse it
// until decided and signed, approve it, and score against it.
func TestGroundTruthFlow(t *testing.T) {
	bin := localJudge(t)
	dir := t.TempDir()
	gen, review, generated, ck := filepath.Join(dir, "gen.json"), filepath.Join(dir, "review.json"), filepath.Join(dir, "generated.csv"), filepath.Join(dir, "ck")
	code, _, errs := runEnv(t, "", nil, generateArgs(bin, "--output", gen, "--review-file", review, "--reference", generated, "--checkpoint-dir", ck)...)
	if code != ExitOK || !strings.Contains(errs, "1 field(s) agreed, 3 disputed (1 read by no provider); requires human review: true; 2 call(s) made, 0 reused") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if b, _ := os.ReadFile(generated); string(b) != "path,expected\n$.currency,USD\n" {
		t.Errorf("generated reference %q", b)
	}
	var rep groundtruth.GroundTruthReport
	b, _ := os.ReadFile(gen)
	json.Unmarshal(b, &rep)
	if rep.ProvisionalReference.Authority != evalcase.AuthorityGenerated || len(rep.Readings) != 2 || rep.Disputed[0].Kind != "conflict" || rep.Disputed[1].Kind != "omission" {
		t.Errorf("report %+v", rep)
	}
	// A rerun asks nothing again.
	code, _, errs = runEnv(t, "", nil, generateArgs(bin, "--output", filepath.Join(dir, "gen2.json"), "--checkpoint-dir", ck)...)
	if code != ExitOK || !strings.Contains(errs, "0 call(s) made, 2 reused") {
		t.Errorf("rerun: exit %d %s", code, errs)
	}
	// review-file from the report gives the same file as --review-file.
	code, out, errs := runEnv(t, "", nil, "groundtruth", "review-file", "--report", gen)
	want, _ := os.ReadFile(review)
	if code != ExitOK || out != string(want) {
		t.Errorf("review-file: exit %d %s\n%s", code, errs, out)
	}
	// Refused until decided and signed.
	code, _, errs = runEnv(t, "", nil, "groundtruth", "approve", "--review", review)
	if code != ExitInput || !strings.Contains(errs, "review.json:") || !strings.Contains(errs, "3 review item(s) undecided") {
		t.Errorf("pending approve: exit %d %s", code, errs)
	}
	var m map[string]any
	json.Unmarshal(want, &m)
	items := m["review_items"].([]any)
	decide := func(i int, d string, v any) {
		items[i].(map[string]any)["decision"] = d
		items[i].(map[string]any)["value"] = v
	}
	decide(0, "set", "1,250.00")
	decide(1, "set", "J. Smith")
	decide(2, "omit", nil)
	m["status"] = "approved"
	signed, _ := json.MarshalIndent(m, "", "  ")
	os.WriteFile(review, signed, 0o644)
	code, _, errs = runEnv(t, "", nil, "groundtruth", "approve", "--review", review)
	if code != ExitInput || !strings.Contains(errs, "unsigned") {
		t.Errorf("unsigned approve: exit %d %s", code, errs)
	}
	m["approved_by"] = "reviewer@example.org"
	signed, _ = json.MarshalIndent(m, "", "  ")
	os.WriteFile(review, signed, 0o644)
	truth, record := filepath.Join(dir, "truth.csv"), filepath.Join(dir, "truth.json")
	code, _, errs = runEnv(t, "", nil, "groundtruth", "approve", "--review", review, "--output", truth, "--record", record)
	if code != ExitOK || !strings.Contains(errs, "approved by reviewer@example.org") {
		t.Fatalf("approve: exit %d %s", code, errs)
	}
	if b, _ := os.ReadFile(truth); string(b) != "path,expected\n$.currency,USD\n$.amount,\"1,250.00\"\n$.account_name,J. Smith\n" {
		t.Errorf("approved %q", b)
	}
	var ref evalcase.ReferenceArtifact
	rb, _ := os.ReadFile(record)
	json.Unmarshal(rb, &ref)
	if ref.Authority != evalcase.AuthorityGroundTruth || ref.Metadata["approved_by"] != "reviewer@example.org" {
		t.Errorf("record %s", rb)
	}
	checkHumanAgreement(t, dir, gen, review)
	// Score a prediction against the approved ground truth.
	pred := filepath.Join(dir, "prediction.json")
	os.WriteFile(pred, []byte(`{"currency": "USD", "amount": "1,250.00", "account_name": "J. Smith"}`), 0o644)
	code, out, errs = runEnv(t, "", nil, "eval", "--prediction", pred, "--ground-truth", truth, "--judge", "none")
	if code != ExitOK || !strings.Contains(out, `"field_accuracy": 1`) {
		t.Errorf("eval: exit %d %s %s", code, errs, out)
	}
}

func TestGroundTruthAdjudicateAndUnion(t *testing.T) {
	bin := localJudge(t)
	tests := []struct {
		name   string
		extra  []string
		agreed string
	}{
		// reader-b misreads the amount again and still skips the account.
		{"adjudicate", []string{"--adjudicate"}, "$.currency"},
		{"union", []string{"--union"}, "$.currency $.account_name"},
		{"majority of two", []string{"--minimum-agreement", "0.5"}, "$.currency $.account_name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runEnv(t, "", nil, generateArgs(bin, tc.extra...)...)
			if code != ExitOK {
				t.Fatalf("exit %d %s", code, errs)
			}
			var rep groundtruth.GroundTruthReport
			json.Unmarshal([]byte(out), &rep)
			var got []string
			for _, a := range rep.Agreed {
				got = append(got, a.Path)
			}
			if strings.Join(got, " ") != tc.agreed || !rep.RequiresHumanReview {
				t.Errorf("agreed %v, review %v", got, rep.RequiresHumanReview)
			}
		})
	}
}

func TestGroundTruthGenerateErrors(t *testing.T) {
	bin := localJudge(t)
	pdf := filepath.Join(examples, "direct", "source.pdf")
	png := filepath.Join(pages, "page-001.png")
	tests := []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"mixed", []string{"groundtruth", "generate", "--case-id", "c", "--source", pdf, "--source", png, "--instruction", "x", "--provider", "command:a=" + bin, "--provider", "command:b=" + bin}, ExitInput, "mixed inputs"},
		{"one provider", []string{"groundtruth", "generate", "--case-id", "c", "--source", png, "--instruction", "x", "--provider", "command:a=" + bin}, ExitInput, "at least 2 providers"},
		{"bad provider", []string{"groundtruth", "generate", "--case-id", "c", "--source", png, "--instruction", "x", "--provider", "gemini:x", "--provider", "command:a=" + bin}, ExitInput, `unknown kind "gemini"`},
		{"no key", []string{"groundtruth", "generate", "--case-id", "c", "--source", png, "--instruction", "x", "--provider", "openai:gpt", "--provider", "command:a=" + bin}, ExitInput, "OPENAI_API_KEY is not set"},
		{"no instruction", []string{"groundtruth", "generate", "--case-id", "c", "--source", png, "--provider", "command:a=" + bin, "--provider", "command:b=" + bin}, ExitInput, "--instruction"},
		{"documents are preserved", []string{"groundtruth", "generate", "--case-id", "c", "--source", pdf}, ExitOK, ""},
		{"documents have no review file", []string{"groundtruth", "generate", "--case-id", "c", "--source", pdf, "--review-file", "r.json"}, ExitInput, "no reference is generated"},
		{"markdown derivative", []string{"groundtruth", "generate", "--case-id", "c", "--source", pdf, "--document-mode", "markdown", "--markdown-command", "'" + bin + "' -nope"}, ExitFailure, "markdown derivative of source.pdf"},
		{"markdown derivative by a program", []string{"groundtruth", "generate", "--case-id", "c", "--source", pdf, "--document-mode", "markdown", "--markdown-command", "cat"}, ExitOK, ""},
		{"missing source", []string{"groundtruth", "generate", "--case-id", "c", "--source", "nope.png"}, ExitInput, "no such file"},
		{"approve without file", []string{"groundtruth", "approve"}, ExitInput, "--review"},
		{"review-file of a wrong report", []string{"groundtruth", "review-file", "--report", filepath.Join(examples, "vehicle", "cases.json")}, ExitInput, `expected "docscore-ground-truth-generation"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runEnv(t, "", nil, tc.args...)
			if code != tc.code || !strings.Contains(errs, tc.err) {
				t.Errorf("exit %d, stderr %q, want %d %q", code, errs, tc.code, tc.err)
			}
			if tc.name == "documents are preserved" && (!strings.Contains(out, `"route": "documents"`) || !strings.Contains(out, `"derivatives": []`)) {
				t.Errorf("output %s", out)
			}
			if tc.name == "markdown derivative by a program" && (!strings.Contains(out, `"artifact_id": "source.pdf.md"`) || !strings.Contains(out, `"authority": "generated"`)) {
				t.Errorf("output %s", out)
			}
		})
	}
}

func TestGroundTruthHelp(t *testing.T) {
	for _, sub := range []string{"generate", "review-file", "approve", "agreement"} {
		code, out, _ := runEnv(t, "", nil, "groundtruth", sub, "--help")
		if code != ExitOK || !strings.Contains(out, "docscore groundtruth "+sub) || !strings.Contains(out, "Exit codes") {
			t.Errorf("%s --help: exit %d\n%s", sub, code, out)
		}
	}
}

// checkHumanAgreement runs groundtruth agreement on the flow's signed
// review, worked by hand. Four fields; the reviewer kept USD, set the
// amount to 1,250.00 and the account to J. Smith, and omitted the date.
// reader-a read all three values and no date: 4 of 4 alike, each side's
// four categories once, pe = 4·(1/4·1/4) = 1/4, κ = (1 − 1/4)/(3/4) = 1.
// reader-b read USD, 1,250.50, no account and no date: po = 2/4; the
// categories both sides used are USD and date=absent, pe = 2/16 = 1/8,
// κ = (1/2 − 1/8)/(7/8) = 3/7.
func checkHumanAgreement(t *testing.T, dir, gen, review string) {
	t.Helper()
	out, md := filepath.Join(dir, "agreement.json"), filepath.Join(dir, "agreement.md")
	code, _, errs := runEnv(t, "", nil, "groundtruth", "agreement", "--report", gen, "--review", review, "--output", out, "--markdown", md)
	if code != ExitOK || !strings.Contains(errs, "1 of 1 review(s) signed; reader-a κ 1.0000 over 4 field(s); reader-b κ 0.4286 over 4 field(s)") {
		t.Fatalf("agreement: exit %d %s", code, errs)
	}
	var rep struct {
		Agreement struct {
			Human map[string]agreement.Kappa `json:"human"`
		} `json:"agreement"`
	}
	b, _ := os.ReadFile(out)
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	rb := rep.Agreement.Human["reader-b"]
	if rb.Kappa == nil || math.Abs(*rb.Kappa-3.0/7) > 1e-12 || rb.Observed != 0.5 || rb.Expected != 0.125 {
		t.Errorf("reader-b %+v", rb)
	}
	want := []agreement.Cell{
		{Judge: "$.account_name=absent", Human: "$.account_name=str:J. Smith", N: 1},
		{Judge: "$.amount=str:1,250.50", Human: "$.amount=str:1,250.00", N: 1},
		{Judge: "$.currency=str:USD", Human: "$.currency=str:USD", N: 1},
		{Judge: "$.date=absent", Human: "$.date=absent", N: 1},
	}
	if !reflect.DeepEqual(rb.Confusion, want) {
		t.Errorf("reader-b's confusion %+v", rb.Confusion)
	}
	if ra := rep.Agreement.Human["reader-a"]; ra.Kappa == nil || *ra.Kappa != 1 || ra.N != 4 {
		t.Errorf("reader-a %+v", ra)
	}
	if m, _ := os.ReadFile(md); !strings.Contains(string(m), "| reader-b | 0.4286 | 4 | 0 | 0.5 | 0.125 |") ||
		!strings.Contains(string(m), "| reader-b | `$.amount=str:1,250.50` | `$.amount=str:1,250.00` | 1 |") {
		t.Errorf("Markdown:\n%s", m)
	}
	// The rerun's report is the same generation: with both, the review
	// cannot be paired, and the error names the review file.
	code, _, errs = runEnv(t, "", nil, "groundtruth", "agreement", "--report", gen, "--report", filepath.Join(dir, "gen2.json"), "--review", review)
	if code != ExitInput || !strings.Contains(errs, "review.json:") || !strings.Contains(errs, "matches 2 reports") {
		t.Errorf("two reports: exit %d %s", code, errs)
	}
	code, _, errs = runEnv(t, "", nil, "groundtruth", "agreement", "--report", gen)
	if code != ExitInput || !strings.Contains(errs, "--review") {
		t.Errorf("no review: exit %d %s", code, errs)
	}
}
