package api

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// strictDecode is the oracle: encoding/json refusing unknown keys, as the
// hosts decode requests.
func strictDecode(data []byte) (TabularRequest, error) {
	var req TabularRequest
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(&req)
	if err == nil && dec.More() {
		err = json.Unmarshal([]byte("x"), &req)
	}
	return req, err
}

var fastDecodeSeeds = []string{
	`{"gt":[{"name":"gt_page_27.csv","text":"name,title\nA \"B\",x\n"}],"runs":{"name":"runs.jsonl","text":"{\"model\":\"m\"}\n"},"format":"json"}`,
	`{"gt":[],"runs":{"name":"r","text":""},"rules":{"name":"E.md","text":"| a |\n"},"schema":{"name":"s","base64":"e30="},"gate":0.75,"preview":"open","skip_bad_lines":true}`,
	`{"gate":1e-1,"format":"csv","preview":"32,33","skip_bad_lines":false}`, `{}`, ` {"runs" : {"text":"\u00e9\ud83d\ude00"} } `,
	`{"gt":[{"name":"gt_page_27.csv","part":1}],"runs":{"name":"runs.jsonl","part":12},"rules":{"name":"E.md","part":3},"format":"json"}`,
	`{"runs":{"part":0}}`, `{"runs":{"part":-1}}`, `{"runs":{"part":1.0}}`, `{"runs":{"part":1e2}}`, `{"runs":{"part":"1"}}`,
	`{"runs":{"part":99999999999999999999}}`, `{"runs":{"part":1,"part":2}}`, `{"runs":{"part":2,"text":"x"}}`,
	`{"GT":[]}`, `{"gt":null}`, `{"gate":"0.5"}`, `{"gate":-0}`, `{"runs":{"name":"a","name":"b"}}`, `{"format":"md","format":"csv"}`,
	`{"runs":{"nme":"a"}}`, `{"extra":1}`, `[]`, `{"skip_bad_lines":1}`, `{"rules":null}`, `{"gt":[{"name":1}]}`,
}

func TestDecodeTabularRequestFast(t *testing.T) {
	for _, s := range fastDecodeSeeds {
		checkFastDecode(t, []byte(s))
	}
	// The site's requests take the fast path.
	for _, s := range fastDecodeSeeds[:6] {
		if _, ok := DecodeTabularRequestFast([]byte(s)); !ok {
			t.Errorf("%s: not decoded by the fast path", s)
		}
	}
}

func checkFastDecode(t *testing.T, data []byte) {
	got, ok := DecodeTabularRequestFast(data)
	if !ok {
		return // encoding/json decides
	}
	want, err := strictDecode(data)
	if err != nil {
		t.Fatalf("%q: the fast path accepted what encoding/json refuses: %v", data, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\n fast         %+v\n encoding/json %+v", data, got, want)
	}
}

func FuzzDecodeTabularFast(f *testing.F) {
	for _, s := range fastDecodeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkFastDecode)
}
