package judgetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"
)

// BatchReply is the scripted result of one batch item.
type BatchReply struct {
	// Kind is "succeeded" (the default), "errored", "expired" or
	// "cancelled".
	Kind string
	// Text, In and Out make a succeeded item's answer.
	Text    string
	In, Out int
	// Status (OpenAI; default 500) and Message describe an errored item.
	Status  int
	Message string
}

// BatchServer is a stand-in for a provider's batch API: OpenAI's Files
// API (POST /v1/files, multipart, purpose batch; GET
// /v1/files/{id}/content) and Batches API (POST /v1/batches, GET
// /v1/batches/{id}), or Anthropic's Message Batches (POST
// /v1/messages/batches, GET /v1/messages/batches/{id} and
// /v1/messages/batches/{id}/results). It speaks the providers' documented
// wire formats: JSONL in and out, OpenAI's statuses validating →
// in_progress → completed, expired or cancelled with an output and an
// error file, Anthropic's processing_status in_progress → ended with
// succeeded, errored, expired and canceled results. Each item's body is
// checked like a direct request. A batch stays in progress for
// ProgressPolls polls, and for as long as the server is held (Hold).
type BatchServer struct {
	*httptest.Server
	provider string
	key      string

	// Answer makes each item's result from its request body (nil: an
	// empty JSON object). It is called once per item, when the batch ends.
	Answer func(customID string, body Request) BatchReply
	// ProgressPolls is the number of polls a batch reports in_progress
	// before it ends (default 1).
	ProgressPolls int

	mu        sync.Mutex
	hold      bool
	seq       int
	files     map[string][]byte
	batches   map[string]*standinBatch
	creations int
	polls     int
	answered  map[string]int
	problems  []string
	requests  []Request
}

type standinBatch struct {
	id, inputFile  string
	created        int64
	items          []batchItem
	polls          int
	status         string
	ended          bool
	outFile        string
	errFile        string
	results        []byte // Anthropic results JSONL
	counts         map[string]int
	cancelled      bool
	metadata       any
	completionTime int64
}

type batchItem struct {
	customID string
	body     Request
	problems []string
}

// NewOpenAIBatch starts an OpenAI Files + Batches stand-in that accepts
// key. Point the adapter at BaseURL().
func NewOpenAIBatch(key string) *BatchServer { return newBatch("openai", key) }

// NewAnthropicBatch starts an Anthropic Message Batches stand-in that
// accepts key. Point the adapter at BaseURL().
func NewAnthropicBatch(key string) *BatchServer { return newBatch("anthropic", key) }

func newBatch(provider, key string) *BatchServer {
	s := &BatchServer{provider: provider, key: key, files: map[string][]byte{}, batches: map[string]*standinBatch{}, answered: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.handle))
	return s
}

// BaseURL is the address to give the adapter.
func (s *BatchServer) BaseURL() string {
	if s.provider == "openai" {
		return s.URL + "/v1/"
	}
	return s.URL + "/"
}

// Hold keeps every batch in progress until Release.
func (s *BatchServer) Hold() { s.mu.Lock(); s.hold = true; s.mu.Unlock() }

// Release lets held batches end at their next poll.
func (s *BatchServer) Release() { s.mu.Lock(); s.hold = false; s.mu.Unlock() }

// Creations counts the batches created.
func (s *BatchServer) Creations() int { s.mu.Lock(); defer s.mu.Unlock(); return s.creations }

// Polls counts the batch retrievals.
func (s *BatchServer) Polls() int { s.mu.Lock(); defer s.mu.Unlock(); return s.polls }

// Answered counts, by custom id, how often an item was answered (across
// every batch).
func (s *BatchServer) Answered() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int{}
	for k, v := range s.answered {
		out[k] = v
	}
	return out
}

// Problems lists every request-shape problem found.
func (s *BatchServer) Problems() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.problems...)
}

// Requests returns the HTTP requests received (bodies of uploads
// included).
func (s *BatchServer) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Files returns the uploaded and generated files by id.
func (s *BatchServer) Files() map[string][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string][]byte{}
	for k, v := range s.files {
		out[k] = v
	}
	return out
}

func (s *BatchServer) problem(format string, args ...any) {
	s.problems = append(s.problems, fmt.Sprintf(format, args...))
}

func (s *BatchServer) nextID(prefix string) string {
	s.seq++
	return fmt.Sprintf("%s%024d", prefix, s.seq)
}

func (s *BatchServer) handle(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, Request{Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	if s.provider == "openai" {
		if r.Header.Get("Authorization") != "Bearer "+s.key {
			s.problem("auth: expected Authorization: Bearer <key> on %s %s", r.Method, r.URL.Path)
			writeJSON(w, 401, json.RawMessage(OpenAIError("invalid_request_error", "auth")))
			return
		}
		s.openai(w, r, body)
		return
	}
	if r.Header.Get("X-Api-Key") != s.key && r.Header.Get("Authorization") != "Bearer "+s.key {
		s.problem("auth: expected X-Api-Key on %s %s", r.Method, r.URL.Path)
		writeJSON(w, 401, json.RawMessage(AnthropicError("authentication_error", "auth")))
		return
	}
	if r.Header.Get("Anthropic-Version") == "" {
		s.problem("anthropic-version header: required on %s %s", r.Method, r.URL.Path)
	}
	s.anthropic(w, r, body)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}

// fail records a problem and answers with the provider's error body.
func (s *BatchServer) fail(w http.ResponseWriter, status int, msg string) {
	s.problem("%s", msg)
	body := OpenAIError("invalid_request_error", msg)
	if s.provider == "anthropic" {
		body = AnthropicError("invalid_request_error", msg)
	}
	writeJSON(w, status, json.RawMessage(body))
}

func (s *BatchServer) openai(w http.ResponseWriter, r *http.Request, body []byte) {
	path := r.URL.Path
	switch {
	case r.Method == http.MethodPost && path == "/v1/files":
		if err := r.ParseMultipartForm(64 << 20); err != nil {
			s.fail(w, 400, "files: expected a multipart form: "+err.Error())
			return
		}
		if p := r.FormValue("purpose"); p != "batch" {
			s.fail(w, 400, fmt.Sprintf("files: purpose %q, expected batch", p))
			return
		}
		f, hdr, err := r.FormFile("file")
		if err != nil {
			s.fail(w, 400, "files: no file part")
			return
		}
		data, _ := io.ReadAll(f)
		if !strings.HasSuffix(hdr.Filename, ".jsonl") {
			s.problem("files: filename %q, expected .jsonl", hdr.Filename)
		}
		id := s.nextID("file-")
		s.files[id] = data
		writeJSON(w, 200, s.fileObject(id, hdr.Filename, "batch", len(data)))
	case r.Method == http.MethodGet && strings.HasPrefix(path, "/v1/files/") && strings.HasSuffix(path, "/content"):
		id := strings.TrimSuffix(strings.TrimPrefix(path, "/v1/files/"), "/content")
		data, ok := s.files[id]
		if !ok {
			writeJSON(w, 404, json.RawMessage(OpenAIError("invalid_request_error", "No such File object: "+id)))
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(data)
	case r.Method == http.MethodPost && path == "/v1/batches":
		var req struct {
			InputFileID      string `json:"input_file_id"`
			Endpoint         string `json:"endpoint"`
			CompletionWindow string `json:"completion_window"`
			Metadata         any    `json:"metadata"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			s.fail(w, 400, "batches: body is not JSON")
			return
		}
		if req.Endpoint != "/v1/responses" || req.CompletionWindow != "24h" {
			s.fail(w, 400, fmt.Sprintf("batches: endpoint %q and completion_window %q, expected /v1/responses and 24h", req.Endpoint, req.CompletionWindow))
			return
		}
		data, ok := s.files[req.InputFileID]
		if !ok {
			s.fail(w, 400, "batches: no input file "+req.InputFileID)
			return
		}
		b := &standinBatch{id: s.nextID("batch_"), inputFile: req.InputFileID, created: time.Now().Unix(), status: "validating", metadata: req.Metadata}
		seen := map[string]bool{}
		for n, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
			var l struct {
				CustomID string         `json:"custom_id"`
				Method   string         `json:"method"`
				URL      string         `json:"url"`
				Body     map[string]any `json:"body"`
			}
			if err := json.Unmarshal(line, &l); err != nil {
				s.fail(w, 400, fmt.Sprintf("batches: line %d is not JSON", n+1))
				return
			}
			it := batchItem{customID: l.CustomID, body: Request{Path: l.URL, JSON: l.Body}}
			it.body.Body, _ = json.Marshal(l.Body)
			if l.Method != "POST" || l.URL != "/v1/responses" {
				it.problems = append(it.problems, fmt.Sprintf("line %d: %s %s, expected POST /v1/responses", n+1, l.Method, l.URL))
			}
			if l.CustomID == "" || seen[l.CustomID] {
				it.problems = append(it.problems, fmt.Sprintf("line %d: custom_id %q missing or repeated", n+1, l.CustomID))
			}
			seen[l.CustomID] = true
			it.problems = append(it.problems, checkOpenAIBody(l.Body)...)
			s.problems = append(s.problems, it.problems...)
			b.items = append(b.items, it)
		}
		s.batches[b.id] = b
		s.creations++
		writeJSON(w, 200, s.openAIBatch(b))
	case r.Method == http.MethodGet && strings.HasPrefix(path, "/v1/batches/"):
		b, ok := s.batches[strings.TrimPrefix(path, "/v1/batches/")]
		if !ok {
			writeJSON(w, 404, json.RawMessage(OpenAIError("invalid_request_error", "No such batch")))
			return
		}
		s.polls++
		s.advance(b)
		writeJSON(w, 200, s.openAIBatch(b))
	default:
		s.fail(w, 404, fmt.Sprintf("unexpected %s %s", r.Method, path))
	}
}

func (s *BatchServer) fileObject(id, name, purpose string, n int) map[string]any {
	return map[string]any{"id": id, "object": "file", "bytes": n, "created_at": time.Now().Unix(), "filename": name,
		"purpose": purpose, "status": "processed", "expires_at": nil, "status_details": nil}
}

// advance moves a batch on at a poll: validating → in_progress, then
// (after ProgressPolls polls, and unless held) it ends.
func (s *BatchServer) advance(b *standinBatch) {
	b.polls++
	if b.ended {
		return
	}
	if b.status == "validating" {
		if b.polls > 1 {
			b.status = "in_progress"
		}
		return
	}
	need := s.ProgressPolls
	if need < 1 {
		need = 1
	}
	if s.hold || b.polls <= need+1 {
		return
	}
	s.finish(b)
}

func (s *BatchServer) reply(it batchItem) BatchReply {
	if len(it.problems) > 0 {
		return BatchReply{Kind: "errored", Status: 400, Message: strings.Join(it.problems, "; ")}
	}
	rep := BatchReply{Text: "{}"}
	if s.Answer != nil {
		s.mu.Unlock()
		rep = s.Answer(it.customID, it.body)
		s.mu.Lock()
	}
	if rep.Kind == "" {
		rep.Kind = "succeeded"
	}
	if rep.Kind == "succeeded" {
		s.answered[it.customID]++
	}
	return rep
}

// finish answers every item and ends the batch.
func (s *BatchServer) finish(b *standinBatch) {
	b.ended = true
	b.completionTime = time.Now().Unix()
	b.counts = map[string]int{}
	var out, errs, results bytes.Buffer
	for i, it := range b.items {
		rep := s.reply(it)
		b.counts[rep.Kind]++
		reqID := fmt.Sprintf("req_%s_%d", b.id, i)
		if s.provider == "anthropic" {
			var res map[string]any
			switch rep.Kind {
			case "succeeded":
				res = map[string]any{"type": "succeeded", "message": json.RawMessage(AnthropicAnswer(rep.Text, rep.In, rep.Out))}
			case "errored":
				res = map[string]any{"type": "errored", "error": json.RawMessage(AnthropicError("api_error", rep.Message))}
			case "expired":
				res = map[string]any{"type": "expired"}
			default:
				res = map[string]any{"type": "canceled"}
			}
			line, _ := json.Marshal(map[string]any{"custom_id": it.customID, "result": res})
			results.Write(append(line, '\n'))
			continue
		}
		line := map[string]any{"id": "batch_req_" + fmt.Sprint(i), "custom_id": it.customID, "response": nil, "error": nil}
		dst := &errs
		switch rep.Kind {
		case "succeeded":
			line["response"] = map[string]any{"status_code": 200, "request_id": reqID, "body": json.RawMessage(OpenAIAnswer(rep.Text, rep.In, rep.Out))}
			dst = &out
		case "errored":
			st := rep.Status
			if st == 0 {
				st = 500
			}
			line["response"] = map[string]any{"status_code": st, "request_id": reqID, "body": json.RawMessage(OpenAIError("server_error", rep.Message))}
		case "expired":
			line["error"] = map[string]any{"code": "batch_expired", "message": "This request could not be executed before the completion window expired."}
		default:
			line["error"] = map[string]any{"code": "batch_cancelled", "message": "This request was not executed because the batch was cancelled."}
		}
		bl, _ := json.Marshal(line)
		dst.Write(append(bl, '\n'))
	}
	b.results = results.Bytes()
	switch {
	case b.counts["expired"] > 0:
		b.status = "expired"
	case b.counts["cancelled"] > 0:
		b.status, b.cancelled = "cancelled", true
	default:
		b.status = "completed"
	}
	if s.provider == "anthropic" {
		b.status = "ended"
		return
	}
	if out.Len() > 0 {
		b.outFile = s.nextID("file-")
		s.files[b.outFile] = out.Bytes()
	}
	if errs.Len() > 0 {
		b.errFile = s.nextID("file-")
		s.files[b.errFile] = errs.Bytes()
	}
}

func nullable[T comparable](v T) any {
	var zero T
	if v == zero {
		return nil
	}
	return v
}

func (s *BatchServer) openAIBatch(b *standinBatch) map[string]any {
	total := len(b.items)
	done := b.counts["succeeded"]
	failed := total - done
	if !b.ended {
		failed = 0
	}
	m := map[string]any{
		"id": b.id, "object": "batch", "endpoint": "/v1/responses", "errors": nil, "input_file_id": b.inputFile,
		"completion_window": "24h", "status": b.status, "output_file_id": nullable(b.outFile), "error_file_id": nullable(b.errFile),
		"created_at": b.created, "in_progress_at": nullable(map[bool]int64{true: b.created}[b.status != "validating"]),
		"expires_at": b.created + 86400, "finalizing_at": nil, "completed_at": nil, "failed_at": nil, "expired_at": nil,
		"cancelling_at": nil, "cancelled_at": nil,
		"request_counts": map[string]any{"total": total, "completed": done, "failed": failed},
		"metadata":       b.metadata, "model": "stand-in-model-2026-01-01",
		"usage": map[string]any{"input_tokens": 0, "input_tokens_details": map[string]any{"cached_tokens": 0},
			"output_tokens": 0, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 0},
	}
	if b.ended {
		key := map[string]string{"completed": "completed_at", "expired": "expired_at", "cancelled": "cancelled_at"}[b.status]
		m[key] = b.completionTime
	}
	return m
}

var anthropicCustomID = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

func (s *BatchServer) anthropic(w http.ResponseWriter, r *http.Request, body []byte) {
	path := r.URL.Path
	switch {
	case r.Method == http.MethodPost && path == "/v1/messages/batches":
		var req struct {
			Requests []struct {
				CustomID string         `json:"custom_id"`
				Params   map[string]any `json:"params"`
			} `json:"requests"`
		}
		if err := json.Unmarshal(body, &req); err != nil || len(req.Requests) == 0 {
			s.fail(w, 400, "requests: expected a non-empty list")
			return
		}
		b := &standinBatch{id: s.nextID("msgbatch_"), created: time.Now().Unix(), status: "in_progress"}
		seen := map[string]bool{}
		for i, rq := range req.Requests {
			it := batchItem{customID: rq.CustomID, body: Request{Path: "/v1/messages", JSON: rq.Params}}
			it.body.Body, _ = json.Marshal(rq.Params)
			if !anthropicCustomID.MatchString(rq.CustomID) || seen[rq.CustomID] {
				it.problems = append(it.problems, fmt.Sprintf("requests[%d].custom_id %q: expected ^[a-zA-Z0-9_-]{1,64}$, unique", i, rq.CustomID))
			}
			seen[rq.CustomID] = true
			if _, ok := rq.Params["stream"]; ok {
				it.problems = append(it.problems, fmt.Sprintf("requests[%d].params.stream: not permitted in a batch", i))
			}
			it.problems = append(it.problems, checkAnthropicBody(rq.Params)...)
			s.problems = append(s.problems, it.problems...)
			b.items = append(b.items, it)
		}
		s.batches[b.id] = b
		s.creations++
		writeJSON(w, 200, s.anthropicBatch(b))
	case r.Method == http.MethodGet && strings.HasPrefix(path, "/v1/messages/batches/") && strings.HasSuffix(path, "/results"):
		b, ok := s.batches[strings.TrimSuffix(strings.TrimPrefix(path, "/v1/messages/batches/"), "/results")]
		if !ok || !b.ended {
			s.fail(w, 404, "results: no ended batch at "+path)
			return
		}
		w.Header().Set("Content-Type", "application/binary")
		w.Write(b.results)
	case r.Method == http.MethodGet && strings.HasPrefix(path, "/v1/messages/batches/"):
		b, ok := s.batches[strings.TrimPrefix(path, "/v1/messages/batches/")]
		if !ok {
			s.fail(w, 404, "no batch at "+path)
			return
		}
		s.polls++
		b.polls++
		need := s.ProgressPolls
		if need < 1 {
			need = 1
		}
		if !b.ended && !s.hold && b.polls > need {
			s.finish(b)
		}
		writeJSON(w, 200, s.anthropicBatch(b))
	default:
		s.fail(w, 404, fmt.Sprintf("unexpected %s %s", r.Method, path))
	}
}

func (s *BatchServer) anthropicBatch(b *standinBatch) map[string]any {
	ts := func(sec int64) string { return time.Unix(sec, 0).UTC().Format(time.RFC3339) }
	counts := map[string]any{"processing": len(b.items), "succeeded": 0, "errored": 0, "canceled": 0, "expired": 0}
	m := map[string]any{
		"id": b.id, "type": "message_batch", "processing_status": "in_progress", "request_counts": counts,
		"ended_at": nil, "created_at": ts(b.created), "expires_at": ts(b.created + 86400), "archived_at": nil,
		"cancel_initiated_at": nil, "results_url": nil,
	}
	if b.ended {
		counts["processing"] = 0
		for k, v := range b.counts {
			if k == "cancelled" {
				k = "canceled"
			}
			counts[k] = v
		}
		m["processing_status"] = "ended"
		m["ended_at"] = ts(b.completionTime)
		m["results_url"] = s.URL + "/v1/messages/batches/" + b.id + "/results"
		if b.cancelled {
			m["cancel_initiated_at"] = ts(b.completionTime)
		}
	}
	return m
}

// CustomIDs lists the custom ids of every batch created, sorted.
func (s *BatchServer) CustomIDs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ids []string
	for _, b := range s.batches {
		for _, it := range b.items {
			ids = append(ids, it.customID)
		}
	}
	sort.Strings(ids)
	return ids
}
