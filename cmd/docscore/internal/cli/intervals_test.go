package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScoreReceiptsIntervalFlags: --bootstrap, --ci-level and --seed reach
// the receipts scorer (the default is the library's golden report,
// --bootstrap 0 the bytes from before intervals), and bad values exit 2
// naming the flag.
func TestScoreReceiptsIntervalFlags(t *testing.T) {
	// From the repository's root, as the golden reports' provenance
	// names the sample's files.
	t.Chdir(filepath.Join("..", "..", "..", ".."))
	golden := func(name string) string {
		b, err := os.ReadFile(filepath.Join("scoring", "receipts", "testdata", "golden", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	refs, runFile := filepath.Join("sample", "receipts", "refs"), filepath.Join("sample", "receipts", "run.jsonl")
	for _, tc := range []struct {
		flags []string
		code  int
		out   string // the whole report, when the code is 0
		msg   string // in stderr otherwise
	}{
		{nil, 0, golden("receipts.json"), ""},
		{[]string{"--bootstrap", "0"}, 0, golden("receipts_bootstrap0.json"), ""},
		{[]string{"--bootstrap", "0", "--format", "md"}, 0, golden("receipts_bootstrap0.md"), ""},
		{[]string{"--format", "md"}, 0, golden("receipts.md"), ""},
		{[]string{"--bootstrap", "-1"}, ExitInput, "", "--bootstrap -1: expected a whole number of replicates from 0 to 1000000"},
		{[]string{"--bootstrap", "1000001"}, ExitInput, "", "--bootstrap 1000001: expected"},
		{[]string{"--ci-level", "1.5"}, ExitInput, "", "--ci-level 1.5: expected a confidence level strictly between 0 and 1"},
		{[]string{"--seed", "x"}, ExitInput, "", `invalid argument "x" for "--seed"`},
	} {
		args := append([]string{"score", "receipts", "--refs", refs, "--run", runFile}, tc.flags...)
		code, out, errOut := run(t, args...)
		if code != tc.code || (tc.code == 0 && out != tc.out) || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d (want %d), stderr %q (want %q); output as expected: %v", tc.flags, code, tc.code, errOut, tc.msg, out == tc.out)
		}
	}
}

// TestScoreTabularSeedAndLevel: the seed and the level given reach every
// cell's ci.
func TestScoreTabularSeedAndLevel(t *testing.T) {
	code, out, errOut := run(t, "score", "tabular", "--sample", "--bootstrap", "100", "--ci-level", "0.8", "--seed", "18446744073709551615")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	out = withoutProvenance(t, out)
	for _, want := range []string{`"level": 0.8,`, `"replicates": 100,`, `"seed": 18446744073709551615,`} {
		if n := strings.Count(out, want); n != 4 {
			t.Errorf("%s appears %d times, want once per cell (4)", want, n)
		}
	}
}
