package httpapi

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/api/registry"
)

// TestRoutesAreTheRegistrys checks the API's surface against the
// operation registry: every operation with a route is served at it, no
// other, and each takes as query parameters exactly the options the
// registry declares for it (the unknown parameter's message lists them).
func TestRoutesAreTheRegistrys(t *testing.T) {
	var want, got []string
	for _, o := range registry.Operations() {
		if o.Route != "" {
			want = append(want, o.Name+" "+o.Route)
		}
	}
	for _, o := range Operations() {
		got = append(got, o.Name+" "+o.Route)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("routes:\n%s\nregistry:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	h := New(Options{})
	for _, o := range registry.Operations() {
		if o.Route == "" {
			continue
		}
		w := do(h, "POST", o.Route+"?not_an_option=1", "application/json", []byte("{}"))
		var body struct {
			Error struct{ Message string } `json:"error"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
			t.Fatalf("%s: %v: %s", o.Route, err, w.Body)
		}
		expected := "no query parameters"
		if names := o.QueryNames(); len(names) > 0 {
			expected = strings.Join(names, ", ")
		}
		if msg := fmt.Sprintf("unknown query parameter %q (expected %s)", "not_an_option", expected); body.Error.Message != msg {
			t.Errorf("%s: %d %q, want %q", o.Route, w.Code, body.Error.Message, msg)
		}
	}
}
