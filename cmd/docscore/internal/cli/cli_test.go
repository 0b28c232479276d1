package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// run executes the command line in-process with an empty environment and
// returns the exit code and the captured streams.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return runEnv(t, "", nil, args...)
}

// runEnv executes the command line in-process with stdin and the given
// environment variables.
func runEnv(t *testing.T, stdin string, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, Env{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader(stdin),
		Getenv: func(k string) string { return env[k] }, Context: context.Background()})
	return code, out.String(), errb.String()
}

// writeFiles creates files under a temporary directory and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestHelpOnEveryCommand(t *testing.T) {
	root := NewRoot(&Env{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}})
	var paths [][]string
	for _, c := range root.Commands() {
		if c.Name() == "help" {
			continue
		}
		paths = append(paths, []string{c.Name()})
		for _, sub := range c.Commands() {
			paths = append(paths, []string{c.Name(), sub.Name()})
		}
	}
	if len(paths) < 3 {
		t.Fatalf("only %d commands registered", len(paths))
	}
	for _, p := range paths {
		code, out, _ := run(t, append(p, "--help")...)
		if code != 0 || !strings.Contains(out, "Exit codes:") || !strings.Contains(out, "Usage:") {
			t.Errorf("docscore %s --help: exit %d, output lacks usage or exit codes:\n%s", strings.Join(p, " "), code, out)
		}
	}
}

// TestScoreTabularSampleMatchesLibraryGolden: the sample's report in
// every format is the library's golden file, with the default intervals
// and, under --bootstrap 0, the bytes from before intervals.
func TestScoreTabularSampleMatchesLibraryGolden(t *testing.T) {
	for _, c := range []struct {
		golden string
		flags  []string
	}{
		{"sample", nil},
		{"sample", []string{"--bootstrap", "2000", "--ci-level", "0.95", "--seed", "0"}},
		{"sample_bootstrap0", []string{"--bootstrap", "0"}},
		{"sample_bootstrap0", []string{"--bootstrap", "0", "--ci-level", "0.5", "--seed", "9"}},
	} {
		for _, format := range []string{"json", "csv", "md"} {
			checkSampleGolden(t, c.golden, format, c.flags)
		}
	}
}

func checkSampleGolden(t *testing.T, golden, format string, flags []string) {
	t.Helper()
	{
		code, out, errOut := run(t, append([]string{"score", "tabular", "--sample", "--format", format}, flags...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		want, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "scoring", "tabular", "testdata", "golden", golden+"."+format))
		if err != nil {
			t.Fatal(err)
		}
		got := out
		if format == "json" && strings.Contains(strings.Join(flags, " "), "--seed 9") {
			// The seed and level given are recorded in the provenance
			// (SPEC F.8); with --bootstrap 0 every number is the golden's.
			got, want = withoutProvenance(t, out), []byte(withoutProvenance(t, string(want)))
			if !strings.Contains(out, `"seed": 9,`) || !strings.Contains(out, `"ci_level": 0.5,`) {
				t.Errorf("%v: the provenance does not record the seed and level given", flags)
			}
		}
		if got != string(want) {
			t.Errorf("--format %s %v differs from the library's golden report %s", format, flags, golden)
		}
		if !strings.Contains(errOut, "EQUIVALENCES.md:46: settled row without a witness") {
			t.Errorf("warning not on stderr: %q", errOut)
		}
	}
}

// withoutProvenance is a JSON report without its provenance member.
func withoutProvenance(t testing.TB, report string) string {
	t.Helper()
	i := strings.Index(report, ",\n  \"provenance\": {")
	if i < 0 {
		t.Fatalf("no provenance member in %.200q", report)
	}
	return report[:i] + "\n}\n"
}

func TestScoreTabularFilesAndOut(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"gt/gt_page_01.csv": "name,title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count\nAnna Bon,,,,,,,,\n",
		"runs.jsonl":        `{"model":"m","phase":"G","run":1,"page":"1","records":[{"name":"Anna Bon"}]}` + "\n",
	})
	out := filepath.Join(dir, "r.json")
	code, stdout, errOut := run(t, "score", "tabular", "--gt", filepath.Join(dir, "gt"), "--runs", filepath.Join(dir, "runs.jsonl"), "--out", out)
	if code != 0 || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, errOut)
	}
	b, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(b), `"f1": 1`) {
		t.Fatalf("report %s: %v", b, err)
	}
	// Files given one by one, the shell-glob way, work too.
	code, _, errOut = run(t, "score", "tabular", "--runs", filepath.Join(dir, "runs.jsonl"), "--gt", filepath.Join(dir, "gt", "gt_page_01.csv"), filepath.Join(dir, "gt", "gt_page_01.csv"))
	if code != ExitInput || !strings.Contains(errOut, "page 01 is also given by") {
		t.Fatalf("same page twice: exit %d, %q", code, errOut)
	}
}

func TestScoreTabularExitCodes(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"gt_page_1.csv": "name,title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count\nAnna Bon,,,,,,,,\nPiero Zen,,,,,,,,\n",
		"good.jsonl":    `{"model":"m","phase":"G","run":1,"page":"1","records":[{"name":"Anna Bon"}]}` + "\n",
		"bad.jsonl":     `{"model":"m","phase":"G","run":1,"page":"1","records":[]}` + "\n" + `{"model": "m", oops}` + "\n",
		"nopage.jsonl":  `{"model":"m","phase":"G","run":1,"page":"9","records":[]}` + "\n",
		"empty/x.txt":   "",
	})
	gt := filepath.Join(dir, "gt_page_1.csv")
	tests := []struct {
		name    string
		args    []string
		code    int
		message string
	}{
		{"ok", []string{"--gt", gt, "--runs", filepath.Join(dir, "good.jsonl")}, 0, ""},
		{"under floor", []string{"--gt", gt, "--runs", filepath.Join(dir, "good.jsonl"), "--fail-under", "f1=0.9"}, ExitThreshold, "m / G: f1 0.6667 < 0.9"},
		{"above floor", []string{"--gt", gt, "--runs", filepath.Join(dir, "good.jsonl"), "--fail-under", "f1=0.6,precision=1"}, 0, ""},
		{"unknown metric", []string{"--gt", gt, "--runs", filepath.Join(dir, "good.jsonl"), "--fail-under", "speed=0.9"}, ExitInput, `unknown metric "speed"`},
		{"malformed line", []string{"--gt", gt, "--runs", filepath.Join(dir, "bad.jsonl")}, ExitInput, "bad.jsonl:2:16: invalid JSON: invalid character"},
		{"skip bad lines", []string{"--gt", gt, "--runs", filepath.Join(dir, "bad.jsonl"), "--skip-bad-lines"}, 0, "warning: skipped: "},
		{"page without GT", []string{"--gt", gt, "--runs", filepath.Join(dir, "nopage.jsonl")}, ExitInput, "nopage.jsonl:1: page 9 has no ground-truth file"},
		{"missing runs", []string{"--gt", gt}, ExitInput, "expected --gt and --runs"},
		{"missing file", []string{"--gt", gt, "--runs", filepath.Join(dir, "none.jsonl")}, ExitInput, "none.jsonl: no such file"},
		{"no csv in dir", []string{"--gt", filepath.Join(dir, "empty"), "--runs", filepath.Join(dir, "good.jsonl")}, ExitInput, "no *.csv"},
		{"bad format", []string{"--sample", "--format", "xml"}, ExitInput, `--format "xml"`},
		{"bad gate", []string{"--sample", "--gate", "1.5"}, ExitInput, "--gate"},
		{"bad ci level", []string{"--sample", "--ci-level", "1.5"}, ExitInput, "--ci-level 1.5: expected a confidence level strictly between 0 and 1"},
		{"ci level 0", []string{"--sample", "--ci-level", "0"}, ExitInput, "--ci-level 0: expected"},
		{"negative bootstrap", []string{"--sample", "--bootstrap", "-1"}, ExitInput, "--bootstrap -1: expected a whole number of replicates from 0 to 1000000"},
		{"too many replicates", []string{"--sample", "--bootstrap", "1000001"}, ExitInput, "--bootstrap 1000001"},
		{"fractional bootstrap", []string{"--sample", "--bootstrap", "1.5"}, ExitInput, `invalid argument "1.5" for "--bootstrap"`},
		{"negative seed", []string{"--sample", "--seed", "-1"}, ExitInput, `invalid argument "-1" for "--seed"`},
		{"bad flag", []string{"--sample", "--nope"}, ExitInput, "unknown flag"},
		{"bad preview", []string{"--sample", "--preview", "12"}, ExitInput, "no OPEN row at line 12"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errOut := run(t, append([]string{"score", "tabular"}, tt.args...)...)
			if code != tt.code || !strings.Contains(errOut, tt.message) {
				t.Fatalf("exit %d (want %d), stderr %q (want %q)", code, tt.code, errOut, tt.message)
			}
		})
	}
}

func TestRulesCheck(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"ok.md":            "## 1. Ignore rules\n\n| field | token | position | side | status | witness |\n|---|---|---|---|---|---|\n| place_of_stay | in | leading | model | settled | seen |\n",
		"bad.md":           "## 1. Ignore rules\n\n| field | token | position | side | status | witness |\n|---|---|---|---|---|---|\n| place_of_stay | in | middle | model | settled | seen |\n| nome | x | leading | model | settled | seen |\n",
		"gt/gt_page_1.csv": "name,title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count\nAnna,,,,in Ghetto,,,,\n",
	})
	code, out, _ := run(t, "rules", "check", "--rules", filepath.Join(dir, "ok.md"))
	if code != 0 || !strings.Contains(out, "ok: 1 settled, 0 OPEN rows") {
		t.Fatalf("valid file: exit %d, %q", code, out)
	}
	code, out, _ = run(t, "rules", "check", "--rules", filepath.Join(dir, "ok.md"), "--gt", filepath.Join(dir, "gt"))
	if code != ExitInput || !strings.Contains(out, `ok.md:5:19: model-side ignore "in" (leading) of field place_of_stay matches the ground truth "in Ghetto"`) {
		t.Fatalf("GT check: exit %d, %q", code, out)
	}
	code, out, _ = run(t, "rules", "check", "--rules", filepath.Join(dir, "ok.md"), "--format", "json")
	if code != 0 || !strings.Contains(out, `"settled": 1`) || !strings.Contains(out, `"line": 5`) {
		t.Fatalf("json: exit %d, %q", code, out)
	}
}

// TestRulesWithTwoErrors checks that a rule file with two errors (an
// unknown position on line 5, which Parse finds, and an unknown field on
// line 6, which only the check finds) has both reported at once, by rules
// check in text and JSON and by scoring, which refuses it.
func TestRulesWithTwoErrors(t *testing.T) {
	const bad = "## 1. Ignore rules\n\n| field | token | position | side | status | witness |\n|---|---|---|---|---|---|\n" +
		"| place_of_stay | in | middle | model | settled | seen |\n| nome | x | leading | model | settled | seen |\n"
	dir := writeFiles(t, map[string]string{
		"bad.md":        bad,
		"gt_page_1.csv": "name,title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count\nAnna Bon,,,,,,,,\n",
		"runs.jsonl":    `{"model":"m","phase":"G","run":1,"page":"1","records":[{"name":"Anna Bon"}]}` + "\n",
	})
	rules := filepath.Join(dir, "bad.md")
	want := []string{
		`bad.md:5:24: unknown position "middle" (expected leading, trailing or anywhere)`,
		`bad.md:6:3: unknown field "nome" (expected name, title`,
	}
	tests := []struct {
		name string
		args []string
	}{
		{"rules check", []string{"rules", "check", "--rules", rules}},
		{"rules check json", []string{"rules", "check", "--rules", rules, "--format", "json"}},
		{"score tabular", []string{"score", "tabular", "--gt", filepath.Join(dir, "gt_page_1.csv"), "--runs", filepath.Join(dir, "runs.jsonl"), "--rules", rules}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := run(t, tt.args...)
			if code != ExitInput {
				t.Fatalf("exit %d, want %d; stdout %q, stderr %q", code, ExitInput, out, errOut)
			}
			if strings.HasSuffix(tt.name, "json") {
				out = twoErrorReport(t, out, bad)
			}
			for _, w := range want {
				if !strings.Contains(out+errOut, w) {
					t.Errorf("output lacks %q:\n%s%s", w, out, errOut)
				}
			}
		})
	}
}

// twoErrorReport checks that the JSON report of rules check keeps its shape
// and, with errors, still has the file's sha256 and the row that parsed (at
// line 6); it returns the errors' text, one a line.
func twoErrorReport(t *testing.T, out, src string) string {
	t.Helper()
	var res struct {
		File     string                  `json:"file"`
		SHA256   string                  `json:"sha256"`
		Settled  *int                    `json:"settled"`
		Open     *int                    `json:"open"`
		Errors   []struct{ Text string } `json:"errors"`
		Warnings []json.RawMessage       `json:"warnings"`
		Rows     []struct {
			Line int `json:"line"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	sum := sha256.Sum256([]byte(src))
	if res.SHA256 != hex.EncodeToString(sum[:]) || len(res.Errors) != 2 || res.Warnings == nil ||
		len(res.Rows) != 1 || res.Rows[0].Line != 6 || res.Settled == nil || *res.Settled != 1 || res.Open == nil {
		t.Errorf("JSON report: %s", out)
	}
	var texts []string
	for _, e := range res.Errors {
		texts = append(texts, e.Text)
	}
	return strings.Join(texts, "\n")
}
