package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	core "github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/tabular/tabulartest"
)

// smallTabular is a one-page request small enough to fuzz quickly.
func smallTabular() core.TabularRequest {
	return core.TabularRequest{
		GT: []core.File{{Name: "gt_page_27.csv", Text: "name,title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count\n" +
			"Karl Müller,,February 9 1769,March 13 1769,San Giovanni Grisostomo,Lubiana?,N,N,4\n" +
			"Nicolò Valier,Conte,February 2 1769,March 1 1769,Locanda del Cappello Nero,,N,N,2\n"}},
		Runs: core.File{Name: "runs.jsonl", Text: `{"model": "m", "phase": "G", "run": 1, "page": "27", "records": [{"name": "Karl Muller", "arrival_date": "February 09 1769", "with_spouse": false}]}` + "\n" +
			`{"model": "m", "phase": "G", "run": 2, "page": 27, "response": "[{\"name\": \"Co. Nicolo Valier\", \"title\": \"Conte\"}]"}` + "\n"},
		Rules: &core.File{Name: "EQUIVALENCES.md", Text: "## Ignore\n\n| field | token | position | side | status | witness |\n|---|---|---|---|---|---|\n| name | co. | leading | model | settled | p27 |\n| name | da venezia | trailing | model | OPEN | |\n"},
	}
}

// fuzzTargets are the paths FuzzHandler picks from, by index.
var fuzzTargets = []string{"/v1/score/tabular", "/v1/rules/check", "/healthz", "/v1/version", "/v1/score/tabular?preview=open&format=md", "/nowhere",
	"/v1/score/receipts", "/v1/eval"}

// FuzzHandler sends arbitrary bodies, content types and query strings to
// every route, under a small work cap: the answer is a 2xx or a 4xx, never
// a 5xx (a recovered panic is a 500, work past the deadline a 503), and
// every failure is a well-formed JSON error body.
func FuzzHandler(f *testing.F) {
	small := smallTabular()
	js, _ := json.Marshal(small)
	f.Add(uint8(0), "POST", "application/json", "", js)
	f.Add(uint8(4), "POST", "application/json", "gate=0.8&skip_bad_lines=true", js)
	rc, _ := json.Marshal(core.RulesCheckRequest{Rules: *small.Rules, GT: small.GT})
	f.Add(uint8(1), "POST", "application/json", "", rc)
	mp, ct := multipartBody(f, part{"gt", "gt_page_27.csv", small.GT[0].Text}, part{"runs", "runs.jsonl", small.Runs.Text},
		part{"rules", "EQUIVALENCES.md", small.Rules.Text}, part{"preview", "", "open"})
	f.Add(uint8(0), "POST", ct, "", mp)
	mp, ct = multipartBody(f, part{"rules", "r.md", small.Rules.Text}, part{"gt", "", small.GT[0].Text})
	f.Add(uint8(1), "POST", ct, "", mp)
	f.Add(uint8(0), "POST", "multipart/form-data; boundary=x", "", []byte("--x\r\nContent-Disposition: form-data; name=\"gate\"\r\n\r\n2\r\n--x--\r\n"))
	f.Add(uint8(0), "POST", "application/json", "", []byte(`{"gt": [{"name": "", "text": ""}], "runs": {"name": "", "text": "{}\n"}, "gate": 1e308}`))
	f.Add(uint8(2), "GET", "", "", []byte{})
	f.Add(uint8(5), "DELETE", "text/plain", "a=b", []byte("x"))
	// Over the work cap: 80 anagram names against 80, 6,400 pairs.
	gt, runs := tabulartest.Anagrams(80)
	anagrams := core.TabularRequest{GT: []core.File{{Name: gt.Name, Text: string(gt.Data)}}, Runs: core.File{Name: runs.Name, Text: string(runs.Data)}}
	js, _ = json.Marshal(anagrams)
	f.Add(uint8(0), "POST", "application/json", "", js)
	mp, ct = multipartBody(f, part{"gt", gt.Name, string(gt.Data)}, part{"runs", runs.Name, string(runs.Data)}, part{"gate", "", "0.5"})
	f.Add(uint8(0), "POST", ct, "", mp)
	// Parameter values every host refuses.
	js, _ = json.Marshal(small)
	for _, q := range []string{"gate=NaN", "gate=-Inf", "gate=0", "gate=1e999", "preview=abc", "preview=open", "format=xml"} {
		f.Add(uint8(0), "POST", "application/json", q, js)
	}
	f.Add(uint8(0), "POST", "application/json", "", []byte(`{"gt": [{"name": "g.csv", "text": "name\n"}], "runs": {"name": "r", "text": ""}, "gate": 0}`))
	f.Add(uint8(6), "POST", "application/json", "allow_incomplete=true", []byte(`{"refs": [{"name": "r.jsonl", "text": "{}"}], "run": {"name": "run.jsonl", "text": "{}"}}`))
	f.Add(uint8(7), "POST", "application/json", "", []byte(`{"cases": {"name": "c.json", "text": "[]"}}`))
	h := New(Options{MaxBodyBytes: 64 << 10, MaxPairs: 5000, Deadline: time.Minute})
	f.Fuzz(func(t *testing.T, target uint8, method, contentType, query string, body []byte) {
		url := fuzzTargets[int(target)%len(fuzzTargets)]
		if query != "" && !strings.Contains(url, "?") {
			url += "?" + query
		}
		r := httptest.NewRequest("POST", "/", bytes.NewReader(body))
		if m := strings.ToUpper(method); m == "GET" || m == "PUT" || m == "DELETE" || m == "PATCH" {
			r.Method = m
		}
		if u, err := r.URL.Parse(url); err == nil {
			r.URL = u
		}
		r.Header.Set("Content-Type", contentType)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code >= 500 {
			t.Fatalf("%s %s (%q): status %d: %s", r.Method, url, contentType, w.Code, w.Body)
		}
		if w.Code >= 400 {
			var e ErrorBody
			if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || e.Error.Code == "" || e.Error.Message == "" {
				t.Fatalf("status %d with a malformed error body: %v: %s", w.Code, err, w.Body)
			}
		}
	})
}
