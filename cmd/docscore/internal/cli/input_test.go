package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestInputRules holds every family to the same input rules: a directory
// where a file is expected is exit 2, "-" reads standard input for any
// single-file flag but for one flag only, and bytes that are not UTF-8
// are an error naming the line.
func TestInputRules(t *testing.T) {
	const header = "name,title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count\nAnna Bon,,,,,,,,\n"
	good := `{"model":"m","phase":"G","run":1,"page":"1","records":[{"name":"Anna Bon"}]}` + "\n"
	dir := writeFiles(t, map[string]string{
		"gt_page_1.csv": header,
		"runs.jsonl":    good,
		"sub/x.txt":     "",
	})
	gt := filepath.Join(dir, "gt_page_1.csv")
	sub := filepath.Join(dir, "sub")
	run, err := os.ReadFile(sampleFile("run.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	badRun := strings.Replace(string(run), `"sample_id": "cord-test-0005"`, "\"sample_id\": \"cord-test-0005\xff\"", 1)
	badRunLine := 1 + strings.Count(badRun[:strings.Index(badRun, "\xff")], "\n")
	tests := []struct {
		name     string
		stdin    string
		args     []string
		code     int
		contains string
	}{
		{"tabular --runs directory", "", []string{"score", "tabular", "--gt", gt, "--runs", sub}, ExitInput, "is a directory: expected a file"},
		{"tabular --rules directory", "", []string{"score", "tabular", "--gt", gt, "--runs", filepath.Join(dir, "runs.jsonl"), "--rules", sub}, ExitInput, "is a directory"},
		{"receipts --run directory", "", []string{"score", "receipts", "--refs", sampleFile("refs"), "--run", sub}, ExitInput, "--run " + sub + ": is a directory"},
		{"eval --cases directory", "", []string{"eval", "--cases", sub}, ExitInput, "--cases " + sub + ": is a directory"},
		{"pilot report directory", "", []string{"pilot", "report", sub}, ExitInput, "is a directory"},
		{"tabular --runs -", good, []string{"score", "tabular", "--gt", gt, "--runs", "-"}, ExitOK, ""},
		{"tabular --runs - names stdin", "[]\n", []string{"score", "tabular", "--gt", gt, "--runs", "-"}, ExitInput, "<stdin>:1:1: expected a JSON object"},
		{"tabular two -", good, []string{"score", "tabular", "--gt", gt, "--runs", "-", "--rules", "-"}, ExitInput, "--runs and --rules all read standard input (-): only one input may be -"},
		{"rules check two -", "", []string{"rules", "check", "--rules", "-", "--schema", "-"}, ExitInput, "only one input may be -"},
		{"eval --cases -", `{"case_id": "a", "prediction": 1, "references": [{"authority": "ground_truth", "value": 1}]}`, []string{"eval", "--cases", "-", "--judge", "none", "--output", filepath.Join(dir, "o.json")}, ExitOK, ""},
		{"receipts run not UTF-8", badRun, []string{"score", "receipts", "--refs", sampleFile("refs"), "--run", "-"}, ExitInput, "<stdin>:" + strconv.Itoa(badRunLine) + ":"},
		{"eval cases not UTF-8", "{\"case_id\": \"a\xff\", \"prediction\": 1}", []string{"eval", "--cases", "-", "--judge", "none"}, ExitInput, "<stdin>:1:15: expected UTF-8 text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runEnv(t, tt.stdin, nil, tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.contains) {
				t.Errorf("exit %d, stderr %q; want exit %d containing %q", code, stderr, tt.code, tt.contains)
			}
		})
	}
}
