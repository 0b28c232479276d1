package tabular_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/tabular"
	"github.com/docscore/docscore/scoring/tabular/tabularreport"
	"github.com/docscore/docscore/scoring/tabular/tabularstream"
)

// brokenSample is the bundled sample with one bad input of each kind:
// gt_page_28.csv with a quote never closed on line 3, a rule row whose
// status is unknown, and a runs line that is not JSON. clean is the
// sample without them: page 28's file and runs lines, and that rule row
// (made a draft).
func brokenSample(t *testing.T) (broken, clean tabular.Request, badRule int) {
	t.Helper()
	req, err := sample.TabularRequest(true)
	if err != nil {
		t.Fatal(err)
	}
	broken, clean = req, req
	broken.GT, clean.GT = nil, nil
	for _, f := range req.GT {
		if strings.HasSuffix(f.Name, "gt_page_28.csv") {
			lines := strings.SplitAfter(string(f.Data), "\n")
			lines[2] = `"Anton Müller,,February 10 1769` + "\n"
			broken.GT = append(broken.GT, tabular.File{Name: f.Name, Data: []byte(strings.Join(lines, ""))})
			continue
		}
		broken.GT = append(broken.GT, f)
		clean.GT = append(clean.GT, f)
	}
	rulesLines := strings.SplitAfter(string(req.Rules.Data), "\n")
	for i, l := range rulesLines {
		if strings.Contains(l, "| settled |") && strings.HasPrefix(l, "| name | conte") {
			badRule = i + 1
			bad := append([]string(nil), rulesLines...)
			bad[i] = strings.Replace(l, "| settled |", "| maybe |", 1)
			broken.Rules = &tabular.File{Name: req.Rules.Name, Data: []byte(strings.Join(bad, ""))}
			// The clean file has the row as a draft (OPEN), which
			// applies no more than a row left out and keeps the table.
			good := append([]string(nil), rulesLines...)
			good[i] = strings.Replace(l, "| settled |", "| OPEN |", 1)
			clean.Rules = &tabular.File{Name: req.Rules.Name, Data: []byte(strings.Join(good, ""))}
			break
		}
	}
	runs := strings.SplitAfter(string(req.Runs.Data), "\n")
	var b, c strings.Builder
	for i, l := range runs {
		if i == 4 {
			b.WriteString("{not json\n")
			c.WriteString("\n")
		}
		b.WriteString(l)
		if strings.Contains(l, `"page": "28"`) {
			c.WriteString("\n")
		} else {
			c.WriteString(l)
		}
	}
	broken.Runs = tabular.File{Name: req.Runs.Name, Data: []byte(b.String())}
	clean.Runs = tabular.File{Name: req.Runs.Name, Data: []byte(c.String())}
	return broken, clean, badRule
}

func TestSkipBadInputs(t *testing.T) {
	broken, clean, badRule := brokenSample(t)
	if _, err := tabular.ScoreRequest(broken); err == nil {
		t.Fatal("the broken sample scored without SkipBadInputs")
	}
	broken.SkipBadInputs = true
	rep, err := tabular.ScoreRequest(broken)
	if err != nil {
		t.Fatalf("SkipBadInputs: %v", err)
	}
	want, err := tabular.ScoreRequest(clean)
	if err != nil {
		t.Fatalf("the clean sample: %v", err)
	}
	// The cells are those of the sample without the bad inputs.
	var got, exp bytes.Buffer
	if err := rep.WriteCSV(&got); err != nil {
		t.Fatal(err)
	}
	if err := want.WriteCSV(&exp); err != nil {
		t.Fatal(err)
	}
	if got.String() != exp.String() {
		t.Errorf("cells differ from the clean sample's:\n%s\nwant\n%s", got.String(), exp.String())
	}
	if len(rep.Cells) == 0 || len(rep.Images) == 0 {
		t.Fatalf("nothing scored: %d cells, %d images", len(rep.Cells), len(rep.Images))
	}
	kinds := map[string]int{}
	for _, l := range rep.LeftOut {
		kinds[l.What]++
	}
	if kinds[tabularreport.LeftGTFile] != 1 || kinds[tabularreport.LeftRuleRow] != 1 || kinds[tabularreport.LeftRunsLine] < 2 {
		t.Fatalf("left out %v: %v", kinds, rep.LeftOut)
	}
	first := rep.LeftOut[0]
	if !strings.HasSuffix(first.File, "gt_page_28.csv") || first.Line != 3 || first.What != tabularreport.LeftGTFile {
		t.Errorf("first left out = %+v, want gt_page_28.csv line 3", first)
	}
	rule := rep.LeftOut[1]
	if rule.What != tabularreport.LeftRuleRow || rule.Line != badRule || !strings.Contains(rule.Why, `"maybe"`) {
		t.Errorf("rule row left out = %+v, want line %d, status maybe", rule, badRule)
	}
	runs := rep.LeftOut[2:]
	if runs[1].Line != 5 || runs[1].Column == 0 || !strings.Contains(runs[1].Why, "JSON") {
		t.Errorf("bad runs line = %+v, want line 5", runs[1])
	}
	for _, l := range append(runs[:1:1], runs[2:]...) {
		if !strings.Contains(l.Why, "page 28 has no ground truth: sample/tabular/gt/gt_page_28.csv was left out") {
			t.Errorf("runs line left out for %q, want page 28's file named", l.Why)
		}
	}
	for i := 1; i < len(runs); i++ {
		if runs[i].Line <= runs[i-1].Line {
			t.Errorf("runs lines not in line order: %v", runs)
		}
	}
	for _, w := range rep.Warnings {
		if strings.HasPrefix(w, "skipped: ") {
			t.Errorf("a left-out line is also a warning: %q", w)
		}
	}

	// The JSON lists them; the Markdown too.
	j, err := rep.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(j, []byte(`"left_out": [`)) || !bytes.Contains(j, []byte(`"what": "rule row"`)) {
		t.Errorf("JSON lacks left_out")
	}
	var md bytes.Buffer
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), fmt.Sprintf("## Left out (%d)", len(rep.LeftOut))) ||
		!strings.Contains(md.String(), "gt_page_28.csv:3:") {
		t.Errorf("Markdown lacks the left-out section:\n%s", md.String())
	}
	// A report that left nothing out has no left_out.
	plain, err := want.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(plain, []byte("left_out")) {
		t.Errorf("a clean report has left_out")
	}

	// A stream gives the same bytes in every format.
	for _, format := range []string{"json", "csv", "md"} {
		mem, err := writeInMemory(rep, nil, format)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if _, err := tabularstream.Stream(nil, broken, bytes.NewReader(broken.Runs.Data), &out, tabularstream.StreamOptions{Format: format, Jobs: 2}); err != nil {
			t.Fatalf("%s stream: %v", format, err)
		}
		if !bytes.Equal(out.Bytes(), mem) {
			t.Errorf("%s: the stream's bytes differ from the in-memory report's", format)
		}
	}
}

// TestSkipBadInputsRuleFile: a rule file with an error on no row (a code
// fence never closed) is left out whole; the files score without it.
func TestSkipBadInputsRuleFile(t *testing.T) {
	req, err := sample.TabularRequest(true)
	if err != nil {
		t.Fatal(err)
	}
	req.Rules.Data = append(append([]byte(nil), req.Rules.Data...), "\n```\n"...)
	req.SkipBadInputs = true
	rep, err := tabular.ScoreRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	noRules, err := sample.TabularRequest(false)
	if err != nil {
		t.Fatal(err)
	}
	want, err := tabular.ScoreRequest(noRules)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.LeftOut) != 1 || rep.LeftOut[0].What != tabularreport.LeftRuleFile {
		t.Fatalf("left out %v, want the rule file", rep.LeftOut)
	}
	if rep.Rules.File != "" || fmt.Sprint(rep.Cells[0].F1) != fmt.Sprint(want.Cells[0].F1) {
		t.Errorf("rules %+v, F1 %v; want no rule file, F1 %v", rep.Rules, rep.Cells[0].F1, want.Cells[0].F1)
	}
}

// TestSkipBadInputsNoGroundTruth: when not one ground-truth file can be
// read there is nothing valid to score against: the first file's error,
// as without SkipBadInputs.
func TestSkipBadInputsNoGroundTruth(t *testing.T) {
	req, err := sample.TabularRequest(false)
	if err != nil {
		t.Fatal(err)
	}
	for i := range req.GT {
		req.GT[i].Data = []byte("item,quantity\nA-12,3\n")
	}
	_, want := tabular.ScoreRequest(req)
	req.SkipBadInputs = true
	_, got := tabular.ScoreRequest(req)
	if want == nil || got == nil || got.Error() != want.Error() {
		t.Fatalf("error %v, want %v", got, want)
	}
}
