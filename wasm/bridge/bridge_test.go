package bridge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/docscore/docscore/scoring/stats"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/tabular"
)

// envelope decodes an answer, checking that exactly one side is set.
type envelope struct {
	Error  *api.ErrorDetail `json:"error"`
	Result json.RawMessage  `json:"result"`
}

func decodeEnvelope(t testing.TB, out string) envelope {
	t.Helper()
	out = AsEnvelope(out)
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatalf("answer is not JSON: %v\n%.300s", err, out)
	}
	if len(raw) != 2 || raw["error"] == nil || raw["result"] == nil {
		t.Fatalf("answer keys %v, want exactly error and result", raw)
	}
	var env envelope
	if err := json.Unmarshal([]byte(out), &env); err != nil {
		t.Fatal(err)
	}
	if (env.Error == nil) == (string(env.Result) == "null") {
		t.Fatalf("answer has error %v and result %.100s: want exactly one", env.Error, env.Result)
	}
	return env
}

// sampleRequest is the bundled sample as the page sends it.
func sampleRequest(t testing.TB, preview, format string) api.TabularRequest {
	t.Helper()
	r, err := sample.TabularRequest(true)
	if err != nil {
		t.Fatal(err)
	}
	return toAPI(r, preview, format)
}

func toAPI(r tabular.Request, preview, format string) api.TabularRequest {
	req := api.TabularRequest{Runs: api.File{Name: r.Runs.Name, Text: string(r.Runs.Data)}, Preview: preview, Format: format}
	if r.Rules != nil {
		req.Rules = &api.File{Name: r.Rules.Name, Text: string(r.Rules.Data)}
	}
	for _, f := range r.GT {
		req.GT = append(req.GT, api.File{Name: f.Name, Text: string(f.Data)})
	}
	return req
}

// core is the dispatcher of docscore.wasm.
var core = New(api.TabularOperations())

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestScoreTabularIsTheCLIReport checks that the result string is exactly
// the golden report the command line writes, in every format.
func TestScoreTabularIsTheCLIReport(t *testing.T) {
	for _, c := range []struct{ preview, format, golden string }{
		{"", "", "sample.json"},
		{"", "json", "sample.json"},
		{"", "csv", "sample.csv"},
		{"", "md", "sample.md"},
		{"open", "json", "sample_preview_open.json"},
		{"open", "md", "sample_preview_open.md"},
	} {
		env := decodeEnvelope(t, core.Call("scoreTabular", mustJSON(t, sampleRequest(t, c.preview, c.format))))
		if env.Error != nil {
			t.Fatalf("%s: %+v", c.golden, env.Error)
		}
		var got string
		if err := json.Unmarshal(env.Result, &got); err != nil {
			t.Fatalf("%s: result is not a string: %v", c.golden, err)
		}
		want, err := os.ReadFile(filepath.Join("..", "..", "scoring", "tabular", "testdata", "golden", c.golden))
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("preview %q format %q: result differs from %s", c.preview, c.format, c.golden)
		}
	}
}

func TestErrors(t *testing.T) {
	bad := sampleRequest(t, "", "json")
	bad.Runs.Text = `{"model": "m", "page": "27", "records": []}` + "\n{oops\n"
	badCSV := sampleRequest(t, "", "json")
	badCSV.GT[1].Text = "name,title\n\"unterminated\n"
	for _, c := range []struct {
		name, method, request string
		code, file            string
		line                  int
		message               string
	}{
		{"bad runs line", "scoreTabular", mustJSON(t, bad), "input", "sample/tabular/runs.jsonl", 2, "expected a JSON object (one image per line)"},
		{"bad csv", "scoreTabular", mustJSON(t, badCSV), "input", "sample/tabular/gt/gt_page_28.csv", 1, "gt_page_28.csv"},
		{"unknown method", "scoreReceipts", "{}", "input", "", 0, `unknown method "scoreReceipts"`},
		{"empty method", "", "{}", "input", "", 0, "unknown method"},
		{"request not JSON", "scoreTabular", "{", "input", "", 0, "scoreTabular request"},
		{"request not an object", "checkRules", "[1]", "input", "", 0, "checkRules request"},
		{"unknown key", "scoreTabular", `{"gt": [], "runz": {}}`, "input", "", 0, `unknown field "runz"`},
		{"two objects", "scoreTabular", `{} {}`, "input", "", 0, "found more after it"},
		{"no GT", "scoreTabular", `{}`, "input", "", 0, "no ground-truth CSV"},
		{"bad format", "scoreTabular", mustJSON(t, sampleRequest(t, "", "xml")), "bad_request", "", 0, `format "xml": expected json, csv or md`},
		{"drop in csv", "dropTabular", mustJSON(t, sampleRequest(t, "", "csv")), "bad_request", "", 0, `format "csv": expected json`},
		{"bad gate", "scoreTabular", mustJSON(t, api.TabularRequest{Runs: api.File{Name: "r"}, Gate: func() *float64 { g := 2.0; return &g }()}), "bad_request", "", 0, `gate 2: expected a similarity in (0, 1]`},
		{"detail of a blank line", "tabularDetail", `{"gt": [{"name": "gt_page_1.csv", "text": "name,title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count\nA,,,,,,,,\n"}], "runs": {"name": "r.jsonl", "text": "\n"}, "line": 1}`, "input", "r.jsonl", 1, "expected an image on this line"},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := decodeEnvelope(t, core.Call(c.method, c.request))
			if env.Error == nil {
				t.Fatalf("no error: %.200s", env.Result)
			}
			e := env.Error
			file, line := e.Where()
			if e.Code != c.code || file != c.file || (c.line != 0 && line != c.line) || !strings.Contains(e.Message, c.message) {
				t.Fatalf("error %+v, want code %s file %q line %d message containing %q", e, c.code, c.file, c.line, c.message)
			}
		})
	}
}

// TestPanicIsRecovered checks that a panic in a method becomes an internal
// error envelope and that the dispatcher keeps answering afterwards; an
// error a method coded keeps its code, file and line.
func TestPanicIsRecovered(t *testing.T) {
	d := NewMethods(map[string]Method{
		"panicForTest": func(Request) (any, error) { panic("boom") },
		"unencodable":  func(Request) (any, error) { return func() {}, nil },
		"coded": func(Request) (any, error) {
			return nil, fmt.Errorf("wrapped: %w", &codedInputError{inputerr.New("run.jsonl", 3, "run is incomplete")})
		},
	})
	env := decodeEnvelope(t, d.Call("panicForTest", "{}"))
	if env.Error == nil || env.Error.Code != "internal" || !strings.Contains(env.Error.Message, "boom") || !strings.Contains(env.Error.Message, "panicForTest") {
		t.Fatalf("envelope %+v", env)
	}
	env = decodeEnvelope(t, d.Call("unencodable", "{}"))
	if env.Error == nil || env.Error.Code != "internal" {
		t.Fatalf("envelope %+v", env)
	}
	if env := decodeEnvelope(t, d.Call("version", "")); env.Error != nil {
		t.Fatalf("version after a panic: %+v", env.Error)
	}
	env = decodeEnvelope(t, d.Call("coded", "{}"))
	if e := env.Error; e == nil || e.Code != "incomplete" || whereOf(e) != "run.jsonl:3" || e.Message != "wrapped: run.jsonl:3: run is incomplete" {
		t.Fatalf("coded error %+v", env.Error)
	}
}

// codedInputError is an input error that chooses its own code, as
// receipts' refusal of an incomplete run does ("incomplete").
type codedInputError struct{ input *inputerr.Error }

func (e *codedInputError) Error() string     { return e.input.Error() }
func (e *codedInputError) Unwrap() error     { return e.input }
func (e *codedInputError) ErrorCode() string { return "incomplete" }

func TestVersion(t *testing.T) {
	env := decodeEnvelope(t, core.Call("version", ""))
	var v VersionResult
	if err := json.Unmarshal(env.Result, &v); err != nil {
		t.Fatal(err)
	}
	if v.Docscore != Version || v.Go != runtime.Version() || strings.Join(v.Methods, ",") != "checkRules,dropTabular,scoreTabular,tabularDetail,version" {
		t.Fatalf("version %+v", v)
	}
	// Each dispatcher answers its own table and version, nothing else.
	d := NewMethods(map[string]Method{"echo": func(r Request) (any, error) { return string(r.JSON), nil }})
	if got := strings.Join(d.Methods(), ","); got != "echo,version" {
		t.Fatalf("methods %s", got)
	}
	if env := decodeEnvelope(t, d.Call("scoreTabular", "{}")); env.Error == nil || !strings.Contains(env.Error.Message, `unknown method "scoreTabular" (expected one of [echo version])`) {
		t.Fatalf("a method of another table: %+v", env.Error)
	}
}

func TestCheckRules(t *testing.T) {
	req := sampleRequest(t, "", "")
	env := decodeEnvelope(t, core.Call("checkRules", mustJSON(t, api.RulesCheckRequest{Rules: *req.Rules, GT: req.GT})))
	want, err := api.CheckRules(api.RulesCheckRequest{Rules: *req.Rules, GT: req.GT})
	if err != nil {
		t.Fatal(err)
	}
	wantJSON, _ := json.Marshal(want)
	var got bytes.Buffer
	if err := json.Compact(&got, env.Result); err != nil {
		t.Fatal(err)
	}
	if got.String() != string(wantJSON) {
		t.Fatalf("checkRules result\n%s\nwant\n%s", got.String(), wantJSON)
	}
}

func TestTabularDetail(t *testing.T) {
	req := sampleRequest(t, "open", "")
	env := decodeEnvelope(t, core.Call("tabularDetail", mustJSON(t, api.TabularDetailRequest{TabularRequest: req, Line: 3})))
	if env.Error != nil {
		t.Fatal(env.Error)
	}
	var d tabular.ImageDetail
	if err := json.Unmarshal(env.Result, &d); err != nil {
		t.Fatal(err)
	}
	want, err := api.TabularDetail(api.TabularDetailRequest{TabularRequest: req, Line: 3})
	if err != nil {
		t.Fatal(err)
	}
	if d.Line != 3 || !d.Preview || len(d.Pairs) != len(want.Pairs) || len(d.Pairs) == 0 || d.Pairs[0].Name.GT != want.Pairs[0].Name.GT {
		t.Fatalf("detail %+v", d)
	}
}

func FuzzCall(f *testing.F) {
	sampleJSON := mustJSON(f, sampleRequest(f, "", "csv"))
	for _, s := range []struct{ method, request string }{
		{"scoreTabular", sampleJSON},
		{"scoreTabular", `{"gt": [{"name": "gt_page_1.csv", "text": "name\nA\n"}], "runs": {"name": "r", "text": "{\"model\":\"m\",\"page\":1,\"records\":[{\"name\":\"A\"}]}"}}`},
		{"checkRules", `{"rules": {"name": "r.md", "text": "## Ignore\n|field|token|position|side|status|\n|-|-|-|-|-|\n|name|x|up|model|OPEN|\n"}}`},
		{"tabularDetail", `{"line": -1}`},
		{"version", ""},
		{"nope", "null"},
	} {
		f.Add(s.method, s.request)
	}
	f.Fuzz(func(t *testing.T, method, request string) {
		decodeEnvelope(t, core.Call(method, request))
	})
}

// whereOf renders an error's position as FILE:LINE.
func whereOf(e *api.ErrorDetail) string {
	file, line := e.Where()
	return fmt.Sprintf("%s:%d", file, line)
}

// TestRawResultTravelsAfterTheMarker checks the wire form of a report: the
// marker line, then the report's bytes exactly, unescaped.
func TestRawResultTravelsAfterTheMarker(t *testing.T) {
	r, err := sample.TabularRequest(true)
	if err != nil {
		t.Fatal(err)
	}
	req := api.TabularRequest{Runs: api.File{Name: r.Runs.Name, Text: string(r.Runs.Data)}, Rules: &api.File{Name: r.Rules.Name, Text: string(r.Rules.Data)}}
	for _, f := range r.GT {
		req.GT = append(req.GT, api.File{Name: f.Name, Text: string(f.Data)})
	}
	body, _ := json.Marshal(req)
	out := New(api.TabularOperations()).Call("scoreTabular", string(body))
	want, err := os.ReadFile(filepath.Join("..", "..", "scoring", "tabular", "testdata", "golden", "sample.json"))
	if err != nil {
		t.Fatal(err)
	}
	if out != RawMarker+"\n"+string(want) {
		t.Fatalf("response does not start with the marker or its report differs: %.120q", out)
	}
	// Errors stay plain envelopes.
	if out := New(api.TabularOperations()).Call("scoreTabular", `{"runs": {}}`); strings.HasPrefix(out, RawMarker) {
		t.Fatalf("an error came back raw: %.120s", out)
	}
}

// TestPreviewComparisonOptionsRoundTrip sends permutations and alpha as
// the page would: the bridge's report is the operation's for the same
// request, its preview comparison under those options, and an alpha out
// of range is an error naming it.
func TestPreviewComparisonOptionsRoundTrip(t *testing.T) {
	req := sampleRequest(t, "open", "json")
	rounds, alpha, replicates := 250, 0.1, 80
	req.Permutations, req.Alpha, req.Bootstrap = &rounds, &alpha, &replicates
	env := decodeEnvelope(t, core.Call("scoreTabular", mustJSON(t, req)))
	if env.Error != nil {
		t.Fatalf("%+v", env.Error)
	}
	var got string
	if err := json.Unmarshal(env.Result, &got); err != nil {
		t.Fatal(err)
	}
	want, err := api.ScoreTabular(req)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Fatal("the bridge's report differs from the operation's")
	}
	for _, s := range []string{`"permutations": 250,`, `"alpha": 0.1,`, `"replicates": 80,`, `"id": "preview:tabular/gpt-4o-2024-08-06/N"`} {
		if !strings.Contains(got, s) {
			t.Errorf("the report has no %s", s)
		}
	}
	bad := 1.5
	req.Alpha = &bad
	env = decodeEnvelope(t, core.Call("scoreTabular", mustJSON(t, req)))
	if env.Error == nil || !strings.Contains(fmt.Sprint(env.Error), "alpha 1.5") {
		t.Fatalf("alpha 1.5: error %+v", env.Error)
	}
}

// TestAnswerAndSummary checks the two-part answer the site's host hands
// across (a Raw result's bytes beside the marker envelope, anything else
// the envelope of Call) and dropTabular, whose result holds the report's
// summary, raw, in whatever format the report was asked for.
func TestAnswerAndSummary(t *testing.T) {
	d := New(api.TabularOperations())
	in, err := sample.TabularRequest(true)
	if err != nil {
		t.Fatal(err)
	}
	in.Preview = "open"
	in.Intervals = tabular.Intervals{Bootstrap: stats.DefaultReplicates, Permutations: stats.DefaultPermutations} // the operation's default
	rep, err := tabular.ScoreRequest(in)
	if err != nil {
		t.Fatal(err)
	}
	summary, err := rep.SummaryJSON()
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"json", "csv", "md"} {
		body := mustJSON(t, toAPI(in, "open", format))
		a := d.Answer("scoreTabular", body)
		if !a.IsRaw || a.Envelope != RawMarker || RawMarker+"\n"+string(a.Raw) != d.Call("scoreTabular", body) {
			t.Fatalf("%s: answer's report is not Call's (raw %v, %.80q)", format, a.IsRaw, a.Raw)
		}
		// The summary is JSON only: it takes no other format.
		a = d.Answer("dropTabular", mustJSON(t, toAPI(in, "open", "")))
		if !a.IsRaw || !bytes.HasSuffix(a.Raw, append(append([]byte(`"summary": `), bytes.TrimSuffix(summary, []byte("\n"))...), "\n}\n"...)) {
			t.Fatalf("%s: dropTabular gives %.200q, want the summary %.200q", format, a.Raw, summary)
		}
	}
	var got struct{ Images []map[string]json.RawMessage }
	if err := json.Unmarshal(summary, &got); err != nil || len(got.Images) == 0 {
		t.Fatalf("summary does not parse with images: %v", err)
	}
	if _, ok := got.Images[0]["pairs"]; ok {
		t.Fatal("the summary's images carry their pairs")
	}
	body := `{"rules": {"name": "EQUIVALENCES.md", "text": ""}}`
	for _, method := range []string{"checkRules", "nonesuch"} {
		if a := d.Answer(method, body); a.IsRaw || a.Raw != nil || a.Envelope != d.Call(method, body) {
			t.Fatalf("%s: answer %+v, want Call's envelope", method, a)
		}
	}
	// dropTabular answers files it cannot score with the rule file's
	// check beside the error.
	var drop struct {
		Rules   *api.RulesCheckResult
		Error   *api.ErrorDetail
		Summary json.RawMessage
	}
	if a := d.Answer("dropTabular", body); !a.IsRaw || json.Unmarshal(a.Raw, &drop) != nil ||
		drop.Rules == nil || drop.Rules.File != "EQUIVALENCES.md" || drop.Error == nil || string(drop.Summary) != "null" {
		t.Fatalf("dropTabular without ground truth: %.300s", a.Raw)
	}
}

// asParts moves every file's text out of a tabular request into the parts
// sent beside it, as the site's worker does.
func asParts(req api.TabularRequest) (api.TabularRequest, []string) {
	var parts []string
	move := func(f *api.File) {
		if f != nil && f.Text != "" {
			parts = append(parts, f.Text)
			f.Text, f.Part = "", len(parts)
		}
	}
	req.GT = slices.Clone(req.GT)
	for i := range req.GT {
		move(&req.GT[i])
	}
	move(&req.Runs)
	if req.Rules != nil {
		r := *req.Rules
		move(&r)
		req.Rules = &r
	}
	return req, parts
}

// TestPartsGiveTheSameAnswer checks that texts handed over beside the
// request give byte for byte the answer of the same texts inside it, for
// each method of the core, and that a part out of range is an input error
// naming the file.
func TestPartsGiveTheSameAnswer(t *testing.T) {
	for _, c := range []struct{ preview, format string }{{"", "json"}, {"open", "md"}, {"", "csv"}} {
		req := sampleRequest(t, c.preview, c.format)
		withParts, parts := asParts(req)
		if len(parts) != len(req.GT)+2 {
			t.Fatalf("%d parts", len(parts))
		}
		for _, method := range []string{"scoreTabular", "dropTabular"} {
			want := core.Call(method, mustJSON(t, req))
			if got := core.Call(method, mustJSON(t, withParts), parts...); got != want {
				t.Errorf("%s preview %q format %q: with parts %.200s\nwant %.200s", method, c.preview, c.format, got, want)
			}
		}
	}
	req := sampleRequest(t, "", "json")
	withParts, parts := asParts(req)
	checkWant := core.Call("checkRules", mustJSON(t, api.RulesCheckRequest{Rules: *req.Rules, GT: req.GT}))
	if got := core.Call("checkRules", mustJSON(t, api.RulesCheckRequest{Rules: *withParts.Rules, GT: withParts.GT}), parts...); got != checkWant {
		t.Errorf("checkRules with parts %.200s\nwant %.200s", got, checkWant)
	}
	detail := func(r api.TabularRequest) string {
		return mustJSON(t, api.TabularDetailRequest{TabularRequest: r, Line: 3})
	}
	if got, want := core.Call("tabularDetail", detail(withParts), parts...), core.Call("tabularDetail", detail(req)); got != want {
		t.Errorf("tabularDetail with parts %.200s\nwant %.200s", got, want)
	}
	// A part out of range is refused, with or without optional fields.
	withNull := strings.Replace(mustJSON(t, withParts), `{"gt":`, `{"schema":null,"gt":`, 1)
	for _, request := range []string{mustJSON(t, withParts), withNull} {
		for _, method := range []string{"scoreTabular", "dropTabular"} {
			env := decodeEnvelope(t, core.Call(method, request, parts[:2]...))
			if e := env.Error; e == nil || e.Code != "input" || !strings.Contains(e.Message, "the request came with 2 text(s) beside it") {
				t.Fatalf("%s, a part out of range: %+v", method, env.Error)
			}
		}
	}
}
