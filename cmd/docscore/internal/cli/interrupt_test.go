package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestScoreInterrupted: the scoring commands run under the command's
// context, so Ctrl-C (a cancelled context) stops them: exit 130, and no
// report is written.
func TestScoreInterrupted(t *testing.T) {
	refs, run := sampleFile("refs"), sampleFile("run.jsonl")
	for _, args := range [][]string{
		{"score", "tabular", "--sample"},
		{"score", "receipts", "--refs", refs, "--run", run},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var out, errb bytes.Buffer
		code := Main(args, Env{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader(""), Context: ctx})
		if code != ExitInterrupted || out.Len() != 0 || !strings.Contains(errb.String(), "context canceled") {
			t.Errorf("%s, interrupted: exit %d, %d bytes out, stderr %q; want exit 130, nothing out, the interruption said", strings.Join(args, " "), code, out.Len(), errb.String())
		}
	}
}
