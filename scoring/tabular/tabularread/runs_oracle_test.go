package tabularread

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/internal/jsonscan"
	"github.com/docscore/docscore/scoring/schema"
)

// parseImage reads one line.
func oracleParseImage(file string, lineNo int, line []byte, s *schema.Schema) (*Image, *inputerr.Error) {
	bad := func(format string, args ...any) (*Image, *inputerr.Error) {
		return nil, inputerr.New(file, lineNo, format, args...)
	}
	if !utf8.Valid(line) {
		return bad("expected UTF-8 text")
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(line, &obj); err != nil || obj == nil {
		l := ingest.Line{No: lineNo, Text: line}
		if e := ingest.LineNotObject(file, l, notObject); e != nil {
			return nil, e
		}
		return nil, ingest.LineJSONError(file, l, err, notObject)
	}
	im := &Image{Line: lineNo}
	var err error
	if im.Model, err = oracleRequiredString(obj, "model"); err != nil {
		return bad("%v", err)
	}
	if im.Phase, err = oracleOptionalString(obj, "phase"); err != nil {
		return bad("%v", err)
	}
	run := bytes.TrimSpace(obj["run"])
	switch {
	case len(run) == 0 || string(run) == "null":
		im.Run = json.RawMessage("null")
	case run[0] == '"' || (run[0] >= '0' && run[0] <= '9') || run[0] == '-':
		var buf bytes.Buffer
		if json.Compact(&buf, run) != nil {
			return bad(`expected "run" to be a number or a string`)
		}
		im.Run = buf.Bytes()
	default:
		return bad(`expected "run" to be a number or a string, found %s`, abbreviate(string(run)))
	}
	page := bytes.TrimSpace(obj["page"])
	switch {
	case len(page) == 0 || string(page) == "null":
		return bad(`expected a "page" naming the ground-truth page (a string or a number)`)
	case page[0] == '"':
		var p string
		_ = json.Unmarshal(page, &p)
		im.Page = strings.TrimSpace(p)
	case (page[0] >= '0' && page[0] <= '9') || page[0] == '-':
		im.Page = string(page)
	default:
		return bad(`expected "page" to be a string or a number, found %s`, abbreviate(string(page)))
	}
	if im.Page == "" {
		return bad(`expected a non-empty "page"`)
	}
	status := "ok"
	if raw, ok := obj["status"]; ok && string(bytes.TrimSpace(raw)) != "null" {
		if err := json.Unmarshal(raw, &status); err != nil {
			return bad(`expected "status" to be a string, found %s`, abbreviate(string(raw)))
		}
	}
	im.Status = status
	if status != "ok" {
		im.Failure = fmt.Sprintf("status %q", status)
		return im, nil
	}
	if oracleIsNull(obj["records"]) {
		delete(obj, "records") // null is missing: the response, if any, is read
	}
	switch {
	case obj["records"] != nil:
		recs, ok := oracleRecordList(obj["records"])
		if !ok {
			im.Failure = "records is not a list of objects"
			return im, nil
		}
		im.Records = oracleConvertRecords(recs, s)
	case obj["response"] != nil:
		var resp string
		if err := json.Unmarshal(obj["response"], &resp); err != nil {
			im.Failure = "response is not a string"
			return im, nil
		}
		recs, ok := ExtractRecords(resp)
		if !ok {
			im.Failure = "no JSON array of objects in response"
			return im, nil
		}
		raws := make([]json.RawMessage, len(recs)) // ExtractRecords gives strings now
		for i, r := range recs {
			raws[i] = json.RawMessage(r)
		}
		im.Records = oracleConvertRecords(raws, s)
	default:
		im.Failure = "no records or response"
	}
	return im, nil
}

func oracleIsNull(raw json.RawMessage) bool {
	return raw != nil && string(bytes.TrimSpace(raw)) == "null"
}

func oracleRequiredString(obj map[string]json.RawMessage, key string) (string, error) {
	raw, ok := obj[key]
	if !ok || string(bytes.TrimSpace(raw)) == "null" {
		return "", fmt.Errorf("expected a %q string", key)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("expected %q to be a string, found %s", key, abbreviate(string(raw)))
	}
	if strings.TrimSpace(s) == "" {
		return "", fmt.Errorf("expected a non-empty %q", key)
	}
	return s, nil
}

func oracleOptionalString(obj map[string]json.RawMessage, key string) (string, error) {
	raw, ok := obj[key]
	if !ok || string(bytes.TrimSpace(raw)) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("expected %q to be a string, found %s", key, abbreviate(string(raw)))
	}
	return s, nil
}

// recordList splits a JSON array into its elements when every element is
// an object.
func oracleRecordList(raw json.RawMessage) ([]json.RawMessage, bool) {
	var elems []json.RawMessage
	if json.Unmarshal(raw, &elems) != nil || elems == nil && string(bytes.TrimSpace(raw)) != "[]" {
		return nil, false
	}
	for _, e := range elems {
		e = bytes.TrimSpace(e)
		if len(e) == 0 || e[0] != '{' {
			return nil, false
		}
	}
	return elems, true
}

// convertRecords turns JSON objects into records for schema s.
func oracleConvertRecords(objs []json.RawMessage, s *schema.Schema) []Record {
	out := make([]Record, len(objs))
	for i, raw := range objs {
		fields := oracleOrderedFields(raw)
		rec := Record{Values: make([]Value, len(s.Columns))}
		for _, f := range fields {
			key := strings.ToLower(strings.TrimSpace(f.Key))
			switch {
			case key == s.Key:
				rec.Key = oracleValueFromJSON(f.Value)
			case s.Index(key) >= 0:
				rec.Values[s.Index(key)] = oracleValueFromJSON(f.Value)
			default:
				rec.Extra = append(rec.Extra, f)
			}
		}
		out[i] = rec
	}
	return out
}

// orderedFields returns the members of a JSON object in input order. When
// a key repeats, the last value wins (as in encoding/json) at the first
// key's place.
func oracleOrderedFields(raw json.RawMessage) []Field {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	var out []Field
	index := map[string]int{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return out
		}
		if i, ok := index[key]; ok {
			out[i].Value = v
			continue
		}
		index[key] = len(out)
		out = append(out, Field{Key: key, Value: v})
	}
	return out
}

// oracleValueFromJSON is valueFromJSON as it was, on encoding/json.
func oracleValueFromJSON(raw json.RawMessage) Value {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return Value{}
	}
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return Value{Text: s}
		}
	case 't':
		return Value{Text: "Y"}
	case 'f':
		return Value{Text: "N"}
	case 'n', '[', '{':
		return Value{}
	default:
		return Value{Text: string(raw), Number: true}
	}
	return Value{}
}

// parseImage reads one line, numbered lineNo, as ReadRuns does.
func parseImage(file string, lineNo int, line []byte, s *schema.Schema) (*Image, *inputerr.Error) {
	if !utf8.Valid(line) {
		return nil, inputerr.New(file, lineNo, "expected UTF-8 text")
	}
	var scratch jsonscan.Nested
	return ParseLine(file, ingest.Line{No: lineNo, Text: line}, s, &scratch)
}

// FuzzParseImageAgainstOracle holds the fast line reader to the
// encoding/json one it replaced: the same image or the same error, for any
// line.
func FuzzParseImageAgainstOracle(f *testing.F) {
	lines := sampleRunLines(f) // the shortest few: long inputs slow the fuzzer
	sort.Slice(lines, func(i, j int) bool { return len(lines[i]) < len(lines[j]) })
	for _, l := range lines[:6] {
		f.Add([]byte(l))
	}
	for _, l := range []string{
		`{"model":"m","page":"27","records":[{"name":"A","name":"B","children_count":2.0,"x":[1]}],"response":"[]"}`,
		`{"model":"m","page":"27","response":"prose [1] then` + "\\n```json\\n" + `[{\"name\":\"A\"}]` + "\\n```" + `"}`,
		`{"model":"m","page":{},"run":[1],"status":5}`, `{"model":"m","page":" 07 ","run":"r\u00e9","records":null,"response":null}`,
		`{"model":"m","page":7,"run":-1.5e3,"status":"ok","records":[{" NAME ":"a","Title":true,"X":{"y":[1, 2]},"x":null}]}`,
		`{"model":" ","page":"1"}`, `{"model":"m","page":"1","status":null,"records":[1]}`, `null`, `[]`, `{"model":"m"} x`,
		`{"model":"m","page":"1","records":[{"name":"\ud800"}],"model":"n"}`,
		// Records whose keys move, change case or repeat (the reader keeps
		// each place's column from the record before).
		`{"model":"m","page":"1","records":[{"name":"a","title":"x","Extra":1},{"title":"y","name":"b","Extra":2},{"Name":"c","TITLE":"z"},{"name":"d","name":"e","title":"w"},{"name":"f","title":"v","Extra":3,"x":4}]}`,
	} {
		f.Add([]byte(l))
	}
	s := schema.Default()
	f.Fuzz(func(t *testing.T, line []byte) {
		got, gerr := parseImage("runs.jsonl", 3, line, s)
		want, werr := oracleParseImage("runs.jsonl", 3, line, s)
		if (gerr == nil) != (werr == nil) || gerr != nil && !sameInputError(gerr, werr) {
			t.Fatalf("line %q: error %v, oracle %v", line, gerr, werr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("line %q:\n got  %+v\n want %+v", line, got, want)
		}
	})
}

// sameInputError compares an error with the oracle's: file, line and
// message, and the column where the oracle places one (it does not place
// a member's wrong value; the reader does, for the caret).
func sameInputError(got, want error) bool {
	g, ok1 := inputerr.As(got)
	w, ok2 := inputerr.As(want)
	if !ok1 || !ok2 {
		return got.Error() == want.Error()
	}
	return g.File == w.File && g.Line == w.Line && g.Msg == w.Msg && (w.Column == 0 || g.Column == w.Column)
}
