package tabular

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/internal/jsonscan"
	"github.com/docscore/docscore/scoring/schema"
)

// Field is one key of a record, kept in input order for keys the schema
// does not score.
type Field struct {
	Key   string
	Value json.RawMessage
}

// Record is one record a model returned.
type Record struct {
	Key    Value   // the key column (the name)
	Values []Value // the scored columns, in schema order
	Extra  []Field // keys the schema does not know, in input order
}

// Image is one line of a runs file: one model's reading of one page in one
// run and phase.
type Image struct {
	Line    int
	Model   string
	Phase   string
	Run     json.RawMessage // as given: a number or a string
	Page    string
	Status  string // "ok", or why the image failed
	Failure string // set when the image is a failed run
	Records []Record
}

// Failed reports whether the image is a failed run, excluded from scores.
func (im *Image) Failed() bool { return im.Failure != "" }

// Runs is a parsed runs file.
type Runs struct {
	File   string
	Images []*Image
	// Skipped are the bad lines left out under SkipBadLines.
	Skipped []*inputerr.Error
}

// RunsOptions tune ReadRuns.
type RunsOptions struct {
	// SkipBadLines reports a malformed line in Skipped and goes on, instead
	// of failing the whole file.
	SkipBadLines bool
}

// maxLine bounds one line of a runs file (64 MiB).
const maxLine = 64 << 20

// ReadRuns reads a runs JSONL file for schema s: one JSON object per line
// with model, phase, run, page, status and records (or response). Blank
// lines are skipped. A malformed line is an error naming the line, unless
// opts.SkipBadLines.
func ReadRuns(name string, data []byte, s *schema.Schema, opts RunsOptions) (*Runs, error) {
	runs := &Runs{File: name}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	type imageKey struct{ model, phase, run, page string }
	seen := map[imageKey]int{}
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := bytes.TrimSpace(sc.Bytes())
		if lineNo == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		if len(line) == 0 {
			continue
		}
		im, err := parseImage(name, lineNo, line, s)
		if err == nil {
			k := imageKey{im.Model, im.Phase, string(im.Run), im.Page}
			if prev, dup := seen[k]; dup {
				err = inputerr.New(name, lineNo, "model %q phase %q run %s page %s was already given at line %d", im.Model, im.Phase, im.Run, im.Page, prev)
			} else {
				seen[k] = lineNo
			}
		}
		if err != nil {
			if !opts.SkipBadLines {
				return nil, err
			}
			runs.Skipped = append(runs.Skipped, err)
			continue
		}
		runs.Images = append(runs.Images, im)
	}
	if err := sc.Err(); err != nil {
		return nil, inputerr.New(name, lineNo+1, "cannot read the line: %v (lines are limited to %d MiB)", err, maxLine>>20)
	}
	return runs, nil
}

// object is a parsed JSON object: its members in input order, a repeated
// key's last value winning (as in encoding/json).
type object []jsonscan.Member

// get returns a member's value; ok is false when the key is missing.
func (o object) get(key string) (value string, ok bool) {
	for i := len(o) - 1; i >= 0; i-- {
		if o[i].Key == key {
			return o[i].Value, true
		}
	}
	return "", false
}

// parseImage reads one line.
func parseImage(file string, lineNo int, line []byte, s *schema.Schema) (*Image, *inputerr.Error) {
	bad := func(format string, args ...any) (*Image, *inputerr.Error) {
		return nil, inputerr.New(file, lineNo, format, args...)
	}
	if !utf8.Valid(line) {
		return bad("expected UTF-8 text")
	}
	// One copy of the line: every string read from it shares its memory.
	members, ok := jsonscan.Object(nil, string(line))
	if !ok {
		var m map[string]json.RawMessage
		err := json.Unmarshal(line, &m)
		return bad("expected one JSON object per line: %s", jsonProblem(line, err))
	}
	obj := object(members)
	im := &Image{Line: lineNo}
	var err error
	if im.Model, err = requiredString(obj, "model"); err != nil {
		return bad("%v", err)
	}
	if im.Phase, err = optionalString(obj, "phase"); err != nil {
		return bad("%v", err)
	}
	run, _ := obj.get("run")
	switch {
	case len(run) == 0 || run == "null":
		im.Run = json.RawMessage("null")
	case run[0] == '"' || (run[0] >= '0' && run[0] <= '9') || run[0] == '-':
		var buf bytes.Buffer
		if json.Compact(&buf, []byte(run)) != nil {
			return bad(`expected "run" to be a number or a string`)
		}
		im.Run = buf.Bytes()
	default:
		return bad(`expected "run" to be a number or a string, found %s`, abbreviate(run))
	}
	page, _ := obj.get("page")
	switch {
	case len(page) == 0 || page == "null":
		return bad(`expected a "page" naming the ground-truth page (a string or a number)`)
	case page[0] == '"':
		p, _ := jsonscan.String(page)
		im.Page = strings.TrimSpace(p)
	case (page[0] >= '0' && page[0] <= '9') || page[0] == '-':
		im.Page = page
	default:
		return bad(`expected "page" to be a string or a number, found %s`, abbreviate(page))
	}
	if im.Page == "" {
		return bad(`expected a non-empty "page"`)
	}
	status := "ok"
	if raw, ok := obj.get("status"); ok && raw != "null" {
		var isString bool
		if status, isString = jsonscan.String(raw); !isString {
			return bad(`expected "status" to be a string, found %s`, abbreviate(raw))
		}
	}
	im.Status = status
	if status != "ok" {
		im.Failure = fmt.Sprintf("status %q", status)
		return im, nil
	}
	records, hasRecords := obj.get("records")
	response, hasResponse := obj.get("response")
	if records == "null" {
		hasRecords = false // null is missing: the response, if any, is read
	}
	switch {
	case hasRecords:
		recs, ok := recordList(records)
		if !ok {
			im.Failure = "records is not a list of objects"
			return im, nil
		}
		im.Records = convertRecords(recs, s)
	case hasResponse:
		resp, ok := jsonscan.String(response)
		if response == "null" {
			resp, ok = "", true // read as no answer
		}
		if !ok {
			im.Failure = "response is not a string"
			return im, nil
		}
		recs, ok := ExtractRecords(resp)
		if !ok {
			im.Failure = "no JSON array of objects in response"
			return im, nil
		}
		im.Records = convertRecords(recs, s)
	default:
		im.Failure = "no records or response"
	}
	return im, nil
}

func requiredString(obj object, key string) (string, error) {
	raw, ok := obj.get(key)
	if !ok || raw == "null" {
		return "", fmt.Errorf("expected a %q string", key)
	}
	s, ok := jsonscan.String(raw)
	if !ok {
		return "", fmt.Errorf("expected %q to be a string, found %s", key, abbreviate(raw))
	}
	if strings.TrimSpace(s) == "" {
		return "", fmt.Errorf("expected a non-empty %q", key)
	}
	return s, nil
}

func optionalString(obj object, key string) (string, error) {
	raw, ok := obj.get(key)
	if !ok || raw == "null" {
		return "", nil
	}
	s, ok := jsonscan.String(raw)
	if !ok {
		return "", fmt.Errorf("expected %q to be a string, found %s", key, abbreviate(raw))
	}
	return s, nil
}

// recordList splits a JSON array into its elements when every element is
// an object.
func recordList(raw string) ([]string, bool) {
	elems, ok := jsonscan.Array(nil, raw)
	if !ok {
		return nil, false
	}
	for _, e := range elems {
		if e[0] != '{' {
			return nil, false
		}
	}
	return elems, true
}

// convertRecords turns JSON objects (valid ones: recordList's elements)
// into records for schema s.
func convertRecords(objs []string, s *schema.Schema) []Record {
	out := make([]Record, len(objs))
	values := make([]Value, len(objs)*len(s.Columns))
	var members []jsonscan.Member
	for i, raw := range objs {
		members = orderedFields(members[:0], raw)
		rec := Record{Values: values[:len(s.Columns):len(s.Columns)]}
		values = values[len(s.Columns):]
		for _, f := range members {
			key := fieldKey(f.Key)
			switch {
			case key == s.Key:
				rec.Key = valueFromJSON(f.Value)
			case s.Index(key) >= 0:
				rec.Values[s.Index(key)] = valueFromJSON(f.Value)
			default:
				rec.Extra = append(rec.Extra, Field{Key: f.Key, Value: json.RawMessage(f.Value)})
			}
		}
		out[i] = rec
	}
	return out
}

// fieldKey is a record key as the schema names columns: trimmed and lower
// case (without allocating when it already is).
func fieldKey(k string) string {
	for i := 0; i < len(k); i++ {
		if c := k[i]; c >= 'A' && c <= 'Z' || c >= utf8.RuneSelf || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' {
			return strings.ToLower(strings.TrimSpace(k))
		}
	}
	return k
}

// orderedFields appends the members of a JSON object (a valid one) to dst
// in input order. When a key repeats, the last value wins (as in
// encoding/json) at the first key's place.
func orderedFields(dst []jsonscan.Member, raw string) []jsonscan.Member {
	members, _ := jsonscan.Object(dst, raw)
	out := members[:0]
	var index map[string]int // for objects with many keys
	if len(members) > 32 {
		index = make(map[string]int, len(members))
	}
	for _, m := range members {
		j := -1
		if index != nil {
			if k, ok := index[m.Key]; ok {
				j = k
			} else {
				index[m.Key] = len(out)
			}
		} else {
			for k := range out {
				if out[k].Key == m.Key {
					j = k
					break
				}
			}
		}
		if j >= 0 {
			out[j].Value = m.Value
			continue
		}
		out = append(out, m)
	}
	return out
}

// jsonProblem describes why a line is not a JSON object, with its column.
func jsonProblem(line []byte, err error) string {
	var se *json.SyntaxError
	if e, ok := err.(*json.SyntaxError); ok {
		se = e
		return fmt.Sprintf("%v at column %d", se, se.Offset)
	}
	if err == nil {
		return "found null"
	}
	return err.Error()
}

func abbreviate(s string) string {
	const n = 40
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
