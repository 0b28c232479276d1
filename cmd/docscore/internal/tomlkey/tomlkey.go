// Package tomlkey decodes the command's TOML files (Decode, with
// pelletier/go-toml) and finds where a file sets a key, for error
// messages that place a key's problem on the key. It reads the lines of
// an ingest.LineIndex (the one way in for every file), so the errors it
// places show the line with a caret.
package tomlkey

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2"

	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
)

// Key is a TOML key as its dotted parts: {"model", "temperature"}.
type Key []string

// String writes the key dotted: "model.temperature".
func (k Key) String() string { return strings.Join(k, ".") }

// Decode decodes the TOML file src into v, whose fields name every key
// the file may set, and places each error on its line:
//   - a syntax error: the decoder's message, then ": " and expected;
//   - a value of the wrong type: `key "dataset.limit" has a string value:
//     expected an integer`, on the key;
//   - a key v has no field for: unknown(key), on the key.
//
// headers are the lines of an array of tables' headers (ArrayHeaders),
// where keys are looked for in its blocks.
func Decode(src *ingest.Source, v any, headers []int, expected string, unknown func(key Key) string) *inputerr.Error {
	err := toml.NewDecoder(bytes.NewReader(src.Bytes())).DisallowUnknownFields().Decode(v)
	if err == nil {
		return nil
	}
	x := &src.LineIndex
	var missing *toml.StrictMissingError
	if errors.As(err, &missing) && len(missing.Errors) > 0 {
		key := Key(missing.Errors[0].Key())
		line, col := Find(x, headers, key)
		if line == 0 {
			line, col = missing.Errors[0].Position()
		}
		return src.ErrorAtLine(line, col, "%s", unknown(key))
	}
	var de *toml.DecodeError
	if !errors.As(err, &de) {
		return src.ErrorAtLine(0, 0, "%s: %s", strings.TrimPrefix(err.Error(), "toml: "), expected)
	}
	line, col := de.Position()
	msg := strings.TrimPrefix(de.Error(), "toml: ")
	var have, field, want string
	if n, _ := fmt.Sscanf(msg, "cannot decode TOML %s into %s", &have, &field); n == 2 {
		if i := strings.LastIndex(msg, " of type "); i >= 0 {
			want = msg[i+len(" of type "):]
		}
	}
	if want == "" || len(de.Key()) == 0 {
		return src.ErrorAtLine(line, col, "%s: %s", msg, expected)
	}
	key := Key(de.Key())
	if l, c := Find(x, headers, key); l == line {
		col = c // on the key the decoder names, on its line
	}
	if want = kindOf(want); have == want {
		have = "other" // a table's key, say
	}
	return src.ErrorAtLine(line, col, "key %q has %s %s value: expected %s %s", key.String(), article(have), have, article(want), want)
}

// kindOf names the TOML kind a Go type takes.
func kindOf(goType string) string {
	t := strings.TrimLeft(goType, "*")
	switch {
	case strings.HasPrefix(t, "[]"):
		return "array"
	case strings.HasPrefix(t, "map[") || strings.HasPrefix(t, "struct") || strings.Contains(t, "."):
		return "table"
	case strings.HasPrefix(t, "int") || strings.HasPrefix(t, "uint"):
		return "integer"
	case strings.HasPrefix(t, "float"):
		return "float"
	case t == "bool":
		return "boolean"
	}
	return t
}

func article(s string) string {
	if s != "" && strings.ContainsAny(s[:1], "aeiou") {
		return "an"
	}
	return "a"
}

// ArrayHeaders lists the lines of the [[name]] headers of an array of
// tables, in order.
func ArrayHeaders(x *ingest.LineIndex, name string) []int {
	var out []int
	for n := 1; n <= x.NumLines(); n++ {
		l := strings.TrimSpace(string(x.Line(n)))
		if rest, ok := strings.CutPrefix(l, "[["); ok {
			inner, _, _ := strings.Cut(rest, "]]")
			if strings.Trim(strings.TrimSpace(inner), `"'`) == name {
				out = append(out, n)
			}
		}
	}
	return out
}

// InBlock finds the line and column of key in the i-th block of an
// array of tables (headers from ArrayHeaders): 0, 0 when the block does
// not set it.
func InBlock(x *ingest.LineIndex, headers []int, i int, key string) (line, col int) {
	if i >= len(headers) {
		return 0, 0
	}
	end := x.NumLines() + 1
	if i+1 < len(headers) {
		end = headers[i+1]
	}
	return find(x, headers[i]+1, end, key, "")
}

// Find finds the line and column where key is set: in a block of the
// array of tables key[0] (headers from ArrayHeaders, the first block that
// sets it) for a dotted key, else the first line that sets its last part
// or opens the table [key]. 0, 0 when none does.
func Find(x *ingest.LineIndex, headers []int, key Key) (line, col int) {
	if len(key) == 0 {
		return 0, 0
	}
	last := key[len(key)-1]
	if len(key) > 1 {
		for i := range headers {
			if l, c := InBlock(x, headers, i, last); l > 0 {
				return l, c
			}
		}
	}
	return find(x, 1, x.NumLines()+1, last, key.String())
}

// find looks at lines [from, to) for "key =" or, when table is not "",
// the header [table].
func find(x *ingest.LineIndex, from, to int, key, table string) (line, col int) {
	for n := from; n < to && n <= x.NumLines(); n++ {
		raw := x.Line(n)
		l := bytes.TrimSpace(raw)
		indent := utf8.RuneCount(raw[:len(raw)-len(bytes.TrimLeft(raw, " \t"))])
		if rest, ok := bytes.CutPrefix(l, []byte(key)); ok && bytes.HasPrefix(bytes.TrimSpace(rest), []byte("=")) {
			return n, indent + 1
		}
		if table != "" && strings.Trim(string(l), "[] ") == table {
			return n, indent + 1
		}
	}
	return 0, 0
}

// Redact hides the value of a secret-looking key (api_key, token,
// secret, password; not an *_env key naming a variable) on the source
// line an error shows, so that an error never prints a credential. It
// returns err.
func Redact(err error) error {
	e, ok := inputerr.As(err)
	if !ok || e.Source == "" {
		return err
	}
	key, _, found := strings.Cut(e.Source, "=")
	k := strings.ToLower(strings.TrimSpace(key))
	if !found || strings.HasSuffix(k, "_env") {
		return err
	}
	for _, s := range []string{"key", "token", "secret", "password"} {
		if strings.Contains(k, s) {
			e.Source = key + "= (value hidden)"
			break
		}
	}
	return err
}
