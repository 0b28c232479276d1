package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	core "github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/tabular/tabulartest"
)

// anagramBody is a tabular request of n ground-truth rows against n
// records whose names are anagrams: n×n name pairs compared the slow way
// (n = 10,000: about 450 KB of JSON, 10⁸ pairs).
func anagramBody(t testing.TB, n int) []byte {
	t.Helper()
	gt, runs := tabulartest.Anagrams(n)
	return mustJSON(t, core.TabularRequest{
		GT:   []core.File{{Name: gt.Name, Text: string(gt.Data)}},
		Runs: core.File{Name: runs.Name, Text: string(runs.Data)},
	})
}

// postJSON sends a JSON body to a test server and returns the status and
// the decoded error body.
func postJSON(t *testing.T, ctx context.Context, url string, body []byte) (int, ErrorBody, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, ErrorBody{}, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var e ErrorBody
	if resp.StatusCode >= 400 {
		if err := json.Unmarshal(b, &e); err != nil {
			t.Fatalf("status %d with a body that is not a JSON error: %v: %s", resp.StatusCode, err, b)
		}
	}
	return resp.StatusCode, e, nil
}

// TestWorkLimit: the anagram body, 10⁸ pairs, is refused 422
// "too_much_work" once it passes the cap, with a message that sends it to
// the command line; the work done stays at the cap.
func TestWorkLimit(t *testing.T) {
	body := anagramBody(t, 10_000)
	tests := []struct {
		name     string
		maxPairs int64 // 0: the default
		wantWork int64
	}{
		{"default cap", 0, DefaultMaxPairs + 1},
		{"small cap", 50_000, 50_001},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var work atomic.Int64
			srv := httptest.NewServer(New(Options{MaxPairs: tt.maxPairs, Work: &work}))
			defer srv.Close()
			status, e, err := postJSON(t, context.Background(), srv.URL+"/v1/score/tabular", body)
			if err != nil {
				t.Fatal(err)
			}
			if status != http.StatusUnprocessableEntity || e.Error.Code != "too_much_work" {
				t.Fatalf("status %d, code %q (%s): want 422 too_much_work", status, e.Error.Code, e.Error.Message)
			}
			if !strings.Contains(e.Error.Message, "command line") || !strings.Contains(e.Error.Message, "name pairs") {
				t.Errorf("message %q: want the limit and the command line named", e.Error.Message)
			}
			if got := work.Load(); got != tt.wantWork {
				t.Errorf("work = %d pairs, want %d (the cap and the pair over it)", got, tt.wantWork)
			}
		})
	}
}

// TestNoCapScoresSample: a negative MaxPairs lifts the cap, and the
// sample scores the same under the default cap as without one.
func TestNoCapScoresSample(t *testing.T) {
	body := mustJSON(t, sampleRequest(t, true))
	var want []byte
	for _, max := range []int64{0, -1} {
		w := do(New(Options{MaxPairs: max}), "POST", "/v1/score/tabular", "application/json", body)
		if w.Code != http.StatusOK {
			t.Fatalf("MaxPairs %d: status %d: %s", max, w.Code, w.Body)
		}
		if want == nil {
			want = w.Body.Bytes()
		} else if !bytes.Equal(w.Body.Bytes(), want) {
			t.Error("the report without a cap differs")
		}
	}
}

// TestClientGoneStopsWork: a client that gives up stops the scoring: the
// handler returns and the pairs compared stop growing far short of the
// 10⁸ the request holds. The work is measured by the pairs counter.
func TestClientGoneStopsWork(t *testing.T) {
	body := anagramBody(t, 10_000)
	var work atomic.Int64
	returned := make(chan struct{})
	h := New(Options{MaxPairs: -1, Deadline: -1, Work: &work})
	// A plain server: closing it at the end does not wait for a handler
	// that never stops (httptest's would hang the failing test).
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer close(returned)
		h.ServeHTTP(w, r)
	})}
	go srv.Serve(ln)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for work.Load() < 10_000 { // the scoring has started
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	if _, _, err := postJSON(t, ctx, "http://"+ln.Addr().String()+"/v1/score/tabular", body); !errors.Is(err, context.Canceled) {
		t.Fatalf("the client's request: %v, want it cancelled", err)
	}
	atCancel := work.Load()
	select {
	case <-returned:
	case <-time.After(time.Minute): // the whole job: minutes
		t.Fatalf("the handler still works after the client left: %d pairs", work.Load())
	}
	stopped := work.Load()
	if stopped >= 10_000*10_000/10 {
		t.Errorf("%d pairs compared (of 10⁸): the work went on after the client left (at %d)", stopped, atCancel)
	}
	t.Logf("pairs compared: %d when the client left, %d when the handler returned", atCancel, stopped)
}

// TestDeadline: work past Options.Deadline stops and is answered 503
// "timeout".
func TestDeadline(t *testing.T) {
	var work atomic.Int64
	h := New(Options{MaxPairs: -1, Deadline: time.Nanosecond, Work: &work})
	w := do(h, "POST", "/v1/score/tabular", "application/json", anagramBody(t, 1000))
	var e ErrorBody
	if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || w.Code != http.StatusServiceUnavailable || e.Error.Code != "timeout" {
		t.Fatalf("status %d: %s: want 503 timeout", w.Code, w.Body)
	}
	if work.Load() > 2048 {
		t.Errorf("%d pairs compared past the deadline", work.Load())
	}
}
