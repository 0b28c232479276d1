package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseThresholds(t *testing.T) {
	tests := []struct {
		in      string
		want    Thresholds
		wantErr string
	}{
		{"", Thresholds{}, ""},
		{"f1=0.9", Thresholds{"f1": 0.9}, ""},
		{" f1 = 0.9 , title=0.8", Thresholds{"f1": 0.9, "title": 0.8}, ""},
		{"f1", nil, "not metric=value"},
		{"f1=abc", nil, "between 0 and 1"},
		{"f1=1.5", nil, "between 0 and 1"},
		{"=0.5", nil, "not metric=value"},
	}
	for _, tt := range tests {
		got, err := parseThresholds(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("parseThresholds(%q) error = %v, want %q", tt.in, err, tt.wantErr)
			}
			if exitCode(err) != ExitInput {
				t.Errorf("parseThresholds(%q) exit code = %d, want %d", tt.in, exitCode(err), ExitInput)
			}
			continue
		}
		if err != nil || len(got) != len(tt.want) {
			t.Fatalf("parseThresholds(%q) = %v, %v", tt.in, got, err)
		}
		for k, v := range tt.want {
			if got[k] != v {
				t.Errorf("parseThresholds(%q)[%s] = %v, want %v", tt.in, k, got[k], v)
			}
		}
	}
}

func TestWriteOutput(t *testing.T) {
	var stdout bytes.Buffer
	env := &Env{Stdout: &stdout}
	if err := writeOutput(env, "--out", "", []byte("x")); err != nil || stdout.String() != "x" {
		t.Fatalf("stdout write: %v %q", err, stdout.String())
	}
	path := filepath.Join(t.TempDir(), "r.json")
	if err := writeOutput(env, "--out", path, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "{}" {
		t.Fatalf("file holds %q", b)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
}

func TestUnknownCommandIsInputError(t *testing.T) {
	var out, errb bytes.Buffer
	code := Main([]string{"no-such-command"}, Env{Stdout: &out, Stderr: &errb})
	if code != ExitInput {
		t.Fatalf("exit = %d, want %d; stderr %q", code, ExitInput, errb.String())
	}
}
