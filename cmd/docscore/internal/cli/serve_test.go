package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/docscore/docscore/cmd/docscore/internal/webui"
)

func TestServeMux(t *testing.T) {
	site := fstest.MapFS{
		"index.html":                {Data: []byte("<!doctype html><title>docscore</title>")},
		"assets/main.0123abcd.js":   {Data: []byte("export const x = 1;")},
		"assets/core.0123abcd.wasm": {Data: []byte("\x00asm\x01\x00\x00\x00")},
	}
	srv := httptest.NewServer(newServeMux(serveOptions{site: site}))
	defer srv.Close()
	for _, c := range []struct {
		path, status, contentType, cache string
	}{
		{"/", "200 OK", "text/html; charset=utf-8", "no-cache"},
		{"/assets/main.0123abcd.js", "200 OK", "text/javascript; charset=utf-8", "public, max-age=31536000, immutable"},
		{"/assets/core.0123abcd.wasm", "200 OK", "application/wasm", "public, max-age=31536000, immutable"},
		{"/assets/missing.js", "404 Not Found", "", ""},
	} {
		resp, err := http.Get(srv.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.Status != c.status || resp.Header.Get("Content-Security-Policy") != webui.CSP {
			t.Errorf("%s: %s, CSP %q", c.path, resp.Status, resp.Header.Get("Content-Security-Policy"))
		}
		if c.contentType != "" && (resp.Header.Get("Content-Type") != c.contentType || resp.Header.Get("Cache-Control") != c.cache) {
			t.Errorf("%s: Content-Type %q Cache-Control %q, want %q %q", c.path, resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"), c.contentType, c.cache)
		}
	}
	if !strings.Contains(webui.CSP, "default-src 'self'") || !strings.Contains(webui.CSP, "'wasm-unsafe-eval'") {
		t.Errorf("CSP %q", webui.CSP)
	}
}

// TestServeCommand runs "docscore serve" on a free port, fetches the page
// at the printed URL and stops it through its context.
func TestServeCommand(t *testing.T) {
	dir := writeFiles(t, map[string]string{"index.html": "<!doctype html><title>served</title>"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- Main([]string{"serve", "--addr", "127.0.0.1:0", "--dir", dir}, Env{Stdout: pw, Stderr: io.Discard, Context: ctx})
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr)
	const lead = "docscore: serving the site at "
	if !strings.HasPrefix(line, lead) {
		t.Fatalf("serve printed %q", line)
	}
	url := strings.Fields(strings.TrimPrefix(line, lead))[0]
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "<title>served</title>") {
		t.Fatalf("GET %s: %s", url, body)
	}
	cancel()
	select {
	case code := <-done:
		if code != ExitOK {
			t.Fatalf("serve exited %d after its context ended", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
}

func TestServeErrors(t *testing.T) {
	code, _, stderr := run(t, "serve", "--addr", "127.0.0.1:0", "--dir", t.TempDir())
	if code != ExitInput || !strings.Contains(stderr, "no index.html") {
		t.Errorf("--dir without a site: exit %d, %q", code, stderr)
	}
	code, _, stderr = run(t, "serve", "--addr", "256.0.0.1:99999", "--dir", writeFiles(t, map[string]string{"index.html": "x"}))
	if code != ExitInput || !strings.Contains(stderr, "--addr") {
		t.Errorf("bad --addr: exit %d, %q", code, stderr)
	}
	// A bad address is reported before a missing site (it used to be the
	// other way round: "no index.html", or the embedded site's absence).
	for _, args := range [][]string{{"--dir", t.TempDir()}, nil} {
		code, _, stderr = run(t, append([]string{"serve", "--addr", "nonsense"}, args...)...)
		if code != ExitInput || !strings.Contains(stderr, "--addr nonsense") || !strings.Contains(stderr, "HOST:PORT") {
			t.Errorf("serve --addr nonsense %v: exit %d, %q", args, code, stderr)
		}
	}
	// Without --dir the embedded site is served; a binary compiled before
	// "make site" has none and says how to get one.
	if _, err := webui.Embedded(); errors.Is(err, webui.ErrNotBuilt) {
		code, _, stderr = run(t, "serve", "--addr", "127.0.0.1:0")
		if code != ExitFailure || !strings.Contains(stderr, "make build") {
			t.Errorf("no embedded site: exit %d, %q", code, stderr)
		}
	} else if err != nil {
		t.Fatal(err)
	} else {
		site, _ := webui.Embedded()
		wasm, err := fs.Glob(site, "assets/docscore.*.wasm")
		if err != nil || len(wasm) != 1 {
			t.Errorf("the embedded site has no docscore.wasm: %v %v", wasm, err)
		}
	}
}

// TestServeMuxHasTheAPI checks that the site server also answers the API
// routes, as one Worker deploy serves the page and the API.
func TestServeMuxHasTheAPI(t *testing.T) {
	site := fstest.MapFS{"index.html": {Data: []byte("<!doctype html><title>docscore</title>")}}
	srv := httptest.NewServer(newServeMux(serveOptions{site: site}))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"ok"`) {
		t.Fatalf("/healthz beside the site: %d %s", resp.StatusCode, body)
	}
	resp, err = http.Get(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "<title>docscore</title>") {
		t.Fatalf("/: %s", body)
	}
}

// TestServeReadTimeout: a body trickled slower than the server's read
// timeout is answered 408 "timeout" instead of being waited for. The
// timeout is made small; the client's own wait only guards the test.
func TestServeReadTimeout(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(newServeMux(serveOptions{}), 300*time.Millisecond)
	go srv.Serve(ln)
	defer srv.Close()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /v1/score/tabular HTTP/1.1\r\nHost: docscore\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{")
	stop := make(chan struct{})
	defer close(stop)
	go func() { // 10 bytes every 50 ms: 100,000 bytes would take minutes
		for {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
				if _, err := conn.Write([]byte(`          `)); err != nil {
					return
				}
			}
		}
	}()
	conn.SetReadDeadline(time.Now().Add(time.Minute))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a trickled body: %v", err)
	}
	defer resp.Body.Close()
	var e struct {
		Error struct{ Code, Message string }
	}
	body, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(body, &e); err != nil || resp.StatusCode != http.StatusRequestTimeout || e.Error.Code != "timeout" {
		t.Fatalf("status %d: %s: want 408 timeout", resp.StatusCode, body)
	}
}
