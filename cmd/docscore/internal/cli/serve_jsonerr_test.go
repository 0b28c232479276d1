package cli

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/docscore/docscore/httpapi"
)

// TestServerOwnErrorsAreJSON sends requests net/http answers itself,
// before the API's handler runs, and checks that "docscore serve" answers
// them in the API's JSON error shape: a malformed header (a plain-text
// 400), headers that never finish within the header timeout (closed
// without an answer), and a well-formed request, answered by the handler
// as before.
func TestServerOwnErrorsAreJSON(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(httpapi.New(httpapi.Options{}), 2*time.Second)
	srv.ReadHeaderTimeout = 300 * time.Millisecond
	go srv.Serve(jsonErrorListener{ln})
	defer srv.Close()
	for _, tc := range []struct {
		name, send string
		pause      time.Duration
		status     int
		code       string
	}{
		{"malformed header", "GET /healthz HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n", 0, 400, "bad_request"},
		{"slow headers", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: a", 600 * time.Millisecond, 408, "timeout"},
		{"a request", "GET /v1/nothing HTTP/1.1\r\nHost: x\r\n\r\n", 0, 404, "not_found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			io.WriteString(c, tc.send)
			time.Sleep(tc.pause)
			if tc.pause > 0 {
				io.WriteString(c, "bc\r\n\r\n") // too late
			}
			c.SetReadDeadline(time.Now().Add(5 * time.Second))
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Fatalf("no answer: %v", err)
			}
			defer resp.Body.Close()
			var e httpapi.ErrorBody
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") ||
				json.Unmarshal(body, &e) != nil || e.Error.Code != tc.code {
				t.Fatalf("status %d, %s: %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
			}
		})
	}
}
