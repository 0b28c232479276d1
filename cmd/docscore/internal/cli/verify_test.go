package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// TestVerify: a comparison report verifies (exit 0) beside its input and
// with --inputs; a hand-edited number exits 1 naming it; a missing or
// changed input exits 2; a report without provenance exits 2.
func TestVerify(t *testing.T) {
	b, err := os.ReadFile(tabularGolden)
	if err != nil {
		t.Fatal(err)
	}
	dir := writeFiles(t, map[string]string{"sample.json": string(b)})
	out := filepath.Join(dir, "cmp.json")
	if code, _, stderr := run(t, "compare", "--within", filepath.Join(dir, "sample.json"), "--bootstrap", "100", "--permutations", "200", "--effect", "0.01", "--out", out); code != 0 {
		t.Fatalf("compare: exit %d: %s", code, stderr)
	}
	if code, stdout, stderr := run(t, "verify", out); code != 0 || !strings.Contains(stdout, "reproduced byte for byte") {
		t.Fatalf("verify: exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	report, _ := os.ReadFile(out)

	// A number edited by hand.
	edited := strings.Replace(string(report), `"min_p": 0.5`, `"min_p": 0.25`, 1)
	if edited == string(report) {
		t.Fatal("no min_p of 0.5 to edit")
	}
	if err := os.WriteFile(filepath.Join(dir, "edited.json"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "verify", filepath.Join(dir, "edited.json")); code != 1 || !strings.Contains(stderr, "min_p: report 0.25, re-run 0.5") {
		t.Errorf("edited: exit %d, stderr %s; want 1 naming min_p", code, stderr)
	}

	// Elsewhere: the input is missing unless --inputs names its folder.
	other := t.TempDir()
	moved := filepath.Join(other, "cmp.json")
	if err := os.WriteFile(moved, report, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "verify", moved); code != 2 || !strings.Contains(stderr, "sample.json (base) not found") {
		t.Errorf("missing input: exit %d, stderr %s; want 2", code, stderr)
	}
	if code, _, stderr := run(t, "verify", moved, "--inputs", dir); code != 0 {
		t.Errorf("--inputs: exit %d, stderr %s; want 0", code, stderr)
	}

	// An input changed since: its hash differs.
	if err := os.WriteFile(filepath.Join(other, "sample.json"), append(b, ' '), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "verify", moved); code != 2 || !strings.Contains(stderr, "sha256") {
		t.Errorf("changed input: exit %d, stderr %s; want 2 naming the hash", code, stderr)
	}

	// No provenance.
	bare := filepath.Join(dir, "bare.json")
	if err := os.WriteFile(bare, []byte(withoutProvenance(t, string(b))), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "verify", bare); code != 2 || !strings.Contains(stderr, "provenance") {
		t.Errorf("no provenance: exit %d, stderr %s; want 2", code, stderr)
	}
}

// TestVerifyScoreTabular: the sample's score tabular report verifies
// (exit 0) from the embedded sample; a copy with one F1 edited by hand
// exits 1 naming it; the same report from files, the runs file streamed
// (and from standard input), verifies beside its inputs, gt/ below them
// included, and exits 2 once an input byte changed. A preview report,
// scored whole, verifies too.
func TestVerifyScoreTabular(t *testing.T) {
	dir := t.TempDir()
	report := filepath.Join(dir, "sample.json")
	if code, _, stderr := run(t, "score", "tabular", "--sample", "--bootstrap", "200", "--out", report); code != 0 {
		t.Fatalf("score: exit %d: %s", code, stderr)
	}
	if code, stdout, stderr := run(t, "verify", report); code != 0 || !strings.Contains(stdout, "reproduced byte for byte") {
		t.Fatalf("verify: exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	data, _ := os.ReadFile(report)
	i := strings.Index(string(data), `"f1": `)
	j := i + strings.IndexAny(string(data[i:]), ",\n")
	edited := string(data[:i]) + `"f1": 0.123` + string(data[j:])
	if err := os.WriteFile(filepath.Join(dir, "edited.json"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "verify", filepath.Join(dir, "edited.json")); code != 1 || !strings.Contains(stderr, "f1: report 0.123, re-run ") {
		t.Errorf("edited F1: exit %d, stderr %s; want 1 naming the F1", code, stderr)
	}

	// From files: the runs file streamed, hashed on the way.
	files := map[string]string{}
	for _, name := range []string{"gt/gt_page_27.csv", "gt/gt_page_28.csv", "gt/gt_page_29.csv", "runs.jsonl", "EQUIVALENCES.md"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "sample", "tabular", name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	in := writeFiles(t, files)
	args := []string{"score", "tabular", "--gt", filepath.Join(in, "gt"), "--rules", filepath.Join(in, "EQUIVALENCES.md"), "--bootstrap", "200"}
	streamed := filepath.Join(in, "streamed.json")
	if code, _, stderr := run(t, append(args, "--runs", filepath.Join(in, "runs.jsonl"), "--out", streamed)...); code != 0 {
		t.Fatalf("score: exit %d: %s", code, stderr)
	}
	got, _ := os.ReadFile(streamed)
	if want := strings.ReplaceAll(string(data), "sample/tabular/gt/", ""); string(got) != strings.ReplaceAll(want, "sample/tabular/", "") {
		t.Errorf("the streamed report is not the sample's with its inputs named by their base names")
	}
	if code, stdout, stderr := run(t, "verify", streamed); code != 0 {
		t.Fatalf("verify streamed: exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	// From standard input: the same bytes but the runs file's name.
	code, stdout, stderr := runEnv(t, files["runs.jsonl"], nil, append(args, "--runs", "-")...)
	if code != 0 || stdout != strings.Replace(string(got), `"name": "runs.jsonl"`, `"name": "`+stdinName+`"`, 1) {
		t.Errorf("--runs -: exit %d (%s), or the report differs from the file's but for the runs' name", code, stderr)
	}
	// Its verify is given the piped file with --stdin, or pipes it too.
	piped := filepath.Join(in, "piped.json")
	if err := os.WriteFile(piped, []byte(stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "verify", piped); code != 2 || !strings.Contains(stderr, "read from standard input: give the file that was piped with --stdin FILE") {
		t.Errorf("verify of a piped report without --stdin: exit %d, stderr %s; want 2 naming --stdin", code, stderr)
	}
	if code, stdout, stderr := run(t, "verify", piped, "--stdin", filepath.Join(in, "runs.jsonl")); code != 0 || !strings.Contains(stdout, "reproduced byte for byte") {
		t.Errorf("verify --stdin runs.jsonl: exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	if code, stdout, stderr := runEnv(t, files["runs.jsonl"], nil, "verify", piped, "--stdin", "-"); code != 0 || !strings.Contains(stdout, "reproduced byte for byte") {
		t.Errorf("verify --stdin -: exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	if code, _, stderr := run(t, "verify", piped, "--stdin", filepath.Join(in, "EQUIVALENCES.md")); code != 2 || !strings.Contains(stderr, "--stdin "+filepath.Join(in, "EQUIVALENCES.md")+" has ") {
		t.Errorf("verify --stdin of another file: exit %d, stderr %s; want 2 naming its size and hash", code, stderr)
	}
	if code, _, stderr := runEnv(t, stdout, nil, "verify", "-", "--stdin", "-"); code != 2 || !strings.Contains(stderr, "only one input may be -") {
		t.Errorf("verify - --stdin -: exit %d, stderr %s; want 2", code, stderr)
	}
	// A preview, scored whole.
	preview := filepath.Join(in, "preview.json")
	if code, _, stderr := run(t, append(args, "--runs", filepath.Join(in, "runs.jsonl"), "--preview", "open", "--permutations", "300", "--out", preview)...); code != 0 {
		t.Fatalf("score --preview: exit %d: %s", code, stderr)
	}
	if code, stdout, stderr := run(t, "verify", preview); code != 0 {
		t.Errorf("verify preview: exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	// An input byte changed.
	if err := os.WriteFile(filepath.Join(in, "gt", "gt_page_28.csv"), []byte(strings.Replace(files["gt/gt_page_28.csv"], "a", "b", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "verify", streamed); code != 2 || !strings.Contains(stderr, "gt_page_28.csv") || !strings.Contains(stderr, "sha256") {
		t.Errorf("changed input: exit %d, stderr %s; want 2 naming the file and its hash", code, stderr)
	}
	// A byte appended: the file is found by its name and named with its
	// size, not reported missing.
	if err := os.WriteFile(filepath.Join(in, "gt", "gt_page_28.csv"), []byte(files["gt/gt_page_28.csv"]+"x"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("has %d bytes; the report's input had %d bytes", len(files["gt/gt_page_28.csv"])+1, len(files["gt/gt_page_28.csv"]))
	if code, _, stderr := run(t, "verify", streamed); code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("grown input: exit %d, stderr %s; want 2 with %q", code, stderr, want)
	}
}

// TestPlan: docscore plan answers on the sample with the floor of 3
// pages and the pages needed for the effect.
func TestPlan(t *testing.T) {
	code, stdout, stderr := run(t, "plan", tabularGolden, "--effect", "0.01", "--format", "md")
	if code != 0 {
		t.Fatalf("plan: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"| f1 | 3 |", "cannot be significant", "needed for ±0.01"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("plan lacks %q:\n%s", want, stdout)
		}
	}
	if code, _, stderr := run(t, "plan", tabularGolden, "--effect", "-1"); code != 2 {
		t.Errorf("--effect -1: exit %d (%s), want 2", code, stderr)
	}
}

// TestVerifyScoreReceipts: the sample's score receipts report verifies
// (exit 0) from the embedded sample (scored from the repository's root,
// its files named sample/receipts/…) and from copies elsewhere, the
// references in refs/ below the report; a copy with one ROUGE-L F1
// edited by hand exits 1 naming it; a copy whose run has a byte changed
// exits 2.
func TestVerifyScoreReceipts(t *testing.T) {
	out := t.TempDir()
	fromRoot := filepath.Join(out, "root.json")
	t.Run("from the repository's root", func(t *testing.T) {
		t.Chdir(filepath.Join("..", "..", "..", ".."))
		if code, _, stderr := run(t, "score", "receipts", "--refs", "sample/receipts/refs", "--run", "sample/receipts/run.jsonl", "--bootstrap", "200", "--out", fromRoot); code != 0 {
			t.Fatalf("score: exit %d: %s", code, stderr)
		}
	})
	if code, stdout, stderr := run(t, "verify", fromRoot); code != 0 || !strings.Contains(stdout, "reproduced byte for byte") || !strings.Contains(stderr, "the embedded sample") {
		t.Fatalf("verify: exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}

	files := map[string]string{}
	entries, _ := os.ReadDir(sampleFile("refs"))
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(sampleFile("refs"), e.Name()))
		files["refs/"+e.Name()] = string(b)
	}
	b, _ := os.ReadFile(sampleFile("run.jsonl"))
	files["run.jsonl"] = string(b)
	dir := writeFiles(t, files)
	report := filepath.Join(dir, "receipts.json")
	if code, _, stderr := run(t, "score", "receipts", "--refs", filepath.Join(dir, "refs"), "--run", filepath.Join(dir, "run.jsonl"), "--bootstrap", "200", "--out", report); code != 0 {
		t.Fatalf("score: exit %d: %s", code, stderr)
	}
	if code, stdout, stderr := run(t, "verify", report); code != 0 {
		t.Fatalf("verify: exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	data, _ := os.ReadFile(report)
	edited := strings.Replace(string(data), `"rouge_l_f1_mean": 0.5880441191144785`, `"rouge_l_f1_mean": 0.6`, 1)
	if edited == string(data) {
		t.Fatal("no ROUGE-L F1 of 0.5880441191144785 to edit")
	}
	if err := os.WriteFile(filepath.Join(dir, "edited.json"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "verify", filepath.Join(dir, "edited.json")); code != 1 || !strings.Contains(stderr, "phases[0].rouge_l_f1_mean: report 0.6, re-run 0.5880441191144785") {
		t.Errorf("edited: exit %d, stderr %s; want 1 naming the F1", code, stderr)
	}
	if err := os.WriteFile(filepath.Join(dir, "run.jsonl"), []byte(strings.Replace(files["run.jsonl"], "c1", "c2", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "verify", report); code != 2 || !strings.Contains(stderr, "run.jsonl") || !strings.Contains(stderr, "sha256") {
		t.Errorf("changed run: exit %d, stderr %s; want 2 naming the run's hash", code, stderr)
	}
}

// TestVerifyEval: an eval report of a cases file (judge none) carries
// the cases file and every file it names, and verifies (exit 0) from a
// copy elsewhere given --inputs; a copy with one score edited by hand
// exits 1 naming it; a copy of a named file with a byte changed exits 2;
// a --prediction report verifies too, its --case-id recorded.
func TestVerifyEval(t *testing.T) {
	example := filepath.Join("..", "..", "..", "..", "examples", "harness", "pipeline")
	files := map[string]string{}
	for _, name := range []string{"cases.json", "invoice.png"} {
		b, err := os.ReadFile(filepath.Join(example, name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	dir := writeFiles(t, files)
	out := t.TempDir()
	report := filepath.Join(out, "report.json")
	if code, _, stderr := run(t, "eval", "--cases", filepath.Join(dir, "cases.json"), "--output", report); code != 0 && code != ExitThreshold {
		t.Fatalf("eval: exit %d: %s", code, stderr)
	}
	data, _ := os.ReadFile(report)
	for _, want := range []string{`"operation": "evaluate"`, `"role": "cases"`, `"name": "invoice.png"`, `"judge": "none"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the report's provenance lacks %s", want)
		}
	}
	if code, _, stderr := run(t, "verify", report); code != 2 || !strings.Contains(stderr, "invoice.png") {
		t.Errorf("without --inputs: exit %d, stderr %s; want 2 naming the missing file", code, stderr)
	}
	if code, stdout, stderr := run(t, "verify", report, "--inputs", dir); code != 0 || !strings.Contains(stdout, "reproduced byte for byte") {
		t.Fatalf("verify: exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	edited := strings.Replace(string(data), `"field_accuracy": 1`, `"field_accuracy": 0.5`, 1)
	if edited == string(data) {
		t.Fatal("no field_accuracy of 1 to edit")
	}
	if err := os.WriteFile(filepath.Join(out, "edited.json"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "verify", filepath.Join(out, "edited.json"), "--inputs", dir); code != 1 || !strings.Contains(stderr, "field_accuracy: report 0.5, re-run 1") {
		t.Errorf("edited: exit %d, stderr %s; want 1 naming the score", code, stderr)
	}
	png := []byte(files["invoice.png"])
	png[len(png)/2] ^= 1
	if err := os.WriteFile(filepath.Join(dir, "invoice.png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "verify", report, "--inputs", dir); code != 2 || !strings.Contains(stderr, "invoice.png") || !strings.Contains(stderr, "sha256") {
		t.Errorf("changed file: exit %d, stderr %s; want 2 naming its hash", code, stderr)
	}

	// One prediction: provenance, but no re-run.
	pred := writeFiles(t, map[string]string{"pred.json": `{"total": 7}`, "truth.json": `{"total": 7}`})
	predReport := filepath.Join(out, "pred.json")
	if code, _, stderr := run(t, "eval", "--prediction", filepath.Join(pred, "pred.json"), "--ground-truth", filepath.Join(pred, "truth.json"), "--judge", "none", "--output", predReport); code != 0 && code != ExitThreshold {
		t.Fatalf("eval --prediction: exit %d: %s", code, stderr)
	}
	b, _ := os.ReadFile(predReport)
	if !strings.Contains(string(b), `"role": "prediction"`) || !strings.Contains(string(b), `"role": "ground_truth"`) {
		t.Errorf("--prediction report's provenance lacks its inputs")
	}
	if code, stdout, stderr := run(t, "verify", predReport, "--inputs", pred); code != 0 {
		t.Errorf("verify --prediction report: exit %d, stdout %q, stderr %s; want 0", code, stdout, stderr)
	}
	// With --case-id: recorded, and used again.
	if code, _, stderr := run(t, "eval", "--prediction", filepath.Join(pred, "pred.json"), "--ground-truth", filepath.Join(pred, "truth.json"), "--case-id", "invoice-9", "--judge", "none", "--output", predReport); code != 0 && code != ExitThreshold {
		t.Fatalf("eval --prediction --case-id: exit %d: %s", code, stderr)
	}
	if code, stdout, stderr := run(t, "verify", predReport, "--inputs", pred); code != 0 {
		t.Errorf("verify --prediction --case-id report: exit %d, stdout %q, stderr %s; want 0", code, stdout, stderr)
	}
	b, _ = os.ReadFile(predReport)
	edited = strings.Replace(string(b), `"case_id": "invoice-9"`, `"case_id": "invoice-8"`, 1)
	if err := os.WriteFile(predReport, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "verify", predReport, "--inputs", pred); code != 1 || !strings.Contains(stderr, "invoice-8") {
		t.Errorf("verify of an edited case id: exit %d, stderr %s; want 1", code, stderr)
	}
}

// TestVerifyScoreReceiptsParquet: a receipts report whose references
// came from a cord-v2 parquet file (the sample's 24 annotations, no
// images) verifies beside it (exit 0): verify reads the parquet file as
// score receipts does.
func TestVerifyScoreReceiptsParquet(t *testing.T) {
	type row struct {
		GroundTruth *string `parquet:"ground_truth,optional"`
	}
	var rows []row
	for i := range 24 {
		b, err := os.ReadFile(sampleFile(fmt.Sprintf("refs/cord-test-%04d.json", i)))
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		rows = append(rows, row{GroundTruth: &s})
	}
	var buf bytes.Buffer
	if err := parquet.Write(&buf, rows); err != nil {
		t.Fatal(err)
	}
	runData, _ := os.ReadFile(sampleFile("run.jsonl"))
	dir := writeFiles(t, map[string]string{"test-00000-of-00001.parquet": buf.String(), "run.jsonl": string(runData)})
	report := filepath.Join(dir, "receipts.json")
	if code, _, stderr := run(t, "score", "receipts", "--refs", filepath.Join(dir, "test-00000-of-00001.parquet"), "--run", filepath.Join(dir, "run.jsonl"), "--bootstrap", "100", "--out", report); code != 0 {
		t.Fatalf("score: exit %d: %s", code, stderr)
	}
	data, _ := os.ReadFile(report)
	if !strings.Contains(string(data), `"name": "test-00000-of-00001.parquet"`) {
		t.Errorf("the provenance does not name the parquet file")
	}
	if code, stdout, stderr := run(t, "verify", report); code != 0 {
		t.Fatalf("verify: exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
}

// TestVerifyGoldens: the golden reports every host writes (the page and
// the Worker are tested to give these bytes) verify from the embedded
// sample, or from the example's folder: tabular with and without a
// preview, receipts complete and incomplete, and the pipeline example's
// eval report.
func TestVerifyGoldens(t *testing.T) {
	root := filepath.Join("..", "..", "..", "..")
	for _, c := range []struct{ golden, inputs string }{
		{tabularGolden, ""},
		{previewGolden, ""},
		{receiptsGolden, ""},
		{filepath.Join(root, "scoring", "receipts", "testdata", "golden", "receipts_incomplete.json"), ""},
		{filepath.Join(root, "scoring", "api", "evalapi", "testdata", "pipeline-report.json"), filepath.Join(root, "examples", "harness", "pipeline")},
	} {
		args := []string{"verify", c.golden}
		if c.inputs != "" {
			args = append(args, "--inputs", c.inputs)
		}
		if code, stdout, stderr := run(t, args...); code != 0 || !strings.Contains(stdout, "reproduced byte for byte") {
			t.Errorf("%s: exit %d, stdout %q, stderr %s", c.golden, code, stdout, stderr)
		}
	}
}
