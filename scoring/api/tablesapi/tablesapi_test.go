package tablesapi

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/api/compareapi"
	"github.com/docscore/docscore/scoring/inputerr"
)

func sampleFile(t *testing.T, name string) api.File {
	t.Helper()
	b, err := fs.ReadFile(sample.Tables, "tables/"+name)
	if err != nil {
		t.Fatal(err)
	}
	return api.File{Name: name, Text: string(b)}
}

type report struct {
	Kind  string `json:"kind"`
	Cells []struct {
		Model, Phase    string
		Tables, Missing int
		TEDS            *float64 `json:"teds"`
		GriTSCon        *float64 `json:"grits_con"`
		CI              json.RawMessage
	}
	Tables []struct {
		Model, Table, Status string
		TEDS                 *float64 `json:"teds"`
	}
}

func score(t *testing.T, req TablesRequest) report {
	t.Helper()
	b, err := ScoreTables(req)
	if err != nil {
		t.Fatal(err)
	}
	var r report
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestFilesAndRunsAgree scores the sample as two file pairs and as one
// runs file: the same tables, the same scores; the worst table first.
func TestFilesAndRunsAgree(t *testing.T) {
	gt := sampleFile(t, "gt.html")
	a := score(t, TablesRequest{GT: []api.File{gt}, Pred: []api.File{sampleFile(t, "model-a.html")}, Model: "model-a", Phase: "c1"})
	runs := score(t, TablesRequest{GT: []api.File{gt}, Runs: sampleFile(t, "runs.jsonl")})
	if a.Kind != "tables" || len(a.Cells) != 1 || a.Cells[0].Tables != 3 || len(a.Tables) != 3 {
		t.Fatalf("files: %+v", a)
	}
	if len(runs.Cells) != 2 || runs.Cells[0].Model != "model-a" || *runs.Cells[0].TEDS != *a.Cells[0].TEDS {
		t.Fatalf("runs: %+v, files TEDS %v", runs.Cells, *a.Cells[0].TEDS)
	}
	for i := 1; i < len(a.Tables); i++ {
		if *a.Tables[i].TEDS < *a.Tables[i-1].TEDS {
			t.Errorf("tables not worst first: %v then %v", *a.Tables[i-1].TEDS, *a.Tables[i].TEDS)
		}
	}
	// PubTabNet's own scores of its sample predictions (demo.ipynb).
	want := map[string]float64{"#1": 0.9298260149130074, "#2": 0.8070175438596492, "#3": 0.9978213507625272}
	for _, r := range a.Tables {
		if *r.TEDS != want[r.Table] {
			t.Errorf("table %s: TEDS %v, PubTabNet %v", r.Table, *r.TEDS, want[r.Table])
		}
	}
}

func TestMissingPredictionScoresZero(t *testing.T) {
	r := score(t, TablesRequest{GT: []api.File{sampleFile(t, "gt.html")},
		Pred: []api.File{{Name: "p.md", Text: "| a |\n|---|\n| 1 |\n"}}})
	if r.Cells[0].Missing != 2 {
		t.Fatalf("missing = %d, want 2", r.Cells[0].Missing)
	}
	for _, row := range r.Tables {
		if row.Status == "missing" && *row.TEDS != 0 {
			t.Errorf("missing table %s: TEDS %v", row.Table, *row.TEDS)
		}
	}
}

func TestBadRunsLine(t *testing.T) {
	_, err := ScoreTables(TablesRequest{GT: []api.File{sampleFile(t, "gt.html")},
		Runs: api.File{Name: "runs.jsonl", Text: `{"model":"m","table":"#1","html":"<table></table>"}` + "\n" + `{"model":"m","table":"#2"}` + "\n"}})
	if err == nil || !strings.HasPrefix(err.Error(), "runs.jsonl:2:1: ") {
		t.Errorf("err = %v, want runs.jsonl:2:1: …", err)
	}
}

// TestCompareTwoModels compares two models' reports: paired differences
// with the table as the unit.
func TestCompareTwoModels(t *testing.T) {
	gt := sampleFile(t, "gt.html")
	seed, boot := uint64(7), 200
	iv := api.IntervalOptions{Seed: &seed, Bootstrap: &boot}
	base, err := ScoreTables(TablesRequest{GT: []api.File{gt}, Pred: []api.File{sampleFile(t, "model-a.html")}, IntervalOptions: iv})
	if err != nil {
		t.Fatal(err)
	}
	nw, err := ScoreTables(TablesRequest{GT: []api.File{gt}, Pred: []api.File{sampleFile(t, "model-b.html")}, IntervalOptions: iv})
	if err != nil {
		t.Fatal(err)
	}
	req := &compareapi.CompareRequest{Base: api.File{Name: "a.json", Text: string(base)}, New: api.File{Name: "b.json", Text: string(nw)}, Format: "json"}
	res, err := compareapi.CompareOperation().Run(api.NoCancel, req)
	if err != nil {
		t.Fatal(err)
	}
	out := string(res.Bytes)
	for _, want := range []string{`"teds"`, `"grits_con"`, `"tables"`} {
		if !strings.Contains(out, want) {
			t.Errorf("comparison lacks %s:\n%s", want, out)
		}
	}
}

func TestDetail(t *testing.T) {
	res, err := DetailOperation().Run(api.NoCancel, &DetailRequest{GT: sampleFile(t, "gt.html"), Pred: sampleFile(t, "model-b.html"), Table: "#2"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res.Value)
	var d struct {
		GT, Pred struct {
			Cells []struct {
				Colspan int
				Differs bool
			}
		}
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	merged, differ := false, 0
	for _, c := range d.Pred.Cells {
		merged = merged || c.Colspan == 2 && c.Differs
	}
	for _, c := range d.GT.Cells {
		if c.Differs {
			differ++
		}
	}
	if !merged || differ != 2 {
		t.Errorf("detail: merged cell marked %v, %d ground-truth cells differ (want 2)\n%s", merged, differ, b)
	}
}

// TestDetailPredTable: a runs line's table given as a file of its own is
// "#1" there; pred_table names it, and without it the prediction is
// missing (the ground truth's key "#2" is not in that file).
func TestDetailPredTable(t *testing.T) {
	gt := sampleFile(t, "gt.html")
	one := api.File{Name: "pred.html", Text: "<table><tr><td>x</td></tr></table>"}
	for _, tc := range []struct {
		predTable string
		wantPred  bool
	}{{"", false}, {"#1", true}} {
		res, err := DetailOperation().Run(api.NoCancel, &DetailRequest{GT: gt, Pred: one, Table: "#2", PredTable: tc.predTable})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res.Value)
		var d struct {
			Table string
			Pred  *struct{ Rows int }
		}
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatal(err)
		}
		if d.Table != "#2" || (d.Pred != nil) != tc.wantPred {
			t.Errorf("pred_table %q: table %q, prediction present %v (want %v)", tc.predTable, d.Table, d.Pred != nil, tc.wantPred)
		}
	}
}

// cliIntervals are the interval options the command line sends when none
// is given: its defaults, each set, as the report's provenance records.
func cliIntervals() api.IntervalOptions {
	boot, level, seed := 2000, 0.95, uint64(0)
	return api.IntervalOptions{Bootstrap: &boot, CILevel: &level, Seed: &seed}
}

// TestSampleGolden holds the report of the sample's runs file (the
// request the Worker's end-to-end test sends) to testdata/sample_runs.json,
// which "docscore score tables --gt gt.html --runs runs.jsonl" wrote in
// sample/tables, provenance included.
func TestSampleGolden(t *testing.T) {
	want, err := os.ReadFile("testdata/sample_runs.json")
	if err != nil {
		t.Fatal(err)
	}
	got, err := ScoreTables(TablesRequest{GT: []api.File{sampleFile(t, "gt.html")}, Runs: sampleFile(t, "runs.jsonl"), IntervalOptions: cliIntervals()})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("report differs from testdata/sample_runs.json:\n%.600s", got)
	}
}

// TestSampleMarkdownGolden holds the Markdown of the same scoring to
// testdata/sample_runs.md: every mean with its interval, marked † when the
// interval comes from fewer than ten tables, and each cell's worst tables.
func TestSampleMarkdownGolden(t *testing.T) {
	got, err := ScoreTables(TablesRequest{GT: []api.File{sampleFile(t, "gt.html")}, Runs: sampleFile(t, "runs.jsonl"), Format: "md", IntervalOptions: cliIntervals()})
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("UPDATE_GOLDEN") != "" {
		os.WriteFile("testdata/sample_runs.md", got, 0o644)
	}
	want, err := os.ReadFile("testdata/sample_runs.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Markdown differs from testdata/sample_runs.md:\n%s", got)
	}
	for _, s := range []string{"| model-a | c1 | 3 | 0.9116 [0.8070, 0.9978] † |", "Marked †", "## Worst tables: model-b c1"} {
		if !bytes.Contains(got, []byte(s)) {
			t.Errorf("Markdown lacks %q", s)
		}
	}
}

// TestReadRunsErrorsShowTheLine: a runs file's errors name the file, line
// and column and carry the line for the caret; a byte order mark and blank
// lines are not errors.
func TestReadRunsErrorsShowTheLine(t *testing.T) {
	const ok = `{"model": "m", "table": "t", "markdown": "| a |\n|---|\n| 1 |\n"}`
	const ok2 = `{"model": "m", "table": "u", "markdown": "| a |\n|---|\n| 1 |\n"}`
	if runs, err := readRuns(api.File{Name: "runs.jsonl", Text: "\ufeff" + ok + "\n\n" + ok2 + "\n"}); err != nil || len(runs) != 1 {
		t.Fatalf("BOM and blank line: %d runs, %v", len(runs), err)
	}
	for _, tt := range []struct {
		text, want, source string
	}{
		{ok + "\n  {\"model\": \"m\", \"table\": 1}\n", "runs.jsonl:2:", `  {"model": "m", "table": 1}`},
		{ok + "\n{\"model\": \"m\"}\n", "runs.jsonl:2:1: expected \"model\" and \"table\" members", `{"model": "m"}`},
		{"{\"model\": \"m\", \"table\": \"t\"}\n", "runs.jsonl:1:1: expected exactly one of", `{"model": "m", "table": "t"}`},
		{"{not json\n", "runs.jsonl:1:2: invalid JSON", "{not json"},
	} {
		_, err := readRuns(api.File{Name: "runs.jsonl", Text: tt.text})
		ie, isInput := inputerr.As(err)
		if !isInput || !strings.HasPrefix(ie.Head(), tt.want) || ie.Source != tt.source || ie.Column == 0 {
			t.Errorf("%q: error %v (source %q), want %s… with source %q and a column", tt.text, err, sourceOf(ie), tt.want, tt.source)
		}
	}
}

func sourceOf(e *inputerr.Error) string {
	if e == nil {
		return ""
	}
	return e.Source
}
