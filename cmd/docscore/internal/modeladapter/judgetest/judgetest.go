// Package judgetest has local stand-ins for the provider APIs the judge
// adapters call: the OpenAI Responses API (POST /v1/responses) and the
// Anthropic Messages API (POST /v1/messages). They check each request's
// shape the way the providers would (auth header, model, instructions or
// system prompt, a JSON-schema output format, image and PDF parts), count
// requests and concurrent requests, and answer with scripted replies in the
// providers' recorded response formats: answers, malformed JSON, schema
// violations, 429 with retry-after, 500. Tests point the SDKs at them by
// base URL.
package judgetest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// Reply is one scripted answer.
type Reply struct {
	Status int
	Header map[string]string
	// Body is sent as is; use OpenAIAnswer, AnthropicAnswer or the error
	// helpers to make one in the provider's format.
	Body string
}

// Request is a request the server received.
type Request struct {
	Path   string
	Header http.Header
	Body   []byte
	// JSON is the decoded body.
	JSON map[string]any
}

// Server is a provider stand-in.
type Server struct {
	*httptest.Server
	provider string
	key      string

	mu       sync.Mutex
	requests []Request
	problems []string
	replies  []Reply
	// Answer makes the reply when no scripted reply is queued.
	Answer func(r Request) Reply
	// Delay holds every request this long (to observe concurrency).
	Delay       time.Duration
	inFlight    int
	maxInFlight int
}

// NewOpenAI starts an OpenAI Responses stand-in that accepts key. Point
// the adapter at URL() + "/v1/".
func NewOpenAI(key string) *Server {
	s := &Server{provider: "openai", key: key}
	s.Server = httptest.NewServer(http.HandlerFunc(s.handle))
	return s
}

// NewAnthropic starts an Anthropic Messages stand-in that accepts key.
// Point the adapter at URL().
func NewAnthropic(key string) *Server {
	s := &Server{provider: "anthropic", key: key}
	s.Server = httptest.NewServer(http.HandlerFunc(s.handle))
	return s
}

// BaseURL is the address to give the adapter.
func (s *Server) BaseURL() string {
	if s.provider == "openai" {
		return s.URL + "/v1/"
	}
	return s.URL + "/"
}

// Queue adds scripted replies, answered in order before Answer is used.
func (s *Server) Queue(r ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replies = append(s.replies, r...)
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Count is the number of requests received.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

// Problems lists every request-shape problem found (empty when every
// request looked like what the provider accepts).
func (s *Server) Problems() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.problems...)
}

// MaxInFlight is the most requests that were in progress at once.
func (s *Server) MaxInFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.maxInFlight
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := Request{Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
	json.Unmarshal(body, &req.JSON)
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.inFlight++
	if s.inFlight > s.maxInFlight {
		s.maxInFlight = s.inFlight
	}
	delay := s.Delay
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.inFlight--
		s.mu.Unlock()
	}()
	if delay > 0 {
		time.Sleep(delay)
	}
	var problems []string
	if s.provider == "openai" {
		problems = checkOpenAI(r, req, s.key)
	} else {
		problems = checkAnthropic(r, req, s.key)
	}
	if len(problems) > 0 {
		s.mu.Lock()
		s.problems = append(s.problems, problems...)
		s.mu.Unlock()
		status := http.StatusBadRequest
		if strings.Contains(problems[0], "auth") {
			status = http.StatusUnauthorized
		}
		s.write(w, Reply{Status: status, Body: s.errorBody("invalid_request_error", strings.Join(problems, "; "))})
		return
	}
	s.mu.Lock()
	var reply Reply
	if len(s.replies) > 0 {
		reply = s.replies[0]
		s.replies = s.replies[1:]
		s.mu.Unlock()
	} else {
		answer := s.Answer
		s.mu.Unlock()
		if answer == nil {
			reply = Reply{Status: 500, Body: s.errorBody("server_error", "no answer scripted")}
		} else {
			reply = answer(req)
		}
	}
	s.write(w, reply)
}

func (s *Server) write(w http.ResponseWriter, r Reply) {
	for k, v := range r.Header {
		w.Header().Set(k, v)
	}
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	if r.Status == 0 {
		r.Status = 200
	}
	w.WriteHeader(r.Status)
	io.WriteString(w, r.Body)
}

func (s *Server) errorBody(typ, msg string) string {
	if s.provider == "openai" {
		return OpenAIError(typ, msg)
	}
	return AnthropicError(typ, msg)
}

// RateLimited is a 429 with retry-after (seconds) in the provider's format.
func (s *Server) RateLimited(retryAfter string) Reply {
	return Reply{Status: 429, Header: map[string]string{"Retry-After": retryAfter}, Body: s.errorBody("rate_limit_error", "Rate limit reached; please try again later.")}
}

// ServerError is a 500 in the provider's format.
func (s *Server) ServerError() Reply {
	return Reply{Status: 500, Body: s.errorBody("server_error", "The server had an error while processing your request.")}
}

// Text answers with text as the model's output, with token counts.
func (s *Server) Text(text string, in, out int) Reply {
	if s.provider == "openai" {
		return Reply{Status: 200, Body: OpenAIAnswer(text, in, out)}
	}
	return Reply{Status: 200, Body: AnthropicAnswer(text, in, out)}
}

// OpenAIAnswer is a Responses API body whose output text is text.
func OpenAIAnswer(text string, in, out int) string {
	b, _ := json.Marshal(map[string]any{
		"id": "resp_0123456789abcdef", "object": "response", "created_at": 1767225600, "status": "completed",
		"error": nil, "incomplete_details": nil, "instructions": nil, "max_output_tokens": nil,
		"model": "stand-in-model-2026-01-01",
		"output": []any{map[string]any{
			"type": "message", "id": "msg_0123456789abcdef", "status": "completed", "role": "assistant",
			"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}, "logprobs": []any{}}},
		}},
		"parallel_tool_calls": true, "previous_response_id": nil,
		"reasoning": map[string]any{"effort": nil, "summary": nil},
		"store":     false, "temperature": 1.0, "tool_choice": "auto", "tools": []any{}, "top_p": 1.0,
		"truncation": "disabled",
		"text":       map[string]any{"format": map[string]any{"type": "json_schema"}},
		"usage": map[string]any{
			"input_tokens": in, "input_tokens_details": map[string]any{"cached_tokens": 0, "cache_write_tokens": 0},
			"output_tokens": out, "output_tokens_details": map[string]any{"reasoning_tokens": 0},
			"total_tokens": in + out,
		},
		"user": nil, "metadata": map[string]any{},
	})
	return string(b)
}

// AnthropicAnswer is a Messages API body whose text block is text.
func AnthropicAnswer(text string, in, out int) string {
	b, _ := json.Marshal(map[string]any{
		"id": "msg_01ABCDEFGHIJKLMNOPQRSTUV", "type": "message", "role": "assistant",
		"model":       "stand-in-model-2026-01-01",
		"content":     []any{map[string]any{"type": "text", "text": text}},
		"stop_reason": "end_turn", "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": in, "output_tokens": out, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
	})
	return string(b)
}

// OpenAIError is an OpenAI error body.
func OpenAIError(typ, msg string) string {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": nil}})
	return string(b)
}

// AnthropicError is an Anthropic error body.
func AnthropicError(typ, msg string) string {
	b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}, "request_id": "req_011CStandIn"})
	return string(b)
}

func checkOpenAI(r *http.Request, req Request, key string) []string {
	var p []string
	if r.Method != http.MethodPost || r.URL.Path != "/v1/responses" {
		return []string{fmt.Sprintf("unexpected %s %s (expected POST /v1/responses)", r.Method, r.URL.Path)}
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+key {
		return []string{"auth: expected Authorization: Bearer <key>"}
	}
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		p = append(p, "content-type is not application/json")
	}
	return append(p, checkOpenAIBody(req.JSON)...)
}

// checkOpenAIBody checks a Responses API request body.
func checkOpenAIBody(b map[string]any) []string {
	var p []string
	if b == nil {
		return append(p, "body is not a JSON object")
	}
	if s, _ := b["model"].(string); s == "" {
		p = append(p, "model: required")
	}
	if s, _ := b["instructions"].(string); s == "" {
		p = append(p, "instructions: required")
	}
	format, _ := dig(b, "text", "format").(map[string]any)
	if format == nil || format["type"] != "json_schema" || format["strict"] != true {
		p = append(p, "text.format: expected a strict json_schema format")
	} else {
		if name, _ := format["name"].(string); name == "" {
			p = append(p, "text.format.name: required")
		}
		if schema, _ := format["schema"].(map[string]any); schema == nil || schema["type"] != "object" || schema["additionalProperties"] != false {
			p = append(p, "text.format.schema: expected an object schema with additionalProperties false")
		}
	}
	input, _ := b["input"].([]any)
	if len(input) != 1 {
		return append(p, "input: expected one user message")
	}
	msg, _ := input[0].(map[string]any)
	if msg["role"] != "user" {
		p = append(p, "input[0].role: expected user")
	}
	parts, _ := msg["content"].([]any)
	if len(parts) == 0 {
		p = append(p, "input[0].content: expected content parts")
	}
	for i, part := range parts {
		m, _ := part.(map[string]any)
		switch m["type"] {
		case "input_text":
			if _, ok := m["text"].(string); !ok {
				p = append(p, fmt.Sprintf("content[%d].text: required", i))
			}
		case "input_image":
			u, _ := m["image_url"].(string)
			if !validDataURL(u, "image/") {
				p = append(p, fmt.Sprintf("content[%d].image_url: expected a base64 data URL of an image", i))
			}
			if d, _ := m["detail"].(string); d == "" {
				p = append(p, fmt.Sprintf("content[%d].detail: required", i))
			}
		case "input_file":
			u, _ := m["file_data"].(string)
			if !validDataURL(u, "application/pdf") {
				p = append(p, fmt.Sprintf("content[%d].file_data: expected a base64 data URL of a PDF", i))
			}
			if f, _ := m["filename"].(string); f == "" {
				p = append(p, fmt.Sprintf("content[%d].filename: required with file_data", i))
			}
		default:
			p = append(p, fmt.Sprintf("content[%d].type %v: unknown", i, m["type"]))
		}
	}
	return p
}

func checkAnthropic(r *http.Request, req Request, key string) []string {
	var p []string
	if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
		return []string{fmt.Sprintf("unexpected %s %s (expected POST /v1/messages)", r.Method, r.URL.Path)}
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+key && r.Header.Get("X-Api-Key") != key {
		return []string{"auth: expected Authorization: Bearer <key> or X-Api-Key"}
	}
	if r.Header.Get("Anthropic-Version") == "" {
		p = append(p, "anthropic-version header: required")
	}
	return append(p, checkAnthropicBody(req.JSON)...)
}

// checkAnthropicBody checks a Messages API request body (or a batch
// request's params).
func checkAnthropicBody(b map[string]any) []string {
	var p []string
	if b == nil {
		return append(p, "body is not a JSON object")
	}
	if s, _ := b["model"].(string); s == "" {
		p = append(p, "model: required")
	}
	if n, _ := b["max_tokens"].(float64); n < 1 {
		p = append(p, "max_tokens: required")
	}
	for _, k := range []string{"temperature", "top_p", "top_k"} {
		if _, ok := b[k]; ok {
			p = append(p, k+": Extra inputs are not permitted")
		}
	}
	sys, _ := b["system"].([]any)
	if len(sys) == 0 {
		p = append(p, "system: expected the instructions")
	}
	format, _ := dig(b, "output_config", "format").(map[string]any)
	if format == nil || format["type"] != "json_schema" {
		p = append(p, "output_config.format: expected json_schema")
	} else if schema, _ := format["schema"].(map[string]any); schema == nil || schema["type"] != "object" {
		p = append(p, "output_config.format.schema: expected an object schema")
	}
	msgs, _ := b["messages"].([]any)
	if len(msgs) != 1 {
		return append(p, "messages: expected one user message")
	}
	msg, _ := msgs[0].(map[string]any)
	if msg["role"] != "user" {
		p = append(p, "messages[0].role: expected user")
	}
	blocks, _ := msg["content"].([]any)
	if len(blocks) == 0 {
		p = append(p, "messages[0].content: expected blocks")
	}
	for i, bl := range blocks {
		m, _ := bl.(map[string]any)
		src, _ := m["source"].(map[string]any)
		switch m["type"] {
		case "text":
			if _, ok := m["text"].(string); !ok {
				p = append(p, fmt.Sprintf("content[%d].text: required", i))
			}
		case "image":
			mt, _ := src["media_type"].(string)
			data, _ := src["data"].(string)
			if src["type"] != "base64" || !strings.HasPrefix(mt, "image/") || !validBase64(data) {
				p = append(p, fmt.Sprintf("content[%d]: expected a base64 image source", i))
			}
		case "document":
			data, _ := src["data"].(string)
			if src["type"] != "base64" || src["media_type"] != "application/pdf" || !validBase64(data) {
				p = append(p, fmt.Sprintf("content[%d]: expected a base64 PDF source", i))
			}
		default:
			p = append(p, fmt.Sprintf("content[%d].type %v: unknown", i, m["type"]))
		}
	}
	return p
}

func dig(m map[string]any, keys ...string) any {
	var v any = m
	for _, k := range keys {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = mm[k]
	}
	return v
}

func validDataURL(u, mediaPrefix string) bool {
	rest, ok := strings.CutPrefix(u, "data:")
	if !ok {
		return false
	}
	mt, data, ok := strings.Cut(rest, ";base64,")
	return ok && strings.HasPrefix(mt, mediaPrefix) && validBase64(data)
}

func validBase64(s string) bool {
	if s == "" {
		return false
	}
	_, err := base64.StdEncoding.DecodeString(s)
	return err == nil
}

// UserText returns the text parts of a request's user message, joined:
// what the model was told besides the system instructions.
func (r Request) UserText() string {
	var parts []any
	if input, ok := r.JSON["input"].([]any); ok && len(input) > 0 {
		m, _ := input[0].(map[string]any)
		parts, _ = m["content"].([]any)
	} else if msgs, ok := r.JSON["messages"].([]any); ok && len(msgs) > 0 {
		m, _ := msgs[0].(map[string]any)
		parts, _ = m["content"].([]any)
	}
	var out []string
	for _, p := range parts {
		m, _ := p.(map[string]any)
		if t, ok := m["text"].(string); ok {
			out = append(out, t)
		}
	}
	return strings.Join(out, "\n")
}

// Task decodes the first text part (the task JSON) of a request.
func (r Request) Task() map[string]any {
	var parts []any
	if input, ok := r.JSON["input"].([]any); ok && len(input) > 0 {
		m, _ := input[0].(map[string]any)
		parts, _ = m["content"].([]any)
	} else if msgs, ok := r.JSON["messages"].([]any); ok && len(msgs) > 0 {
		m, _ := msgs[0].(map[string]any)
		parts, _ = m["content"].([]any)
	}
	if len(parts) == 0 {
		return nil
	}
	m, _ := parts[0].(map[string]any)
	t, _ := m["text"].(string)
	var task map[string]any
	json.Unmarshal([]byte(t), &task)
	return task
}
