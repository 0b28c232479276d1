package tabularread

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/schema"
	"github.com/docscore/docscore/scoring/text"
)

// sampleFile returns a file of the bundled sample (sample/tabular/…), read
// from the repository (the sample package imports this one).
func sampleFile(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "sample", "tabular", filepath.FromSlash(name)))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// sampleRunLines returns the lines of the sample runs file.
func sampleRunLines(tb testing.TB) []string {
	return strings.Split(strings.TrimSpace(string(sampleFile(tb, "runs.jsonl"))), "\n")
}

// FuzzReadGT checks that ReadGT never panics, answers bad input with an
// input error naming a line of the file, and returns well-formed pages.
func FuzzReadGT(f *testing.F) {
	for _, page := range []string{"27", "28", "29"} {
		f.Add(sampleFile(f, "gt/gt_page_"+page+".csv"))
	}
	f.Add([]byte("\ufeff" + gtHeader + "\"Pietro, detto \"\"il Moro\"\"\",Ab.,,,\"Casa di\nPietro\",,N,N,\n,,,,,,,,\n"))
	f.Add([]byte("page," + gtHeader + "28,A,,,,,,,,\n,B,,,,,,,,\n28,a.,,,,,,,,\n"))
	f.Add([]byte(" Title , NAME ,notes,Arrival_Date,departure_date,PLACE_OF_STAY,place_of_origin,With_Spouse,with_siblings,Children_Count \r\nx,y,z,,,,,,,\r\n"))
	f.Add([]byte(gtHeader + "A,,,,\"Casa di,,,,\nB,,,,,,,,\n"))
	f.Add([]byte(gtHeader + "A,,,,San Mois\xe8,,,,\n"))
	f.Add([]byte(gtHeader + "A,,,,,,,\n"))
	f.Add([]byte("name,name\n"))
	f.Add([]byte(""))
	s := schema.Default()
	f.Fuzz(func(t *testing.T, data []byte) {
		pages, err := ReadGT("gt_page_27.csv", data, s)
		lines := 1 + bytes.Count(data, []byte("\n"))
		if err != nil {
			// One error, or a list of them (every row's at once).
			var errs inputerr.List
			switch e := err.(type) {
			case *inputerr.Error:
				errs = inputerr.List{e}
			case inputerr.List:
				if len(e) < 2 {
					t.Fatalf("a list of %d errors: %v", len(e), e)
				}
				errs = e
			default:
				t.Fatalf("error %T is neither an *inputerr.Error nor an inputerr.List: %v", err, err)
			}
			for _, e := range errs {
				if e.File != "gt_page_27.csv" || e.Line < 1 || e.Line > lines {
					t.Fatalf("error %q: file %q line %d, want gt_page_27.csv and a line in 1..%d", e, e.File, e.Line, lines)
				}
			}
			return
		}
		if len(pages) == 0 {
			t.Fatalf("no page and no error")
		}
		seenIDs := map[string]bool{}
		for _, p := range pages {
			if p.ID == "" || seenIDs[p.ID] || p.File != "gt_page_27.csv" {
				t.Fatalf("page %q (file %q) is empty, repeated or misnamed", p.ID, p.File)
			}
			seenIDs[p.ID] = true
			names := map[string]int{}
			prev := 1
			for _, r := range p.Rows {
				if r.Line <= prev || r.Line > lines {
					t.Fatalf("page %s: row at line %d after line %d (file has %d lines)", p.ID, r.Line, prev, lines)
				}
				prev = r.Line
				if len(r.Values) != len(s.Columns) {
					t.Fatalf("row at line %d has %d values", r.Line, len(r.Values))
				}
				if !utf8.ValidString(r.Key) {
					t.Fatalf("row at line %d: key is not UTF-8", r.Line)
				}
				if n := text.NormalizeName(r.Key); n != "" {
					if first, dup := names[n]; dup {
						t.Fatalf("page %s: rows at lines %d and %d share the name %q", p.ID, first, r.Line, n)
					}
					names[n] = r.Line
				}
			}
		}
	})
}

// FuzzReadRuns checks that ReadRuns never panics, that an error names a
// line of the file, and that SkipBadLines never fails on a malformed line
// but reports it, keeping every other line.
func FuzzReadRuns(f *testing.F) {
	// The sample's shortest lines with records and with a response (the
	// whole file, 200 kB, would make the fuzzer crawl).
	var withRecords, withResponse string
	for _, l := range sampleRunLines(f) {
		p := &withRecords
		if strings.Contains(l, `"response"`) {
			p = &withResponse
		}
		if *p == "" || len(l) < len(*p) {
			*p = l
		}
	}
	f.Add([]byte(withRecords))
	f.Add([]byte(withResponse + "\n" + withRecords))
	f.Add([]byte("\ufeff" + `{"model":"m","run":1,"page":"27","records":[]}` + "\r\n\r\nnot json\n" + `{"model":"m","run":1,"page":27}`))
	f.Add([]byte(`{"model":"m","page":"27","records":[{"name":"A","name":"B","children_count":2.0,"x":[1]}],"response":"[]"}`))
	f.Add([]byte(`{"model":"m","page":"27","response":"prose [1] then` + "\\n```json\\n" + `[{\"name\":\"A\"}]` + "\\n```" + `"}`))
	f.Add([]byte(`{"model":"m","page":{},"run":[1],"status":5}` + "\n" + "{\"model\":\"m\xff\"}\nnull\n[]"))
	s := schema.Default()
	f.Fuzz(func(t *testing.T, data []byte) {
		strict, err := ReadRuns("runs.jsonl", data, s, RunsOptions{})
		lenient, lerr := ReadRuns("runs.jsonl", data, s, RunsOptions{SkipBadLines: true})
		if lerr != nil {
			t.Fatalf("SkipBadLines: %v", lerr)
		}
		nLines := 1 + bytes.Count(data, []byte("\n"))
		if err != nil {
			e, ok := err.(*inputerr.Error)
			if !ok {
				t.Fatalf("error %T is not an *inputerr.Error: %v", err, err)
			}
			if e.File != "runs.jsonl" || e.Line < 1 || e.Line > nLines || !strings.HasPrefix(e.Error(), "runs.jsonl:") {
				t.Fatalf("error %q does not name a line in 1..%d", e, nLines)
			}
			if len(lenient.Skipped) == 0 || lenient.Skipped[0].Error() != err.Error() {
				t.Fatalf("strict error %q is not the first line SkipBadLines skipped (%v)", err, lenient.Skipped)
			}
		} else {
			if len(lenient.Skipped) != 0 {
				t.Fatalf("SkipBadLines skipped %v from a file that reads without error", lenient.Skipped)
			}
			if !reflect.DeepEqual(strict.Images, lenient.Images) {
				t.Fatalf("SkipBadLines changed the images of a good file")
			}
		}
		// Every non-blank line is either an image or a skipped line, in order.
		want := 0
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, len(data)+1)
		for i := 0; sc.Scan(); i++ {
			l := bytes.TrimSpace(sc.Bytes())
			if i == 0 {
				l = bytes.TrimPrefix(l, []byte("\ufeff"))
			}
			if len(l) > 0 {
				want++
			}
		}
		if got := len(lenient.Images) + len(lenient.Skipped); got != want {
			t.Fatalf("%d images + %d skipped, want %d non-blank lines", len(lenient.Images), len(lenient.Skipped), want)
		}
		prev := 0
		for _, im := range lenient.Images {
			if im.Line <= prev || im.Line > nLines {
				t.Fatalf("image at line %d after line %d", im.Line, prev)
			}
			prev = im.Line
			if strings.TrimSpace(im.Model) == "" || im.Page == "" || !json.Valid(im.Run) {
				t.Fatalf("image at line %d: model %q page %q run %s", im.Line, im.Model, im.Page, im.Run)
			}
			if im.Failed() != (im.Failure != "") || (im.Status != "ok" && !im.Failed()) {
				t.Fatalf("image at line %d: status %q failure %q", im.Line, im.Status, im.Failure)
			}
			if im.Failed() && im.Records != nil {
				t.Fatalf("failed image at line %d carries records", im.Line)
			}
			for _, r := range im.Records {
				if len(r.Values) != len(s.Columns) {
					t.Fatalf("record with %d values", len(r.Values))
				}
			}
		}
		for _, sk := range lenient.Skipped {
			if sk.Line < 1 || sk.Line > nLines {
				t.Fatalf("skipped line %d outside 1..%d", sk.Line, nLines)
			}
		}
	})
}

// FuzzExtractRecords checks that ExtractRecords never panics, that what it
// returns is a list of JSON objects, that a bare JSON array of objects is
// always found, and that fences and prose around an answer change nothing.
func FuzzExtractRecords(f *testing.F) {
	for _, l := range sampleRunLines(f) {
		var obj struct {
			Response *string `json:"response"`
		}
		if json.Unmarshal([]byte(l), &obj) == nil && obj.Response != nil {
			f.Add(*obj.Response)
		}
	}
	for _, s := range []string{
		`[{"name":"A"}]`, "```json\n[{\"name\": \"A\"}]\n```", "See [1]: [{\"name\":\"A\"}]",
		`{"travelers":[{"name":"A"}]}`, `[[{"name":"A"}]]`, "[]", "none", `[{"name":"A"},`, `[1,[{"a":[{}]}]]`,
		strings.Repeat("[", 200), `["]", {"a":1}]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		recs, ok := ExtractRecords(s)
		if !ok {
			if recs != nil {
				t.Fatalf("not ok but %d records", len(recs))
			}
		} else {
			if !strings.Contains(s, "[") {
				t.Fatalf("records found in text without '['")
			}
			for i, r := range recs {
				var obj map[string]json.RawMessage
				if err := json.Unmarshal([]byte(r), &obj); err != nil || obj == nil {
					t.Fatalf("record %d %q is not a JSON object: %v", i, r, err)
				}
			}
		}
		var whole []map[string]json.RawMessage
		if trimmed := strings.TrimSpace(s); strings.HasPrefix(trimmed, "[") && json.Unmarshal([]byte(trimmed), &whole) == nil && whole != nil {
			allObjects := true
			for _, o := range whole {
				allObjects = allObjects && o != nil
			}
			if allObjects && (!ok || len(recs) != len(whole)) {
				t.Fatalf("a JSON array of %d objects gave ok=%v with %d records", len(whole), ok, len(recs))
			}
		}
		if old, ook := extractRecordsDecoder(s); ook != ok || !reflect.DeepEqual(old, recs) {
			t.Fatalf("ExtractRecords %v %q, the json.Decoder search %v %q", ok, recs, ook, old)
		}
		wrapped, wok := ExtractRecords("Here are the travelers:\n```json\n" + s + "\n```\n")
		if wok != ok || !reflect.DeepEqual(wrapped, recs) {
			t.Fatalf("a fence and prose around the text changed the result: ok %v→%v, %d→%d records", ok, wok, len(recs), len(wrapped))
		}
	})
}

// extractRecordsDecoder is ExtractRecords as it was written before the
// in-place scan: a json.Decoder at every "[", the same bounds. The fuzz
// target holds the two equal.
func extractRecordsDecoder(response string) (records []string, ok bool) {
	attempts, scanned := 0, int64(0)
	for i := 0; i < len(response); i++ {
		j := strings.IndexByte(response[i:], '[')
		if j < 0 {
			return nil, false
		}
		i += j
		if attempts++; attempts > maxResponseAttempts {
			return nil, false
		}
		if scanned > maxResponseScan {
			return nil, false
		}
		dec := json.NewDecoder(strings.NewReader(response[i:]))
		var raw json.RawMessage
		err := dec.Decode(&raw)
		scanned += dec.InputOffset() + 1
		if err != nil {
			continue
		}
		if recs, ok := recordList(string(raw)); ok {
			return recs, true
		}
	}
	return nil, false
}
