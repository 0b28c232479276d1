package httpapi

import (
	"bytes"
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/docscore/docscore/internal/adversarial"
)

// TestAdversarialCorpus sends every hostile request of
// testdata/adversarial to the handler with its default limits and checks
// its answer: the status, the error code, a part of the message, a bounded
// body, and an answer within the handler's deadline. The Worker's e2e
// suite (wasm/worker) sends the same corpus to workerd.
func TestAdversarialCorpus(t *testing.T) {
	cases, err := adversarial.Load("testdata/adversarial")
	if err != nil {
		t.Fatal(err)
	}
	h := New(Options{})
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			method, ct, body, err := c.Request()
			if err != nil {
				t.Fatal(err)
			}
			// A request still working after the deadline is cut off
			// here, so that a regression fails instead of hanging.
			ctx, cancel := context.WithTimeout(context.Background(), DefaultDeadline+5*time.Second)
			defer cancel()
			r := httptest.NewRequest(method, c.Target, bytes.NewReader(body)).WithContext(ctx)
			r.Header.Set("Content-Type", ct)
			w := httptest.NewRecorder()
			start := time.Now()
			h.ServeHTTP(w, r)
			took := time.Since(start)
			t.Logf("%s (issue %s): %d-byte body → %d, %d bytes in %v", c.Doc, c.Issue, len(body), w.Code, w.Body.Len(), took.Round(time.Millisecond))
			if err := c.Check(w.Code, w.Body.Bytes()); err != nil {
				t.Fatal(err)
			}
		})
	}
}
