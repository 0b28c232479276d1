package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerify: a comparison report verifies (exit 0) beside its input and
// with --inputs; a hand-edited number exits 1 naming it; a missing or
// changed input exits 2; a report without provenance exits 2.
func TestVerify(t *testing.T) {
	b, err := os.ReadFile(tabularGolden)
	if err != nil {
		t.Fatal(err)
	}
	dir := writeFiles(t, map[string]string{"sample.json": string(b)})
	out := filepath.Join(dir, "cmp.json")
	if code, _, stderr := run(t, "compare", "--within", filepath.Join(dir, "sample.json"), "--bootstrap", "100", "--permutations", "200", "--effect", "0.01", "--out", out); code != 0 {
		t.Fatalf("compare: exit %d: %s", code, stderr)
	}
	if code, stdout, stderr := run(t, "verify", out); code != 0 || !strings.Contains(stdout, "reproduced byte for byte") {
		t.Fatalf("verify: exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	report, _ := os.ReadFile(out)

	// A number edited by hand.
	edited := strings.Replace(string(report), `"min_p": 0.5`, `"min_p": 0.25`, 1)
	if edited == string(report) {
		t.Fatal("no min_p of 0.5 to edit")
	}
	if err := os.WriteFile(filepath.Join(dir, "edited.json"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "verify", filepath.Join(dir, "edited.json")); code != 1 || !strings.Contains(stderr, "min_p: report 0.25, re-run 0.5") {
		t.Errorf("edited: exit %d, stderr %s; want 1 naming min_p", code, stderr)
	}

	// Elsewhere: the input is missing unless --inputs names its folder.
	other := t.TempDir()
	moved := filepath.Join(other, "cmp.json")
	if err := os.WriteFile(moved, report, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "verify", moved); code != 2 || !strings.Contains(stderr, "sample.json (base) not found") {
		t.Errorf("missing input: exit %d, stderr %s; want 2", code, stderr)
	}
	if code, _, stderr := run(t, "verify", moved, "--inputs", dir); code != 0 {
		t.Errorf("--inputs: exit %d, stderr %s; want 0", code, stderr)
	}

	// An input changed since: its hash differs.
	if err := os.WriteFile(filepath.Join(other, "sample.json"), append(b, ' '), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "verify", moved); code != 2 || !strings.Contains(stderr, "sha256") {
		t.Errorf("changed input: exit %d, stderr %s; want 2 naming the hash", code, stderr)
	}

	// No provenance.
	if code, _, stderr := run(t, "verify", filepath.Join(dir, "sample.json")); code != 2 || !strings.Contains(stderr, "provenance") {
		t.Errorf("no provenance: exit %d, stderr %s; want 2", code, stderr)
	}
}

// TestPlan: docscore plan answers on the sample with the floor of 3
// pages and the pages needed for the effect.
func TestPlan(t *testing.T) {
	code, stdout, stderr := run(t, "plan", tabularGolden, "--effect", "0.01", "--format", "md")
	if code != 0 {
		t.Fatalf("plan: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"| f1 | 3 |", "cannot be significant", "needed for ±0.01"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("plan lacks %q:\n%s", want, stdout)
		}
	}
	if code, _, stderr := run(t, "plan", tabularGolden, "--effect", "-1"); code != 2 {
		t.Errorf("--effect -1: exit %d (%s), want 2", code, stderr)
	}
}
