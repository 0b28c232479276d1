package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/docscore/docscore/cmd/docscore/internal/cord"
	"github.com/docscore/docscore/cmd/docscore/internal/inputfile"
	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/api/receiptsapi"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
	"github.com/docscore/docscore/scoring/receipts/receiptstest"
	"github.com/docscore/docscore/scoring/stats"
	"github.com/docscore/docscore/scoring/tabular"
	"github.com/docscore/docscore/scoring/tabular/tabulartest"
)

// TestStreamedScoreEqualsTheOperation: score tabular, which streams the
// runs file, writes the bytes of the in-memory operation (the page's and
// the HTTP API's) for the sample and a generated corpus, in every
// format, with --jobs 1 and 8, to a file and to standard output, from a
// file and from standard input.
func TestStreamedScoreEqualsTheOperation(t *testing.T) {
	dir := t.TempDir()
	files, err := sample.TabularRequest(true)
	if err != nil {
		t.Fatal(err)
	}
	c := tabulartest.New(tabulartest.Large(400, 4))
	var runs bytes.Buffer
	if _, err := c.WriteRuns(&runs, tabulartest.RunsOptions{Images: 400, BadLines: []int{10, 200}, Responses: true}); err != nil {
		t.Fatal(err)
	}
	write := func(sub string, f tabular.File) string {
		p := filepath.Join(dir, sub, filepath.Base(f.Name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	rules := write("rules", *files.Rules)
	corpora := []struct {
		name string
		gt   []tabular.File
		runs tabular.File
		args []string
	}{
		{"sample", files.GT, files.Runs, []string{"--bootstrap", "100"}},
		{"generated", c.GT, tabular.File{Name: "runs.jsonl", Data: runs.Bytes()}, []string{"--skip-bad-lines", "--bootstrap", "50"}},
	}
	for _, corpus := range corpora {
		for _, g := range corpus.gt {
			write(corpus.name+"/gt", g)
		}
		runsPath := write(corpus.name, corpus.runs)
		for _, format := range []string{"json", "csv", "md"} {
			// The command line names its files by their base names, as
			// the report's provenance does (SPEC F.8).
			req := &api.TabularRequest{Runs: api.File{Name: filepath.Base(runsPath), Text: string(corpus.runs.Data)}, Format: format,
				Rules: &api.File{Name: filepath.Base(rules), Text: string(files.Rules.Data)}, SkipBadLines: corpus.name == "generated"}
			for _, g := range corpus.gt {
				req.GT = append(req.GT, api.File{Name: filepath.Base(g.Name), Text: string(g.Data)})
			}
			if corpus.name == "sample" {
				req.IntervalOptions = intervalOptions(100, 0.95, 0)
			} else {
				req.IntervalOptions = intervalOptions(50, 0.95, 0)
			}
			res, err := api.ScoreTabularOperation().Run(api.NoCancel, req)
			if err != nil {
				t.Fatal(err)
			}
			for _, jobs := range []string{"1", "8"} {
				out := filepath.Join(dir, "out."+format)
				args := append([]string{"score", "tabular", "--gt", filepath.Join(dir, corpus.name, "gt"), "--runs", runsPath, "--rules", rules,
					"--format", format, "--jobs", jobs, "--out", out}, corpus.args...)
				var stdout, stderr bytes.Buffer
				if code := Main(args, Env{Stdout: &stdout, Stderr: &stderr, Stdin: strings.NewReader("")}); code != 0 {
					t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
				}
				got, _ := os.ReadFile(out)
				if !bytes.Equal(got, res.Bytes) {
					t.Errorf("%s %s --jobs %s: %d bytes, the operation's %d differ", corpus.name, format, jobs, len(got), len(res.Bytes))
				}
				// From standard input to standard output: the runs file's
				// name is <stdin> in both.
				args[5], args[len(args)-len(corpus.args)-1] = "-", "-"
				stdreq := *req
				stdreq.Runs.Name = stdinName
				want, err := api.ScoreTabularOperation().Run(api.NoCancel, &stdreq)
				if err != nil {
					t.Fatal(err)
				}
				stdout.Reset()
				if code := Main(args, Env{Stdout: &stdout, Stderr: &stderr, Stdin: bytes.NewReader(corpus.runs.Data)}); code != 0 {
					t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
				}
				if !bytes.Equal(stdout.Bytes(), want.Bytes) {
					t.Errorf("%s %s --jobs %s from standard input: %d bytes, the operation's %d differ", corpus.name, format, jobs, stdout.Len(), len(want.Bytes))
				}
			}
		}
	}
}

// TestJobsRefused: --jobs 0 is a usage error.
func TestJobsRefused(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Main([]string{"score", "tabular", "--sample", "--jobs", "0"}, Env{Stdout: &stdout, Stderr: &stderr, Stdin: strings.NewReader("")})
	if code != ExitInput || !strings.Contains(stderr.String(), "--jobs 0") {
		t.Errorf("--jobs 0: exit %d, %q; want exit 2 naming --jobs", code, stderr.String())
	}
}

// TestStreamedReceiptsEqualsTheOperation: score receipts, which streams
// the run file, writes the bytes of the in-memory operation for the
// sample runs and a generated run with a malformed line (skipped), in
// every format, with --jobs 1 and 8, to a file and to standard output.
func TestStreamedReceiptsEqualsTheOperation(t *testing.T) {
	dir := t.TempDir()
	refs, refInputs, err := cord.LoadDescribed(inputfile.Reader{}, sampleFile("refs"), receiptsread.ParseOptions{}, 2)
	if err != nil {
		t.Fatal(err)
	}
	var gen bytes.Buffer
	if _, err := receiptstest.WriteRun(&gen, refs, receiptstest.Options{Records: 480, BadLines: []int{300}, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	genPath := filepath.Join(dir, "generated.jsonl")
	if err := os.WriteFile(genPath, gen.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, run := range []struct {
		path string
		args []string
	}{
		{sampleFile("run.jsonl"), nil},
		{sampleFile("run_incomplete.jsonl"), []string{"--allow-incomplete", "--bootstrap", "100"}},
		{genPath, []string{"--skip-bad-lines", "--bootstrap", "100"}},
	} {
		data, err := os.ReadFile(run.path)
		if err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{"json", "csv", "md"} {
			args := append([]string{"score", "receipts", "--refs", sampleFile("refs"), "--run", run.path, "--format", format}, run.args...)
			req := &receiptsapi.ReceiptsRequest{References: refs, ReferenceInputs: refInputs, Run: api.File{Name: run.path, Text: string(data)}, Format: format,
				AllowIncomplete: slices.Contains(run.args, "--allow-incomplete"), SkipBadLines: slices.Contains(run.args, "--skip-bad-lines"),
				IntervalOptions: intervalOptions(stats.DefaultReplicates, stats.DefaultLevel, 0)}
			if slices.Contains(run.args, "--bootstrap") {
				req.IntervalOptions = intervalOptions(100, stats.DefaultLevel, 0)
			}
			want, _, err := receiptsapi.ScoreReceiptsReport(api.NoCancel, req)
			if err != nil {
				t.Fatal(err)
			}
			for _, jobs := range []string{"1", "8"} {
				out := filepath.Join(dir, "out."+format)
				a := append(slices.Clone(args), "--jobs", jobs, "--out", out)
				var stdout, stderr bytes.Buffer
				if code := Main(a, Env{Stdout: &stdout, Stderr: &stderr, Stdin: strings.NewReader("")}); code != 0 {
					t.Fatalf("%s: exit %d: %s", strings.Join(a, " "), code, stderr.String())
				}
				got, _ := os.ReadFile(out)
				if !bytes.Equal(got, want.Bytes) {
					t.Errorf("%s %s --jobs %s: %d bytes, the operation's %d differ", run.path, format, jobs, len(got), len(want.Bytes))
				}
				stdout.Reset()
				a = append(slices.Clone(args), "--jobs", jobs)
				if code := Main(a, Env{Stdout: &stdout, Stderr: &stderr, Stdin: strings.NewReader("")}); code != 0 || !bytes.Equal(stdout.Bytes(), want.Bytes) {
					t.Errorf("%s %s --jobs %s to standard output: exit %d, %d bytes, the operation's %d", run.path, format, jobs, code, stdout.Len(), len(want.Bytes))
				}
			}
		}
	}
}

// TestInterruptedLeavesNoFile: Ctrl-C (a cancelled context) during a
// streamed scoring with --out exits 130 and leaves no file, for tabular
// and receipts.
func TestInterruptedLeavesNoFile(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"score", "tabular", "--sample"},
		{"score", "receipts", "--refs", sampleFile("refs"), "--run", sampleFile("run.jsonl")},
	} {
		out := filepath.Join(dir, "report.json")
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var stdout, stderr bytes.Buffer
		code := Main(append(args, "--out", out), Env{Stdout: &stdout, Stderr: &stderr, Stdin: strings.NewReader(""), Context: ctx})
		entries, _ := os.ReadDir(dir)
		if code != ExitInterrupted || len(entries) != 0 {
			t.Errorf("%s --out: exit %d, %d files left (%v); want 130 and none", strings.Join(args, " "), code, len(entries), entries)
		}
	}
}

// TestFileSpoolCopies: a spool's contents reach a file whole, through the
// file's ReadFrom (within the kernel), in chunks; a context ended during
// the copy stops it at the end of the chunk, with the context's error.
func TestFileSpoolCopies(t *testing.T) {
	old := spoolChunk
	spoolChunk = 1 << 20
	defer func() { spoolChunk = old }()
	data := bytes.Repeat([]byte("0123456789abcdef"), 3<<20/16+7) // 3 MiB and more
	spool := func(ctx context.Context) io.Reader {
		s, err := newFileSpool(ctx, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Write(data); err != nil {
			t.Fatal(err)
		}
		r, err := s.Contents()
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	out, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if n, err := io.Copy(out, spool(context.Background())); err != nil || n != int64(len(data)) {
		t.Fatalf("copied %d bytes of %d, error %v", n, len(data), err)
	}
	if got, _ := os.ReadFile(out.Name()); !bytes.Equal(got, data) {
		t.Fatalf("the file holds %d bytes, not the spool's %d", len(got), len(data))
	}
	ctx, cancel := context.WithCancel(context.Background())
	var got bytes.Buffer
	n, err := io.Copy(&cancelling{w: &got, cancel: cancel}, spool(ctx))
	if !errors.Is(err, context.Canceled) || n != spoolChunk || got.Len() != int(spoolChunk) {
		t.Fatalf("cancelled during the first chunk: %d bytes copied, error %v; want the chunk's %d and context.Canceled", n, err, spoolChunk)
	}
}

// cancelling writes to w and cancels at its first write.
type cancelling struct {
	w      io.Writer
	cancel func()
}

func (c *cancelling) Write(p []byte) (int, error) {
	c.cancel()
	return c.w.Write(p)
}
