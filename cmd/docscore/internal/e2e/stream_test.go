//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/docscore/docscore/scoring/tabular"
	"github.com/docscore/docscore/scoring/tabular/tabulartest"
)

// genCorpus writes a generated corpus of images (5 pages, a raw response
// in every fifth image, malformed lines before the images bad) into dir:
// its GT files and runs.jsonl. It returns the paths and the request.
func genCorpus(t *testing.T, dir string, images int, bad []int) ([]string, tabular.Request) {
	t.Helper()
	c := tabulartest.New(tabulartest.Large(images, 5))
	var runs bytes.Buffer
	if _, err := c.WriteRuns(&runs, tabulartest.RunsOptions{Images: images, BadLines: bad, Responses: true}); err != nil {
		t.Fatal(err)
	}
	req := tabular.Request{GT: c.GT, Runs: tabular.File{Name: "runs.jsonl", Data: runs.Bytes()}}
	return writeFiles(t, dir, append(c.GT, req.Runs)), req
}

// writeFiles writes files into dir under their names and returns the
// paths.
func writeFiles(t *testing.T, dir string, files []tabular.File) []string {
	t.Helper()
	var paths []string
	for _, f := range files {
		p := filepath.Join(dir, f.Name)
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// streamed is what the page says of its last scoring as a stream
// (data-streamed), or nil when it was not streamed.
type streamInfo struct {
	Workers int     `json:"workers"`
	Images  int     `json:"images"`
	MS      float64 `json:"ms"`
	Bytes   int64   `json:"bytes"`
}

func streamedInfo(t *testing.T, ctx context.Context) *streamInfo {
	t.Helper()
	var raw string
	evalJSON(t, ctx, `JSON.stringify(document.body.dataset.streamed || '')`, &raw)
	if raw == "" {
		return nil
	}
	var s streamInfo
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		t.Fatal(err)
	}
	return &s
}

// envInt reads a whole number from the environment, or def.
func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// streamTab opens the page with every runs file streamed, by a pool of
// workers.
func streamTab(t *testing.T, timeout time.Duration, workers int) context.Context {
	t.Helper()
	ctx, _ := newTabAt(t, timeout, fmt.Sprintf("%s?stream-from=0&pool=%d", siteURL, workers))
	return ctx
}

// TestStreamedRunsEqualTheCLI: the sample and a generated corpus, their
// runs file streamed (read in chunks, scored by a pool of one worker and
// of two, merged in order), download the command line's bytes in every
// format; the images table holds every image, and a drill-down reads its
// line back from the file.
func TestStreamedRunsEqualTheCLI(t *testing.T) {
	dir := t.TempDir()
	samplePaths := sampleFiles(t, filepath.Join(dir))
	genDir := filepath.Join(dir, "gen")
	if err := os.MkdirAll(genDir, 0o755); err != nil {
		t.Fatal(err)
	}
	genPaths, _ := genCorpus(t, genDir, 600, nil)
	sampleArgs := []string{"score", "tabular", "--gt", "gt_page_27.csv", "gt_page_28.csv", "gt_page_29.csv", "--runs", "runs.jsonl", "--rules", "EQUIVALENCES.md"}
	var genGT []string
	for _, p := range genPaths[:len(genPaths)-1] {
		genGT = append(genGT, filepath.Base(p))
	}
	genArgs := append(append([]string{"score", "tabular", "--gt"}, genGT...), "--runs", "runs.jsonl")
	for _, workers := range []int{1, 2} {
		for _, c := range []struct {
			name  string
			dir   string
			paths []string
			args  []string
		}{{"sample", dir, samplePaths, sampleArgs}, {"generated", genDir, genPaths, genArgs}} {
			ctx := streamTab(t, 2*time.Minute, workers)
			act(t, ctx, drop(c.paths...))
			s := streamedInfo(t, ctx)
			if s == nil || s.Workers != workers {
				t.Fatalf("%s, %d workers: streamed %+v, want %d workers", c.name, workers, s, workers)
			}
			t.Logf("%s, %d workers: scored %+v", c.name, workers, s)
			for _, format := range []string{"json", "csv", "md"} {
				got := download(t, ctx, format)
				want := cliRun(t, c.dir, append(c.args, "--format", format)...)
				if !bytes.Equal(got, want) {
					t.Errorf("%s, %d workers: downloaded %s (%d bytes) differs from the command line's (%d bytes)", c.name, workers, format, len(got), len(want))
				}
			}
			var rep struct{ Images []json.RawMessage }
			if err := json.Unmarshal(cliRun(t, c.dir, append(c.args, "--format", "json")...), &rep); err != nil {
				t.Fatal(err)
			}
			if s.Images != len(rep.Images) {
				t.Errorf("%s, %d workers: %d images in the table, the report has %d", c.name, workers, s.Images, len(rep.Images))
			}
		}
		// The drill-down of the sample's failed line 17 shows its raw
		// response, read back from the file by its offsets.
		ctx := streamTab(t, time.Minute, workers)
		act(t, ctx, drop(samplePaths...))
		if err := chromedp.Do(ctx, openImageRow(16)); err != nil {
			t.Fatalf("%d workers: %v", workers, err)
		}
		waitLine(t, ctx, 17)
		var summary string
		evalJSON(t, ctx, `JSON.stringify(document.getElementById('detail-summary').textContent)`, &summary)
		if !strings.Contains(summary, "Failed (no JSON array of objects in response)") {
			t.Errorf("%d workers: the drill-down of line 17: %q", workers, summary)
		}
	}
}

// TestStreamedCancelThenDrop: Cancel in the middle of a streamed runs
// file stops it, says so, and leaves the page working: the sample
// dropped next is scored. The file's 8,000 images (45 MB) are 43
// batches (of about 1 MB, stream.js) and, by a pool of one worker at the
// page's 350 images/s on a 2-core machine, about 23 s of scoring: Cancel
// comes at the first images scored, a second or so in.
func TestStreamedCancelThenDrop(t *testing.T) {
	dir := t.TempDir()
	genPaths, _ := genCorpus(t, dir, 8000, nil)
	sdir := filepath.Join(dir, "sample")
	if err := os.MkdirAll(sdir, 0o755); err != nil {
		t.Fatal(err)
	}
	samplePaths := sampleFiles(t, sdir)
	ctx := streamTab(t, 4*time.Minute, 1)
	g := generation(t, ctx)
	if err := chromedp.Do(ctx, drop(genPaths...)); err != nil {
		t.Fatal(err)
	}
	// Images are being scored: Cancel.
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`!document.getElementById('progress-cancel').hidden && /[1-9][0-9,]* images/.test(document.getElementById('progress-label').textContent)`,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatal(err)
	}
	var label string
	evalJSON(t, ctx, `JSON.stringify(document.getElementById('progress-label').textContent)`, &label)
	if !strings.Contains(label, "images/s") {
		t.Errorf("progress %q: want images, rate and time left", label)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("progress-cancel"))); err != nil {
		t.Fatal(err)
	}
	waitScored(t, ctx, g)
	var alert string
	// Cancel is said in the status, not shown as an error.
	evalJSON(t, ctx, `JSON.stringify(document.getElementById('status').textContent)`, &alert)
	if !strings.Contains(alert, "Scoring cancelled") {
		t.Fatalf("after Cancel the status says %q", alert)
	}
	act(t, ctx, chromedp.Click(chromedp.ID("clear")))
	act(t, ctx, drop(samplePaths...))
	evalJSON(t, ctx, `JSON.stringify(document.getElementById('error').hidden ? '' : document.getElementById('error').textContent)`, &alert)
	if alert != "" {
		t.Fatalf("the drop after Cancel: %q", alert)
	}
	if rows := tableRows(t, ctx, "#cells"); len(rows) == 0 {
		t.Fatal("the drop after Cancel shows no cells")
	}
	if s := streamedInfo(t, ctx); s == nil || s.Images != 36 {
		t.Fatalf("the drop after Cancel: streamed %+v, want the sample's 36 images", s)
	}
}

// badLineImage is the image before which TestStreamedBadLine writes a
// malformed line (make test-page-large: 150,000). At 600, of 1,100
// images (6.2 MB), it is in the fourth of the file's six batches (of
// about 1 MB, stream.js).
var badLineImage = envInt("DOCSCORE_BAD_LINE_IMAGE", 600)

// TestStreamedBadLine: a malformed line in a streamed runs file is
// reported with its line number, as the command line reports it; with
// "Score what is valid" the page goes on past it, and its report is the
// command line's with --skip-bad-inputs.
func TestStreamedBadLine(t *testing.T) {
	dir := t.TempDir()
	paths, req := genCorpus(t, dir, badLineImage+500, []int{badLineImage})
	_, wantErr := tabular.ScoreRequest(req)
	if wantErr == nil {
		t.Fatal("the corpus has no bad line")
	}
	ctx := streamTab(t, 10*time.Minute, 2)
	act(t, ctx, chromedp.Click(chromedp.ID("skip-bad-inputs"))) // on by default: off
	act(t, ctx, drop(paths...))
	var alert string
	evalJSON(t, ctx, `JSON.stringify(document.getElementById('error').textContent)`, &alert)
	// The alert holds the error's first line (file:line:col: message),
	// then its source line and caret, each line a line of the box.
	for _, line := range strings.Split(wantErr.Error(), "\n") {
		if !strings.Contains(alert, strings.TrimSpace(line)) {
			t.Fatalf("the alert %q does not report %q (its line %q)", alert, wantErr, line)
		}
	}
	act(t, ctx, chromedp.Click(chromedp.ID("skip-bad-inputs")))
	var gt []string
	for _, p := range paths[:len(paths)-1] {
		gt = append(gt, filepath.Base(p))
	}
	args := append(append([]string{"score", "tabular", "--gt"}, gt...), "--runs", "runs.jsonl", "--skip-bad-inputs", "--format", "json")
	got := download(t, ctx, "json")
	if want := cliRun(t, dir, args...); !bytes.Equal(got, want) {
		t.Errorf("with Skip bad lines the report (%d bytes) differs from the command line's (%d bytes)", len(got), len(want))
	}
}
