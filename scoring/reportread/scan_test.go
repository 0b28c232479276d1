package reportread

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/docscore/docscore/internal/testkit"
	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/internal/jsonscan"
)

// scanAgrees checks scanTabular against encoding/json on text: where the
// scan reads it, encoding/json reads the same kind and the same members.
// It reports whether the scan read it.
func scanAgrees(t *testing.T, text string) bool {
	t.Helper()
	got, ok := scanTabular(text)
	if !ok {
		return false
	}
	var head struct {
		Kind *string `json:"kind"`
	}
	var want tabularJSON
	if err := json.Unmarshal([]byte(text), &head); err != nil {
		t.Fatalf("scanned a text encoding/json refuses (%v): %.300s", err, text)
	}
	if head.Kind == nil || *head.Kind != "tabular" {
		t.Fatalf("scanned a report of kind %v: %.300s", head.Kind, text)
	}
	if err := json.Unmarshal([]byte(text), &want); err != nil {
		t.Fatalf("scanned a text encoding/json refuses (%v): %.300s", err, text)
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Fatalf("scanned\n%.600s\nencoding/json\n%.600s\nfrom %.300s", g, w, text)
	}
	return true
}

// The scan reads the sample reports as encoding/json does, and leaves to
// encoding/json every text it would read otherwise: repeated and
// case-folded keys, members of another type, numbers out of range.
func TestScanMatchesEncodingJSON(t *testing.T) {
	for _, p := range []string{tabularReport, "../tabular/testdata/golden/sample_no_rules.json"} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !scanAgrees(t, string(b)) {
			t.Errorf("%s: not scanned", p)
		}
	}
	const row = `"model":"m","phase":"G","page":"1","status":"ok","line":3,"matched":1,"n_model":2,"n_gt":1,"name_cer_edits":0,"name_ref_chars":4,"fields":{"title":{"sum":0.5,"scored":1}}`
	doc := func(image string) string {
		return `{"kind":"tabular","fields":["title"],"cells":[{"model":"m","phase":"G"}],"images":[{` + image + `}]}`
	}
	for _, tc := range []struct {
		text    string
		scanned bool
	}{
		{doc(row), true},
		{doc(row + `,"pairs":[{"x":[1,{"y":null}]}],"Extra":1`), true},
		{doc(strings.Replace(row, `"line":3`, `"line":null`, 1)), true},
		{doc(strings.Replace(row, `"matched":1`, `"matched":null`, 1)), true},
		{doc(strings.Replace(row, `"page":"1"`, `"page":"\u00e9\ud83d\ude00"`, 1)), true},
		{doc(strings.Replace(row, `{"title":{"sum":0.5,"scored":1}}`, `{"title":null,"other":{"sum":1e-3}}`, 1)), true},
		{doc(strings.Replace(row, `"fields":{"title":{"sum":0.5,"scored":1}}`, `"fields":null`, 1)), true},
		{`{"kind":"tabular","fields":[],"cells":[],"images":[]}`, true},
		{doc(strings.Replace(row, `"matched":1`, `"Matched":1`, 1)), false},
		{doc(strings.Replace(row, `"matched":1`, `"matched":1,"matched":2`, 1)), false},
		{doc(strings.Replace(row, `"matched":1`, `"matched":"1"`, 1)), false},
		{doc(strings.Replace(row, `"matched":1`, `"matched":1e999`, 1)), false},
		{doc(strings.Replace(row, `"line":3`, `"line":3.5`, 1)), false},
		{doc(strings.Replace(row, `"page":"1"`, `"page":1`, 1)), false},
		{doc(strings.Replace(row, `"sum":0.5`, `"SUM":0.5`, 1)), false},
		{doc(strings.Replace(row, `"fields":{"title":{"sum":0.5,"scored":1}}`, `"fields":{"t":{},"t":{}}`, 1)), false},
		{strings.Replace(doc(row), `"kind":"tabular"`, `"kind":"receipts"`, 1), false},
		{strings.Replace(doc(row), `"kind":"tabular"`, `"Kind":"tabular"`, 1), false},
		{strings.Replace(doc(row), `"cells":[{`, `"cells":[null,{`, 1), false},
		{strings.Replace(doc(row), `"images":[{`, `"images":[1,{`, 1), false},
		{strings.Replace(doc(row), `"fields":["title"]`, `"fields":null`, 1), false},
		{doc(row) + `x`, false},
		{doc(row)[:100], false},
	} {
		if got := scanAgrees(t, tc.text); got != tc.scanned {
			t.Errorf("scanned %v, want %v: %s", got, tc.scanned, tc.text)
		}
	}
}

// FuzzScanTabular holds the scan to encoding/json on any text.
func FuzzScanTabular(f *testing.F) {
	f.Add(testkit.CompactReport(f, tabularReport))
	f.Add(`{"kind":"tabular","fields":["a"],"cells":[{"model":"m","phase":"G"}],"images":[{"model":"m","phase":"G","page":"1","status":"ok","line":1,"matched":1,"n_model":1,"n_gt":1,"name_cer_edits":0,"name_ref_chars":0,"fields":{"a":{"sum":1,"scored":1}}}]}`)
	f.Add(`{"kind":"tabular","fields":["a"],"cells":[],"images":[{"model":"m","phase":"G","page":"1","status":"ok","pairs":[{"gt":"K\u00e9","x":[1,-2.5e+3,true,null,{}]}],"fields":{"a":{"sum":1,"scored":1}}}]}`)
	f.Fuzz(func(t *testing.T, text string) {
		inParts(t, 4)
		scanAgrees(t, text)
	})
}

// inParts has the scan read any images array of more than 8 bytes in up
// to n parts, on n threads, until the test ends.
func inParts(t testing.TB, n int) {
	old, procs := minPartBytes, runtime.GOMAXPROCS(n)
	minPartBytes = 8
	t.Cleanup(func() {
		minPartBytes = old
		runtime.GOMAXPROCS(procs)
	})
}

func compacted(t *testing.T, b []byte) string {
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// A report read in parts gives the rows of one pass, whatever its
// indentation: where a guessed row start is not one (an indent that
// nested values share, or a row's "{" on the same line as a nested one),
// the parts are refused and the array read in one pass.
func TestScanInPartsMatchesOnePass(t *testing.T) {
	inParts(t, 4)
	b, err := os.ReadFile(tabularReport)
	if err != nil {
		t.Fatal(err)
	}
	reindent := func(prefix, indent string) string {
		var out bytes.Buffer
		if err := json.Indent(&out, b, prefix, indent); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	misleading := strings.ReplaceAll(reindent("", "  "), "\n        {", "\n    {")
	for _, tc := range []struct {
		name  string
		text  string
		parts bool // whether the parts are all rows' starts
	}{
		{"docscore's indent", string(b), true},
		{"tabs", reindent("", "\t"), true},
		{"a prefix", reindent(" ", " "), true},
		{"no indent: every object after a newline", reindent("", ""), false},
		{"nested objects at the rows' indent", misleading, false},
		{"compact", compacted(t, b), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := tc.text
			open := strings.Index(text, `"images": [`) + len(`"images": [`)
			if open < len(`"images": [`) {
				open = strings.Index(text, `"images":[`) + len(`"images":[`)
			}
			parts := rowParts(text, open, jsonscan.SkipSpace(text, open), 4)
			_, _, ok := scanParts(text, parts)
			if len(parts) > 2 && ok != tc.parts || len(parts) <= 2 && tc.parts {
				t.Errorf("%d parts, read in parts %v; want %v", len(parts)-1, ok, tc.parts)
			}
			if !scanAgrees(t, text) {
				t.Error("not scanned")
			}
		})
	}
}

// A malformed value in an image row's "pairs", which the scan only
// checks, is refused: the report is read by encoding/json, whose error
// names the line of the fault.
func TestScanRefusesMalformedPairs(t *testing.T) {
	b, err := os.ReadFile(tabularReport)
	if err != nil {
		t.Fatal(err)
	}
	good := string(b)
	const pair = `"gt": "Karl Müller",` // in the first image row's pairs
	at := strings.Index(good, pair)
	if at < 0 || at < strings.Index(good, `"pairs"`) {
		t.Fatalf("%s: no %s in a pairs member", tabularReport, pair)
	}
	line := 1 + strings.Count(good[:at], "\n")
	for _, tc := range []struct {
		name, old, new, msg string
		line                int
	}{
		{"unclosed string", pair, `"gt": "Karl Müller,`, `invalid character '\n' in string literal`, line}, // the newline ending line 599
		{"bad number", `"gt_index": 0,`, `"gt_index": 01,`, `invalid character '1' after object key:value pair`, line + 2},
		{"bad exponent", `"gt_index": 0,`, `"gt_index": 0e,`, `invalid character ',' in exponent of numeric literal`, line + 2},
		{"bad literal", `"gt_index": 0,`, `"gt_index": nul,`, `invalid character ',' in literal null (expecting 'l')`, line + 2},
		{"trailing comma", `"children_count": 1` + "\n", `"children_count": 1,` + "\n", `invalid character '}' looking for beginning of object key string`, 0},
		{"bad escape", pair, `"gt": "Karl \x Müller",`, `invalid character 'x' in string escape code`, line},
		{"control character", pair, "\"gt\": \"Karl\tMüller\",", `invalid character '\t' in string literal`, line},
		{"missing colon", pair, `"gt" "Karl Müller",`, `invalid character '"' after object key`, line},
		{"unclosed array", "}\n      ],\n      \"unmatched_model\"", "}\n      \n      \"unmatched_model\"", `invalid character '"' after array element`, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			i := strings.Index(good[at:], tc.old)
			if i < 0 {
				t.Fatalf("no %q after the first pair", tc.old)
			}
			text := good[:at+i] + tc.new + good[at+i+len(tc.old):]
			if _, ok := scanTabular(text); ok {
				t.Fatal("scanned")
			}
			_, err := Read(api.File{Name: "r.json", Text: text})
			if _, ok := inputerr.As(err); !ok {
				t.Fatalf("error %v, want an input error", err)
			}
			want := tc.line
			if want == 0 { // the fault is where the next line starts
				want = 1 + strings.Count(good[:at+i+len(tc.new)], "\n")
			}
			head, excerpt, _ := strings.Cut(err.Error(), "\n")
			prefix := fmt.Sprintf("r.json:%d:", want)
			msg := fmt.Sprintf(": invalid JSON: %s: expected a docscore JSON report", tc.msg)
			if !strings.HasPrefix(head, prefix) || !strings.HasSuffix(head, msg) || !strings.HasSuffix(excerpt, "^") {
				t.Errorf("error\n%s\nwant %s<column>%s, the line and a caret", err, prefix, msg)
			}
		})
	}
}

// FuzzSkipValue holds skipValue to encoding/json: it takes a text whole
// exactly when json.Valid does.
func FuzzSkipValue(f *testing.F) {
	b, err := os.ReadFile(tabularReport)
	if err != nil {
		f.Fatal(err)
	}
	p := string(b[strings.Index(string(b), `"pairs"`):])
	f.Add("{" + p[:strings.Index(p, "\n        },")+len("\n        }")] + "]}") // an image row's first pair
	f.Add(`{"pairs":[{"gt":"a\u00e9\n","x":[1,-2.5e+3,true,false,null,{}],"y":[]}]}`)
	f.Add(`[[[[["\ud83d"]]]]]`)
	f.Fuzz(func(t *testing.T, text string) {
		i := jsonscan.SkipSpace(text, 0)
		end, ok := skipValue(text, i, 0)
		ok = ok && jsonscan.SkipSpace(text, end) == len(text)
		if want := json.Valid([]byte(text)); ok != want {
			t.Fatalf("skipValue took it %v, json.Valid %v: %.300q", ok, want, text)
		}
	})
}
