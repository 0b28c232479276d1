package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for a server goroutine and a test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestServeAPI(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var stderr syncBuffer
	exit := make(chan int, 1)
	go func() {
		exit <- Main([]string{"serve", "--api", "--addr", "127.0.0.1:0"}, Env{Stdout: &stderr, Stderr: io.Discard, Context: ctx})
	}()
	addrRE := regexp.MustCompile(`http://(127\.0\.0\.1:\d+)`)
	var base string
	for deadline := time.Now().Add(10 * time.Second); base == ""; time.Sleep(10 * time.Millisecond) {
		if m := addrRE.FindStringSubmatch(stderr.String()); m != nil {
			base = "http://" + m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("the server did not say where it listens: %q", stderr.String())
		}
	}
	res, err := http.Get(base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), `"status": "ok"`) {
		t.Fatalf("healthz: %d %s", res.StatusCode, body)
	}
	// The bundled sample, through the real server, is the CLI's report.
	type file struct {
		Name string `json:"name"`
		Text string `json:"text"`
	}
	read := func(n string) file {
		b, err := os.ReadFile(filepath.Join("..", "..", "..", "..", n))
		if err != nil {
			t.Fatal(err)
		}
		return file{n, string(b)}
	}
	payload, err := json.Marshal(map[string]any{
		"gt":    []file{read("sample/tabular/gt/gt_page_27.csv"), read("sample/tabular/gt/gt_page_28.csv"), read("sample/tabular/gt/gt_page_29.csv")},
		"runs":  read("sample/tabular/runs.jsonl"),
		"rules": read("sample/tabular/EQUIVALENCES.md"),
	})
	if err != nil {
		t.Fatal(err)
	}
	req := string(payload)
	res, err = http.Post(base+"/v1/score/tabular", "application/json", strings.NewReader(req))
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(res.Body)
	res.Body.Close()
	code, want, _ := run(t, "score", "tabular", "--sample", "--format", "json")
	if res.StatusCode != 200 || code != 0 || string(body) != want {
		t.Fatalf("served report (status %d) differs from the command's (exit %d)", res.StatusCode, code)
	}
	cancel()
	select {
	case code := <-exit:
		if code != 0 {
			t.Fatalf("serve exited %d: %s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop when its context was cancelled")
	}
}

func TestServeAPIErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"serve", "--api", "--addr", "nonsense"}, ExitInput, "--addr nonsense"},
		{[]string{"serve", "--api", "--dir", "x"}, ExitInput, "--api serves the API alone"},
	} {
		code, _, stderr := run(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.msg) {
			t.Errorf("docscore %s: exit %d, stderr %q", strings.Join(c.args, " "), code, stderr)
		}
	}
}
