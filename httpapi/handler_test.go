package httpapi

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/docscore/docscore/sample"
	core "github.com/docscore/docscore/scoring/api"
)

// sampleRequest is the bundled sample as a scoring/api request.
func sampleRequest(t testing.TB, withRules bool) core.TabularRequest {
	t.Helper()
	r, err := sample.TabularRequest(withRules)
	if err != nil {
		t.Fatal(err)
	}
	req := core.TabularRequest{Runs: core.File{Name: r.Runs.Name, Text: string(r.Runs.Data)}}
	if r.Rules != nil {
		req.Rules = &core.File{Name: r.Rules.Name, Text: string(r.Rules.Data)}
	}
	for _, f := range r.GT {
		req.GT = append(req.GT, core.File{Name: f.Name, Text: string(f.Data)})
	}
	return req
}

func ptr[T any](v T) *T { return &v }

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// part is one multipart/form-data part: a file when fileName is set.
type part struct{ field, fileName, text string }

// multipartBody encodes parts; it returns the body and its Content-Type.
func multipartBody(t testing.TB, parts ...part) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, p := range parts {
		var w io.Writer
		var err error
		if p.fileName != "" {
			w, err = mw.CreateFormFile(p.field, p.fileName)
		} else {
			w, err = mw.CreateFormField(p.field)
		}
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, p.text)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), mw.FormDataContentType()
}

// sampleParts is the bundled sample as multipart parts, named as the
// JSON request names them.
func sampleParts(t testing.TB, withRules bool) []part {
	req := sampleRequest(t, withRules)
	var parts []part
	for _, f := range req.GT {
		parts = append(parts, part{"gt", f.Name, f.Text})
	}
	parts = append(parts, part{"runs", req.Runs.Name, req.Runs.Text})
	if req.Rules != nil {
		parts = append(parts, part{"rules", req.Rules.Name, req.Rules.Text})
	}
	return parts
}

func golden(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "scoring", "tabular", "testdata", "golden", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func do(h http.Handler, method, target, contentType string, body []byte) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, bytes.NewReader(body))
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// multipart base names: multipart keeps only a file's base name, so the
// sample's files arrive as gt_page_27.csv, runs.jsonl, EQUIVALENCES.md and
// the report names them so; the golden files name them sample/tabular/….
// The multipart cases compare with the JSON answer for the same names.

func TestScoreTabularMatchesCLI(t *testing.T) {
	h := New(Options{})
	cases := []struct {
		name, target, format string
		withRules            bool
		preview              string
		golden, contentType  string
	}{
		{"json", "/v1/score/tabular", "", true, "", "sample.json", "application/json; charset=utf-8"},
		{"json explicit", "/v1/score/tabular", "json", true, "", "sample.json", "application/json; charset=utf-8"},
		{"csv", "/v1/score/tabular", "csv", true, "", "sample.csv", "text/csv; charset=utf-8"},
		{"md", "/v1/score/tabular", "md", true, "", "sample.md", "text/markdown; charset=utf-8"},
		{"format in query", "/v1/score/tabular?format=md", "", true, "", "sample.md", "text/markdown; charset=utf-8"},
		{"no rules", "/v1/score/tabular", "", false, "", "sample_no_rules.json", "application/json; charset=utf-8"},
		{"preview in body", "/v1/score/tabular", "", true, "open", "sample_preview_open.json", "application/json; charset=utf-8"},
		{"preview in query", "/v1/score/tabular?preview=open", "", true, "", "sample_preview_open.json", "application/json; charset=utf-8"},
		{"query overrides body", "/v1/score/tabular?preview=open&gate=0.7", "csv", true, "32", "sample_preview_open.csv", "text/csv; charset=utf-8"},
		{"bootstrap 0 in query", "/v1/score/tabular?bootstrap=0", "", true, "", "sample_bootstrap0.json", "application/json; charset=utf-8"},
		{"default intervals spelled out", "/v1/score/tabular?bootstrap=2000&ci_level=0.95&seed=0", "md", true, "", "sample.md", "text/markdown; charset=utf-8"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := sampleRequest(t, c.withRules)
			req.Format, req.Preview = c.format, c.preview
			w := do(h, "POST", c.target, "application/json", mustJSON(t, req))
			if w.Code != 200 {
				t.Fatalf("status %d: %s", w.Code, w.Body)
			}
			if got := w.Header().Get("Content-Type"); got != c.contentType {
				t.Errorf("Content-Type %q, want %q", got, c.contentType)
			}
			if !bytes.Equal(w.Body.Bytes(), golden(t, c.golden)) {
				t.Errorf("body differs from golden %s", c.golden)
			}
		})
	}
}

// TestPreviewComparisonOptions sends permutations and alpha in the query
// and in the body: the answer is the report the operation writes for the
// same request, its preview comparison under those options.
func TestPreviewComparisonOptions(t *testing.T) {
	h := New(Options{})
	req := sampleRequest(t, true)
	req.Preview = "open"
	inQuery := do(h, "POST", "/v1/score/tabular?permutations=300&alpha=0.2&bootstrap=100&seed=3", "application/json", mustJSON(t, req))
	req.Permutations, req.Alpha, req.Bootstrap, req.Seed = ptr(300), ptr(0.2), ptr(100), ptr(uint64(3))
	inBody := do(h, "POST", "/v1/score/tabular", "application/json", mustJSON(t, req))
	want, err := core.ScoreTabular(req)
	if err != nil {
		t.Fatal(err)
	}
	for name, w := range map[string]*httptest.ResponseRecorder{"query": inQuery, "body": inBody} {
		if w.Code != 200 || !bytes.Equal(w.Body.Bytes(), want) {
			t.Fatalf("%s: status %d, body differs from the operation's report: %.300s", name, w.Code, w.Body)
		}
	}
	var rep struct {
		Preview struct {
			Comparison struct {
				Replicates, Permutations int
				Seed                     uint64
				Alpha                    float64
				Comparisons              []struct {
					A, B struct{ ID string }
				}
			}
		}
	}
	if err := json.Unmarshal(want, &rep); err != nil {
		t.Fatal(err)
	}
	c := rep.Preview.Comparison
	if c.Replicates != 100 || c.Permutations != 300 || c.Alpha != 0.2 || c.Seed != 3 || len(c.Comparisons) != 4 ||
		c.Comparisons[0].A.ID != "settled:tabular/claude-3-5-sonnet-20241022/G" || c.Comparisons[0].B.ID != "preview:tabular/claude-3-5-sonnet-20241022/G" {
		t.Fatalf("preview comparison %+v", c)
	}
}

func TestScoreTabularMultipart(t *testing.T) {
	h := New(Options{})
	// The same files, the same names: multipart and JSON give the same bytes.
	parts := sampleParts(t, true)
	body, ct := multipartBody(t, parts...)
	mp := do(h, "POST", "/v1/score/tabular?preview=open", ct, body)
	if mp.Code != 200 {
		t.Fatalf("multipart: status %d: %s", mp.Code, mp.Body)
	}
	var req core.TabularRequest
	for _, p := range parts {
		f := core.File{Name: filepath.Base(p.fileName), Text: p.text}
		switch p.field {
		case "gt":
			req.GT = append(req.GT, f)
		case "runs":
			req.Runs = f
		case "rules":
			req.Rules = &f
		}
	}
	req.Preview = "open"
	js := do(h, "POST", "/v1/score/tabular", "application/json", mustJSON(t, req))
	if js.Code != 200 || !bytes.Equal(mp.Body.Bytes(), js.Body.Bytes()) {
		t.Fatalf("multipart and JSON answers differ (JSON status %d)", js.Code)
	}
	if !strings.Contains(mp.Body.String(), `"file": "EQUIVALENCES.md"`) {
		t.Errorf("the rule file's part name is not kept")
	}
	// Options as plain parts; a part with no file name takes the field's name.
	body, ct = multipartBody(t, append(sampleParts(t, true), part{"format", "", "md"}, part{"gate", "", " 0.7 "}, part{"skip_bad_lines", "", "false"})...)
	w := do(h, "POST", "/v1/score/tabular", ct, body)
	if w.Code != 200 || !strings.HasPrefix(w.Body.String(), "# Tabular extraction scores") {
		t.Fatalf("options as parts: status %d: %.200s", w.Code, w.Body)
	}
	body, ct = multipartBody(t, part{"gt", "", "name,title\nAnna,\n"}, part{"runs", "", `{"model":"m","page":"1","records":[]}` + "\n"})
	w = do(h, "POST", "/v1/score/tabular", ct, body)
	if w.Code != 422 || !strings.Contains(w.Body.String(), `"file": "gt"`) {
		t.Fatalf("unnamed parts: status %d: %s", w.Code, w.Body)
	}
}

func TestRulesCheck(t *testing.T) {
	h := New(Options{})
	s := sampleRequest(t, true)
	w := do(h, "POST", "/v1/rules/check", "application/json", mustJSON(t, core.RulesCheckRequest{Rules: *s.Rules, GT: s.GT}))
	if w.Code != 200 {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	var res core.RulesCheckResult
	if err := json.Unmarshal(w.Body.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	want, err := core.CheckRules(core.RulesCheckRequest{Rules: *s.Rules, GT: s.GT})
	if err != nil {
		t.Fatal(err)
	}
	wantBytes, _ := core.MarshalJSON(want)
	if !bytes.Equal(w.Body.Bytes(), wantBytes) || res.Settled != 11 || res.Open != 4 || len(res.Warnings) != 1 {
		t.Fatalf("answer differs from scoring/api.CheckRules: %+v", res)
	}
	// A bad rule file is the answer, not a failed request.
	bad := "## Ignore\n\n| field | token | position | side | status |\n|---|---|---|---|---|\n| name | x | up | model | settled |\n"
	body, ct := multipartBody(t, part{"rules", "bad.md", bad})
	w = do(h, "POST", "/v1/rules/check", ct, body)
	if w.Code != 200 {
		t.Fatalf("bad rules: status %d: %s", w.Code, w.Body)
	}
	res = core.RulesCheckResult{}
	json.Unmarshal(w.Body.Bytes(), &res)
	if len(res.Errors) != 1 || res.Errors[0].File != "bad.md" || res.Errors[0].Line != 5 {
		t.Fatalf("bad rules: %+v", res)
	}
}

func TestHealthAndVersion(t *testing.T) {
	h := New(Options{Version: "1.2.3", Commit: "3f9a61c2d4e5f60718293a4b5c6d7e8f90a1b2c3", Date: "2026-05-01T10:00:00Z"})
	w := do(h, "GET", "/healthz", "", nil)
	if w.Code != 200 || w.Body.String() != "{\n  \"status\": \"ok\"\n}\n" {
		t.Fatalf("healthz: %d %q", w.Code, w.Body)
	}
	w = do(h, "GET", "/v1/version", "", nil)
	var v VersionInfo
	if err := json.Unmarshal(w.Body.Bytes(), &v); w.Code != 200 || err != nil {
		t.Fatalf("version: %d %v", w.Code, err)
	}
	if v.Docscore != "1.2.3" || v.Commit != "3f9a61c2d4e5f60718293a4b5c6d7e8f90a1b2c3" || v.Date != "2026-05-01T10:00:00Z" || v.Go != runtime.Version() || v.API != "v1" || len(v.Routes) != len(routes()) {
		t.Fatalf("version: %+v", v)
	}
	w = do(New(Options{}), "GET", "/v1/version", "", nil)
	if !strings.Contains(w.Body.String(), `"docscore": "dev",
  "commit": "",
  "date": "",`) {
		t.Fatalf("default version: %s", w.Body)
	}
}

func TestFallback(t *testing.T) {
	site := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "site "+r.URL.Path) })
	h := New(Options{Fallback: site})
	if w := do(h, "GET", "/index.html", "", nil); w.Code != 200 || w.Body.String() != "site /index.html" {
		t.Fatalf("fallback: %d %q", w.Code, w.Body)
	}
	if w := do(h, "GET", "/v1/nothing", "", nil); w.Code != 404 {
		t.Fatalf("/v1/ path went to the fallback: %d %q", w.Code, w.Body)
	}
	if w := do(h, "GET", "/v1/score/tabular", "", nil); w.Code != 405 {
		t.Fatalf("a route's wrong method went to the fallback: %d", w.Code)
	}
}

// errorCase is a request that must fail with status and code; file and
// line are checked when set, message must contain msg.
type errorCase struct {
	name, method, target, contentType string
	body                              []byte
	status                            int
	code, file                        string
	line                              int
	msg                               string
}

func errorCases(t testing.TB) []errorCase {
	s := sampleRequest(t, true)
	with := func(edit func(r *core.TabularRequest)) []byte {
		r := sampleRequest(t, true)
		edit(&r)
		return mustJSON(t, r)
	}
	good := mustJSON(t, s)
	badRunsMP, mpCT := multipartBody(t, part{"gt", "gt_page_27.csv", s.GT[0].Text}, part{"runs", "runs.jsonl", "{oops\n"})
	twice, twiceCT := multipartBody(t, part{"runs", "a.jsonl", ""}, part{"runs", "b.jsonl", ""})
	unknownMP, unknownCT := multipartBody(t, part{"ground_truth", "x.csv", "a"})
	gateMP, gateCT := multipartBody(t, part{"gate", "", "high"})
	gate0MP, gate0CT := multipartBody(t, append(sampleParts(t, true), part{"gate", "", "0"})...)
	boolMP, boolCT := multipartBody(t, part{"skip_bad_lines", "", "maybe"})
	noRunsMP, noRunsCT := multipartBody(t, part{"gt", "gt_page_27.csv", s.GT[0].Text})
	return []errorCase{
		{name: "GET on a POST route", method: "GET", target: "/v1/score/tabular", status: 405, code: "method_not_allowed", msg: "expected POST"},
		{name: "POST on healthz", method: "POST", target: "/healthz", contentType: "application/json", body: []byte("{}"), status: 405, code: "method_not_allowed", msg: "expected GET"},
		{name: "PUT on rules check", method: "PUT", target: "/v1/rules/check", status: 405, code: "method_not_allowed"},
		{name: "unknown route", method: "GET", target: "/v1/score/unknown", status: 404, code: "not_found", msg: "POST /v1/score/tabular"},
		{name: "root without a site", method: "GET", target: "/", status: 404, code: "not_found"},
		{name: "no content type", method: "POST", target: "/v1/score/tabular", body: good, status: 415, code: "unsupported_media_type"},
		{name: "text/plain", method: "POST", target: "/v1/score/tabular", contentType: "text/plain", body: good, status: 415, code: "unsupported_media_type"},
		{name: "form-urlencoded", method: "POST", target: "/v1/rules/check", contentType: "application/x-www-form-urlencoded", body: []byte("rules=x"), status: 415, code: "unsupported_media_type"},
		{name: "unparsable content type", method: "POST", target: "/v1/score/tabular", contentType: "application/json; =", body: good, status: 415, code: "unsupported_media_type"},
		{name: "empty body", method: "POST", target: "/v1/score/tabular", contentType: "application/json", status: 400, code: "bad_request", msg: "empty request body"},
		{name: "not JSON", method: "POST", target: "/v1/score/tabular", contentType: "application/json", body: []byte("{\n  \"gt\": [\n  oops"), status: 400, code: "bad_request", line: 3, msg: "request body:3:3: invalid character 'o' looking for beginning of value\n    3 |   oops\n      |   ^"},
		{name: "truncated JSON", method: "POST", target: "/v1/score/tabular", contentType: "application/json", body: []byte(`{"gt": [`), status: 400, code: "bad_request", line: 1, msg: "unexpected end"},
		{name: "JSON array", method: "POST", target: "/v1/score/tabular", contentType: "application/json", body: []byte(`[]`), status: 400, code: "bad_request", line: 1},
		{name: "trailing data", method: "POST", target: "/v1/score/tabular", contentType: "application/json", body: append(append([]byte{}, good...), "\n{}"...), status: 400, code: "bad_request", line: 2, msg: "unexpected data after the JSON object"},
		{name: "unknown field", method: "POST", target: "/v1/score/tabular", contentType: "application/json", body: []byte(`{"gt": [], "rule": {}}`), status: 400, code: "bad_request", msg: `unknown field "rule"`},
		{name: "file as a string", method: "POST", target: "/v1/score/tabular", contentType: "application/json", body: []byte(`{"runs": "runs.jsonl"}`), status: 400, code: "bad_request", msg: `field "runs": expected a file {"name", "text"}, not a JSON string`},
		{name: "a part without parts", method: "POST", target: "/v1/score/tabular", contentType: "application/json", body: with(func(r *core.TabularRequest) { r.Runs.Text, r.Runs.Part = "", 1 }), status: 400, code: "bad_request", msg: `runs.jsonl: names part 1: an HTTP request carries the file's text or base64`},
		{name: "gate as a string", method: "POST", target: "/v1/score/tabular", contentType: "application/json", body: []byte(`{"gate": "0.8"}`), status: 400, code: "bad_request", msg: `field "gate": expected a number`},
		{name: "empty gt list", method: "POST", target: "/v1/score/tabular", contentType: "application/json", body: with(func(r *core.TabularRequest) { r.GT = []core.File{} }), status: 400, code: "bad_request", msg: `missing field "gt"`},
		{name: "missing gt", method: "POST", target: "/v1/score/tabular", contentType: "application/json", body: with(func(r *core.TabularRequest) { r.GT = nil }), status: 400, code: "bad_request", msg: `missing field "gt" (expected one or more ground-truth CSV files)`},
		{name: "missing runs", method: "POST", target: "/v1/score/tabular", contentType: "application/json", body: with(func(r *core.TabularRequest) { r.Runs = core.File{} }), status: 400, code: "bad_request", msg: `missing field "runs"`},
		{name: "missing runs part", method: "POST", target: "/v1/score/tabular", contentType: noRunsCT, body: noRunsMP, status: 400, code: "bad_request", msg: `missing field "runs"`},
		{name: "missing rules", method: "POST", target: "/v1/rules/check", contentType: "application/json", body: []byte(`{}`), status: 400, code: "bad_request", msg: `missing field "rules"`},
		{name: "gate out of range", method: "POST", target: "/v1/score/tabular?gate=1.5", contentType: "application/json", body: good, status: 400, code: "bad_request", msg: "gate 1.5: expected a similarity in (0, 1]"},
		{name: "negative gate in body", method: "POST", target: "/v1/score/tabular", contentType: "application/json", body: with(func(r *core.TabularRequest) { r.Gate = ptr(-0.5) }), status: 400, code: "bad_request", msg: "gate -0.5"},
		{name: "gate 0 in body", method: "POST", target: "/v1/score/tabular", contentType: "application/json", body: with(func(r *core.TabularRequest) { r.Gate = ptr(0.0) }), status: 400, code: "bad_request", msg: "gate 0: expected a similarity in (0, 1]"},
		{name: "gate 0 in query", method: "POST", target: "/v1/score/tabular?gate=0", contentType: "application/json", body: good, status: 400, code: "bad_request", msg: "gate 0: expected a similarity in (0, 1]"},
		{name: "gate 0 part", method: "POST", target: "/v1/score/tabular", contentType: gate0CT, body: gate0MP, status: 400, code: "bad_request", msg: "gate 0: expected a similarity in (0, 1]"},
		{name: "gate +Inf", method: "POST", target: "/v1/score/tabular?gate=%2BInf", contentType: "application/json", body: good, status: 400, code: "bad_request", msg: "gate +Inf: expected"},
		{name: "gate -Inf", method: "POST", target: "/v1/score/tabular?gate=-Inf", contentType: "application/json", body: good, status: 400, code: "bad_request", msg: "gate -Inf: expected"},
		{name: "gate not a number", method: "POST", target: "/v1/score/tabular?gate=NaN", contentType: "application/json", body: good, status: 400, code: "bad_request", msg: "gate NaN"},
		{name: "gate text", method: "POST", target: "/v1/score/tabular?gate=high", contentType: "application/json", body: good, status: 400, code: "bad_request", msg: `field "gate": "high" is not a number`},
		{name: "bootstrap negative", method: "POST", target: "/v1/score/tabular?bootstrap=-1", contentType: "application/json", body: good, status: 400, code: "bad_request", msg: "bootstrap -1: expected a whole number of replicates from 0 to 1000000"},
		{name: "bootstrap too many", method: "POST", target: "/v1/score/tabular", contentType: "application/json", body: with(func(r *core.TabularRequest) { r.Bootstrap = ptr(1000001) }), status: 400, code: "bad_request", msg: "bootstrap 1000001"},
		{name: "bootstrap not whole", method: "POST", target: "/v1/score/tabular?bootstrap=1.5", contentType: "application/json", body: good, status: 400, code: "bad_request", msg: `field "bootstrap": "1.5" is not an integer`},
		{name: "ci_level 1.5", method: "POST", target: "/v1/score/tabular?ci_level=1.5", contentType: "application/json", body: good, status: 400, code: "bad_request", msg: "ci_level 1.5: expected a confidence level strictly between 0 and 1"},
		{name: "ci_level NaN", method: "POST", target: "/v1/score/tabular?ci_level=NaN", contentType: "application/json", body: good, status: 400, code: "bad_request", msg: "ci_level NaN"},
		{name: "permutations negative", method: "POST", target: "/v1/score/tabular?preview=open&permutations=-1", contentType: "application/json", body: good, status: 400, code: "bad_request", msg: "permutations -1: expected a whole number of randomization rounds from 0 to 1000000"},
		{name: "alpha 1.5 in body", method: "POST", target: "/v1/score/tabular", contentType: "application/json", body: with(func(r *core.TabularRequest) { r.Alpha = ptr(1.5) }), status: 400, code: "bad_request", msg: "alpha 1.5: expected a significance level strictly between 0 and 1"},
		{name: "ci_level 1 in body", method: "POST", target: "/v1/score/tabular", contentType: "application/json", body: with(func(r *core.TabularRequest) { r.CILevel = ptr(1.0) }), status: 400, code: "bad_request", msg: "ci_level 1: expected"},
		{name: "seed negative", method: "POST", target: "/v1/score/tabular?seed=-1", contentType: "application/json", body: good, status: 400, code: "bad_request", msg: `field "seed": "-1" is not a whole number from 0`},
		{name: "unknown query parameter", method: "POST", target: "/v1/score/tabular?gte=0.8", contentType: "application/json", body: good, status: 400, code: "bad_request", msg: `unknown query parameter "gte" (expected gate, preview, format, skip_bad_lines, skip_bad_inputs, bootstrap, ci_level, seed, permutations, alpha, effect)`},
		{name: "query on rules check", method: "POST", target: "/v1/rules/check?gate=1", contentType: "application/json", body: []byte(`{}`), status: 400, code: "bad_request", msg: "expected no query parameters"},
		{name: "repeated query parameter", method: "POST", target: "/v1/score/tabular?gate=0.7&gate=0.8", contentType: "application/json", body: good, status: 400, code: "bad_request", msg: "given 2 times"},
		{name: "unknown format", method: "POST", target: "/v1/score/tabular?format=xml", contentType: "application/json", body: good, status: 400, code: "bad_request", msg: `format "xml": expected json, csv or md`},
		{name: "multipart without boundary", method: "POST", target: "/v1/score/tabular", contentType: "multipart/form-data", body: []byte("x"), status: 400, code: "bad_request", msg: "boundary"},
		{name: "malformed multipart", method: "POST", target: "/v1/score/tabular", contentType: "multipart/form-data; boundary=zz", body: []byte("--zz\r\nno header end"), status: 400, code: "bad_request", msg: "malformed multipart/form-data"},
		{name: "unknown part", method: "POST", target: "/v1/score/tabular", contentType: unknownCT, body: unknownMP, status: 400, code: "bad_request", msg: `unknown field "ground_truth" (expected gt, runs, rules, schema, gate, preview, skip_bad_lines, skip_bad_inputs, format, bootstrap, ci_level, seed, permutations, alpha, effect)`},
		{name: "runs twice", method: "POST", target: "/v1/score/tabular", contentType: twiceCT, body: twice, status: 400, code: "bad_request", msg: `field "runs" given twice`},
		{name: "gate part not a number", method: "POST", target: "/v1/score/tabular", contentType: gateCT, body: gateMP, status: 400, code: "bad_request", msg: `field "gate": "high" is not a number`},
		{name: "bool part", method: "POST", target: "/v1/score/tabular", contentType: boolCT, body: boolMP, status: 400, code: "bad_request", msg: "is not true or false"},
		{name: "malformed runs line", method: "POST", target: "/v1/score/tabular", contentType: "application/json", body: with(func(r *core.TabularRequest) { r.Runs.Text = r.Runs.Text + "{oops\n" }), status: 422, code: "input", file: "sample/tabular/runs.jsonl", line: 37},
		{name: "malformed runs part", method: "POST", target: "/v1/score/tabular", contentType: mpCT, body: badRunsMP, status: 422, code: "input", file: "runs.jsonl", line: 1},
		{name: "malformed GT CSV", method: "POST", target: "/v1/score/tabular", contentType: "application/json", body: with(func(r *core.TabularRequest) { r.GT[1].Text = strings.SplitAfter(r.GT[1].Text, "\n")[0] + "\"Anna,\n" }), status: 422, code: "input", file: "sample/tabular/gt/gt_page_28.csv", line: 2},
		{name: "malformed rule file", method: "POST", target: "/v1/score/tabular", contentType: "application/json", body: with(func(r *core.TabularRequest) {
			r.Rules.Text = "## Ignore\n\n| field | token | position | side | status |\n|---|---|---|---|---|\n| name | x | up | model | settled |\n"
		}), status: 422, code: "input", file: "sample/tabular/EQUIVALENCES.md", line: 5, msg: `unknown position "up"`},
		{name: "preview not a selection", method: "POST", target: "/v1/score/tabular?preview=bogus", contentType: "application/json", body: good, status: 400, code: "bad_request", msg: `preview "bogus": expected "open" or a comma-separated list`},
		{name: "preview in body not a selection", method: "POST", target: "/v1/score/tabular", contentType: "application/json", body: with(func(r *core.TabularRequest) { r.Preview = "abc" }), status: 400, code: "bad_request", msg: `preview "abc"`},
		{name: "preview of a line without an OPEN row", method: "POST", target: "/v1/score/tabular?preview=1", contentType: "application/json", body: good, status: 422, code: "input", file: "sample/tabular/EQUIVALENCES.md"},
		{name: "page without GT", method: "POST", target: "/v1/score/tabular", contentType: "application/json", body: with(func(r *core.TabularRequest) { r.GT = r.GT[:1] }), status: 422, code: "input", file: "sample/tabular/runs.jsonl", msg: "page 28 has no ground-truth file"},
		{name: "malformed GT in rules check", method: "POST", target: "/v1/rules/check", contentType: "application/json", body: mustJSON(t, core.RulesCheckRequest{Rules: *s.Rules, GT: []core.File{{Name: "gt.csv", Text: "name\n\"x\n"}}}), status: 422, code: "input", file: "gt.csv"},
	}
}

func TestErrors(t *testing.T) {
	h := New(Options{})
	for _, c := range errorCases(t) {
		t.Run(c.name, func(t *testing.T) {
			w := do(h, c.method, c.target, c.contentType, c.body)
			checkError(t, w.Code, w.Header(), w.Body.Bytes(), c)
		})
	}
}

// checkError asserts an error answer: status, JSON content type, the
// {"error": {code, message, file, line, column, source_line}} shape with
// all six keys, and the
// case's expectations.
func checkError(t testing.TB, status int, header http.Header, body []byte, c errorCase) {
	t.Helper()
	if status != c.status {
		t.Fatalf("status %d, want %d: %s", status, c.status, body)
	}
	if ct := header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	var raw struct {
		Error map[string]json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		t.Fatalf("error body is not JSON: %v: %s", err, body)
	}
	for _, k := range []string{"code", "message", "file", "line", "column", "source_line"} {
		if _, ok := raw.Error[k]; !ok || len(raw.Error) != 6 {
			t.Fatalf("error body lacks %q or has extra keys: %s", k, body)
		}
	}
	var e ErrorBody
	json.Unmarshal(body, &e)
	d := e.Error
	if d.Code != c.code || d.Message == "" {
		t.Errorf("code %q, want %q (message %q)", d.Code, c.code, d.Message)
	}
	if c.file != "" && (d.File == nil || *d.File != c.file) {
		t.Errorf("file %v, want %q", str(d.File), c.file)
	}
	if c.line != 0 && (d.Line == nil || *d.Line != c.line) {
		t.Errorf("line %v, want %d (message %q)", d.Line, c.line, d.Message)
	}
	if !strings.Contains(d.Message, c.msg) {
		t.Errorf("message %q lacks %q", d.Message, c.msg)
	}
}

func str(p *string) string {
	if p == nil {
		return "<null>"
	}
	return *p
}

func TestTooLarge(t *testing.T) {
	h := New(Options{MaxBodyBytes: 1000})
	big := mustJSON(t, sampleRequest(t, true))
	mp, ct := multipartBody(t, sampleParts(t, true)...)
	small, smallCT := multipartBody(t, part{"rules", "r.md", "# nothing\n"})
	cases := []struct {
		name, contentType string
		body              []byte
		announce          bool // send Content-Length, or stream the body with none
		status            int
	}{
		{"JSON, Content-Length announced", "application/json", big, true, 413},
		{"JSON, streamed", "application/json", big, false, 413},
		{"multipart, Content-Length announced", ct, mp, true, 413},
		{"multipart, streamed", ct, mp, false, 413},
		{"under the limit", smallCT, small, false, 200},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var body io.Reader = bytes.NewReader(c.body)
			if !c.announce {
				body = io.MultiReader(body) // hides the length from NewRequest
			}
			r := httptest.NewRequest("POST", "/v1/rules/check", body)
			if c.announce != (r.ContentLength > 0) {
				t.Fatalf("ContentLength %d", r.ContentLength)
			}
			r.Header.Set("Content-Type", c.contentType)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if c.status == 200 {
				if w.Code != 200 {
					t.Fatalf("status %d: %s", w.Code, w.Body)
				}
				return
			}
			checkError(t, w.Code, w.Header(), w.Body.Bytes(), errorCase{status: 413, code: "too_large", msg: "over the 1000-byte limit: large jobs belong to the command line (docscore score …), which streams files of any size, or to the page"})
		})
	}
	if New(Options{}).(*handler).opts.MaxBodyBytes != DefaultMaxBodyBytes {
		t.Fatal("the default limit is not DefaultMaxBodyBytes")
	}
}

func TestPanicIsRecovered(t *testing.T) {
	saved := routes()
	defer func() { routeTable.rs = saved }()
	routeTable.rs = append(saved[:len(saved):len(saved)], route{"GET", "/boom", func(*handler, *http.Request) (*reply, error) { panic("boom") }})
	w := do(New(Options{}), "GET", "/boom", "", nil)
	checkError(t, w.Code, w.Header(), w.Body.Bytes(), errorCase{status: 500, code: "internal", msg: "internal error: boom"})
}

// A request body's error names the line and the column in characters
// (not bytes), shows the line with a caret under the offending character,
// and fills the column and source_line fields.
func TestBodyErrorPosition(t *testing.T) {
	h := New(Options{})
	for _, c := range []struct {
		name, body string
		line, col  int
		msg        string
	}{
		{"unknown field after accents", "{\"bootstrap\": 10,\n \"preview\": \"é\", \"x\": 1}", 2, 18, "request body:2:18: unknown field \"x\"\n    2 |  \"preview\": \"é\", \"x\": 1}\n      |                  ^"},
		{"type error at the value's start", "{\n\"gate\": \"0.8\"}", 2, 9, "request body:2:9: field \"gate\": expected a number, not a JSON string"},
		{"after a byte order mark", "\xef\xbb\xbf{\"gate\": \"x\"}", 1, 10, "request body:1:10: field \"gate\""},
	} {
		w := do(h, "POST", "/v1/score/tabular", "application/json", []byte(c.body))
		var e ErrorBody
		if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		d := e.Error
		if w.Code != 400 || d.Line == nil || *d.Line != c.line || d.Column == nil || *d.Column != c.col || d.SourceLine == nil ||
			!strings.HasPrefix(d.Message, c.msg) || !strings.HasSuffix(d.Message, "^") {
			t.Errorf("%s: %d %s", c.name, w.Code, w.Body.Bytes())
		}
	}
}

// BenchmarkHandler measures the handler natively: the bundled sample as
// JSON (decode, score, encode) and a health check.
func BenchmarkHandler(b *testing.B) {
	h := New(Options{})
	body := mustJSON(b, sampleRequest(b, true))
	for _, c := range []struct {
		name, method, target string
		body                 []byte
	}{
		{"healthz", "GET", "/healthz", nil},
		{"score_tabular_sample", "POST", "/v1/score/tabular", body},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if w := do(h, c.method, c.target, "application/json", c.body); w.Code != 200 {
					b.Fatalf("status %d", w.Code)
				}
			}
		})
	}
}
