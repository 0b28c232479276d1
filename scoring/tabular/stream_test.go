package tabular_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/tabular"
	"github.com/docscore/docscore/scoring/tabular/tabularreport"
	"github.com/docscore/docscore/scoring/tabular/tabularstream"
	"github.com/docscore/docscore/scoring/tabular/tabulartest"
)

// inMemory is the report of req in a format, as ScoreRequest and the
// report's writers give it, or the error.
func inMemory(req tabular.Request, format string) ([]byte, error) {
	rep, err := tabular.ScoreRequest(req)
	return writeInMemory(rep, err, format)
}

// writeInMemory is rep in a format, by the report's writers, or err when
// the scoring failed.
func writeInMemory(rep *tabularreport.Report, err error, format string) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	switch format {
	case "json":
		return rep.JSON()
	case "csv":
		err = rep.WriteCSV(&b)
	case "md":
		err = rep.WriteMarkdown(&b)
	}
	return b.Bytes(), err
}

// streamed is the same through Stream.
func streamed(req tabular.Request, format string, jobs int) ([]byte, error) {
	var b bytes.Buffer
	_, err := tabularstream.Stream(nil, req, bytes.NewReader(req.Runs.Data), &b, tabularstream.StreamOptions{Format: format, Jobs: jobs, MaxMatches: 64})
	if err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// sameAsInMemory holds Stream to the in-memory path, bytes or error, for
// every format, with 1 and 8 jobs. The in-memory report is scored once
// and written in each format (its writers do not change it: the page
// downloads one report in three).
func sameAsInMemory(t *testing.T, what string, req tabular.Request) {
	t.Helper()
	rep, repErr := tabular.ScoreRequest(req)
	for _, format := range []string{"json", "csv", "md"} {
		want, wantErr := writeInMemory(rep, repErr, format)
		for _, jobs := range []int{1, 8} {
			got, err := streamed(req, format, jobs)
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Errorf("%s, %s, %d jobs: error %v, want %v", what, format, jobs, err, wantErr)
				continue
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s, %s, %d jobs: %d bytes differ from the in-memory %d bytes", what, format, jobs, len(got), len(want))
			}
		}
		// The page's path: scored in parts by separate scorers, the
		// results encoded between them and the merger.
		for _, scorers := range []int{1, 3} {
			got, err := paged(req, format, scorers, uint64(scorers))
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Errorf("%s, %s, paged by %d: error %v, want %v", what, format, scorers, err, wantErr)
				continue
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s, %s, paged by %d: %d bytes differ from the in-memory %d bytes", what, format, scorers, len(got), len(want))
			}
		}
	}
}

// TestStreamSample: the bundled sample, with and without its rule file
// and intervals, gives the in-memory bytes.
func TestStreamSample(t *testing.T) {
	// CPU-bound on inputs of its own: it runs beside the other parallel
	// tests, once the sequential ones (TestStreamFlatMemory) are done.
	t.Parallel()
	for _, withRules := range []bool{true, false} {
		files, err := sample.TabularRequest(withRules)
		if err != nil {
			t.Fatal(err)
		}
		req := tabular.Request{GT: files.GT, Runs: files.Runs, Rules: files.Rules}
		sameAsInMemory(t, fmt.Sprintf("sample (rules %v)", withRules), req)
		req.Intervals = tabular.Intervals{Bootstrap: 200, Seed: 3}
		sameAsInMemory(t, fmt.Sprintf("sample with intervals (rules %v)", withRules), req)
	}
}

// TestStreamGeneratedCorpus: a generated corpus with failures, raw
// responses and malformed lines (skipped), with intervals, gives the
// in-memory bytes; the memo bound (64 matches) is crossed many times.
// Under the race detector and WebAssembly it runs a third of the images:
// 203 lines are still four batches of Stream's (64 lines) on four of the
// eight workers and about ten parts of paged's, over all five models and
// three phases, with the same three kinds of malformed line (one missing
// its page near the start and at the end, one cut off midway).
func TestStreamGeneratedCorpus(t *testing.T) {
	// CPU-bound on inputs of its own: it runs beside the other parallel
	// tests, once the sequential ones (TestStreamFlatMemory) are done.
	t.Parallel()
	n := 600
	if slowBuild {
		n = 200
	}
	c := tabulartest.New(tabulartest.Large(n, 7))
	var runs bytes.Buffer
	if _, err := c.WriteRuns(&runs, tabulartest.RunsOptions{Images: n, BadLines: []int{3, n / 2, n - 1}, Responses: true}); err != nil {
		t.Fatal(err)
	}
	files, _ := sample.TabularRequest(true)
	req := tabular.Request{GT: c.GT, Runs: tabular.File{Name: "runs.jsonl", Data: runs.Bytes()}, Rules: files.Rules, SkipBadLines: true,
		Intervals: tabular.Intervals{Bootstrap: 50}}
	sameAsInMemory(t, "generated corpus", req)
	req.SkipBadLines = false
	_, err := streamed(req, "json", 8)
	if err == nil || !strings.HasPrefix(err.Error(), "runs.jsonl:4:") {
		t.Errorf("the first malformed line, not skipped: %v; want the error of runs.jsonl:4", err)
	}
}

// TestStreamErrors: every error, and the order of two errors, is the
// in-memory path's.
func TestStreamErrors(t *testing.T) {
	// CPU-bound on inputs of its own: it runs beside the other parallel
	// tests, once the sequential ones (TestStreamFlatMemory) are done.
	t.Parallel()
	files, _ := sample.TabularRequest(true)
	lines := strings.SplitAfter(strings.TrimSuffix(string(files.Runs.Data), "\n"), "\n")
	noPage := strings.Replace(lines[2], `"page": "29"`, `"page": "99"`, 1)
	bad := "{\"model\": \"m\", \"page\": \n"
	// A row for a field the schema lacks (rules.Check's error) and a row
	// that does not parse.
	badRules := &tabular.File{Name: "EQUIVALENCES.md", Data: []byte("## 1. Ignore rules\n\n| field | token | position | side | status | witness |\n|---|---|---|---|---|---|\n| nosuch | x | leading | model | settled | w |\n")}
	unparsable := &tabular.File{Name: "EQUIVALENCES.md", Data: []byte("## 1. Ignore rules\n\n| field | token | position | side | status | witness |\n|---|---|---|---|---|---|\n| name | x | sideways | model | settled | w |\n")}
	cases := map[string]struct {
		runs  []string
		rules *tabular.File
		skip  bool
	}{
		"bad line":                   {runs: []string{lines[0], bad, lines[1]}},
		"bad line skipped":           {runs: []string{lines[0], bad, lines[1]}, skip: true},
		"repeated image":             {runs: []string{lines[0], lines[1], lines[0]}},
		"repeated image skipped":     {runs: []string{lines[0], lines[1], lines[0]}, skip: true},
		"missing page":               {runs: []string{lines[0], noPage, lines[1]}},
		"missing page then bad line": {runs: []string{lines[0], noPage, lines[1], bad}},
		"bad rule file":              {runs: []string{lines[0], lines[1]}, rules: badRules},
		"bad rule file and bad line": {runs: []string{lines[0], bad}, rules: badRules},
		"bad rules and missing page": {runs: []string{lines[0], noPage}, rules: badRules},
		"unparsable rules, bad page": {runs: []string{lines[0], noPage}, rules: unparsable},
		"unparsable rules":           {runs: []string{lines[0]}, rules: unparsable},
		"empty":                      {runs: nil},
		"blank lines only":           {runs: []string{"\n", "  \n"}},
		"not UTF-8":                  {runs: []string{lines[0], "{\"model\": \"\xff\"}\n"}},
		"unended last line":          {runs: []string{lines[0], strings.TrimSuffix(lines[1], "\n")}},
		"cut last line":              {runs: []string{lines[0], `{"model": "m", "ph`}},
	}
	for what, c := range cases {
		req := tabular.Request{GT: files.GT, Runs: tabular.File{Name: "runs.jsonl", Data: []byte(strings.Join(c.runs, ""))}, Rules: files.Rules, SkipBadLines: c.skip}
		if c.rules != nil {
			req.Rules = c.rules
		}
		sameAsInMemory(t, what, req)
		if _, err := inMemory(req, "json"); testing.Verbose() {
			t.Logf("%s: %v", what, err)
		}
	}
}

// TestStreamRefusesPreview: a preview is scored in memory.
func TestStreamRefusesPreview(t *testing.T) {
	files, _ := sample.TabularRequest(true)
	req := tabular.Request{GT: files.GT, Runs: files.Runs, Rules: files.Rules, Preview: "open"}
	if _, err := streamed(req, "json", 2); err == nil {
		t.Error("a preview was streamed; want it refused")
	}
}
