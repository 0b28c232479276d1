package receiptsread_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
)

const gtObject = `{"gt_parse": {"total": {"total_price": "10"}},
 "valid_line": [
  {"words": [{"text": "TOTAL", "row_id": 2, "quad": {"x1": 50, "y1": 40, "x2": 90, "y2": 40, "x3": 90, "y3": 50, "x4": 50, "y4": 50}},
             {"text": "10", "row_id": 2, "quad": {"x1": 10, "y1": 41, "x2": 20, "y2": 41, "x3": 20, "y3": 50, "x4": 10, "y4": 50}}]},
  {"words": [{"text": "CAFÉ", "row_id": 1, "quad": {"x1": 5, "y1": 10, "x2": 40, "y2": 10, "x3": 40, "y3": 20, "x4": 5, "y4": 20}}]}
 ]}`

func TestParseCORDForms(t *testing.T) {
	str, _ := json.Marshal(gtObject)
	tests := []struct {
		name, file, data string
		id               string
	}{
		{"ground truth itself", "refs/cord-test-0009.json", gtObject, "cord-test-0009"},
		{"ground_truth member object", "a/b/x.json", `{"ground_truth": ` + gtObject + `}`, "x"},
		{"ground_truth member string", `c:\refs\y.json`, `{"ground_truth": ` + string(str) + `}`, "y"},
		{"sample_id wins over the file stem", "z.json", `{"sample_id": "cord-test-0042", "ground_truth": ` + gtObject + `}`, "cord-test-0042"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ref, err := receiptsread.ParseCORD(tc.file, []byte(tc.data), receiptsread.ParseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if ref.SampleID != tc.id {
				t.Errorf("SampleID = %q, want %q", ref.SampleID, tc.id)
			}
			if ref.Text != "TOTAL 10 CAFÉ" {
				t.Errorf("Text = %q, want annotation order %q", ref.Text, "TOTAL 10 CAFÉ")
			}
			if !strings.Contains(string(ref.GTParse), `"total_price"`) {
				t.Errorf("GTParse = %s, want the gt_parse object", ref.GTParse)
			}
			ro, err := receiptsread.ParseCORD(tc.file, []byte(tc.data), receiptsread.ParseOptions{Order: receiptsread.ReadingOrder})
			if err != nil {
				t.Fatal(err)
			}
			if ro.Text != "CAFÉ 10 TOTAL" {
				t.Errorf("reading order Text = %q, want %q", ro.Text, "CAFÉ 10 TOTAL")
			}
		})
	}
}

// TestParseCORDSkipsBOM checks that a CORD file starting with a UTF-8
// byte order mark reads as the file without it (it was an input error).
func TestParseCORDSkipsBOM(t *testing.T) {
	data := `{"valid_line": [{"words": [{"text": "TOTAL"}, {"text": "12"}]}]}`
	want, err := receiptsread.ParseCORD("refs/a.json", []byte(data), receiptsread.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := receiptsread.ParseCORD("refs/a.json", []byte("\ufeff"+data), receiptsread.ParseOptions{})
	if err != nil || got.Text != want.Text || got.SampleID != want.SampleID {
		t.Fatalf("with a BOM: %+v, %v; want %+v", got, err, want)
	}
}

func TestParseCORDErrors(t *testing.T) {
	tests := []struct {
		name, data string
		opts       receiptsread.ParseOptions
		line, col  int
		contains   string
	}{
		{"syntax", "{\n \"valid_line\": [\n  {\"words\": [}\n ]\n}", receiptsread.ParseOptions{}, 3, 14, "invalid JSON"},
		{"not an object", `[1, 2]`, receiptsread.ParseOptions{}, 1, 1, "expected a JSON object"},
		{"no valid_line", `{"gt_parse": {}}`, receiptsread.ParseOptions{}, 1, 1, `"valid_line"`},
		{"text is a number", "{\"valid_line\": [\n {\"words\": [{\"text\": \"A\"}]},\n {\"words\": [\n  {\"text\": 5}]}]}", receiptsread.ParseOptions{}, 4, 12, "valid_line[1].words[0].text: expected a string, got number"},
		{"words missing", "{\"valid_line\": [\n {\"category\": \"x\"}]}", receiptsread.ParseOptions{}, 2, 2, `valid_line[0]: expected a "words" array`},
		{"text missing", "{\"valid_line\": [{\"words\": [\n {\"row_id\": 1}]}]}", receiptsread.ParseOptions{}, 2, 2, `"text" string`},
		{"quad for reading order", `{"valid_line": [{"words": [{"text": "A", "row_id": 1}]}]}`, receiptsread.ParseOptions{Order: receiptsread.ReadingOrder}, 1, 28, `needs a "quad"`},
		{"quad member type", `{"valid_line": [{"words": [{"text": "A", "row_id": 1, "quad": {"x1": "9"}}]}]}`, receiptsread.ParseOptions{Order: receiptsread.ReadingOrder}, 1, 70, "valid_line[0].words[0].quad.x1: expected a number, got string"},
		{"bad quad ignored in annotation order", `{"valid_line": [{"words": [{"text": "A", "quad": {"x1": "9"}}]}], "sample_id": 5}`, receiptsread.ParseOptions{}, 1, 80, "sample_id: expected a non-empty string"},
		{"sample_id type", `{"sample_id": 7, "valid_line": []}`, receiptsread.ParseOptions{}, 1, 15, "sample_id: expected a non-empty string"},
		{"ground_truth type", `{"ground_truth": 7}`, receiptsread.ParseOptions{}, 1, 18, "ground_truth: expected the CORD ground truth"},
		{"bad ground_truth string", "{\n\"ground_truth\": \"{\\\"valid_line\\\": [\"}", receiptsread.ParseOptions{}, 2, 17, "ground_truth JSON string (line 1, column 16 of the string): invalid JSON"},
		{"after a BOM", "\xef\xbb\xbf{\n\"ground_truth\": 7}", receiptsread.ParseOptions{}, 2, 17, "ground_truth: expected the CORD ground truth"},
		{"error inside ground_truth string", "{\n\"ground_truth\": \"{\\\"valid_line\\\": 3}\"}", receiptsread.ParseOptions{}, 2, 17, "ground_truth JSON string (line 1, column 16 of the string): valid_line: expected an array of lines"},
		// The UTF-8 rules of every input: a byte that is not UTF-8 is an
		// error at its line and column (it was accepted).
		{"not UTF-8", "{\"valid_line\": [{\"words\": [\n {\"text\": \"caf\xff\"}]}]}", receiptsread.ParseOptions{}, 2, 15, "expected UTF-8 text"},
		{"not UTF-8 on line 1", "{\"valid_line\": [{\"words\": [{\"text\": \"\xff\"}]}]}", receiptsread.ParseOptions{}, 1, 38, "expected UTF-8 text"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := receiptsread.ParseCORD("refs/bad.json", []byte(tc.data), tc.opts)
			e, ok := inputerr.As(err)
			if !ok {
				t.Fatalf("err = %v, want an input error", err)
			}
			if e.File != "refs/bad.json" || e.Line != tc.line || e.Column != tc.col || !strings.Contains(e.Msg, tc.contains) || !strings.HasSuffix(e.Error(), "^") {
				t.Errorf("err = %q (line %d, column %d), want line %d, column %d and %q", e, e.Line, e.Column, tc.line, tc.col, tc.contains)
			}
		})
	}
}

func TestParseJSONL(t *testing.T) {
	refs, err := receiptsread.ParseJSONL("refs.jsonl", strings.NewReader("\ufeff{\"sample_id\": \"a\", \"reference\": \"TOTAL 10\"}\n\n{\"sample_id\": \"b\", \"reference\": \"\"}\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(refs) != 2 || refs[0].SampleID != "a" || refs[0].Text != "TOTAL 10" || refs[1].Source != "refs.jsonl:3" {
		t.Errorf("refs = %+v", refs)
	}
	bad := []struct {
		data      string
		line, col int
		contains  string
	}{
		{"{\"sample_id\": \"a\", \"reference\": \"x\"}\n{\"sample_id\": \"a\", \"reference\": \"y\"}", 2, 0, "given twice (first on line 1)"},
		{"{\"sample_id\": \"a\"}", 1, 0, `"reference" string`},
		{"{\"reference\": \"x\"}", 1, 0, `"sample_id" string`},
		{"{\"sample_id\": 3, \"reference\": \"x\"}", 1, 15, `member "sample_id" is a number`},
		{"  {\"sample_id\": \"a\", \"reference\": }", 1, 35, "invalid JSON"},
		{"[]", 1, 1, "expected a JSON object {\"sample_id\": \"…\", \"reference\": \"…\"}, found an array"},
		{"\"str\"", 1, 1, "expected a JSON object {\"sample_id\": \"…\", \"reference\": \"…\"}, found a string"},
		{"\n 42", 2, 2, "found a number"},
		{"null", 1, 1, "found null"},
		{"{\"sample_id\": \"a\", \"reference\": \"caf\xe9\"}", 1, 37, "expected UTF-8 text"},
	}
	for _, tc := range bad {
		_, err := receiptsread.ParseJSONL("refs.jsonl", strings.NewReader(tc.data))
		e, ok := inputerr.As(err)
		if !ok || e.Line != tc.line || e.Column != tc.col || !strings.Contains(e.Msg, tc.contains) {
			t.Errorf("ParseJSONL(%q): err = %v, want line %d column %d containing %q", tc.data, err, tc.line, tc.col, tc.contains)
		}
	}
}

func TestParseReferencesByName(t *testing.T) {
	if _, err := receiptsread.ParseReferences("refs.txt", []byte("x"), receiptsread.ParseOptions{}); err == nil {
		t.Error("a .txt file: no error")
	}
	_, err := receiptsread.ParseReferences("refs.jsonl", []byte(`{"sample_id": "a", "reference": "b"}`), receiptsread.ParseOptions{Order: receiptsread.ReadingOrder})
	if e, ok := inputerr.As(err); !ok || !strings.Contains(e.Msg, "reading order needs CORD annotations") {
		t.Errorf("reading order over JSONL: err = %v", err)
	}
}
