package cli

import (
	"strings"
	"testing"
)

// TestFloatFlags: every float flag of the command line refuses NaN, the
// infinities and values out of its range with exit 2 and a message that
// names the flag, before any work starts (ONE check: scoring/param).
func TestFloatFlags(t *testing.T) {
	refs, run := sampleFile("refs"), sampleFile("run.jsonl")
	// Each command runs with everything else it needs; "%v" is the value.
	commands := []struct {
		flag string   // as the message must name it
		args []string // the command line, the value as "%v"
		bad  []string // values out of range, besides NaN and ±Inf
	}{
		{"--gate", []string{"score", "tabular", "--sample", "--gate", "%v"}, []string{"0", "-0.1", "1.5"}},
		{"--ci-level", []string{"score", "tabular", "--sample", "--ci-level", "%v"}, []string{"0", "1", "-0.1", "1.5"}},
		{"--ci-level", []string{"score", "receipts", "--refs", refs, "--run", run, "--ci-level", "%v"}, []string{"0", "1", "1.5"}},
		{"--fail-under f1", []string{"score", "tabular", "--sample", "--fail-under", "f1=%v"}, []string{"-0.1", "1.01"}},
		{"--fail-under title", []string{"score", "tabular", "--sample", "--fail-under", "f1=0.5,title=%v"}, []string{"2"}},
		{"--fail-under rougeL", []string{"score", "receipts", "--refs", refs, "--run", run, "--fail-under", "rougeL=%v"}, []string{"-1", "1.5"}},
		{"--temperature", []string{"review", "receipts", "--refs", refs, "--run", run, "--judge", "command", "--judge-command", "true", "--temperature", "%v"}, []string{"-0.5", "2.5"}},
		{"--price-input", []string{"review", "receipts", "--refs", refs, "--run", run, "--judge", "command", "--judge-command", "true", "--price-input", "%v"}, []string{"-1"}},
		{"--price-cached-input", []string{"review", "receipts", "--refs", refs, "--run", run, "--judge", "command", "--judge-command", "true", "--price-input", "1", "--price-cached-input", "%v"}, []string{"-1"}},
		{"--price-output", []string{"review", "receipts", "--refs", refs, "--run", run, "--judge", "command", "--judge-command", "true", "--price-output", "%v"}, []string{"-1"}},
		{"--minimum-agreement", []string{"groundtruth", "generate", "--case-id", "c", "--source", "page.png", "--minimum-agreement", "%v"}, []string{"-0.5", "1.5"}},
		{"--adjudication-minimum", []string{"groundtruth", "generate", "--case-id", "c", "--source", "page.png", "--adjudication-minimum", "%v"}, []string{"-0.5", "1.5"}},
		{"--temperature", []string{"pilot", "run", "--temperature", "%v"}, []string{"-1", "3"}},
		{"--ci-level", []string{"compare", "--within", sampleFile("../../scoring/receipts/testdata/golden/receipts.json"), "--ci-level", "%v"}, []string{"0", "1", "1.5"}},
		{"--alpha", []string{"compare", "--within", sampleFile("../../scoring/receipts/testdata/golden/receipts.json"), "--alpha", "%v"}, []string{"0", "1", "-0.5"}},
	}
	for _, c := range commands {
		for _, v := range append([]string{"NaN", "+Inf", "-Inf"}, c.bad...) {
			args := make([]string, len(c.args))
			for i, a := range c.args {
				args[i] = strings.ReplaceAll(a, "%v", v)
			}
			t.Run(c.flag+"="+v, func(t *testing.T) {
				code, _, stderr := runEnv(t, "", nil, args...)
				if code != ExitInput {
					t.Errorf("%s: exit %d, want %d; stderr: %s", strings.Join(args, " "), code, ExitInput, stderr)
				}
				if !strings.Contains(stderr, c.flag+" ") || !strings.Contains(stderr, "expected") {
					t.Errorf("%s: stderr %q does not name %s and what it expects", strings.Join(args, " "), stderr, c.flag)
				}
			})
		}
	}
}
