package compareapi

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
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
	for _, p := range []string{tabularReport, "../../tabular/testdata/golden/sample_no_rules.json"} {
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
	f.Add(compact(f, tabularReport))
	f.Add(`{"kind":"tabular","fields":["a"],"cells":[{"model":"m","phase":"G"}],"images":[{"model":"m","phase":"G","page":"1","status":"ok","line":1,"matched":1,"n_model":1,"n_gt":1,"name_cer_edits":0,"name_ref_chars":0,"fields":{"a":{"sum":1,"scored":1}}}]}`)
	f.Fuzz(func(t *testing.T, text string) { scanAgrees(t, text) })
}
