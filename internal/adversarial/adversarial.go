// Package adversarial holds the hostile-request corpus of the HTTP API
// (httpapi/testdata/adversarial): each case is one request and the answer
// it must get, a small JSON file. Requests too big to commit are written
// by a generator here from a few numbers in the case ("generate"), so the
// corpus stays a few kilobytes while its bodies reach megabytes.
//
// The corpus is run against the native handler by httpapi's tests (make
// test) and against the Worker in workerd by wasm/worker's e2e suite.
package adversarial

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Case is one hostile request and what its answer must be.
type Case struct {
	// Name is the case file's name without ".json".
	Name string `json:"-"`
	// Issue is the issue point the case checks, such as "28.9".
	Issue string `json:"issue"`
	// Doc says in a line what the request does.
	Doc string `json:"doc"`
	// Method is the request's method, POST when empty.
	Method string `json:"method,omitempty"`
	// Target is the path and query, such as "/v1/score/tabular".
	Target string `json:"target"`
	// ContentType is the body's type, application/json when empty.
	ContentType string `json:"content_type,omitempty"`
	// Body is the request body as it is sent, when given.
	Body json.RawMessage `json:"body,omitempty"`
	// Generate, when given, writes the body (see Generator).
	Generate *Generator `json:"generate,omitempty"`
	// Status is the answer's status.
	Status int `json:"status"`
	// Code is the error body's code, for a status of 400 and over.
	Code string `json:"code,omitempty"`
	// Message is a part of the answer's body it must hold (the error's
	// message, for an error).
	Message string `json:"message,omitempty"`
	// MaxResponseBytes bounds the answer's body; zero means 64 KiB.
	MaxResponseBytes int `json:"max_response_bytes,omitempty"`
}

// DefaultMaxResponseBytes bounds an answer when a case names no bound.
const DefaultMaxResponseBytes = 64 << 10

// Limit is the case's bound on the answer's body.
func (c Case) Limit() int {
	if c.MaxResponseBytes > 0 {
		return c.MaxResponseBytes
	}
	return DefaultMaxResponseBytes
}

// Request returns the case's method, content type and body.
func (c Case) Request() (method, contentType string, body []byte, err error) {
	method, contentType = c.Method, c.ContentType
	if method == "" {
		method = "POST"
	}
	if contentType == "" {
		contentType = "application/json"
	}
	switch {
	case c.Generate != nil && c.Body != nil:
		return "", "", nil, fmt.Errorf("case %s: gives both body and generate (expected one)", c.Name)
	case c.Generate != nil:
		body, err = c.Generate.Body()
		if err != nil {
			return "", "", nil, fmt.Errorf("case %s: %w", c.Name, err)
		}
	default:
		body = c.Body
	}
	return method, contentType, body, nil
}

// Load reads every case of dir (its *.json files), in name order.
func Load(dir string) ([]Case, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var cases []Case
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		var c Case
		if err := dec.Decode(&c); err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		c.Name = strings.TrimSuffix(filepath.Base(p), ".json")
		if c.Target == "" || c.Status == 0 {
			return nil, fmt.Errorf("%s: a case needs a target and a status", p)
		}
		cases = append(cases, c)
	}
	if len(cases) == 0 {
		return nil, fmt.Errorf("%s: no cases", dir)
	}
	return cases, nil
}

// Check checks an answer against the case: its status, its error code
// (for a case that names one), the part of its message (of its body, for
// a case without a code) and its size. It says what is wrong, nil when
// nothing is.
func (c Case) Check(status int, body []byte) error {
	if len(body) > c.Limit() {
		return fmt.Errorf("answer of %d bytes, over the case's %d", len(body), c.Limit())
	}
	if status != c.Status {
		return fmt.Errorf("status %d, want %d: %.600s", status, c.Status, body)
	}
	text := string(body)
	if c.Code != "" {
		var e struct {
			Error struct {
				Code    string `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(body, &e); err != nil || e.Error.Code != c.Code {
			return fmt.Errorf("error code %q, want %q (%v): %.600s", e.Error.Code, c.Code, err, body)
		}
		text = e.Error.Message
	}
	if !strings.Contains(text, c.Message) {
		return fmt.Errorf("answer lacks %q: %.600s", c.Message, body)
	}
	return nil
}
