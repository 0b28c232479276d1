package modeladapter

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// MaxAnswerBytes caps what is read of one judge answer: a judge command's
// standard output, a provider's response body. A judge's answer is a few
// kilobytes of JSON; a judge that prints forever (a command such as
// "yes", a provider streaming a huge body) reached 2 GB in 12 s before
// the call's deadline stopped it.
const MaxAnswerBytes = 16 << 20

// MaxBatchFileBytes caps a batch result file (OpenAI's output and error
// files): one answer line per request of a batch.
const MaxBatchFileBytes = 1 << 30

// ErrAnswerTooLarge is the error of an answer over its cap.
var ErrAnswerTooLarge = errors.New("answer too large")

// batchFileKey marks a request's context as a batch file download, read
// under MaxBatchFileBytes.
type batchFileKey struct{}

// withBatchFile marks ctx for a batch file download.
func withBatchFile(ctx context.Context) context.Context {
	return context.WithValue(ctx, batchFileKey{}, true)
}

// cappedTransport caps every response body read through it.
type cappedTransport struct{ next http.RoundTripper }

func (t cappedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(r)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	limit := int64(MaxAnswerBytes)
	if r.Context().Value(batchFileKey{}) != nil {
		limit = MaxBatchFileBytes
	}
	resp.Body = &cappedBody{ReadCloser: resp.Body, left: limit, limit: limit, host: r.URL.Host}
	return resp, nil
}

// cappedClient is c with every response body capped (MaxAnswerBytes).
func cappedClient(c *http.Client) *http.Client {
	if _, ok := c.Transport.(cappedTransport); ok {
		return c
	}
	next := c.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	cc := *c
	cc.Transport = cappedTransport{next: next}
	return &cc
}

// cappedBody is a response body that fails once more than limit bytes
// are read from it.
type cappedBody struct {
	io.ReadCloser
	left, limit int64
	host        string
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// One byte more tells a body of exactly limit bytes from a
		// longer one.
		var one [1]byte
		if n, _ := b.ReadCloser.Read(one[:]); n == 0 {
			return 0, io.EOF
		}
		return 0, fmt.Errorf("response from %s: over %d MiB: %w", b.host, b.limit>>20, ErrAnswerTooLarge)
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	return n, err
}

// cappedWriter keeps up to max bytes written to it; past them it calls
// over (which stops the writer's source) and fails.
type cappedWriter struct {
	buf  []byte
	max  int
	over func()
	hit  bool
}

func (w *cappedWriter) Write(p []byte) (int, error) {
	if len(w.buf)+len(p) > w.max {
		if !w.hit {
			w.hit = true
			w.over()
		}
		return 0, ErrAnswerTooLarge
	}
	w.buf = append(w.buf, p...)
	return len(p), nil
}
