package modeladapter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docscore/docscore/cmd/docscore/internal/harnessio"
	"github.com/docscore/docscore/cmd/docscore/internal/modeladapter/judgetest"
	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/groundtruth"
	"github.com/docscore/docscore/scoring/judging"
)

const testKey = "sk-test-0123456789abcdefSECRETKEY"

const examples = "../../../../examples/harness"

// stage is a case with an image, a PDF and a ground-truth value.
func stage(t *testing.T) evalcase.EvaluationCase {
	t.Helper()
	png, err := harnessio.ArtifactFromPath(filepath.Join(examples, "pipeline", "invoice.png"), evalcase.ArtifactOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pdf, err := harnessio.ArtifactFromPath(filepath.Join(examples, "direct", "source.pdf"), evalcase.ArtifactOptions{})
	if err != nil {
		t.Fatal(err)
	}
	truth, _ := evalcase.ArtifactFromValue(map[string]any{"total": 11.5}, evalcase.ArtifactOptions{ArtifactID: "truth", Authority: evalcase.AuthorityGroundTruth})
	return evalcase.EvaluationCase{
		CaseID: "invoice-1", Operation: "extract_total", Prediction: map[string]any{"total": 11.5},
		References: []evalcase.ReferenceArtifact{png, pdf, truth}, Rubric: "The total matches the document.",
		Producer: &evalcase.Producer{Provider: "openai", Model: "gpt-producer"},
	}
}

// passAnswer is a valid judge answer for stage.
const passAnswer = `{"verdict":"pass","rationale":"the total 11.50 is printed on the page","confidence":0.9,"claims":[{"claim_id":"c1","status":"supported","reference_id":"truth","evidence":"total 11.5"}],"reference_claims":[{"reference_id":"truth","claim":"$.total = 11.5","status":"matched","prediction_claim_id":"c1","evidence":"same"}]}`

// fastPolicy retries without sleeping and records the waits.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(_ context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.d = append(s.d, d)
	return nil
}

func (s *sleeps) get() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

func policy(s *sleeps) Policy {
	return Policy{Retries: 3, InitialBackoff: time.Second, MaxBackoff: 4 * time.Second, MaxRetryAfter: 10 * time.Second, Timeout: 5 * time.Second, Sleep: s.sleep}
}

type provider struct {
	name string
	new  func(key string) *judgetest.Server
	make func(cfg Config) (judging.ModelAdapter, error)
}

var providers = []provider{
	{"openai", judgetest.NewOpenAI, func(c Config) (judging.ModelAdapter, error) { return NewOpenAI(c) }},
	{"anthropic", judgetest.NewAnthropic, func(c Config) (judging.ModelAdapter, error) { return NewAnthropic(c) }},
}

func evaluate(t *testing.T, a judging.ModelAdapter, c evalcase.EvaluationCase) evalcase.MetricResult {
	t.Helper()
	m := &judging.LLMJudgeMetric{MetricName: "judge", Judge: &judging.ModelJudge{Adapter: a}}
	res, err := m.Evaluate(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestWireFormat judges a stage with an image, a PDF and a JSON
// reference through each SDK against its stand-in server, and checks what
// went over the wire and what came back.
func TestWireFormat(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			srv := p.new(testKey)
			defer srv.Close()
			srv.Queue(srv.Text(passAnswer, 1200, 80))
			var s sleeps
			prices := &judging.Prices{InputPerMTok: 2, OutputPerMTok: 10}
			a, err := p.make(Config{Model: "judge-model", APIKey: testKey, BaseURL: srv.BaseURL(), ReasoningEffort: "low", Prices: prices, Policy: policy(&s)})
			if err != nil {
				t.Fatal(err)
			}
			c := stage(t)
			res := evaluate(t, a, c)
			if res.Verdict != evalcase.Pass || res.Scores["claim_precision"] != 1 || res.RequiresReview {
				t.Errorf("result %+v", res)
			}
			if probs := srv.Problems(); len(probs) > 0 {
				t.Fatalf("request shape: %v", probs)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			body := reqs[0].JSON
			if body["model"] != "judge-model" {
				t.Errorf("model %v", body["model"])
			}
			jreq, _ := judging.BuildJudgeRequest(c)
			var instr any
			var format map[string]any
			var parts []any
			switch p.name {
			case "openai":
				instr = body["instructions"]
				format = body["text"].(map[string]any)["format"].(map[string]any)
				parts = body["input"].([]any)[0].(map[string]any)["content"].([]any)
				if body["reasoning"].(map[string]any)["effort"] != "low" || body["store"] != false {
					t.Errorf("reasoning/store %v %v", body["reasoning"], body["store"])
				}
			case "anthropic":
				instr = body["system"].([]any)[0].(map[string]any)["text"]
				format = body["output_config"].(map[string]any)["format"].(map[string]any)
				parts = body["messages"].([]any)[0].(map[string]any)["content"].([]any)
				if body["output_config"].(map[string]any)["effort"] != "low" {
					t.Errorf("effort %v", body["output_config"])
				}
				if v := reqs[0].Header.Get("Anthropic-Version"); v == "" {
					t.Error("no anthropic-version")
				}
			}
			if instr != jreq.Instructions {
				t.Errorf("instructions differ from BuildJudgeRequest's")
			}
			var want map[string]any
			json.Unmarshal(judging.JudgeOutputSchema, &want)
			if fmt.Sprint(format["schema"]) != fmt.Sprint(want) {
				t.Errorf("schema sent %v", format["schema"])
			}
			var types []string
			for _, part := range parts {
				types = append(types, part.(map[string]any)["type"].(string))
			}
			wantTypes := map[string]string{
				"openai":    "input_text input_text input_image input_text input_file",
				"anthropic": "text text image text document",
			}[p.name]
			if strings.Join(types, " ") != wantTypes {
				t.Errorf("parts %v, want %s", types, wantTypes)
			}
			task := reqs[0].Task()
			if fmt.Sprint(task["task"].(map[string]any)["prediction"]) != "map[total:11.5]" {
				t.Errorf("task %v", task)
			}
			// usage: last, records, total with cost, reset
			ur := a.(interface {
				LastUsage() (judging.UsageRecord, bool)
				UsageRecords() []judging.UsageRecord
				TotalUsage() judging.Usage
				ResetUsage()
			})
			last, ok := ur.LastUsage()
			if !ok || last.Usage.InputTokens != 1200 || last.Usage.OutputTokens != 80 || last.Attempts != 1 || last.Purpose != judging.PurposeJudge {
				t.Errorf("last usage %+v", last)
			}
			if tot := ur.TotalUsage(); tot.CostUSD == nil || fmt.Sprintf("%.4f", *tot.CostUSD) != "0.0032" {
				t.Errorf("total usage %+v", tot)
			}
			ur.ResetUsage()
			if len(ur.UsageRecords()) != 0 {
				t.Error("reset kept records")
			}
		})
	}
}

// TestUnusableAnswers: malformed JSON and schema violations are uncertain
// verdicts with the raw answer kept, on the review queue.
func TestUnusableAnswers(t *testing.T) {
	answers := []struct{ name, text, reason string }{
		{"malformed JSON", `{"verdict": "pass", "rationale": "cut off`, "unusable judge answer"},
		{"prose", `The stage looks correct to me.`, "unusable judge answer"},
		{"unknown verdict", strings.Replace(passAnswer, `"verdict":"pass"`, `"verdict":"probably"`, 1), `verdict "probably"`},
		{"missing property", strings.Replace(passAnswer, `"confidence":0.9,`, ``, 1), "confidence: required"},
		{"confidence out of range", strings.Replace(passAnswer, `"confidence":0.9`, `"confidence":7`, 1), "confidence"},
		{"foreign claim", strings.Replace(passAnswer, `"claim_id":"c1"`, `"claim_id":"c9"`, 1), `claim_id "c9"`},
	}
	for _, p := range providers {
		for _, ans := range answers {
			t.Run(p.name+"/"+ans.name, func(t *testing.T) {
				srv := p.new(testKey)
				defer srv.Close()
				srv.Queue(srv.Text(ans.text, 10, 10))
				a, _ := p.make(Config{Model: "m", APIKey: testKey, BaseURL: srv.BaseURL()})
				res := evaluate(t, a, stage(t))
				if res.Verdict != evalcase.Uncertain || !res.RequiresReview || !strings.Contains(res.Reason, ans.reason) {
					t.Errorf("result %s, review %v, reason %q", res.Verdict, res.RequiresReview, res.Reason)
				}
				var det struct {
					RawAnswer string `json:"raw_answer"`
				}
				json.Unmarshal(res.Details, &det)
				if !strings.Contains(ans.text, "c9") && det.RawAnswer != ans.text {
					t.Errorf("raw answer %q not kept", det.RawAnswer)
				}
			})
		}
	}
}

// TestRetries: 429 honours retry-after, 5xx backs off exponentially, and
// the call gives up after the retries or a retry-after beyond the limit.
func TestRetries(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			tests := []struct {
				name    string
				replies func(s *judgetest.Server) []judgetest.Reply
				waits   string
				err     string
				count   int
			}{
				{"429 retry-after", func(s *judgetest.Server) []judgetest.Reply {
					return []judgetest.Reply{s.RateLimited("3"), s.Text(passAnswer, 1, 1)}
				}, "[3s]", "", 2},
				{"500 backoff", func(s *judgetest.Server) []judgetest.Reply {
					return []judgetest.Reply{s.ServerError(), s.ServerError(), s.Text(passAnswer, 1, 1)}
				}, "[1s 2s]", "", 3},
				{"short retry-after loses to backoff", func(s *judgetest.Server) []judgetest.Reply {
					return []judgetest.Reply{s.ServerError(), s.RateLimited("1"), s.ServerError(), s.Text(passAnswer, 1, 1)}
				}, "[1s 2s 4s]", "", 4},
				{"gives up", func(s *judgetest.Server) []judgetest.Reply {
					return []judgetest.Reply{s.ServerError(), s.ServerError(), s.ServerError(), s.ServerError(), s.ServerError()}
				}, "[1s 2s 4s]", "HTTP 500", 4},
				{"retry-after too long", func(s *judgetest.Server) []judgetest.Reply {
					return []judgetest.Reply{s.RateLimited("600")}
				}, "[]", "retry-after 10m0s is longer", 1},
				{"400 is not retried", func(s *judgetest.Server) []judgetest.Reply {
					return []judgetest.Reply{{Status: 400, Body: judgetest.OpenAIError("invalid_request_error", "bad model")}}
				}, "[]", "HTTP 400", 1},
			}
			for _, tc := range tests {
				t.Run(tc.name, func(t *testing.T) {
					srv := p.new(testKey)
					defer srv.Close()
					srv.Queue(tc.replies(srv)...)
					var s sleeps
					var logs []string
					pol := policy(&s)
					pol.Log = func(l string) { logs = append(logs, l) }
					a, _ := p.make(Config{Model: "m", APIKey: testKey, BaseURL: srv.BaseURL(), Policy: pol})
					j := &judging.ModelJudge{Adapter: a}
					req, _ := judging.BuildJudgeRequest(stage(t))
					_, err := j.Judge(context.Background(), req)
					if got := fmt.Sprint(s.get()); got != tc.waits {
						t.Errorf("waits %s, want %s", got, tc.waits)
					}
					if srv.Count() != tc.count {
						t.Errorf("%d requests, want %d", srv.Count(), tc.count)
					}
					if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
						t.Errorf("error %v, want %q", err, tc.err)
					}
					for _, l := range append(logs, fmt.Sprint(err)) {
						if strings.Contains(l, testKey) {
							t.Errorf("key in %q", l)
						}
					}
				})
			}
		})
	}
}

// TestKeyNeverInErrors: a provider that echoes the key in its error
// message, and a transport failure, give errors without it.
func TestKeyNeverInErrors(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			srv := p.new(testKey)
			srv.Queue(judgetest.Reply{Status: 401, Body: judgetest.OpenAIError("invalid_api_key", "Incorrect API key provided: "+testKey+". You can find your key in your account.")})
			a, _ := p.make(Config{Model: "m", APIKey: testKey, BaseURL: srv.BaseURL(), Policy: Policy{Sleep: (&sleeps{}).sleep}})
			req, _ := judging.BuildJudgeRequest(stage(t))
			_, err := (&judging.ModelJudge{Adapter: a}).Judge(context.Background(), req)
			if err == nil || strings.Contains(err.Error(), testKey) || strings.Contains(err.Error(), testKey[:8]) || !strings.Contains(err.Error(), "401") {
				t.Errorf("error %v", err)
			}
			var he *HTTPError
			if !errors.As(err, &he) || strings.Contains(he.Error(), testKey) {
				t.Errorf("HTTPError %v", he)
			}
			srv.Close() // now nothing listens there
			_, err = (&judging.ModelJudge{Adapter: a}).Judge(context.Background(), req)
			if err == nil || strings.Contains(err.Error(), testKey) {
				t.Errorf("transport error %v", err)
			}
		})
	}
}

// TestConcurrencyBound: calls to one provider never exceed the limit.
func TestConcurrencyBound(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			srv := p.new(testKey)
			defer srv.Close()
			srv.Delay = 40 * time.Millisecond
			srv.Answer = func(judgetest.Request) judgetest.Reply { return srv.Text(passAnswer, 1, 1) }
			a, _ := p.make(Config{Model: "m", APIKey: testKey, BaseURL: srv.BaseURL(), Limiter: NewLimiter(2)})
			req, _ := judging.BuildJudgeRequest(stage(t))
			var wg sync.WaitGroup
			for i := 0; i < 6; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if _, err := (&judging.ModelJudge{Adapter: a}).Judge(context.Background(), req); err != nil {
						t.Error(err)
					}
				}()
			}
			wg.Wait()
			if srv.Count() != 6 || srv.MaxInFlight() != 2 {
				t.Errorf("%d requests, at most %d in flight (want 6, 2)", srv.Count(), srv.MaxInFlight())
			}
		})
	}
}

// TestDeadline: an attempt that outlives the deadline fails with a message
// saying so, and is not retried.
func TestDeadline(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			srv := p.new(testKey)
			defer srv.Close()
			srv.Delay = 300 * time.Millisecond
			srv.Answer = func(judgetest.Request) judgetest.Reply { return srv.Text(passAnswer, 1, 1) }
			var s sleeps
			pol := policy(&s)
			pol.Timeout = 50 * time.Millisecond
			a, _ := p.make(Config{Model: "m", APIKey: testKey, BaseURL: srv.BaseURL(), Policy: pol})
			req, _ := judging.BuildJudgeRequest(stage(t))
			_, err := (&judging.ModelJudge{Adapter: a}).Judge(context.Background(), req)
			if err == nil || !strings.Contains(err.Error(), "deadline") || srv.Count() != 1 {
				t.Errorf("error %v after %d requests", err, srv.Count())
			}
		})
	}
}

// TestCheckpointedCallsAreNotPaidTwice: the call cache in a file store
// answers a rerun without any request.
func TestCheckpointedCallsAreNotPaidTwice(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			srv := p.new(testKey)
			defer srv.Close()
			srv.Answer = func(judgetest.Request) judgetest.Reply { return srv.Text(passAnswer, 100, 10) }
			dir := t.TempDir()
			run := func() (evalcase.MetricResult, *judging.UsageTracker) {
				store, err := harnessio.NewFileCheckpointStore(dir)
				if err != nil {
					t.Fatal(err)
				}
				a, _ := p.make(Config{Model: "m", APIKey: testKey, BaseURL: srv.BaseURL()})
				var u judging.UsageTracker
				cached := &judging.CachedAdapter{Adapter: a, Store: store, Usage: &u}
				return evaluate(t, cached, stage(t)), &u
			}
			first, _ := run()
			if srv.Count() != 1 {
				t.Fatalf("first run made %d requests", srv.Count())
			}
			second, u := run()
			if srv.Count() != 1 {
				t.Errorf("rerun made %d more request(s)", srv.Count()-1)
			}
			if string(first.Details) != string(second.Details) || first.Verdict != second.Verdict {
				t.Error("the cached answer scores differently")
			}
			if recs := u.UsageRecords(); len(recs) != 1 || !recs[0].Cached || u.TotalUsage().InputTokens != 0 {
				t.Errorf("cached usage %+v", recs)
			}
			files, _ := filepath.Glob(filepath.Join(dir, "*"))
			for _, f := range files {
				b, _ := os.ReadFile(f)
				if strings.Contains(string(b), testKey) {
					t.Errorf("%s holds the key", f)
				}
			}
		})
	}
}

func TestAnthropicRefusesTemperature(t *testing.T) {
	temp := 0.2
	if _, err := NewAnthropic(Config{Model: "m", APIKey: "k", Temperature: &temp}); err == nil || !strings.Contains(err.Error(), "temperature") {
		t.Errorf("error %v", err)
	}
	if _, err := NewAnthropic(Config{Model: "m", APIKey: "k", ReasoningEffort: "minimal"}); err == nil {
		t.Error("minimal effort accepted")
	}
	if _, err := NewOpenAI(Config{Model: "m"}); err == nil || !strings.Contains(err.Error(), "OPENAI_API_KEY") {
		t.Errorf("no key: %v", err)
	}
	if _, err := NewOpenAI(Config{APIKey: "k"}); err == nil || !strings.Contains(err.Error(), "model") {
		t.Errorf("no model: %v", err)
	}
}

// TestUnsupportedAttachment: a file the provider does not accept is
// named in a warning and in the request text instead of being sent.
func TestUnsupportedAttachment(t *testing.T) {
	srv := judgetest.NewOpenAI(testKey)
	defer srv.Close()
	srv.Queue(srv.Text(passAnswer, 1, 1))
	a, _ := NewOpenAI(Config{Model: "m", APIKey: testKey, BaseURL: srv.BaseURL()})
	odt, _ := evalcase.ArtifactFromBytes("notes.odt", []byte("PK\x03\x04"), evalcase.ArtifactOptions{})
	resp, err := a.Call(context.Background(), judging.ModelRequest{Purpose: "judge", Instructions: "x", Input: map[string]any{}, SchemaName: "s", OutputSchema: judging.JudgeOutputSchema, Attachments: []evalcase.ReferenceArtifact{odt}})
	if err != nil || len(resp.Warnings) != 1 || !strings.Contains(srv.Requests()[0].UserText(), "notes.odt (application/vnd.oasis.opendocument.text) not sent") {
		t.Errorf("resp %+v, err %v", resp, err)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		h    map[string]string
		want time.Duration
	}{
		{map[string]string{"Retry-After": "2"}, 2 * time.Second},
		{map[string]string{"Retry-After": "0.5"}, 500 * time.Millisecond},
		{map[string]string{"Retry-After-Ms": "250", "Retry-After": "9"}, 250 * time.Millisecond},
		{map[string]string{"Retry-After": "Thu, 01 Jan 2026 00:00:07 GMT"}, 7 * time.Second},
		{map[string]string{"Retry-After": "soon"}, 0},
		{nil, 0},
	} {
		h := map[string][]string{}
		for k, v := range tc.h {
			h[k] = []string{v}
		}
		if got := parseRetryAfter(h, now); got != tc.want {
			t.Errorf("%v: %s, want %s", tc.h, got, tc.want)
		}
	}
}

// TestGroundTruthOverTheWire: a ground-truth panel of an OpenAI and an
// Anthropic provider reads the page images through the real wire formats;
// the prediction of the case the pages belong to reaches neither, while a
// judge of the same case does send it (so the check can see it).
func TestGroundTruthOverTheWire(t *testing.T) {
	const marker = "PREDICTION-MARKER-51c2"
	c := stage(t)
	c.Prediction = map[string]any{"total": marker}
	oa, an := judgetest.NewOpenAI(testKey), judgetest.NewAnthropic(testKey)
	defer oa.Close()
	defer an.Close()
	answer := `{"claims": [{"path": "$.total", "value": "11.50", "reference_id": "invoice.png", "visual_evidence": "bottom line", "confidence": 0.9}]}`
	oa.Answer = func(judgetest.Request) judgetest.Reply { return oa.Text(answer, 900, 40) }
	an.Answer = func(judgetest.Request) judgetest.Reply { return an.Text(answer, 800, 30) }
	a, _ := NewOpenAI(Config{Model: "gpt-reader", APIKey: testKey, BaseURL: oa.BaseURL()})
	b, _ := NewAnthropic(Config{Model: "claude-reader", APIKey: testKey, BaseURL: an.BaseURL()})
	panel := &groundtruth.GroundTruthPanel{
		Providers:             []groundtruth.GroundTruthProvider{{Name: "openai", Adapter: a}, {Name: "anthropic", Adapter: b}},
		ExtractionInstruction: "Read the invoice total.", ExpectedFields: []string{"$.total"},
	}
	rep, err := panel.Generate(context.Background(), c.CaseID, c.References[:1])
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Agreed) != 1 || rep.Agreed[0].Value != "11.50" || rep.RequiresHumanReview {
		t.Errorf("report %+v", rep)
	}
	if p := append(oa.Problems(), an.Problems()...); len(p) > 0 {
		t.Fatalf("request shape: %v", p)
	}
	for _, r := range append(oa.Requests(), an.Requests()...) {
		if strings.Contains(string(r.Body), marker) || r.Task()["expected_fields"] == nil {
			t.Errorf("ground-truth request %s", r.Body)
		}
	}
	oa.Answer = func(judgetest.Request) judgetest.Reply { return oa.Text(passAnswer, 1, 1) }
	evaluate(t, a, c)
	reqs := oa.Requests()
	if !strings.Contains(string(reqs[len(reqs)-1].Body), marker) {
		t.Error("the judge request does not carry the prediction: the check above proves nothing")
	}
}
