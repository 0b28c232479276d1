package api

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/schema"
	"github.com/docscore/docscore/scoring/tabular"
)

// answer runs an operation and returns what a host sends back: the
// report's bytes, the value as JSON, or the error's description.
func answer(t *testing.T, op Operation, ctx Cancel, req Request) string {
	t.Helper()
	res, err := op.Run(ctx, req)
	if err != nil {
		b, merr := MarshalJSON(DescribeError(err))
		if merr != nil {
			t.Fatal(merr)
		}
		return "error " + string(b)
	}
	if res.Bytes != nil {
		return string(res.Bytes)
	}
	b, err := MarshalJSON(res.Value)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sessionCall is one call of a page's session.
type sessionCall struct {
	name string
	op   Operation
	req  func() Request // a new request each time: the page decodes one per call
}

// onlyLine keeps line n of a runs text and blanks the others, as the
// page's worker sends a drill-down.
func onlyLine(text string, n int) string {
	lines := strings.Split(text, "\n")
	return strings.Repeat("\n", n-1) + lines[n-1]
}

// sessionCalls are the calls of a page: drops, preview toggles, gates,
// downloads and drill-downs, on good and bad files.
func sessionCalls(t *testing.T) []sessionCall {
	base := sampleTabular(t)
	tab := func(edit func(r *TabularRequest)) func() Request {
		return func() Request {
			r := sampleTabular(t)
			if edit != nil {
				edit(&r)
			}
			return &r
		}
	}
	opts := func(preview, format string, gate float64) func(r *TabularRequest) {
		return func(r *TabularRequest) {
			r.Preview, r.Format = preview, format
			if gate != 0 {
				r.Gate = &gate
			}
		}
	}
	detail := func(line int, preview string, only bool, edit func(r *TabularRequest)) func() Request {
		return func() Request {
			r := sampleTabular(t)
			r.Preview = preview
			if edit != nil {
				edit(&r)
			}
			if only {
				r.Runs.Text = onlyLine(r.Runs.Text, line)
			}
			return &TabularDetailRequest{TabularRequest: r, Line: line}
		}
	}
	badRule := func(r *TabularRequest) { // a row that parses, with a field no schema has
		r.Rules.Text = strings.Replace(r.Rules.Text, "| place_of_origin | da |", "| nosuchfield | da |", 1)
	}
	brokenRules := func(r *TabularRequest) { // a row that does not parse
		r.Rules.Text = strings.Replace(r.Rules.Text, "| OPEN | place of origin", "| MAYBE | place of origin", 1)
	}
	badLine := func(r *TabularRequest) {
		r.Runs.Text += "{not json\n"
		r.SkipBadLines = true
	}
	nRuns := strings.Count(base.Runs.Text, "\n")
	return []sessionCall{
		{"drop", DropTabularOperation(), tab(nil)},
		{"preview on", DropTabularOperation(), tab(opts("open", "", 0))},
		{"download json, preview", ScoreTabularOperation(), tab(opts("open", "json", 0))},
		{"download md, preview", ScoreTabularOperation(), tab(opts("open", "md", 0))},
		{"drill-down, preview", TabularDetailOperation(), detail(3, "open", true, nil)},
		{"preview off", DropTabularOperation(), tab(nil)},
		{"download csv", ScoreTabularOperation(), tab(opts("", "csv", 0))},
		{"download json", ScoreTabularOperation(), tab(opts("", "", 0))},
		{"drill-down, first line", TabularDetailOperation(), detail(1, "", true, nil)},
		{"drill-down, last line, whole runs", TabularDetailOperation(), detail(nRuns, "", false, nil)},
		{"drill-down, no such line", TabularDetailOperation(), detail(nRuns+5, "", false, nil)},
		{"one OPEN row", DropTabularOperation(), tab(opts("32", "", 0))},
		{"a line with no OPEN row", DropTabularOperation(), tab(opts("7", "", 0))},
		{"intervals off", DropTabularOperation(), tab(func(r *TabularRequest) { zero := 0; r.Bootstrap = &zero })},
		{"download json, intervals off", ScoreTabularOperation(), tab(func(r *TabularRequest) { zero := 0; r.Bootstrap = &zero })},
		{"download json, intervals back on", ScoreTabularOperation(), tab(nil)},
		{"download json, another level and seed", ScoreTabularOperation(), tab(func(r *TabularRequest) {
			level, seed := 0.9, uint64(7)
			r.CILevel, r.Seed = &level, &seed
		})},
		{"preview, intervals off", DropTabularOperation(), tab(func(r *TabularRequest) { zero := 0; r.Bootstrap, r.Preview = &zero, "open" })},
		{"gate 0.5", DropTabularOperation(), tab(opts("", "", 0.5))},
		{"gate 0.5, preview", DropTabularOperation(), tab(opts("open", "", 0.5))},
		{"drill-down, gate 0.5", TabularDetailOperation(), detail(2, "", true, opts("", "", 0.5))},
		{"download md, gate 0.5", ScoreTabularOperation(), tab(opts("open", "md", 0.5))},
		{"a bad runs line skipped", DropTabularOperation(), tab(badLine)},
		{"the bad line's drill-down", TabularDetailOperation(), detail(nRuns+1, "", false, badLine)},
		{"a bad runs line", DropTabularOperation(), tab(func(r *TabularRequest) { r.Runs.Text += "{not json\n" })},
		{"a rule file that does not check", DropTabularOperation(), tab(badRule)},
		{"its download", ScoreTabularOperation(), tab(badRule)},
		{"its drill-down", TabularDetailOperation(), detail(1, "", true, badRule)},
		{"a rule file that does not parse", DropTabularOperation(), tab(brokenRules)},
		{"a bad ground-truth file", DropTabularOperation(), tab(func(r *TabularRequest) { r.GT[0].Text = "\"oops\n" })},
		{"no rule file", DropTabularOperation(), tab(func(r *TabularRequest) { r.Rules = nil })},
		{"no rule file, preview", DropTabularOperation(), tab(func(r *TabularRequest) { r.Rules, r.Preview = nil, "open" })},
		{"back to the drop", DropTabularOperation(), tab(nil)},
		{"and its drill-down", TabularDetailOperation(), detail(5, "", true, nil)},
	}
}

// TestSessionAnswersAsCold runs a page's calls through one session and
// checks each answer, byte for byte, against the same call without one.
// The answers without a session are computed once, for both passes.
func TestSessionAnswersAsCold(t *testing.T) {
	calls := sessionCalls(t)
	cold := make([]string, len(calls))
	s := &TabularSession{}
	for i, c := range calls {
		got := answer(t, c.op, s, c.req())
		cold[i] = answer(t, c.op, NoCancel, c.req())
		if want := cold[i]; got != want {
			t.Errorf("%s: with the session\n%.600s\nwithout\n%.600s", c.name, got, want)
		}
	}
	// Every call twice in a row (the second from the session's report).
	s = &TabularSession{}
	for k, c := range calls {
		want := cold[k]
		for i := 0; i < 2; i++ {
			if got := answer(t, c.op, s, c.req()); got != want {
				t.Errorf("%s, call %d: with the session\n%.600s\nwithout\n%.600s", c.name, i+1, got, want)
			}
		}
	}
}

// TestDropTabularAnswer checks dropTabular's answer: JSON holding
// CheckRules' result, the scoring's error and the report's summary, each
// as the operations that answer them alone answer it.
func TestDropTabularAnswer(t *testing.T) {
	for _, c := range sessionCalls(t) {
		if c.op.Name != "dropTabular" {
			continue
		}
		req := c.req().(*TabularRequest)
		var got struct {
			Rules, Error, Summary json.RawMessage
		}
		out := answer(t, DropTabularOperation(), NoCancel, req)
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%s: %v in %.300s", c.name, err, out)
		}
		wantRules := "null"
		if req.Rules != nil {
			wantRules = answer(t, CheckRulesOperation(), NoCancel, &RulesCheckRequest{Rules: *req.Rules, GT: req.GT, Schema: req.Schema})
			wantRules, _ = strings.CutPrefix(wantRules, "error ")
			if strings.HasPrefix(wantRules, "{\n  \"code\"") {
				wantRules = `{"error": ` + wantRules + "}"
			}
		}
		wantError, wantSummary := "null", "null"
		treq, err := req.tabular()
		if err != nil {
			t.Fatal(err)
		}
		if rep, err := tabular.ScoreRequest(treq); err != nil {
			b, _ := MarshalJSON(DescribeError(err))
			wantError = string(b)
		} else if b, err := rep.SummaryJSON(); err != nil {
			t.Fatal(err)
		} else {
			wantSummary = string(b)
		}
		for _, f := range []struct {
			what      string
			got, want string
		}{{"rules", string(got.Rules), wantRules}, {"error", string(got.Error), wantError}, {"summary", string(got.Summary), wantSummary}} {
			if compact(t, f.got) != compact(t, f.want) {
				t.Errorf("%s: %s\n%.400s\nwant\n%.400s", c.name, f.what, f.got, f.want)
			}
		}
	}
}

func compact(t *testing.T, s string) string {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%v: %.200s", err, s)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// TestSessionKeepsAndReloads checks what a session keeps: the same files
// are not parsed again and the same options are not scored again; any
// one file changed (its text or its name), or skip_bad_lines, loads the
// files again; another gate or preview scores again from the same files.
func TestSessionKeepsAndReloads(t *testing.T) {
	sch, err := json.Marshal(schema.Default())
	if err != nil {
		t.Fatal(err)
	}
	withSchema := func() TabularRequest {
		r := sampleTabular(t)
		r.Schema = &File{Name: "schema.json", Text: string(sch)}
		return r
	}
	s := &TabularSession{}
	drop := func(r TabularRequest) string { return answer(t, DropTabularOperation(), s, &r) }
	drop(withSchema())
	loaded, report := s.loaded, s.report
	if loaded == nil || report == nil {
		t.Fatal("the session kept nothing")
	}
	same := withSchema() // equal texts in new strings: equal is enough
	same.Runs.Text = strings.Clone(same.Runs.Text)
	drop(same)
	if s.loaded != loaded || s.report != report {
		t.Fatal("the same files and options were loaded or scored again")
	}
	edits := []struct {
		name string
		edit func(r *TabularRequest)
	}{
		{"a GT text", func(r *TabularRequest) { r.GT[0].Text += "\n" }},
		{"the last GT text", func(r *TabularRequest) { r.GT[len(r.GT)-1].Text += "\n" }},
		{"a GT name", func(r *TabularRequest) { r.GT[0].Name = "gt/" + r.GT[0].Name }},
		{"a GT file less", func(r *TabularRequest) { r.GT = r.GT[1:] }},
		{"the runs text", func(r *TabularRequest) { r.Runs.Text += "\n" }},
		{"the runs name", func(r *TabularRequest) { r.Runs.Name = "other.jsonl" }},
		{"the rules text", func(r *TabularRequest) { r.Rules.Text += "\n" }},
		{"the rules name", func(r *TabularRequest) { r.Rules.Name = "RULES.md" }},
		{"no rule file", func(r *TabularRequest) { r.Rules = nil }},
		{"the schema text", func(r *TabularRequest) { r.Schema.Text += " " }},
		{"no schema", func(r *TabularRequest) { r.Schema = nil }},
		{"skip_bad_lines", func(r *TabularRequest) { r.SkipBadLines = true }},
	}
	for _, e := range edits {
		drop(withSchema())
		loaded, report := s.loaded, s.report
		r := withSchema()
		e.edit(&r)
		got := drop(r)
		if want := answer(t, DropTabularOperation(), NoCancel, &r); got != want {
			t.Errorf("%s changed: answer\n%.300s\nwant\n%.300s", e.name, got, want)
		}
		if s.loaded == loaded || s.report == report {
			t.Errorf("%s changed: the session answered from the files it had", e.name)
		}
	}
	// Options: the files stay, the report is scored again.
	drop(withSchema())
	loaded = s.loaded
	for _, o := range []struct {
		preview string
		gate    float64
	}{{"open", 0}, {"", 0.5}, {"open", 0.5}, {"32", 0.5}, {"", 0}} {
		report := s.report
		r := withSchema()
		r.Preview = o.preview
		if o.gate != 0 {
			r.Gate = &o.gate
		}
		drop(r)
		if s.loaded != loaded || s.report == report {
			t.Errorf("preview %q gate %v: files loaded again %v, report scored again %v", o.preview, o.gate, s.loaded != loaded, s.report != report)
		}
		// A download with those options is the report just scored.
		report = s.report
		r.Format = "md"
		answer(t, ScoreTabularOperation(), s, &r)
		if s.report != report {
			t.Errorf("preview %q gate %v: the download scored again", o.preview, o.gate)
		}
	}
	// A caller that changes its request after the call does not change
	// what the session holds.
	r := withSchema()
	drop(r)
	r.GT[0].Text, r.Rules.Text = "changed", "changed"
	r2 := withSchema()
	if !s.loaded.holds(&r2, true) || s.loaded.holds(&r, true) {
		t.Error("the session shares its caller's request")
	}
}

// TestHostsWithoutASessionKeepNothing checks that a call whose Cancel is
// not a session (the HTTP API's context, the command line's NoCancel)
// gets a session of its own.
func TestHostsWithoutASessionKeepNothing(t *testing.T) {
	if a, b := sessionOf(NoCancel), sessionOf(NoCancel); a == b || a.loaded != nil {
		t.Fatal("calls without a session share one")
	}
	s := &TabularSession{}
	if sessionOf(s) != s {
		t.Fatal("a session is not used")
	}
}
