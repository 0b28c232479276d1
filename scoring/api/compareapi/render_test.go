package compareapi

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/api"
)

// FuzzEsc holds esc to encoding/xml's EscapeText, which the package does
// not link.
func FuzzEsc(f *testing.F) {
	for _, s := range []string{"", "a → b", `<"'&>`, "\t\n\r", "\x00\x1f", "\xff", "\uFFFD", "\U0001F600", "\uFFFE"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want bytes.Buffer
		if err := xml.EscapeText(&want, []byte(s)); err != nil {
			t.Fatal(err)
		}
		if got := esc(s); got != want.String() {
			t.Errorf("esc(%q) = %q, EscapeText %q", s, got, want.String())
		}
	})
}

// halved is the receipts sample report with every page's F1 halved.
func halved(t *testing.T) api.File {
	t.Helper()
	var rep map[string]any
	if err := json.Unmarshal([]byte(file(t, receiptsReport).Text), &rep); err != nil {
		t.Fatal(err)
	}
	for _, p := range rep["pages"].([]any) {
		if f1, ok := p.(map[string]any)["f1"].(float64); ok {
			p.(map[string]any)["f1"] = f1 / 2
		}
	}
	b, _ := json.Marshal(rep)
	return api.File{Name: "worse.json", Text: string(b)}
}

// A regression is a JUnit failure, a Markdown "worse" and "better": "a".
func TestRegressionRendered(t *testing.T) {
	base, worse := file(t, receiptsReport), halved(t)
	junit := string(run(t, small(&CompareRequest{Base: base, New: worse, Format: "junit"})))
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(junit), &doc); err != nil {
		t.Fatalf("JUnit does not parse: %v\n%s", err, junit)
	}
	var failed []string
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			if c.Failure != nil {
				failed = append(failed, c.Name+": "+c.Failure.Message)
			}
		}
	}
	want := []string{
		"rouge_l_f1_mean: rouge_l_f1_mean significantly worse on new:receipts/c1 than on base:receipts/c1",
		"rouge_l_f1_mean: rouge_l_f1_mean significantly worse on new:receipts/c4 than on base:receipts/c4",
	}
	if doc.Tests != 4 || doc.Failures != 2 || strings.Join(failed, "\n") != strings.Join(want, "\n") {
		t.Errorf("tests %d, failures %d, failed %q; want 4, 2, %q", doc.Tests, doc.Failures, failed, want)
	}
	md := string(run(t, small(&CompareRequest{Base: base, New: worse, Format: "md"})))
	if strings.Count(md, "**yes, new worse**") != 2 || !strings.Contains(md, "| base | new |") {
		t.Errorf("Markdown does not show the two regressions:\n%s", md)
	}
	_, rep, err := CompareReport(api.NoCancel, small(&CompareRequest{Base: base, New: worse}))
	if err != nil || !rep.Regressed() {
		t.Errorf("Regressed() false, err %v", err)
	}
}
