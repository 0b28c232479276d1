package receipts_test

import (
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/receipts"
)

// TestIncompleteErrorAllow: the refusal names no host's switch unless the
// host sets Allow, and then names exactly that one.
func TestIncompleteErrorAllow(t *testing.T) {
	tests := []struct {
		allow, want string
	}{
		{"", "refusing a complete-run summary\n"},
		{"--allow-incomplete", "refusing a complete-run summary (--allow-incomplete scores what is there and labels the report incomplete)\n"},
		{"allow_incomplete: true", "(allow_incomplete: true scores what is there"},
	}
	for _, tt := range tests {
		e := &receipts.IncompleteError{File: "run.jsonl", RunID: "r", Planned: 2, Missing: []receipts.Pair{{Phase: "c1", SampleID: "a"}}, Allow: tt.allow}
		msg := e.Error()
		if !strings.Contains(msg, tt.want) {
			t.Errorf("Allow %q: %q does not hold %q", tt.allow, msg, tt.want)
		}
		if tt.allow == "" && strings.Contains(msg, "allow") {
			t.Errorf("Allow empty: %q names a switch", msg)
		}
	}
}
