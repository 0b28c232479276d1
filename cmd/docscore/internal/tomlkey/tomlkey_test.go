package tomlkey

import (
	"strings"
	"testing"

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
		key       Key
		line, col int
	}{
		{Key{"written"}, 1, 1},
		{Key{"model", "input"}, 5, 3},
		{Key{"model", "provider"}, 3, 1},
		{Key{"gpu"}, 6, 1},
		{Key{"gpu", "name"}, 7, 1},
		{Key{"nothing"}, 0, 0},
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

// TestDecode: every error of a decode is placed on its line, a key's on
// the key, and says what was expected.
func TestDecode(t *testing.T) {
	type model struct {
		Name  string  `toml:"name"`
		Price float64 `toml:"price"`
	}
	type file struct {
		Limit   int             `toml:"limit"`
		On      bool            `toml:"on"`
		List    []int           `toml:"list"`
		Dataset struct{ N int } `toml:"dataset"`
		Model   []model         `toml:"model"`
	}
	unknown := func(k Key) string { return "unknown key " + k.String() }
	for _, tt := range []struct{ text, want string }{
		{"limit = 3\non = true\nlist = [1]\n[[model]]\nname = \"m\"\nprice = 1.5\n", ""},
		{"limit = \"ten\"\n", `f.toml:1:1: key "limit" has a string value: expected an integer`},
		{"limit = 2\n  x = 1\n", `f.toml:2:3: unknown key x`},
		{"  list = 4\n", `f.toml:1:3: key "list" has an integer value: expected an array`},
		{"limit = 1.5\n", `f.toml:1:1: key "limit" has a float value: expected an integer`},
		{"on = 1\n", `f.toml:1:1: key "on" has an integer value: expected a boolean`},
		{"dataset = 3\n", `f.toml:1:1: key "dataset" has an integer value: expected a table`},
		{"[[model]]\nname = \"a\"\n[[model]]\nprice = \"x\"\n", `f.toml:4:1: key "model.price" has a string value: expected a float`},
		{"[[model]]\nname = \"a\"\nnmae = \"b\"\n", `f.toml:3:1: unknown key model.nmae`},
		{"limit = = 1\n", `f.toml:1:9: `},
		{"limit = = 1\n", `: expected a test file`},
	} {
		src := ingest.OpenBytes("f.toml", []byte(tt.text))
		x := &src.LineIndex
		var f file
		err := Decode(src, &f, ArrayHeaders(x, "model"), "expected a test file", unknown)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%q: %v", tt.text, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%q: %v, want %q", tt.text, err, tt.want)
		}
	}
}
