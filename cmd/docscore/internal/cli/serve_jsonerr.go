package cli

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/docscore/docscore/httpapi"
	core "github.com/docscore/docscore/scoring/api"
)

// netHTTPErrorHeaders are the headers net/http writes with the plain-text
// errors it answers itself, before any handler runs: a request line or
// header it cannot parse (400), headers over their limit (431), a
// transfer coding it does not know (501).
const netHTTPErrorHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

// jsonErrorListener hands out connections that turn net/http's own
// plain-text error answers into the API's JSON error body, so that every
// answer of "docscore serve" is JSON, even to a request the server could
// not read (malformed headers, or headers too slow to arrive).
type jsonErrorListener struct{ net.Listener }

func (l jsonErrorListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &jsonErrorConn{Conn: c}, nil
}

// jsonErrorConn rewrites a write that is exactly one of net/http's own
// error answers: a status line, netHTTPErrorHeaders and a text. A
// handler's answer always carries more headers (Date, Content-Length), so
// it is never taken for one. It also answers a request whose headers did
// not arrive in time, which net/http closes without a word: a read timed
// out with bytes of a request read and nothing answered is a JSON 408 as
// the connection closes.
type jsonErrorConn struct {
	net.Conn
	mu       sync.Mutex
	pending  int  // bytes read since the last answer
	timedOut bool // a read timed out with bytes pending
}

func (c *jsonErrorConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.mu.Lock()
	c.pending += n
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() && c.pending > 0 {
		c.timedOut = true
	}
	c.mu.Unlock()
	return n, err
}

func (c *jsonErrorConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	c.pending, c.timedOut = 0, false
	c.mu.Unlock()
	if b, ok := jsonError(p); ok {
		if _, err := c.Conn.Write(b); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return c.Conn.Write(p)
}

func (c *jsonErrorConn) Close() error {
	c.mu.Lock()
	late := c.timedOut
	c.timedOut = false
	c.mu.Unlock()
	if late {
		c.Conn.SetWriteDeadline(time.Now().Add(time.Second))
		c.Conn.Write(errorAnswer(http.StatusRequestTimeout, "timeout",
			fmt.Sprintf("the request's headers did not arrive within the server's %s", serveReadHeaderTimeout)))
	}
	return c.Conn.Close()
}

// jsonError rewrites one of net/http's own error answers as the API's
// JSON error; ok is false for anything else.
func jsonError(p []byte) (out []byte, ok bool) {
	const proto = "HTTP/1.1 "
	head, text, found := bytes.Cut(p, []byte(netHTTPErrorHeaders))
	if !found || !bytes.HasPrefix(head, []byte(proto)) || bytes.Contains(head, []byte("\r\n")) {
		return nil, false
	}
	status, err := strconv.Atoi(string(head[len(proto):min(len(head), len(proto)+3)]))
	if err != nil || status < 400 || status > 599 {
		return nil, false
	}
	code := map[int]string{http.StatusBadRequest: "bad_request", http.StatusRequestHeaderFieldsTooLarge: "too_large"}[status]
	if code == "" {
		code = strings.ReplaceAll(strings.ToLower(http.StatusText(status)), " ", "_")
	}
	return errorAnswer(status, code, fmt.Sprintf("the request could not be read (%s): expected an HTTP/1.1 request", strings.TrimSpace(string(text)))), true
}

// errorAnswer is a whole HTTP answer of status with the API's JSON error
// body, closing the connection.
func errorAnswer(status int, code, msg string) []byte {
	body, err := core.MarshalJSON(httpapi.ErrorBody{Error: httpapi.ErrorDetail{Code: code, Message: msg}})
	if err != nil { // cannot happen: the body holds strings
		body = []byte(`{"error": {"code": "internal", "message": "encoding the error", "file": null, "line": null}}` + "\n")
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "HTTP/1.1 %d %s\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n", status, http.StatusText(status), len(body))
	b.Write(body)
	return b.Bytes()
}
