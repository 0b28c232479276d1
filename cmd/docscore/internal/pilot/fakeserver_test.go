package pilot

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// behaviour is how the fake server answers one request.
type behaviour string

const (
	answerOK       behaviour = "ok"        // 200, finish_reason stop, usage
	answerSlow     behaviour = "slow"      // waits until the client gives up
	answer500      behaviour = "500"       // HTTP 500 with an OpenAI error body
	answer429      behaviour = "429"       // HTTP 429 with an OpenAI error body
	answerLength   behaviour = "length"    // 200, finish_reason length (truncated)
	answerEmpty    behaviour = "empty"     // 200, content ""
	answerNull     behaviour = "null"      // 200, content null
	answerDrop     behaviour = "drop"      // the connection is closed without an answer
	answerNotChat  behaviour = "notchat"   // 200 with a body that is not a chat completion
	answerHalfBody behaviour = "half-body" // 200, then the connection closes mid-body
)

// fakeImage is the image bytes of a test sample: a PNG signature and the
// sample's name, which the fake server reads back to choose its answer.
func fakeImage(name string) []byte {
	return append([]byte("\x89PNG\r\n\x1a\n"), []byte(name)...)
}

// fakeServer speaks the OpenAI chat completions wire format. For every
// request it decodes the image, takes the sample name out of it and asks
// behave how to answer (call counts that sample's requests from 0). It
// measures the requests in flight and checks each request's shape.
type fakeServer struct {
	t   testing.TB
	srv *httptest.Server

	behave func(sample string, call int) behaviour
	delay  time.Duration // added to every normal answer
	slow   atomic.Int64  // when set (nanoseconds), replaces delay
	hang   atomic.Bool   // when set, every request waits like answerSlow

	mu       sync.Mutex
	calls    map[string]int
	bodies   []map[string]any
	headers  []http.Header
	problems []string
	log      *os.File // when set, events are appended to it

	inflight, maxInflight atomic.Int64
	served                atomic.Int64 // requests received
	hanging               atomic.Int64 // requests waiting now as answerSlow
	ready                 func() bool  // /health answers 200 once it is true
}

func newFakeServer(t testing.TB, behave func(sample string, call int) behaviour) *fakeServer {
	f := &fakeServer{t: t, behave: behave, calls: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", f.chat)
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, r *http.Request) {
		ok := f.ready == nil || f.ready()
		if ok {
			f.event("health 200")
			w.WriteHeader(http.StatusOK)
			return
		}
		f.event("health 503")
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeServer) baseURL() string { return f.srv.URL + "/v1" }

// resetMax starts a new measurement of the maximum in flight.
func (f *fakeServer) resetMax() { f.maxInflight.Store(f.inflight.Load()) }

func (f *fakeServer) event(s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.log != nil {
		fmt.Fprintln(f.log, s)
	}
}

func (f *fakeServer) problem(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.problems = append(f.problems, fmt.Sprintf(format, args...))
}

func (f *fakeServer) chat(w http.ResponseWriter, r *http.Request) {
	n := f.inflight.Add(1)
	defer f.inflight.Add(-1)
	for {
		m := f.maxInflight.Load()
		if n <= m || f.maxInflight.CompareAndSwap(m, n) {
			break
		}
	}
	f.served.Add(1)
	f.event("request")
	var body map[string]any
	data, err := readAllLimit(r.Body, 64<<20)
	if err != nil || json.Unmarshal(data, &body) != nil {
		f.problem("request body is not JSON: %v", err)
		http.Error(w, `{"error":{"message":"bad json"}}`, http.StatusBadRequest)
		return
	}
	sample, perr := imageSample(body)
	if perr != nil {
		f.problem("%v", perr)
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	call := f.calls[sample]
	f.calls[sample]++
	f.bodies = append(f.bodies, body)
	f.headers = append(f.headers, r.Header.Clone())
	f.mu.Unlock()

	b := answerOK
	if f.behave != nil {
		b = f.behave(sample, call)
	}
	if f.hang.Load() {
		b = answerSlow
	}
	switch b {
	case answerSlow:
		f.hanging.Add(1)
		defer f.hanging.Add(-1)
		select {
		case <-r.Context().Done():
		case <-time.After(30 * time.Second):
		}
		return
	case answer500:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprint(w, `{"error":{"message":"boom: the engine crashed","type":"server_error"}}`)
		return
	case answer429:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, `{"error":{"message":"rate limited","type":"rate_limit"}}`)
		return
	case answerDrop:
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
		return
	case answerNotChat:
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html>gateway says hello</html>")
		return
	case answerHalfBody:
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err == nil {
			fmt.Fprint(buf, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"choices\":[{\"mess")
			buf.Flush()
			conn.Close()
		}
		return
	}
	delay := f.delay
	if d := f.slow.Load(); d > 0 {
		delay = time.Duration(d)
	}
	if delay > 0 {
		select {
		case <-r.Context().Done():
			return
		case <-time.After(delay):
		}
	}
	content := any("TOTAL " + sample)
	finish := "stop"
	switch b {
	case answerLength:
		content, finish = "TOTAL "+sample+" and then the answer was cut", "length"
	case answerEmpty:
		content = ""
	case answerNull:
		content = nil
	}
	resp := map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "model": body["model"],
		"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": content}, "finish_reason": finish}},
		"usage":   map[string]any{"prompt_tokens": 12, "completion_tokens": 3, "total_tokens": 15},
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(resp)
}

// imageSample checks the request's content parts and returns the sample
// name inside its image.
func imageSample(body map[string]any) (string, error) {
	msgs, _ := body["messages"].([]any)
	if len(msgs) != 1 {
		return "", fmt.Errorf("expected one message, got %v", body["messages"])
	}
	msg, _ := msgs[0].(map[string]any)
	parts, _ := msg["content"].([]any)
	if msg["role"] != "user" || len(parts) == 0 {
		return "", fmt.Errorf("expected a user message with content parts, got %v", msg)
	}
	last, _ := parts[len(parts)-1].(map[string]any)
	iu, _ := last["image_url"].(map[string]any)
	u, _ := iu["url"].(string)
	if last["type"] != "image_url" || !strings.HasPrefix(u, "data:image/png;base64,") {
		return "", fmt.Errorf("expected the last part to be an image_url with a PNG data URL, got %.80v", last)
	}
	img, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(u, "data:image/png;base64,"))
	if err != nil {
		return "", fmt.Errorf("image data URL: %v", err)
	}
	name, ok := bytes.CutPrefix(img, []byte("\x89PNG\r\n\x1a\n"))
	if !ok {
		return "", fmt.Errorf("image does not start with the PNG signature")
	}
	return string(name), nil
}

// writeFakeImages writes one fake image per name into a new directory.
func writeFakeImages(t testing.TB, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n+".png"), fakeImage(n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// sampleNames returns s00, s01, … s<n-1>.
func sampleNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("s%02d", i)
	}
	return out
}
