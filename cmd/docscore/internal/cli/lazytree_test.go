package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestRegisteredNames: every command is registered under the name its
// Use gives it, so that needed can pick it before building it.
func TestRegisteredNames(t *testing.T) {
	env := &Env{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}}
	seen := map[string]bool{}
	for _, spec := range registry {
		if got := spec.build(env).Name(); got != spec.name {
			t.Errorf("register(%q, %q, …) builds the command %q", spec.parent, spec.name, got)
		}
		key := spec.parent + " " + spec.name
		if seen[key] {
			t.Errorf("%q registered twice", key)
		}
		seen[key] = true
	}
}

// TestPartialTreeRunsAsTheWhole: a command line run on the part of the
// tree needed builds gives the exit code and the bytes the whole tree
// gives, help, errors and suggestions included.
func TestPartialTreeRunsAsTheWhole(t *testing.T) {
	lines := [][]string{
		{"--version"},
		{"-v"},
		{"--version", "-v"},
		{},
		{"--help"},
		{"-h"},
		{"--version", "--help"},
		{"--bogus"},
		{"version"},
		{"version", "extra"},
		{"verify", "--help"},
		{"verify"},
		{"score"},
		{"score", "--help"},
		{"score", "tabular", "--help"},
		{"score", "tabular", "--bogus"},
		{"score", "tabulr"},
		{"score", "receipts", "-h"},
		{"rules", "check", "--help"},
		{"groundtruth", "review-file", "--help"},
		{"pilot"},
		{"help"},
		{"help", "score", "tabular"},
		{"scor"},
		{"--max-input-mib", "0", "version"},
		{"--max-input-mib", "score", "version"},
		{"--max-input-mib=5", "compare", "--help"},
		{"--", "version"},
	}
	exec := func(root *cobra.Command, out, errb *bytes.Buffer, args []string) int {
		root.SetArgs(args)
		if err := root.ExecuteContext(context.Background()); err != nil {
			errb.WriteString("error: " + err.Error() + "\n")
			return exitCode(err)
		}
		return 0
	}
	for _, args := range lines {
		var wholeOut, wholeErr, partOut, partErr bytes.Buffer
		whole := NewRoot(&Env{Stdout: &wholeOut, Stderr: &wholeErr, Stdin: strings.NewReader("")})
		wantCode := exec(whole, &wholeOut, &wholeErr, args)
		part := newRootFor(&Env{Stdout: &partOut, Stderr: &partErr, Stdin: strings.NewReader("")}, args)
		gotCode := exec(part, &partOut, &partErr, args)
		if gotCode != wantCode || partOut.String() != wholeOut.String() || partErr.String() != wholeErr.String() {
			t.Errorf("docscore %s: the partial tree gives exit %d, stdout %q, stderr %q; the whole tree exit %d, stdout %q, stderr %q",
				strings.Join(args, " "), gotCode, partOut.String(), partErr.String(), wantCode, wholeOut.String(), wholeErr.String())
		}
	}
}

// TestNeededBuildsLittle: the lines of the start-up benchmark and of
// single commands build no more than they run.
func TestNeededBuildsLittle(t *testing.T) {
	count := func(args ...string) int {
		n, want := 0, needed(args)
		for _, spec := range registry {
			if want(spec) {
				n++
			}
		}
		return n
	}
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"--version"}, 0},
		{[]string{"-v"}, 0},
		{[]string{"version"}, 1},
		{[]string{"score", "tabular", "--gt", "g", "--runs", "r.jsonl"}, 1},
		{[]string{"--max-input-mib", "9", "verify", "r.json"}, 1},
		{[]string{"score", "--help"}, count("score", "text") + count("score", "tables") + count("score", "tabular") + count("score", "receipts")},
		{[]string{"--help"}, len(registry)},
		{[]string{"nonsense"}, len(registry)},
	} {
		if got := count(c.args...); got != c.want {
			t.Errorf("docscore %s builds %d commands, want %d", strings.Join(c.args, " "), got, c.want)
		}
	}
}
