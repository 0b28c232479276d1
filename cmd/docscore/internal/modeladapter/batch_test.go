package modeladapter

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	aoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/docscore/docscore/cmd/docscore/internal/harnessio"
	"github.com/docscore/docscore/cmd/docscore/internal/modeladapter/judgetest"
	"github.com/docscore/docscore/scoring/judging"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
)

const batchKey = "sk-batch-TESTKEY-0123456789abcdef0123"

func batchItems(n int) []BatchItem {
	var items []BatchItem
	for i := 0; i < n; i++ {
		req := judging.ModelRequest{Purpose: judging.PurposeJudge, Instructions: "Judge.", Input: map[string]any{"i": i},
			SchemaName: "s", OutputSchema: json.RawMessage(`{"type":"object","additionalProperties":false,"properties":{}}`)}
		id, _ := CustomID(req, judging.ModelInfo{Provider: "p", Model: "m"})
		items = append(items, BatchItem{CustomID: id, Request: req})
	}
	return items
}

// scripted answers item i by kinds[i % len(kinds)].
func scripted(items []BatchItem, kinds []string) func(string, judgetest.Request) judgetest.BatchReply {
	index := map[string]int{}
	for i, it := range items {
		index[it.CustomID] = i
	}
	return func(id string, _ judgetest.Request) judgetest.BatchReply {
		k := kinds[index[id]%len(kinds)]
		return judgetest.BatchReply{Kind: k, Text: fmt.Sprintf(`{"answer":%d}`, index[id]), In: 100, Out: 10, Status: 500, Message: "boom"}
	}
}

// TestBatchStandInsThroughSDKs: the official SDKs, pointed at the
// stand-ins, parse every answer (file objects, batch objects at each
// status, output and error files, the results stream), with every
// required field present; the adapters map each item back by custom_id.
func TestBatchStandInsThroughSDKs(t *testing.T) {
	ctx := context.Background()
	kinds := []string{"succeeded", "errored", "expired", "succeeded", "cancelled"}
	items := batchItems(10)

	t.Run("openai", func(t *testing.T) {
		s := judgetest.NewOpenAIBatch(batchKey)
		defer s.Close()
		s.Answer = scripted(items, kinds)
		a, err := NewOpenAI(Config{Model: "m", APIKey: batchKey, BaseURL: s.BaseURL(), Prices: &judging.Prices{InputPerMTok: 2, OutputPerMTok: 8}})
		if err != nil {
			t.Fatal(err)
		}
		h, err := a.SubmitBatch(ctx, items)
		if err != nil || !strings.HasPrefix(h.ID, "batch_") || !strings.HasPrefix(h.InputFileID, "file-") {
			t.Fatalf("submit: %+v %v", h, err)
		}
		client := openai.NewClient(option.WithBaseURL(s.BaseURL()), option.WithAPIKey(batchKey), option.WithMaxRetries(0))
		var statuses []string
		var last *openai.Batch
		for i := 0; i < 10; i++ {
			b, err := client.Batches.Get(ctx, h.ID)
			if err != nil {
				t.Fatal(err)
			}
			for name, f := range map[string]interface{ Valid() bool }{"id": b.JSON.ID, "status": b.JSON.Status, "input_file_id": b.JSON.InputFileID,
				"completion_window": b.JSON.CompletionWindow, "created_at": b.JSON.CreatedAt, "endpoint": b.JSON.Endpoint, "request_counts": b.JSON.RequestCounts} {
				if !f.Valid() {
					t.Errorf("batch field %s missing or null", name)
				}
			}
			if len(statuses) == 0 || statuses[len(statuses)-1] != string(b.Status) {
				statuses = append(statuses, string(b.Status))
			}
			last = b
			if b.Status == openai.BatchStatusExpired || b.Status == openai.BatchStatusCompleted {
				break
			}
		}
		if got := strings.Join(statuses, " → "); got != "validating → in_progress → expired" {
			t.Errorf("statuses %s", got)
		}
		if last.OutputFileID == "" || last.ErrorFileID == "" || last.RequestCounts.Total != 10 || last.RequestCounts.Completed != 4 || last.ExpiredAt == 0 {
			t.Errorf("ended batch %s", last.RawJSON())
		}
		// Every output line's body parses as a Responses API object.
		resp, err := client.Files.Content(ctx, last.OutputFileID)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var l openAIResultLine
			var r responses.Response
			if err := json.Unmarshal([]byte(line), &l); err != nil || l.Response == nil || json.Unmarshal(l.Response.Body, &r) != nil || r.OutputText() == "" || !r.JSON.Usage.Valid() {
				t.Errorf("output line does not parse: %s", line)
			}
		}
		st, err := a.PollBatch(ctx, h)
		if err != nil || !st.Ended || st.Outcome != "expired" {
			t.Fatalf("poll: %+v %v", st, err)
		}
		res, err := a.BatchResults(ctx, h, st)
		if err != nil {
			t.Fatal(err)
		}
		checkResults(t, items, kinds, res, 2*100/1e6*0.5+8*10/1e6*0.5)
		if p := s.Problems(); len(p) > 0 {
			t.Errorf("request shape problems: %v", p)
		}
	})

	t.Run("anthropic", func(t *testing.T) {
		s := judgetest.NewAnthropicBatch(batchKey)
		defer s.Close()
		s.Answer = scripted(items, kinds)
		a, err := NewAnthropic(Config{Model: "m", APIKey: batchKey, BaseURL: s.BaseURL(), Prices: &judging.Prices{InputPerMTok: 2, OutputPerMTok: 8},
			BatchPrices: &judging.Prices{InputPerMTok: 1, OutputPerMTok: 4}})
		if err != nil {
			t.Fatal(err)
		}
		h, err := a.SubmitBatch(ctx, items)
		if err != nil || !strings.HasPrefix(h.ID, "msgbatch_") {
			t.Fatalf("submit: %+v %v", h, err)
		}
		client := anthropic.NewClient(aoption.WithBaseURL(s.BaseURL()), aoption.WithAPIKey(batchKey), aoption.WithMaxRetries(0))
		var statuses []string
		for i := 0; i < 10; i++ {
			b, err := client.Messages.Batches.Get(ctx, h.ID, anthropic.MessageBatchGetParams{})
			if err != nil {
				t.Fatal(err)
			}
			if !b.JSON.ID.Valid() || !b.JSON.ProcessingStatus.Valid() || !b.JSON.RequestCounts.Valid() || !b.JSON.CreatedAt.Valid() || !b.JSON.ExpiresAt.Valid() {
				t.Errorf("batch object %s", b.RawJSON())
			}
			if len(statuses) == 0 || statuses[len(statuses)-1] != string(b.ProcessingStatus) {
				statuses = append(statuses, string(b.ProcessingStatus))
			}
			if b.ProcessingStatus == anthropic.MessageBatchProcessingStatusEnded {
				if b.ResultsURL == "" || b.EndedAt.IsZero() || b.RequestCounts.Succeeded != 4 || b.RequestCounts.Expired != 2 || b.RequestCounts.Canceled != 2 || b.RequestCounts.Errored != 2 {
					t.Errorf("ended batch %s", b.RawJSON())
				}
				break
			}
		}
		if got := strings.Join(statuses, " → "); got != "in_progress → ended" {
			t.Errorf("statuses %s", got)
		}
		stream := client.Messages.Batches.ResultsStreaming(ctx, h.ID, anthropic.MessageBatchResultsParams{})
		n := 0
		for stream.Next() {
			r := stream.Current()
			n++
			if r.CustomID == "" || (r.Result.Type == "succeeded" && r.Result.AsSucceeded().Message.Content[0].Text == "") ||
				(r.Result.Type == "errored" && r.Result.AsErrored().Error.Error.Message != "boom") {
				t.Errorf("result does not parse: %s", r.RawJSON())
			}
		}
		if stream.Err() != nil || n != 10 {
			t.Fatalf("%d results, %v", n, stream.Err())
		}
		st, err := a.PollBatch(ctx, h)
		if err != nil || !st.Ended || st.Total != 10 || st.Done != 4 || st.Failed != 6 {
			t.Fatalf("poll: %+v %v", st, err)
		}
		res, err := a.BatchResults(ctx, h, st)
		if err != nil {
			t.Fatal(err)
		}
		checkResults(t, items, kinds, res, 1*100/1e6+4*10/1e6)
		if p := s.Problems(); len(p) > 0 {
			t.Errorf("request shape problems: %v", p)
		}
	})
}

func checkResults(t *testing.T, items []BatchItem, kinds []string, res map[string]BatchResult, cost float64) {
	t.Helper()
	if len(res) != len(items) {
		t.Fatalf("%d results for %d items", len(res), len(items))
	}
	for i, it := range items {
		r := res[it.CustomID]
		if r.State != kinds[i%len(kinds)] {
			t.Errorf("item %d: state %s, want %s", i, r.State, kinds[i%len(kinds)])
		}
		if r.State != ItemSucceeded {
			if r.Error == "" || r.Response != nil {
				t.Errorf("item %d: %+v", i, r)
			}
			continue
		}
		if r.Response.Text != fmt.Sprintf(`{"answer":%d}`, i) || r.Response.Usage.InputTokens != 100 || r.Response.Usage.CostUSD == nil ||
			fmt.Sprintf("%.9f", *r.Response.Usage.CostUSD) != fmt.Sprintf("%.9f", cost) {
			t.Errorf("item %d: %+v cost %v, want %v", i, r.Response, r.Response.Usage.CostUSD, cost)
		}
	}
}

// TestBatchKeyNeverInErrors: a batch API error that echoes the key is
// redacted.
func TestBatchKeyNeverInErrors(t *testing.T) {
	s := judgetest.NewOpenAIBatch("another-key-0123456789abcdef")
	defer s.Close()
	a, _ := NewOpenAI(Config{Model: "m", APIKey: batchKey, BaseURL: s.BaseURL(), Policy: Policy{Retries: 0}})
	_, err := a.SubmitBatch(context.Background(), batchItems(1))
	if err == nil || !strings.Contains(err.Error(), "401") {
		t.Fatalf("err %v", err)
	}
	b, _ := NewAnthropic(Config{Model: "m", APIKey: batchKey, BaseURL: "http://127.0.0.1:1/" + batchKey + "/", Policy: Policy{Retries: 0}})
	_, err2 := b.PollBatch(context.Background(), BatchHandle{ID: "msgbatch_x"})
	for _, e := range []error{err, err2} {
		if e == nil || strings.Contains(e.Error(), batchKey) || strings.Contains(e.Error(), batchKey[:12]) {
			t.Errorf("error %v", e)
		}
	}
}

// BenchmarkBatchThroughput runs 1,000 judge requests through a batch
// stand-in, from submission to the answers mapped back (items/s).
func BenchmarkBatchThroughput(b *testing.B) {
	for _, provider := range []string{"openai", "anthropic"} {
		b.Run(provider, func(b *testing.B) {
			const n = 1000
			items := batchItems(n)
			for i := 0; i < b.N; i++ {
				var s *judgetest.BatchServer
				var a BatchProvider
				if provider == "openai" {
					s = judgetest.NewOpenAIBatch(batchKey)
					a, _ = NewOpenAI(Config{Model: "m", APIKey: batchKey, BaseURL: s.BaseURL()})
				} else {
					s = judgetest.NewAnthropicBatch(batchKey)
					a, _ = NewAnthropic(Config{Model: "m", APIKey: batchKey, BaseURL: s.BaseURL()})
				}
				s.Answer = scripted(items, []string{"succeeded"})
				r := &BatchRunner{Store: mustStore(b), Poll: PollPolicy{First: time.Millisecond}}
				got := 0
				_, err := r.Run(context.Background(), func(ctx context.Context, p *Pass) error {
					w, err := p.Wrap(a)
					if err != nil {
						return err
					}
					got = 0
					for _, it := range items {
						if _, err := w.Call(ctx, it.Request); err == nil {
							got++
						}
					}
					return nil
				})
				if err != nil || got != n {
					b.Fatalf("%d answers, %v", got, err)
				}
				s.Close()
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "items/s")
		})
	}
}

func mustStore(b *testing.B) *harnessio.FileCheckpointStore {
	s, err := harnessio.NewFileCheckpointStore(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkLedgerSave is the checkpoint overhead of batch mode: one
// atomic, durable write of the ledger of a 1,000-request batch with its
// answers (what is written once the batch ended).
func BenchmarkLedgerSave(b *testing.B) {
	r := &BatchRunner{Store: mustStore(b)}
	r.load()
	job := &batchJob{BatchHandle: BatchHandle{Provider: "openai", Model: "m", ID: "batch_x"}, Label: "openai/m", Results: map[string]BatchResult{}}
	answer := strings.Repeat("x", 600)
	for _, it := range batchItems(1000) {
		job.Requests = append(job.Requests, it.CustomID)
		job.Results[it.CustomID] = BatchResult{State: ItemSucceeded, Response: &judging.ModelResponse{Text: answer, Usage: judging.Usage{InputTokens: 500, OutputTokens: 50}}}
	}
	r.led.Jobs = []*batchJob{job}
	data, _ := json.Marshal(r.led)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := r.save(); err != nil {
			b.Fatal(err)
		}
	}
}
