// Package tomlkey finds where a TOML file sets a key, for error messages:
// BurntSushi/toml reports an unknown or ill-typed key by name, not by
// position. It reads the lines of an ingest.LineIndex (the one way in for
// every file), so the errors it places show the line with a caret.
package tomlkey

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
)

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
func Find(x *ingest.LineIndex, headers []int, key toml.Key) (line, col int) {
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
