package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/api/textapi"
)

// dinglehopper's test data, as scoring/pagetext keeps it.
const textData = "../../../../scoring/pagetext/testdata/dinglehopper"

// textFolders lays out a ground-truth folder and two engines' folders:
// "fake" is dinglehopper's fake OCR (2 changes) and Tesseract's ALTO of the
// bad scan; "clean" reads the first page perfectly and the bad scan as
// Tesseract does.
func textFolders(t *testing.T) (gt, fake, clean string) {
	dir := t.TempDir()
	gt, fake, clean = filepath.Join(dir, "gt"), filepath.Join(dir, "fake"), filepath.Join(dir, "clean")
	for _, f := range []struct{ from, to string }{
		{"test-gt.page2018.xml", "gt/hartkopf.gt.xml"},
		{"lorem-ipsum/lorem-ipsum-scan-bad.gt.page.xml", "gt/lorem.gt.xml"},
		{"lorem-ipsum/lorem-ipsum-scan.gt.page.xml", "gt/clean.gt.xml"},
		{"test-fake-ocr.page2018.xml", "fake/hartkopf.ocr.xml"},
		{"lorem-ipsum/lorem-ipsum-scan-bad.ocr.tesseract.alto.xml", "fake/lorem.alto.xml"},
		{"lorem-ipsum/lorem-ipsum-scan.ocr.tesseract.alto.xml", "fake/clean.alto.xml"},
		{"test-gt.page2018.xml", "clean/hartkopf.ocr.xml"},
		{"lorem-ipsum/lorem-ipsum-scan-bad.ocr.tesseract.alto.xml", "clean/lorem.alto.xml"},
		{"lorem-ipsum/lorem-ipsum-scan.ocr.tesseract.alto.xml", "clean/clean.alto.xml"},
	} {
		data, err := os.ReadFile(filepath.Join(textData, f.from))
		if err != nil {
			t.Fatal(err)
		}
		to := filepath.Join(dir, f.to)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return gt, fake, clean
}

func TestScoreTextFolders(t *testing.T) {
	gt, fake, _ := textFolders(t)
	code, stdout, stderr := runEnv(t, "", nil, "score", "text", "--gt", gt, "--ocr", fake, "--bootstrap", "0")
	if code != ExitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var rep struct {
		Kind  string `json:"kind"`
		Pages []struct {
			Page      string `json:"page"`
			CharEdits int    `json:"char_edits"`
			WordEdits int    `json:"word_edits"`
		} `json:"pages"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	got := ""
	for _, p := range rep.Pages {
		got += p.Page + ":" + strconv.Itoa(p.CharEdits) + "/" + strconv.Itoa(p.WordEdits) + " "
	}
	// dinglehopper's asserted distances: 0 and 0, 2 and 2, 8 and 7.
	if rep.Kind != "text" || got != "clean:0/0 hartkopf:2/2 lorem:8/7 " {
		t.Errorf("kind %q, pages %s", rep.Kind, got)
	}
	// One file each: a page whatever the names.
	code, stdout, _ = runEnv(t, "", nil, "score", "text", "--gt", filepath.Join(gt, "lorem.gt.xml"), "--ocr", filepath.Join(fake, "lorem.alto.xml"), "--format", "csv")
	if code != ExitOK || !strings.Contains(stdout, "ocr,default,,lorem,") || !strings.Contains(stdout, ",8,591,") {
		t.Errorf("exit %d, csv:\n%s", code, stdout)
	}
}

func TestScoreTextUnpairedAndErrors(t *testing.T) {
	gt, fake, _ := textFolders(t)
	if err := os.Remove(filepath.Join(fake, "clean.alto.xml")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(fake, "extra.txt"), []byte("stray"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runEnv(t, "", nil, "score", "text", "--gt", gt, "--ocr", fake, "--format", "md", "--bootstrap", "0")
	if code != ExitOK || !strings.Contains(stderr, `ground-truth page "clean" has no OCR`) || !strings.Contains(stderr, `OCR page "extra" has no ground truth`) ||
		!strings.Contains(stdout, "ground truth without OCR: `clean`") {
		t.Errorf("exit %d, stderr %q, markdown:\n%s", code, stderr, stdout)
	}
	bad := filepath.Join(t.TempDir(), "bad.xml")
	if err := os.WriteFile(bad, []byte("<PcGts>\n  <Page>\n</PcGts>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runEnv(t, "", nil, "score", "text", "--gt", bad, "--ocr", bad)
	if code != ExitInput || !strings.Contains(stderr, bad+":3:") {
		t.Errorf("bad XML: exit %d, stderr %q", code, stderr)
	}
	for _, args := range [][]string{{"--gt", gt}, {"--gt", gt, "--ocr", fake, "--runs", "r.jsonl"}, {"--gt", gt, "--ocr", fake, "--level", "word"}} {
		code, _, stderr = runEnv(t, "", nil, append([]string{"score", "text"}, args...)...)
		if code != ExitInput || stderr == "" {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr)
		}
	}
}

func TestScoreTextRunsFromStdin(t *testing.T) {
	gt, _, _ := textFolders(t)
	runs := `{"model":"m","phase":"c1","run":1,"page":"clean","text":"Lorem ipsum"}` + "\n"
	code, stdout, stderr := runEnv(t, runs, nil, "score", "text", "--gt", gt, "--runs", "-", "--bootstrap", "0")
	if code != ExitOK || !strings.Contains(stdout, `"model": "m"`) || !strings.Contains(stderr, `ground-truth page "hartkopf" has no OCR`) {
		t.Errorf("exit %d, stderr %q\n%s", code, stderr, stdout)
	}
}

// TestCompareTwoEngines: "docscore compare" of two engines' text reports
// gives the paired difference of each statistic with its interval.
func TestCompareTwoEngines(t *testing.T) {
	gt, fake, clean := textFolders(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "fake.json"), filepath.Join(dir, "clean.json")
	for _, c := range [][2]string{{fake, a}, {clean, b}} {
		if code, _, stderr := runEnv(t, "", nil, "score", "text", "--gt", gt, "--ocr", c[0], "--out", c[1]); code != ExitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
	}
	code, stdout, stderr := runEnv(t, "", nil, "compare", a, b, "--bootstrap", "500", "--permutations", "500")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct {
		Kind        string `json:"kind"`
		Family      string `json:"family"`
		Comparisons []struct {
			UnitsPaired int `json:"units_paired"`
			Stats       map[string]struct {
				A, B, Delta *float64
				CI          *[2]float64 `json:"ci"`
			} `json:"stats"`
		} `json:"comparisons"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Family != "text" || len(rep.Comparisons) != 1 || rep.Comparisons[0].UnitsPaired != 3 {
		t.Fatalf("comparison %s", stdout)
	}
	cer := rep.Comparisons[0].Stats["cer"]
	// clean reads hartkopf perfectly: 2 edits fewer of the same characters.
	if cer.Delta == nil || *cer.Delta >= 0 || cer.CI == nil || cer.CI[0] > *cer.Delta || cer.CI[1] < *cer.Delta {
		t.Errorf("cer comparison %+v", cer)
	}
}

// TestScoreTextVerifies: a text report carries its provenance (SPEC F.8)
// and "docscore verify" reproduces it byte for byte from its inputs,
// from files and from a streamed runs file.
func TestScoreTextVerifies(t *testing.T) {
	gt, fake, _ := textFolders(t)
	all := t.TempDir()
	for _, dir := range []string{gt, fake} {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			data, _ := os.ReadFile(filepath.Join(dir, e.Name()))
			if err := os.WriteFile(filepath.Join(all, e.Name()), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	runs := filepath.Join(all, "runs.jsonl")
	if err := os.WriteFile(runs, []byte(`{"model":"m","phase":"c1","run":1,"page":"lorem","text":"Lorem ipsum"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, args := range [][]string{{"--ocr", fake}, {"--runs", runs}} {
		out := filepath.Join(all, "report"+strconv.Itoa(i)+".json")
		if code, _, stderr := runEnv(t, "", nil, append([]string{"score", "text", "--gt", gt, "--bootstrap", "300", "--out", out}, args...)...); code != ExitOK {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		if code, _, stderr := runEnv(t, "", nil, "verify", out); code != ExitOK {
			t.Errorf("%q: verify exit %d: %s", args, code, stderr)
		}
	}
}

// textSample is the repository's copy of the page-text sample.
const textSample = "../../../../sample/text"

// TestScoreTextSample checks the page-text sample: its runs file is
// exactly the measured requests of its two pilot runs (Tesseract, page
// segmentation modes 3 and 6), and it scores as sample/text/README.md says.
func TestScoreTextSample(t *testing.T) {
	type record struct {
		Type     string `json:"type"`
		Phase    string `json:"phase"`
		SampleID string `json:"sample_id"`
		Status   string `json:"status"`
		Output   string `json:"output"`
		Model    struct {
			Name string `json:"name"`
		} `json:"model"`
		Engine struct {
			Kind    string `json:"kind"`
			Command string `json:"command"`
		} `json:"engine"`
	}
	var want []string
	for _, psm := range []string{"3", "6"} {
		data, err := os.ReadFile(filepath.Join(textSample, "pilot", "psm"+psm+".run.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		var model string
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var r record
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatal(err)
			}
			switch {
			case r.Type == "run":
				if r.Engine.Kind != "command" || r.Engine.Command != "tesseract {image} - --psm "+psm {
					t.Errorf("psm%s: engine %+v", psm, r.Engine)
				}
				model = r.Model.Name
			case r.Type == "request" && r.Phase == "c1":
				if r.Status != "ok" {
					t.Errorf("psm%s %s: status %s", psm, r.SampleID, r.Status)
				}
				b, _ := json.Marshal(map[string]string{"model": model, "phase": "eng", "page": r.SampleID, "text": r.Output})
				want = append(want, string(b))
			}
		}
	}
	data, err := os.ReadFile(filepath.Join(textSample, "runs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var m map[string]string
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(m)
		got = append(got, string(b))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("runs.jsonl is not the pilot runs' measured output:\n got %q\nwant %q", got, want)
	}

	code, stdout, stderr := runEnv(t, "", nil, "score", "text", "--gt", filepath.Join(textSample, "gt"),
		"--runs", filepath.Join(textSample, "runs.jsonl"), "--format", "md")
	if code != ExitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, row := range []string{
		"| tesseract-psm3 | eng | 2 | 0.1766 [0.0228, 0.5187] | 0.2708 [0.0228, 0.5187] | 0.3885 [0.0781, 1.0308] | 0.5544 [0.0781, 1.0308] | 0.6983 [0.3016, 0.9236] |",
		"| tesseract-psm6 | eng | 2 | 0.2175 [0.0234, 0.6493] | 0.3364 [0.0234, 0.6493] | 0.4211 [0.0818, 1.1231] | 0.6024 [0.0818, 1.1231] | 0.6853 [0.2884, 0.9202] |",
		"| `ſ` → `f` | 27 |",
	} {
		if !strings.Contains(stdout, row) {
			t.Errorf("no %q in the report:\n%s", row, stdout)
		}
	}
}

// TestScoreTextRunsStreamedIsTheAPIs: "score text --runs", streamed as it
// is read (its JSON rows through a temporary file), writes the bytes the
// operation answers with the whole runs file in memory, in every format,
// the JSON's provenance included.
func TestScoreTextRunsStreamedIsTheAPIs(t *testing.T) {
	gt, _, _ := textFolders(t)
	var runs strings.Builder
	for i, page := range []string{"hartkopf", "lorem", "clean", "lorem", "hartkopf"} {
		fmt.Fprintf(&runs, `{"model":"m%d","phase":"c1","run":%d,"page":%q,"text":"Lorem ipsum dolor sit amet, ſed do"}`+"\n", i%2, i, page)
	}
	path := filepath.Join(t.TempDir(), "runs.jsonl")
	if err := os.WriteFile(path, []byte(runs.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var files []api.File
	entries, _ := os.ReadDir(gt)
	for _, e := range entries {
		data, _ := os.ReadFile(filepath.Join(gt, e.Name()))
		files = append(files, api.File{Name: filepath.Join(gt, e.Name()), Text: string(data)})
	}
	for _, format := range []string{"json", "csv", "md"} {
		code, stdout, stderr := runEnv(t, "", nil, "score", "text", "--gt", gt, "--runs", path, "--format", format, "--bootstrap", "300")
		if code != ExitOK {
			t.Fatalf("%s: exit %d: %s", format, code, stderr)
		}
		b := 300
		res, err := textapi.ScoreTextOperation().Run(context.Background(), &textapi.TextRequest{GT: files,
			Runs: &api.File{Name: "runs.jsonl", Text: runs.String()}, Format: format, IntervalOptions: api.IntervalOptions{Bootstrap: &b}})
		if err != nil {
			t.Fatal(err)
		}
		if stdout != string(res.Bytes) {
			t.Errorf("%s: the streamed report differs from the operation's:\n%s", format, stdout)
		}
	}
}
