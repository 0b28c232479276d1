package cli

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/docscore/docscore/cmd/docscore/internal/pilot"
	"github.com/docscore/docscore/cmd/docscore/internal/prices"
	"github.com/docscore/docscore/httpapi"
	"github.com/docscore/docscore/rules"
	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/api/compareapi"
	"github.com/docscore/docscore/scoring/harness"
	"github.com/docscore/docscore/scoring/harness/casefile"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
	"github.com/docscore/docscore/scoring/runfile"
	"github.com/docscore/docscore/scoring/schema"
	"github.com/docscore/docscore/scoring/tabular/tabularread"
)

// excerpt is the source line and the caret line under an error's head.
var (
	sourceLine = regexp.MustCompile(`^ *(\d+) \| (.*)$`)
	caretLine  = regexp.MustCompile(`^ *\| ([ \t]*)\^$`)
)

// TestEveryReaderShowsTheCaret: every reader of a user's file reports a
// bad input in one shape, file:line:col: message, then the source line
// and a caret under the character at fault (at names it).
func TestEveryReaderShowsTheCaret(t *testing.T) {
	gtHeader := "name,title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count\n"
	tests := []struct {
		reader string
		err    func() error
		line   int
		at     string // the text the caret points at
	}{
		{"tabular runs (JSONL)", func() error {
			_, err := tabularread.ReadRuns("runs.jsonl", []byte("{\"model\": \"m\", \"page\": \"1\", \"records\": []}\n{\"model\": x}\n"), schema.Default(), tabularread.RunsOptions{})
			return err
		}, 2, "x}"},
		{"ground truth (CSV)", func() error {
			_, err := tabularread.ReadGT("gt_page_1.csv", []byte(gtHeader+"Anna,\"Dott,,,,,,,\n"), schema.Default())
			return err
		}, 2, `"Dott`},
		{"schema (JSON)", func() error {
			_, err := schema.Parse("s.json", []byte("{\"key\": \"k\",\n \"columns\": [{\"name\": \"a\", \"kind\": \"colour\"}]}"))
			return err
		}, 2, `"colour"`},
		{"rule file (Markdown)", func() error {
			_, err := rules.Parse("r.md", []byte("## Ignore\n\n| field | token | position | side | status |\n|---|---|---|---|---|\n| name | x | up | model | settled |\n"))
			return err
		}, 5, "up |"},
		{"compare report (JSON, BOM)", func() error {
			_, _, err := compareapi.CompareReport(context.Background(), &compareapi.CompareRequest{Within: true, Base: api.File{Name: "r.json", Text: "\ufeff{\"kind\": \"tabular\",\n \"fields\": [1,, 2]}"}})
			return err
		}, 2, ", 2]"},
		{"CORD reference (JSON)", func() error {
			_, err := receiptsread.ParseCORD("refs/a.json", []byte("{\"valid_line\": [{\"words\": [\n {\"text\": 5}]}]}"), receiptsread.ParseOptions{})
			return err
		}, 2, "5}"},
		{"receipts references (JSONL)", func() error {
			_, err := receiptsread.ParseJSONL("refs.jsonl", strings.NewReader("{\"sample_id\": \"a\", \"reference\": \"x\"}\n{\"sample_id\": 3}\n"))
			return err
		}, 2, "3}"},
		{"harness cases (JSON)", func() error {
			_, err := harness.ReadCaseFile(strings.NewReader("{\"case_id\": \"c\", \"prediction\": 1,\n \"references\": [{\"authority\": \"gold\", \"value\": 1}]}"), "cases.json", casefile.ReadOptions{})
			return err
		}, 2, `"gold"`},
		{"pilot run file (JSONL)", func() error {
			_, err := runfile.Read(strings.NewReader("{\"type\": \"run\", \"run_id\": \"r\", \"planned\": {\"phases\": [\"c1\"], \"sample_ids\": [\"s1\"]}}\n{\"type\": \"request\", \"phase\": \"c1\", \"sample_id\": \"s1\", \"status\": \"ok\", \"output\": 3}\n"), "run.jsonl", runfile.ReadOptions{})
			return err
		}, 2, "3}"},
		{"pilot configuration (TOML)", func() error {
			_, err := pilot.ParseConfig("p.toml", []byte("[dataset]\n  pth = \"x\"\n"))
			return err
		}, 2, "pth"},
		{"price table (TOML)", func() error {
			_, err := prices.Parse("p.toml", []byte("written = 2026-01-01\n[[model]]\nprovider = \"openai\"\nmodel = \"m\"\ninput = -1\n"))
			return err
		}, 5, "input"},
	}
	for _, tt := range tests {
		t.Run(tt.reader, func(t *testing.T) {
			err := tt.err()
			e, ok := inputerr.As(err)
			if !ok {
				t.Fatalf("error %v: want an input error", err)
			}
			checkCaret(t, e.Error(), tt.line, tt.at)
		})
	}

	// The HTTP API: the message has the same shape; column and
	// source_line come as fields too.
	h := httpapi.New(httpapi.Options{})
	w := httptest.NewRecorder()
	r := httptest.NewRequest("POST", "/v1/score/tabular", strings.NewReader("{\"bootstrap\": 10,\n \"gate\": \"x\"}"))
	r.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(w, r)
	var body struct{ Error api.ErrorDetail }
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.Error.Column == nil || body.Error.SourceLine == nil {
		t.Fatalf("HTTP error %s: want column and source_line", w.Body.Bytes())
	}
	checkCaret(t, body.Error.Message, 2, `"x"`)
}

// checkCaret checks msg is a head naming line, the source line and a
// caret under the text at.
func checkCaret(t *testing.T, msg string, line int, at string) {
	t.Helper()
	lines := strings.Split(msg, "\n")
	if len(lines) < 3 {
		t.Fatalf("error %q: want the source line and a caret", msg)
	}
	src, caret := sourceLine.FindStringSubmatch(lines[1]), caretLine.FindStringSubmatch(lines[2])
	if src == nil || caret == nil || src[1] != strconv.Itoa(line) || !strings.Contains(lines[0], ":"+strconv.Itoa(line)+":") {
		t.Fatalf("error:\n%s\nwant line %d shown with a caret", msg, line)
	}
	// The caret line pads with spaces (tabs kept) up to the column.
	under := []rune(src[2])
	col := len([]rune(caret[1]))
	if col > len(under) || !strings.HasPrefix(string(under[col:]), at) {
		t.Errorf("error:\n%s\nthe caret is not under %q", msg, at)
	}
}
