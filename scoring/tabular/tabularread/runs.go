package tabularread

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/internal/jsonscan"
	"github.com/docscore/docscore/scoring/internal/scratch"
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

// ReadRuns reads a runs JSONL file for schema s: one JSON object per line
// with model, phase, run, page, status and records (or response). Blank
// lines are skipped. A malformed line is an error naming the line, unless
// opts.SkipBadLines.
func ReadRuns(name string, data []byte, s *schema.Schema, opts RunsOptions) (*Runs, error) {
	runs := &Runs{File: name}
	lines := ingest.NewLines(name, data)
	lines.SkipBadLines = opts.SkipBadLines
	var keys RunKeys
	var scratch jsonscan.Nested
	for lines.Next() {
		l := lines.Line()
		err := lines.BadLine()
		var im *Image
		if err == nil {
			im, err = ParseLine(name, l, s, &scratch)
		}
		if err == nil {
			err = keys.Check(name, im)
		}
		if err != nil {
			if stop := lines.Skip(err); stop != nil {
				return nil, stop
			}
			continue
		}
		runs.Images = append(runs.Images, im)
	}
	runs.Skipped = lines.Skipped
	return runs, lines.Err()
}

// RunKeys finds an image a runs file gives twice (the same model, phase,
// run and page), in about four bytes an image (ingest.RunKeys). The zero
// value is empty.
type RunKeys struct{ keys ingest.RunKeys }

// Check records im's key at its line, or returns the error of a key
// already given.
func (k *RunKeys) Check(file string, im *Image) *inputerr.Error {
	if prev := k.keys.Add(im.Model, im.Phase, im.Run, im.Page, im.Line); prev != 0 {
		return inputerr.New(file, im.Line, "model %q phase %q run %s page %s was already given at line %d", im.Model, im.Phase, im.Run, im.Page, prev)
	}
	return nil
}

// Object is a parsed JSON object: its members in input order, a repeated
// key's last value winning (as in encoding/json).
type Object []jsonscan.Member

// Get returns a member's value; ok is false when the key is missing.
func (o Object) Get(key string) (value string, ok bool) {
	for i := len(o) - 1; i >= 0; i-- {
		if o[i].Key == key {
			return o[i].Value, true
		}
	}
	return "", false
}

// notObject is what a runs line must be.
const notObject = "a JSON object (one image per line)"

// ParseLine reads one line (valid UTF-8) in one pass over its text: the
// object, its records and each record's members.
func ParseLine(file string, l ingest.Line, s *schema.Schema, scan *jsonscan.Nested) (*Image, *inputerr.Error) {
	return parseLine(file, l, s, scan, nil)
}

// LineScratch is the memory ParseLineTransient reuses from line to line:
// the scanner's and the records'.
type LineScratch struct {
	Scan    jsonscan.Nested
	records []Record
	values  []Value
}

// ParseLineTransient is ParseLine for a caller done with the image's
// Records before its next call (a streamed scoring scores them at once):
// they live in sc, reused from call to call, rather than in new memory
// for every line.
func ParseLineTransient(file string, l ingest.Line, s *schema.Schema, sc *LineScratch) (*Image, *inputerr.Error) {
	return parseLine(file, l, s, &sc.Scan, sc)
}

// parseLine is ParseLine, the records in rs when it is not nil.
func parseLine(file string, l ingest.Line, s *schema.Schema, scan *jsonscan.Nested, rs *LineScratch) (*Image, *inputerr.Error) {
	lineNo := l.No
	// One copy of the line: every string read from it shares its memory.
	text := string(l.Text)
	// badAt places the error at raw, a member's value: the column under
	// which the caret goes; a missing member (raw empty) is placed at the
	// object's opening brace.
	badAt := func(key, raw string, format string, args ...any) (*Image, *inputerr.Error) {
		col := l.Indent + 1
		if off, ok := offsetIn(text, key, raw); ok {
			col += utf8.RuneCountInString(text[:off])
		}
		return nil, inputerr.At(file, lineNo, col, l.Source(), format, args...)
	}
	if !scan.Parse(text, "records") {
		if e := ingest.LineNotObject(file, l, notObject); e != nil {
			return nil, e
		}
		var m map[string]json.RawMessage
		return nil, ingest.LineJSONError(file, l, json.Unmarshal(l.Text, &m), notObject)
	}
	obj := Object(scan.Members)
	im := &Image{Line: lineNo}
	var err error
	if im.Model, err = requiredString(obj, "model"); err != nil {
		raw, _ := obj.Get("model")
		return badAt("model", raw, "%v", err)
	}
	if im.Phase, err = optionalString(obj, "phase"); err != nil {
		raw, _ := obj.Get("phase")
		return badAt("phase", raw, "%v", err)
	}
	run, _ := obj.Get("run")
	switch {
	case len(run) == 0 || run == "null":
		im.Run = json.RawMessage("null")
	case run[0] == '"' || (run[0] >= '0' && run[0] <= '9') || run[0] == '-':
		var buf bytes.Buffer
		if json.Compact(&buf, []byte(run)) != nil {
			return badAt("run", run, `expected "run" to be a number or a string`)
		}
		im.Run = buf.Bytes()
	default:
		return badAt("run", run, `expected "run" to be a number or a string, found %s`, abbreviate(run))
	}
	page, _ := obj.Get("page")
	switch {
	case len(page) == 0 || page == "null":
		return badAt("page", page, `expected a "page" naming the ground-truth page (a string or a number)`)
	case page[0] == '"':
		p, _ := jsonscan.String(page)
		im.Page = strings.TrimSpace(p)
	case (page[0] >= '0' && page[0] <= '9') || page[0] == '-':
		im.Page = page
	default:
		return badAt("page", page, `expected "page" to be a string or a number, found %s`, abbreviate(page))
	}
	if im.Page == "" {
		return badAt("page", page, `expected a non-empty "page"`)
	}
	status := "ok"
	if raw, ok := obj.Get("status"); ok && raw != "null" {
		var isString bool
		if status, isString = jsonscan.String(raw); !isString {
			return badAt("status", raw, `expected "status" to be a string, found %s`, abbreviate(raw))
		}
	}
	im.Status = status
	if status != "ok" {
		im.Failure = fmt.Sprintf("status %q", status)
		return im, nil
	}
	records, hasRecords := obj.Get("records")
	response, hasResponse := obj.Get("response")
	if records == "null" {
		hasRecords = false // null is missing: the response, if any, is read
	}
	switch {
	case hasRecords:
		if !scan.List {
			im.Failure = "records is not a list of objects"
			return im, nil
		}
		im.Records = recordsFromMembers(scan.Items, scan.Ends, s, rs)
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
		var items []jsonscan.Member
		ends := make([]int, len(recs))
		for i, r := range recs {
			items, _ = jsonscan.Object(items, r)
			ends[i] = len(items)
		}
		im.Records = recordsFromMembers(items, ends, s, rs)
	default:
		im.Failure = "no records or response"
	}
	return im, nil
}

// offsetIn returns where raw, the value of the member key as the scanner
// returned it, starts in text: the first `"key"`, a colon and raw, with
// JSON whitespace between them (a nested member of the same key and the
// same value before it would take its place: the column is a pointer for
// the eye, the message names the member).
func offsetIn(text, key, raw string) (int, bool) {
	if raw == "" {
		return 0, false
	}
	quoted := strconv.Quote(key)
	for from := 0; from < len(text); {
		i := strings.Index(text[from:], quoted)
		if i < 0 {
			return 0, false
		}
		j := from + i + len(quoted)
		j += len(text[j:]) - len(strings.TrimLeft(text[j:], " \t\r\n"))
		if j < len(text) && text[j] == ':' {
			j++
			j += len(text[j:]) - len(strings.TrimLeft(text[j:], " \t\r\n"))
			if strings.HasPrefix(text[j:], raw) {
				return j, true
			}
		}
		from += i + 1
	}
	return 0, false
}

func requiredString(obj Object, key string) (string, error) {
	raw, ok := obj.Get(key)
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

func optionalString(obj Object, key string) (string, error) {
	raw, ok := obj.Get(key)
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

// recordsFromMembers turns the members of JSON objects (valid ones), the
// members of object i ending at ends[i], into records for schema s.
func recordsFromMembers(items []jsonscan.Member, ends []int, s *schema.Schema, rs *LineScratch) []Record {
	var out []Record
	var values []Value
	if rs != nil {
		out, values = scratch.Slice(&rs.records, len(ends)), scratch.Slice(&rs.values, len(ends)*len(s.Columns))
	} else {
		out, values = make([]Record, len(ends)), make([]Value, len(ends)*len(s.Columns))
	}
	// The records of a line mostly give the same keys in the same order:
	// the column of the previous record's key at each place is kept, and
	// a key written the same way there skips its lookup.
	var placesArray [32]keyPlace
	places := placesArray[:0]
	start := 0
	for i, end := range ends {
		members := dedupe(items[start:end])
		start = end
		rec := Record{Values: values[:len(s.Columns):len(s.Columns)]}
		values = values[len(s.Columns):]
		for p, f := range members {
			var col int
			if p < len(places) && places[p].raw == f.Key {
				col = places[p].col
			} else {
				col = keyColumn(f.Key, s)
				switch {
				case p < len(places):
					places[p] = keyPlace{f.Key, col}
				case p == len(places) && p < cap(places):
					places = append(places, keyPlace{f.Key, col})
				}
			}
			switch col {
			case nameColumn:
				rec.Key = valueFromJSON(f.Value)
			case extraColumn:
				rec.Extra = append(rec.Extra, Field{Key: f.Key, Value: json.RawMessage(f.Value)})
			default:
				rec.Values[col] = valueFromJSON(f.Value)
			}
		}
		out[i] = rec
	}
	return out
}

// keyPlace is a record key as written and its column (keyColumn).
type keyPlace struct {
	raw string
	col int
}

// The columns of keyColumn that are not the schema's.
const (
	nameColumn  = -2 // the schema's key (the record's name)
	extraColumn = -1 // no column: an extra field
)

// keyColumn returns the schema column of a record key as written, or
// nameColumn or extraColumn.
func keyColumn(raw string, s *schema.Schema) int {
	key := fieldKey(raw)
	if key == s.Key {
		return nameColumn
	}
	if j := s.Index(key); j >= 0 {
		return j
	}
	return extraColumn
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

// dedupe keeps the members of one object in input order, in place. When
// a key repeats, the last value wins (as in encoding/json) at the first
// key's place.
func dedupe(members []jsonscan.Member) []jsonscan.Member {
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

//go:noinline
func abbreviate(s string) string {
	const n = 40
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
