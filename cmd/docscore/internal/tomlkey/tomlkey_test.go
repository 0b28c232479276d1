package tomlkey

import (
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
)

func TestFind(t *testing.T) {
	x := ingest.NewLineIndex([]byte("written = 1\n[[model]]\nprovider = \"a\"\n[[ \"model\" ]]\n  input = 2\n[gpu]\nname = \"x\"\n"))
	headers := ArrayHeaders(&x, "model")
	if len(headers) != 2 || headers[0] != 2 || headers[1] != 4 {
		t.Fatalf("ArrayHeaders = %v", headers)
	}
	for _, tt := range []struct {
		key       toml.Key
		line, col int
	}{
		{toml.Key{"written"}, 1, 1},
		{toml.Key{"model", "input"}, 5, 3},
		{toml.Key{"model", "provider"}, 3, 1},
		{toml.Key{"gpu"}, 6, 1},
		{toml.Key{"gpu", "name"}, 7, 1},
		{toml.Key{"nothing"}, 0, 0},
	} {
		if l, c := Find(&x, headers, tt.key); l != tt.line || c != tt.col {
			t.Errorf("Find(%s) = %d:%d, want %d:%d", tt.key, l, c, tt.line, tt.col)
		}
	}
	if l, _ := InBlock(&x, headers, 0, "input"); l != 0 {
		t.Errorf("InBlock found block 2's key in block 1 at line %d", l)
	}
}

func TestRedact(t *testing.T) {
	for src, want := range map[string]string{
		`api_key = "sk-123"`:         `api_key = (value hidden)`,
		`  Token= "t"`:               `  Token= (value hidden)`,
		`api_key_env = "OPENAI_KEY"`: `api_key_env = "OPENAI_KEY"`,
		`model = "m"`:                `model = "m"`,
	} {
		e := &inputerr.Error{File: "p.toml", Line: 2, Column: 1, Msg: "x", Source: src}
		Redact(e)
		if e.Source != want {
			t.Errorf("Redact(%q) = %q, want %q", src, e.Source, want)
		}
	}
}
