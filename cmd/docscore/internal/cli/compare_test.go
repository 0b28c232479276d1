package cli

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docscore/docscore/httpapi"
	"github.com/docscore/docscore/internal/testkit"
)

// The golden reports compare reads.
const (
	tabularGolden  = "../../../../scoring/tabular/testdata/golden/sample.json"
	receiptsGolden = "../../../../scoring/receipts/testdata/golden/receipts.json"
	previewGolden  = "../../../../scoring/tabular/testdata/golden/sample_preview_open.json"
)

// regressed writes the receipts golden report with every page's ROUGE-L
// F1 halved: a new report significantly worse than the golden one.
func regressed(t *testing.T) string {
	t.Helper()
	rep := testkit.ReadJSONObject(t, receiptsGolden)
	for _, p := range rep["pages"].([]any) {
		page := p.(map[string]any)
		if f1, ok := page["f1"].(float64); ok {
			page["f1"] = f1 / 2
		}
	}
	out, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "worse.json")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCompareFailOnRegression(t *testing.T) {
	worse := regressed(t)
	small := []string{"--bootstrap", "200", "--permutations", "500"}
	code, _, stderr := run(t, append([]string{"compare", receiptsGolden, worse, "--fail-on-regression", "--format", "md"}, small...)...)
	if code != ExitThreshold || !strings.Contains(stderr, "base:receipts/c1 → new:receipts/c1: rouge_l_f1_mean") ||
		!strings.Contains(stderr, "base:receipts/c4 → new:receipts/c4: rouge_l_f1_mean") {
		t.Errorf("worse new report: exit %d, stderr %q; want exit 3 naming rouge_l_f1_mean of c1 and c4", code, stderr)
	}
	// Without the flag the same comparison is a report, exit 0; the
	// other way round (new better) passes the flag.
	if code, _, stderr := run(t, append([]string{"compare", receiptsGolden, worse}, small...)...); code != ExitOK {
		t.Errorf("without --fail-on-regression: exit %d, %s", code, stderr)
	}
	if code, _, stderr := run(t, append([]string{"compare", worse, receiptsGolden, "--fail-on-regression"}, small...)...); code != ExitOK {
		t.Errorf("new better: exit %d, %s", code, stderr)
	}
}

func TestCompareBadInput(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"old.json":   `{"kind": "tabular", "fields": ["title"], "cells": [{"model": "m", "phase": "G"}]}`,
		"other.json": `{"kind": "tabular", "fields": ["title","arrival_date","departure_date","place_of_stay","place_of_origin","with_spouse","with_siblings","children_count"], "cells": [{"model": "m", "phase": "X"}], "images": [{"model": "m", "phase": "X", "page": "27", "status": "failed"}]}`,
	})
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"kinds differ", []string{tabularGolden, receiptsGolden}, "compare two reports of one family"},
		{"no common cell", []string{tabularGolden, filepath.Join(dir, "other.json")}, "no cell in common"},
		{"no image rows", []string{"--within", filepath.Join(dir, "old.json")}, `no "images" member`},
		{"ci level", []string{"--within", tabularGolden, "--ci-level", "1.5"}, "--ci-level 1.5: expected"},
		{"bootstrap", []string{"--within", tabularGolden, "--bootstrap", "-1"}, "--bootstrap -1: expected"},
		{"permutations", []string{"--within", tabularGolden, "--permutations", "1000001"}, "--permutations 1000001: expected"},
		{"alpha", []string{"--within", tabularGolden, "--alpha", "1"}, "--alpha 1: expected"},
		{"format", []string{"--within", tabularGolden, "--format", "xml"}, "--format"},
		{"pairs", []string{"--within", tabularGolden, "--pairs", "a/G:b/G"}, "--pairs"},
		{"one report", []string{tabularGolden}, "two reports"},
		{"two with within", []string{"--within", tabularGolden, tabularGolden}, "one report"},
		{"no file", []string{"--within", filepath.Join(dir, "none.json")}, "none.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := run(t, append([]string{"compare"}, tc.args...)...)
			if code != ExitInput || stdout != "" || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stdout %d bytes, stderr %q; want exit 2 saying %q", code, len(stdout), stderr, tc.want)
			}
		})
	}
}

// The HTTP route answers the bytes of the command line for the same files
// and options, in every format.
func TestCompareHTTPMatchesCLI(t *testing.T) {
	srv := httptest.NewServer(httpapi.New(httpapi.Options{}))
	defer srv.Close()
	worse := regressed(t)
	text := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, tc := range []struct {
		name string
		args []string
		body map[string]any
	}{
		{"within", []string{"--within", tabularGolden},
			map[string]any{"base": map[string]string{"name": tabularGolden, "text": text(tabularGolden)}, "within": true}},
		{"preview", []string{"--preview", tabularGolden, previewGolden},
			map[string]any{"base": map[string]string{"name": tabularGolden, "text": text(tabularGolden)},
				"new": map[string]string{"name": previewGolden, "text": text(previewGolden)}, "preview": true}},
		{"two reports", []string{receiptsGolden, worse},
			map[string]any{"base": map[string]string{"name": receiptsGolden, "text": text(receiptsGolden)},
				"new": map[string]string{"name": worse, "text": text(worse)}}},
	} {
		for _, format := range []string{"json", "csv", "md", "junit"} {
			t.Run(tc.name+"/"+format, func(t *testing.T) {
				args := append([]string{"compare", "--format", format, "--bootstrap", "300", "--permutations", "400", "--seed", "3", "--alpha", "0.1"}, tc.args...)
				code, cli, stderr := run(t, args...)
				if code != ExitOK {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				body := map[string]any{"format": format, "bootstrap": 300, "permutations": 400, "seed": 3, "alpha": 0.1}
				for k, v := range tc.body {
					body[k] = v
				}
				req, _ := json.Marshal(body)
				res, err := http.Post(srv.URL+"/v1/compare", "application/json", bytes.NewReader(req))
				if err != nil {
					t.Fatal(err)
				}
				var got bytes.Buffer
				_, _ = got.ReadFrom(res.Body)
				res.Body.Close()
				if res.StatusCode != 200 || got.String() != cli {
					t.Errorf("HTTP %d, %d bytes; the command line wrote %d bytes:\n%s", res.StatusCode, got.Len(), len(cli), got.String())
				}
			})
		}
	}
}

// Cells only one report has are named on standard error, not compared.
func TestCompareWarnsCellsOnlyInOne(t *testing.T) {
	b, err := os.ReadFile(receiptsGolden)
	if err != nil {
		t.Fatal(err)
	}
	renamed := strings.ReplaceAll(string(b), `"phase": "c4"`, `"phase": "c9"`)
	dir := writeFiles(t, map[string]string{"renamed.json": renamed})
	newPath := filepath.Join(dir, "renamed.json")
	code, stdout, stderr := run(t, "compare", receiptsGolden, newPath, "--bootstrap", "50", "--permutations", "50", "--format", "csv")
	want := "docscore: warning: c4: only " + receiptsGolden + " has it, not compared\n" +
		"docscore: warning: c9: only " + newPath + " has it, not compared\n"
	if code != ExitOK || stderr != want || strings.Count(stdout, "\n") != 3 {
		t.Errorf("exit %d, stderr %q, %d CSV lines; want 0, %q, a header and c1's 2 rows", code, stderr, strings.Count(stdout, "\n"), want)
	}
}

// A report saved with a byte order mark (as some Windows editors write
// it) reads as the same report: compare --within gives the same bytes.
func TestCompareWithinReadsABOM(t *testing.T) {
	for _, golden := range []string{tabularGolden, receiptsGolden} {
		b, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		bom := filepath.Join(t.TempDir(), filepath.Base(golden)) // reports name the file's base name
		if err := os.WriteFile(bom, append([]byte("\xef\xbb\xbf"), b...), 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"compare", "--format", "json", "--bootstrap", "200", "--permutations", "300", "--seed", "3", "--within"}
		code, want, stderr := run(t, append(args, golden)...)
		if code != ExitOK {
			t.Fatalf("%s: exit %d: %s", golden, code, stderr)
		}
		code, got, stderr := run(t, append(args, bom)...)
		// The same comparison; only the input's digest (of its bytes, the
		// BOM included) and size in the provenance differ.
		gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
		if code != ExitOK || len(gl) != len(wl) {
			t.Fatalf("%s with a BOM: exit %d, %s\n%d lines, want %d", golden, code, stderr, len(gl), len(wl))
		}
		for i := range gl {
			if gl[i] != wl[i] && !strings.Contains(wl[i], "sha256") && !strings.Contains(wl[i], `"bytes"`) {
				t.Errorf("%s with a BOM, line %d:\n%s\nwant\n%s", golden, i+1, gl[i], wl[i])
			}
		}
	}
}
