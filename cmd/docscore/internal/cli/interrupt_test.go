package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestScoreInterrupted: the scoring commands run under the command's
// context, so Ctrl-C (a cancelled context) stops them: exit 130, and no
// report is written.
func TestScoreInterrupted(t *testing.T) {
	refs, run := sampleFile("refs"), sampleFile("run.jsonl")
	for _, args := range [][]string{
		{"score", "tabular", "--sample"},
		{"score", "receipts", "--refs", refs, "--run", run},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var out, errb bytes.Buffer
		code := Main(args, Env{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader(""), Context: ctx})
		if code != ExitInterrupted || out.Len() != 0 || !strings.Contains(errb.String(), "context canceled") {
			t.Errorf("%s, interrupted: exit %d, %d bytes out, stderr %q; want exit 130, nothing out, the interruption said", strings.Join(args, " "), code, out.Len(), errb.String())
		}
	}
}

// TestScoreTextInterrupted: "score text" stops on Ctrl-C, from folders or
// from a runs file, and also inside the alignment of one long page: two
// pages of 200,000 characters 5,000 edits apart take seconds to align;
// cancelled 50 ms in, the command exits 130 with nothing written, long
// before the alignment would end.
func TestScoreTextInterrupted(t *testing.T) {
	gt, fake, _ := textFolders(t)
	dir := t.TempDir()
	runs := filepath.Join(dir, "runs.jsonl")
	if err := os.WriteFile(runs, []byte(`{"model":"m","phase":"p","run":1,"page":"lorem","text":"Lorem"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The long page and its reading, 5,000 characters changed.
	r := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("über die vielen Sorgen wegen deſſelben vergaß Hartkopf der Frau Amtmännin das verſprochene")
	var long strings.Builder
	for long.Len() < 200_000 {
		long.WriteString(words[r.IntN(len(words))])
		long.WriteByte(' ')
	}
	page := []rune(long.String())
	ocr := append([]rune(nil), page...)
	for range 5000 {
		ocr[r.IntN(len(ocr))] = 'x'
	}
	longGT := filepath.Join(dir, "gt")
	if err := os.MkdirAll(longGT, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(longGT, "long.gt.txt"), []byte(string(page)), 0o644); err != nil {
		t.Fatal(err)
	}
	line, _ := json.Marshal(map[string]any{"model": "m", "phase": "p", "run": 1, "page": "long", "text": string(ocr)})
	longRuns := filepath.Join(dir, "long.jsonl")
	if err := os.WriteFile(longRuns, append(line, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args  []string
		after time.Duration
	}{
		{[]string{"score", "text", "--gt", gt, "--ocr", fake}, 0},
		{[]string{"score", "text", "--gt", gt, "--runs", runs}, 0},
		{[]string{"score", "text", "--gt", longGT, "--runs", longRuns, "--out", filepath.Join(dir, "report.json")}, 50 * time.Millisecond},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		if c.after == 0 {
			cancel()
		} else {
			time.AfterFunc(c.after, cancel)
		}
		var out, errb bytes.Buffer
		start := time.Now()
		code := Main(c.args, Env{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader(""), Context: ctx})
		took := time.Since(start)
		cancel()
		if code != ExitInterrupted || out.Len() != 0 || !strings.Contains(errb.String(), "context canceled") {
			t.Errorf("%s, interrupted: exit %d, %d bytes out, stderr %q; want exit 130, nothing out, the interruption said", strings.Join(c.args, " "), code, out.Len(), errb.String())
		}
		if _, err := os.Stat(filepath.Join(dir, "report.json")); err == nil {
			t.Errorf("%s: a report was written", strings.Join(c.args, " "))
		}
		// Uncancelled, the long page's alignment takes tens of seconds
		// here; a check between lines only would return after it.
		if c.after > 0 && took > 5*time.Second {
			t.Errorf("%s: exit %d only after %v: the alignment went on after Ctrl-C", strings.Join(c.args, " "), code, took)
		}
		t.Logf("%s: exit %d after %v", strings.Join(c.args[:3], " "), code, took.Round(time.Millisecond))
	}
}
