package tabularread

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/schema"
)

// readOne reads a runs file of one line and returns its image.
func readOne(t *testing.T, line string) *Image {
	t.Helper()
	runs, err := ReadRuns("runs.jsonl", []byte(line+"\n"), schema.Default(), RunsOptions{})
	if err != nil {
		t.Fatalf("ReadRuns: %v", err)
	}
	if len(runs.Images) != 1 {
		t.Fatalf("ReadRuns: %d images, want 1", len(runs.Images))
	}
	return runs.Images[0]
}

// keys returns the record names of an image, in order.
func keys(im *Image) []string {
	out := []string{}
	for _, r := range im.Records {
		out = append(out, r.Key.Text)
	}
	return out
}

// responseLine builds a runs line whose response is text.
func responseLine(text string) string {
	b, _ := json.Marshal(text)
	return `{"model":"m","phase":"G","run":1,"page":"27","response":` + string(b) + `}`
}

// TestReadRunsRecordList covers SPEC A.1/A.6: status, records, response.
func TestReadRunsRecordList(t *testing.T) {
	const head = `{"model":"m","phase":"G","run":1,"page":"27"`
	tests := []struct {
		name    string
		line    string
		failure string   // "" for a successful image
		names   []string // record names of a successful image
	}{
		{name: "status missing, records given", line: head + `,"records":[{"name":"A"},{"name":"B"}]}`, names: []string{"A", "B"}},
		{name: "status null", line: head + `,"status":null,"records":[{"name":"A"}]}`, names: []string{"A"}},
		{name: "status ok", line: head + `,"status":"ok","records":[{"name":"A"}]}`, names: []string{"A"}},
		{name: "status error", line: head + `,"status":"error","records":[{"name":"A"}]}`, failure: `status "error"`},
		{name: "status is case-sensitive", line: head + `,"status":"OK","records":[{"name":"A"}]}`, failure: `status "OK"`},
		{name: "status empty", line: head + `,"status":"","records":[]}`, failure: `status ""`},
		{name: "status missing, no record list", line: head + `}`, failure: "no records or response"},
		{name: "status ok, no record list", line: head + `,"status":"ok"}`, failure: "no records or response"},
		{name: "records win over response", line: head + `,"records":[{"name":"A"}],"response":"[{\"name\":\"B\"}]"}`, names: []string{"A"}},
		{name: "bad records win over a good response", line: head + `,"records":"[{\"name\":\"A\"}]","response":"[{\"name\":\"B\"}]"}`, failure: "records is not a list of objects"},
		{name: "null records are missing: the response is read", line: head + `,"records":null,"response":"[{\"name\":\"B\"}]"}`, names: []string{"B"}},
		{name: "records of numbers", line: head + `,"records":[1,2]}`, failure: "records is not a list of objects"},
		{name: "records mixing objects and numbers", line: head + `,"records":[{"name":"A"},2]}`, failure: "records is not a list of objects"},
		{name: "records with a null element", line: head + `,"records":[{"name":"A"},null]}`, failure: "records is not a list of objects"},
		{name: "records nested in a list", line: head + `,"records":[[{"name":"A"}]]}`, failure: "records is not a list of objects"},
		{name: "records as an object", line: head + `,"records":{"travelers":[{"name":"A"}]}}`, failure: "records is not a list of objects"},
		{name: "empty records", line: head + `,"records":[]}`, names: []string{}},
		{name: "response not a string", line: head + `,"response":42}`, failure: "response is not a string"},
		{name: "response null", line: head + `,"response":null}`, failure: "no JSON array of objects in response"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			im := readOne(t, tt.line)
			if im.Failure != tt.failure {
				t.Fatalf("Failure = %q, want %q", im.Failure, tt.failure)
			}
			if im.Failed() != (tt.failure != "") {
				t.Errorf("Failed() = %v", im.Failed())
			}
			if tt.failure != "" {
				if im.Records != nil {
					t.Errorf("a failed image carries %d records", len(im.Records))
				}
				return
			}
			if im.Status != "ok" {
				t.Errorf("Status = %q, want ok", im.Status)
			}
			if got := keys(im); !reflect.DeepEqual(got, tt.names) {
				t.Errorf("records = %q, want %q", got, tt.names)
			}
		})
	}
}

// TestReadRunsResponse covers the records found in a raw model answer.
func TestReadRunsResponse(t *testing.T) {
	tests := []struct {
		name     string
		response string
		names    []string // nil: a failed image
	}{
		{name: "bare array", response: `[{"name":"A"},{"name":"B"}]`, names: []string{"A", "B"}},
		{name: "json fence", response: "Here are the travelers:\n```json\n[\n  {\"name\": \"A\"}\n]\n```\nDone.", names: []string{"A"}},
		{name: "plain fence", response: "```\n[{\"name\": \"A\"}]\n```", names: []string{"A"}},
		{name: "prose with [1] before the array", response: "The page [1] lists two people [see note]:\n[{\"name\":\"A\"},{\"name\":\"B\"}]", names: []string{"A", "B"}},
		{name: "nested in an object", response: `{"travelers":[{"name":"A"}],"count":1}`, names: []string{"A"}},
		{name: "numbers before the nested records", response: `{"pages":[27,28],"travelers":[{"name":"A"}]}`, names: []string{"A"}},
		{name: "a list of lists", response: `[[{"name":"A"}],[{"name":"B"}]]`, names: []string{"A"}},
		{name: "the first array of objects wins", response: "Example: [{\"name\":\"X\"}]\nAnswer: [{\"name\":\"A\"}]", names: []string{"X"}},
		{name: "an empty array is a valid answer", response: "[]", names: []string{}},
		{name: "an empty array in prose", response: "No travelers on this page: []", names: []string{}},
		{name: "an empty array before records wins", response: "[] or rather [{\"name\":\"A\"}]", names: []string{}},
		{name: "brackets inside strings of the records", response: `[{"name":"A [?]","note":"[x]"}]`, names: []string{"A [?]"}},
		{name: "no array", response: "I cannot read this page.", names: nil},
		{name: "only arrays of numbers", response: "[1, 2] and [3]", names: nil},
		{name: "truncated array", response: "```json\n[{\"name\": \"A\"},\n{\"name\": \"B\"", names: nil},
		{name: "empty response", response: "", names: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			im := readOne(t, responseLine(tt.response))
			if tt.names == nil {
				if im.Failure != "no JSON array of objects in response" {
					t.Errorf("Failure = %q, want no JSON array of objects in response", im.Failure)
				}
				return
			}
			if im.Failed() {
				t.Fatalf("image failed: %s", im.Failure)
			}
			if got := keys(im); !reflect.DeepEqual(got, tt.names) {
				t.Errorf("records = %q, want %q", got, tt.names)
			}
		})
	}
}

// TestExtractRecordsAttempts checks the bound that keeps hostile text from
// making ExtractRecords slow: it gives up after maxResponseAttempts "["
// that do not start an array of objects.
func TestExtractRecordsAttempts(t *testing.T) {
	records := `[{"name":"A"}]`
	if recs, ok := ExtractRecords(strings.Repeat("[x ", maxResponseAttempts-1) + records); !ok || len(recs) != 1 {
		t.Errorf("records after %d bad brackets: ok=%v, %d records", maxResponseAttempts-1, ok, len(recs))
	}
	if _, ok := ExtractRecords(strings.Repeat("[x ", maxResponseAttempts) + records); ok {
		t.Errorf("records after %d bad brackets were still found", maxResponseAttempts)
	}
}

// TestReadRunsValues covers how record values become cells.
func TestReadRunsValues(t *testing.T) {
	line := `{"model":"m","phase":"G","run":1,"page":"27","records":[{"zeta":1,"name":" Leon q.m. Iacob ","title":"Ab.",` +
		`"arrival_date":"February 9 1769","departure_date":null,"place_of_stay":["San Moisè"],"place_of_origin":{"city":"Vienna"},` +
		`"with_spouse":true,"with_siblings":false,"children_count":2.0,"notes":"see p. 28","Confidence":0.9,"alpha":[1, 2],"beta":null},` +
		`{"Name":"B","TITLE":"Conte","children_count":"3","with_spouse":"y"},` +
		`{"title":"Abate","children_count":1e2,"with_siblings":"N"},` +
		`{"name":"first","name":"second","children_count":-0}]}`
	im := readOne(t, line)
	if im.Failed() {
		t.Fatalf("image failed: %s", im.Failure)
	}
	s := schema.Default()
	idx := func(name string) int { return s.Index(name) }
	type cell struct {
		rec, col int // col -1: the key
		want     Value
	}
	cells := []cell{
		{0, -1, Value{Text: " Leon q.m. Iacob "}}, // strings as they are
		{0, idx("title"), Value{Text: "Ab."}},
		{0, idx("arrival_date"), Value{Text: "February 9 1769"}},
		{0, idx("departure_date"), Value{}},                          // null → blank
		{0, idx("place_of_stay"), Value{}},                           // array → blank
		{0, idx("place_of_origin"), Value{}},                         // object → blank
		{0, idx("with_spouse"), Value{Text: "Y"}},                    // true → Y
		{0, idx("with_siblings"), Value{Text: "N"}},                  // false → N
		{0, idx("children_count"), Value{Text: "2.0", Number: true}}, // number literal kept
		{1, -1, Value{Text: "B"}},                                    // keys matched case-insensitively
		{1, idx("title"), Value{Text: "Conte"}},                      //
		{1, idx("children_count"), Value{Text: "3"}},                 // a numeric string is a string
		{1, idx("with_spouse"), Value{Text: "y"}},                    // compared later, kept as given
		{1, idx("arrival_date"), Value{}},                            // missing → blank
		{2, -1, Value{}},                                             // a record without a name
		{2, idx("children_count"), Value{Text: "1e2", Number: true}}, //
		{3, -1, Value{Text: "second"}},                               // a repeated key: the last value wins
		{3, idx("children_count"), Value{Text: "-0", Number: true}},  //
	}
	if len(im.Records) != 4 {
		t.Fatalf("%d records, want 4", len(im.Records))
	}
	for _, c := range cells {
		rec := im.Records[c.rec]
		got := rec.Key
		if c.col >= 0 {
			got = rec.Values[c.col]
		}
		if got != c.want {
			t.Errorf("record %d column %d = %+v, want %+v", c.rec, c.col, got, c.want)
		}
	}
	for i, rec := range im.Records {
		if len(rec.Values) != len(s.Columns) {
			t.Errorf("record %d has %d values, want %d", i, len(rec.Values), len(s.Columns))
		}
	}
	// Unknown keys are kept, in input order, with their JSON as given.
	var extra []string
	for _, f := range im.Records[0].Extra {
		extra = append(extra, f.Key+"="+string(f.Value))
	}
	want := []string{"zeta=1", "notes=\"see p. 28\"", "Confidence=0.9", "alpha=[1, 2]", "beta=null"}
	if !reflect.DeepEqual(extra, want) {
		t.Errorf("extra keys = %q, want %q", extra, want)
	}
	if im.Records[0].Key.Blank() || !im.Records[2].Key.Blank() {
		t.Errorf("Blank: %q → %v, %q → %v", im.Records[0].Key.Text, im.Records[0].Key.Blank(), im.Records[2].Key.Text, im.Records[2].Key.Blank())
	}
}

// TestReadRunsFields covers the identifying fields of a line.
func TestReadRunsFields(t *testing.T) {
	tests := []struct {
		line            string
		model, phase    string
		run, page, stat string
	}{
		{`{"model":"m","phase":"G","run":3,"page":"27","records":[]}`, "m", "G", "3", "27", "ok"},
		{`{"model":"m","run":"r3","page":27,"records":[]}`, "m", "", `"r3"`, "27", "ok"},
		{`{"model":"m","phase":null,"page":" 07 ","records":[]}`, "m", "", "null", "07", "ok"},
		{`{"model":"m","run": 1.0 ,"page":"7","status":"timeout"}`, "m", "", "1.0", "7", "timeout"},
	}
	for _, tt := range tests {
		im := readOne(t, tt.line)
		if im.Model != tt.model || im.Phase != tt.phase || string(im.Run) != tt.run || im.Page != tt.page || im.Status != tt.stat || im.Line != 1 {
			t.Errorf("%s:\n got model %q phase %q run %s page %q status %q line %d\nwant model %q phase %q run %s page %q status %q line 1",
				tt.line, im.Model, im.Phase, im.Run, im.Page, im.Status, im.Line, tt.model, tt.phase, tt.run, tt.page, tt.stat)
		}
	}
}

// TestReadRunsBadLines checks that a malformed line is an error naming
// file and line, and that SkipBadLines reports it, skips it and keeps the
// other lines.
func TestReadRunsBadLines(t *testing.T) {
	const (
		good1 = `{"model":"m","phase":"G","run":1,"page":"27","records":[{"name":"A"}]}`
		good2 = `{"model":"m","phase":"G","run":2,"page":"27","records":[]}`
	)
	tests := []struct {
		line string
		err  string
	}{
		{"not json", `runs.jsonl:3:2: invalid JSON: invalid character 'o' in literal null (expecting 'u'): expected a JSON object (one image per line)`},
		{`{"model":"m","page":"27",}`, `runs.jsonl:3:26: invalid JSON: invalid character '}' looking for beginning of object key string: expected a JSON object (one image per line)`},
		{`{"model":"m","page":"27"} trailing`, `runs.jsonl:3:27: invalid JSON: invalid character 't' after top-level value: expected a JSON object (one image per line)`},
		{"null", `runs.jsonl:3:1: expected a JSON object (one image per line), found null`},
		{`[{"model":"m"}]`, `runs.jsonl:3:1: expected a JSON object (one image per line), found an array`},
		{`"str"`, `runs.jsonl:3:1: expected a JSON object (one image per line), found a string`},
		{`42`, `runs.jsonl:3:1: expected a JSON object (one image per line), found a number`},
		{`{"page":"27"}`, `runs.jsonl:3:1: expected a "model" string`},
		{`{"model":3,"page":"27"}`, `runs.jsonl:3:10: expected "model" to be a string, found 3`},
		{`{"model":" ","page":"27"}`, `runs.jsonl:3:10: expected a non-empty "model"`},
		{`{"model":"m","phase":1,"page":"27"}`, `runs.jsonl:3:22: expected "phase" to be a string, found 1`},
		{`{"model":"m"}`, `runs.jsonl:3:1: expected a "page" naming the ground-truth page (a string or a number)`},
		{`{"model":"m","page":{}}`, `runs.jsonl:3:21: expected "page" to be a string or a number, found {}`},
		{`{"model":"m","page":" "}`, `runs.jsonl:3:21: expected a non-empty "page"`},
		{`{"model":"m","page":"27","run":[1]}`, `runs.jsonl:3:32: expected "run" to be a number or a string, found [1]`},
		{`{"model":"m","page":"27","status":5}`, `runs.jsonl:3:35: expected "status" to be a string, found 5`},
		{"{\"model\":\"m\xff\",\"page\":\"27\"}", `runs.jsonl:3:12: expected UTF-8 text`},
		{`{"model":"m","phase":"G","run":1,"page":27,"records":[]}`, `runs.jsonl:3: model "m" phase "G" run 1 page 27 was already given at line 1`},
	}
	for _, tt := range tests {
		// A blank line 2 counts in the line numbers.
		data := []byte(good1 + "\n\n" + tt.line + "\n" + good2 + "\n")
		_, err := ReadRuns("runs.jsonl", data, schema.Default(), RunsOptions{})
		if err == nil || inputerr.Head(err) != tt.err {
			t.Errorf("ReadRuns(%q) error:\n got %v\nwant %s", tt.line, err, tt.err)
			continue
		}
		var ie *inputerr.Error
		if !errors.As(err, &ie) || ie.File != "runs.jsonl" || ie.Line != 3 {
			t.Errorf("error %v is not an input error at runs.jsonl:3", err)
		}
		runs, err := ReadRuns("runs.jsonl", data, schema.Default(), RunsOptions{SkipBadLines: true})
		if err != nil {
			t.Errorf("SkipBadLines: %v", err)
			continue
		}
		if len(runs.Skipped) != 1 || runs.Skipped[0].Head() != tt.err {
			t.Errorf("SkipBadLines: skipped %v, want [%s]", runs.Skipped, tt.err)
		}
		var lines []int
		for _, im := range runs.Images {
			lines = append(lines, im.Line)
		}
		if !reflect.DeepEqual(lines, []int{1, 4}) {
			t.Errorf("SkipBadLines: images at lines %v, want [1 4]", lines)
		}
	}
}

// TestReadRunsLines covers blank lines, CRLF and a byte order mark.
func TestReadRunsLines(t *testing.T) {
	data := "\ufeff" + `{"model":"m","run":1,"page":"27","records":[]}` + "\r\n\r\n   \t\n" +
		`{"model":"m","run":2,"page":"27","records":[]}` + "\r\n" + `{"model":"m","run":3,"page":"27","records":[]}`
	runs, err := ReadRuns("runs.jsonl", []byte(data), schema.Default(), RunsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, im := range runs.Images {
		got = append(got, fmt.Sprintf("%s@%d", im.Run, im.Line))
	}
	if want := []string{"1@1", "2@4", "3@5"}; !reflect.DeepEqual(got, want) {
		t.Errorf("images = %v, want %v", got, want)
	}
	empty, err := ReadRuns("runs.jsonl", nil, schema.Default(), RunsOptions{})
	if err != nil || len(empty.Images) != 0 {
		t.Errorf("empty file: %v, %v", empty, err)
	}
}

// TestReadRunsDuplicates checks which lines name the same image.
func TestReadRunsDuplicates(t *testing.T) {
	tests := []struct {
		a, b string
		dup  bool
	}{
		{`{"model":"m","phase":"G","run":1,"page":"27"}`, `{"model":"m","phase":"G","run":1,"page":"27","status":"error"}`, true},
		{`{"model":"m","run":1,"page":"27"}`, `{"model":"m","run":1,"page":27}`, true},
		{`{"model":"m","run":1,"page":"27"}`, `{"model":"m","run":2,"page":"27"}`, false},
		{`{"model":"m","run":1,"page":"27"}`, `{"model":"n","run":1,"page":"27"}`, false},
		{`{"model":"m","phase":"G","run":1,"page":"27"}`, `{"model":"m","phase":"S","run":1,"page":"27"}`, false},
		{`{"model":"m","run":1,"page":"27"}`, `{"model":"m","run":1,"page":"28"}`, false},
	}
	for _, tt := range tests {
		_, err := ReadRuns("runs.jsonl", []byte(tt.a+"\n"+tt.b+"\n"), schema.Default(), RunsOptions{})
		if (err != nil) != tt.dup {
			t.Errorf("%s / %s: error %v, want duplicate %v", tt.a, tt.b, err, tt.dup)
		}
		if err != nil && !strings.Contains(err.Error(), "runs.jsonl:2: ") || err != nil && !strings.HasSuffix(err.Error(), "was already given at line 1") {
			t.Errorf("duplicate error %q does not name both lines", err)
		}
	}
}
