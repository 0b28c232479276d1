package modeladapter

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestProviderBodyIsCapped checks that a provider answering with a body
// that never ends is read no further than MaxAnswerBytes: the call fails
// with ErrAnswerTooLarge instead of reading gigabytes until its deadline.
func TestProviderBodyIsCapped(t *testing.T) {
	var sent int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		chunk := bytes.Repeat([]byte(" "), 64<<10)
		for sent < 64<<20 { // four times the cap, then the test's server gives up
			n, err := w.Write(chunk)
			sent += int64(n)
			if err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			sent = 0
			base := srv.URL + "/"
			if p.name == "openai" {
				base = srv.URL + "/v1/"
			}
			a, err := p.make(Config{Model: "m", APIKey: testKey, BaseURL: base, Policy: Policy{Timeout: time.Minute}})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			_, err = a.Call(context.Background(), textRequest())
			if !errors.Is(err, ErrAnswerTooLarge) && (err == nil || !strings.Contains(err.Error(), "over 16 MiB")) {
				t.Fatalf("error %v, want the answer cap", err)
			}
			if sent > 48<<20 {
				t.Errorf("the server wrote %d MiB before the client gave up", sent>>20)
			}
			t.Logf("%s: refused after %v: %v", p.name, time.Since(start).Round(time.Millisecond), err)
		})
	}
}

// TestCappedBody checks the reader at its edge: a body of exactly the cap
// is read whole, one byte more fails.
func TestCappedBody(t *testing.T) {
	for _, tc := range []struct {
		size int
		ok   bool
	}{{10, true}, {11, false}, {0, true}} {
		b := &cappedBody{ReadCloser: io.NopCloser(strings.NewReader(strings.Repeat("x", tc.size))), left: 10, limit: 10, host: "h"}
		got, err := io.ReadAll(b)
		if tc.ok != (err == nil) || tc.ok && len(got) != tc.size {
			t.Errorf("size %d: %d bytes, error %v", tc.size, len(got), err)
		}
	}
}
