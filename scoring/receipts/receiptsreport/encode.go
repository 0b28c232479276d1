package receiptsreport

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/docscore/docscore/scoring/internal/jsonout"
)

// WriteJSON writes the report as indented JSON followed by a newline. Key
// order follows the struct fields and floats use encoding/json's shortest
// round-trip form, so equal reports give equal bytes.
func (r *Report) WriteJSON(w io.Writer) error {
	b, err := jsonout.Marshal(r)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// CSVHeader is the header row of WriteCSV: one row per page follows.
var CSVHeader = []string{
	"phase", "sample_id", "line", "status", "finish_reason", "scored_text", "empty_output", "truncated", "flags",
	"pred_tokens", "ref_tokens", "lcs", "precision", "recall", "f1",
	"numeric_ref", "numeric_matched", "numeric_recall", "missing_numbers",
	"ted_accuracy", "fields_matched", "fields_pred", "fields_ref",
}

// WriteCSV writes one row per page (RFC 4180, header CSVHeader). Null
// scores are empty cells; flags are joined by ";" and missing numbers by
// spaces (numbers never contain one). The structured columns are empty for
// pages without structured metrics.
func (r *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	for i := range r.Pages {
		row := CSVPageRow(&r.Pages[i])
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// CSVPageRow is a page's row of WriteCSV.
func CSVPageRow(p *Page) []string {
	fr := ""
	if p.FinishReason != nil {
		fr = *p.FinishReason
	}
	row := []string{
		p.Phase, p.SampleID, strconv.Itoa(p.Line), p.Status, fr,
		strconv.FormatBool(p.ScoredText), strconv.FormatBool(p.EmptyOutput), strconv.FormatBool(p.Truncated),
		strings.Join(p.Flags, ";"),
		strconv.Itoa(p.PredTokens), strconv.Itoa(p.RefTokens), strconv.Itoa(p.LCS),
		csvFloat(p.Precision), csvFloat(p.Recall), csvFloat(p.F1),
		strconv.Itoa(p.NumericRef), strconv.Itoa(p.NumericMatched), csvFloat(p.NumericRecall),
		strings.Join(p.MissingNumbers, " "),
		"", "", "", "",
	}
	if s := p.Structured; s != nil {
		n := len(row)
		row[n-4], row[n-3], row[n-2], row[n-1] = csvFloat(s.TEDAccuracy),
			strconv.Itoa(s.FieldsMatched), strconv.Itoa(s.FieldsPred), strconv.Itoa(s.FieldsRef)
	}
	return row
}

// PhasesCSVHeader is the header row of WritePhasesCSV.
var PhasesCSVHeader = []string{
	"phase", "primary", "pages", "pages_with_f1", "rouge_l_f1_mean", "numeric_matched", "numeric_ref",
	"numeric_recall", "scored_text", "empty_outputs", "truncated", "status_counts", "finish_reason_counts",
	"ted_accuracy_mean", "field_f1",
}

// phaseIntervals are the statistics whose intervals WritePhasesCSV adds
// (as NAME_lo, NAME_hi columns) when the phases have them.
var phaseIntervals = []string{"rouge_l_f1_mean", "numeric_recall", "structured.ted_accuracy_mean", "structured.field_f1"}

// WritePhasesCSV writes one row per phase (header PhasesCSVHeader); the
// counts by status and finish reason are "name=count" lists joined by ";".
// When the phases carry confidence intervals, each statistic's bounds
// follow as NAME_lo and NAME_hi columns (empty when null).
func (r *Report) WritePhasesCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	withCI := len(r.Phases) > 0 && r.Phases[0].CI != nil
	header := PhasesCSVHeader
	if withCI {
		header = slices.Clone(header)
		for _, name := range phaseIntervals {
			name = strings.TrimPrefix(name, "structured.")
			header = append(header, name+"_lo", name+"_hi")
		}
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, p := range r.Phases {
		ted, f1 := "", ""
		if p.Structured != nil {
			ted, f1 = csvFloat(p.Structured.TEDAccuracyMean), csvFloat(p.Structured.FieldF1)
		}
		row := []string{
			p.Phase, strconv.FormatBool(p.Primary), strconv.Itoa(p.Pages), strconv.Itoa(p.PagesWithF1),
			csvFloat(p.RougeLF1Mean), strconv.Itoa(p.NumericMatched), strconv.Itoa(p.NumericRef),
			csvFloat(p.NumericRecall), strconv.Itoa(p.ScoredText), strconv.Itoa(p.EmptyOutputs),
			strconv.Itoa(p.Truncated), counts(p.StatusCounts, "=", ";"), counts(p.FinishReasonCounts, "=", ";"),
			ted, f1,
		}
		if withCI {
			for _, name := range phaseIntervals {
				lo, hi := "", ""
				if st, ok := p.CI.Get(name); ok && st.Interval != nil {
					lo, hi = csvFloat(&st.Interval[0]), csvFloat(&st.Interval[1])
				}
				row = append(row, lo, hi)
			}
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvFloat formats a score as encoding/json does; nil is an empty cell.
func csvFloat(f *float64) string {
	if f == nil {
		return ""
	}
	b, err := json.Marshal(*f)
	if err != nil {
		return ""
	}
	return string(b)
}

// counts renders a count map in key order.
func counts(m map[string]int, eq, sep string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + eq + strconv.Itoa(m[k])
	}
	return strings.Join(parts, sep)
}

// MarkdownLowest is how many lowest-scoring pages WriteMarkdown lists.
const MarkdownLowest = 10

// WriteMarkdown writes a summary for people: the completeness verdict, a
// table per phase, the completeness details, and the MarkdownLowest pages
// with the lowest ROUGE-L F1 with their missing numbers.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Receipt OCR scores: run %s\n\n", mdText(r.RunID))
	var facts []string
	if r.Model != "" {
		facts = append(facts, "model `"+strings.ReplaceAll(r.Model, "`", "'")+"`")
	}
	facts = append(facts, "references in "+strings.ReplaceAll(r.ReferenceOrder, "_", " "))
	end := "none (the runner never wrote an end record)"
	if r.EndStatus != nil {
		end = mdText(*r.EndStatus)
	}
	facts = append(facts, "run end status: "+end)
	b.WriteString(strings.Join(facts, " · ") + "\n\n")
	if r.Complete {
		fmt.Fprintf(&b, "**Complete:** each of the planned phase/sample pairs (%d) was recorded exactly once.\n\n", r.Planned)
	} else {
		fmt.Fprintf(&b, "**INCOMPLETE (scored with --allow-incomplete):** %d planned pairs, %d measured records, %d pages scored; %d missing, %d recorded more than once.\n\n",
			r.Planned, r.CompletedRecords, r.ScoredRecords, r.MissingCount, len(r.Duplicated))
	}

	b.WriteString("## Phases\n\n")
	b.WriteString("ROUGE-L F1 is the mean of the page F1s; numeric recall pools every reference number of the phase. Pages whose request did not end with status `ok` and finish reason `stop` are scored as empty predictions.\n\n")
	b.WriteString("| phase | pages | ROUGE-L F1 | numeric recall | numbers matched | text scored | empty outputs | truncated | statuses |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---|\n")
	for _, p := range r.Phases {
		name := mdText(p.Phase)
		if p.Primary {
			name += " (primary)"
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %d / %d | %d | %d | %d | %s |\n",
			name, p.Pages, mdFloat(p.RougeLF1Mean)+p.CI.Text("rouge_l_f1_mean"), mdFloat(p.NumericRecall)+p.CI.Text("numeric_recall"),
			p.NumericMatched, p.NumericRef,
			p.ScoredText, p.EmptyOutputs, p.Truncated, mdText(counts(p.StatusCounts, " ", ", ")))
	}
	if len(r.Phases) > 0 && r.Phases[0].CI != nil {
		b.WriteString("\n" + r.Phases[0].CI.Footnote())
	}
	b.WriteString("\n")
	structured := false
	for _, p := range r.Phases {
		structured = structured || p.Structured != nil
	}
	if structured {
		b.WriteString("### Structured metrics (Donut / CORD standard)\n\n")
		b.WriteString("| phase | pages | parsed as JSON | TED accuracy | field F1 | fields matched / predicted / reference |\n")
		b.WriteString("|---|---:|---:|---:|---:|---|\n")
		for _, p := range r.Phases {
			if s := p.Structured; s != nil {
				fmt.Fprintf(&b, "| %s | %d | %d | %s | %s | %d / %d / %d |\n", mdText(p.Phase), s.Pages, s.Parsed,
					mdFloat(s.TEDAccuracyMean)+p.CI.Text("structured.ted_accuracy_mean"), mdFloat(s.FieldF1)+p.CI.Text("structured.field_f1"),
					s.FieldsMatched, s.FieldsPred, s.FieldsRef)
			}
		}
		b.WriteString("\n")
	}

	if len(r.Missing)+len(r.Duplicated)+len(r.Unplanned)+len(r.SkippedLines) > 0 {
		b.WriteString("## Completeness\n\n")
		for _, m := range r.Missing {
			fmt.Fprintf(&b, "- missing: %s/%s\n", mdText(m.Phase), mdText(m.SampleID))
		}
		if more := r.MissingCount - len(r.Missing); more > 0 {
			fmt.Fprintf(&b, "- missing: … and %d more\n", more)
		}
		for _, d := range r.Duplicated {
			lines := make([]string, len(d.Lines))
			for i, l := range d.Lines {
				lines[i] = strconv.Itoa(l)
			}
			fmt.Fprintf(&b, "- recorded %d times: %s/%s (lines %s; line %d scored)\n", d.Count, mdText(d.Phase), mdText(d.SampleID), strings.Join(lines, ", "), d.ScoredLine)
		}
		for _, u := range r.Unplanned {
			fmt.Fprintf(&b, "- unplanned (scored): %s/%s (line %d)\n", mdText(u.Phase), mdText(u.SampleID), u.Line)
		}
		for _, s := range r.SkippedLines {
			fmt.Fprintf(&b, "- skipped line %d: %s\n", s.Line, mdText(s.Error))
		}
		b.WriteString("\n")
	}

	low := r.lowest(MarkdownLowest)
	if len(low) > 0 {
		fmt.Fprintf(&b, "## Lowest-scoring pages\n\nPages by ROUGE-L F1, lowest first (at most %d, all phases together).\n\n", MarkdownLowest)
		b.WriteString("| phase | sample | status | finish | flags | F1 | numeric | missing numbers |\n")
		b.WriteString("|---|---|---|---|---|---:|---:|---|\n")
		for _, p := range low {
			fr := "null"
			if p.FinishReason != nil {
				fr = *p.FinishReason
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %d / %d | %s |\n",
				mdText(p.Phase), mdText(p.SampleID), mdText(p.Status), mdText(fr), mdText(strings.Join(p.Flags, ", ")),
				mdFloat(p.F1), p.NumericMatched, p.NumericRef, mdCodes(p.MissingNumbers))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// lowest returns up to n pages by ascending F1 (null F1 last), ties in
// report order.
func (r *Report) lowest(n int) []Page {
	idx := make([]int, len(r.Pages))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		fa, fb := r.Pages[a].F1, r.Pages[b].F1
		switch {
		case fa == nil && fb == nil:
			return 0
		case fa == nil:
			return 1
		case fb == nil:
			return -1
		case *fa < *fb:
			return -1
		case *fa > *fb:
			return 1
		}
		return 0
	})
	out := make([]Page, 0, min(n, len(idx)))
	for _, i := range idx[:min(n, len(idx))] {
		out = append(out, r.Pages[i])
	}
	return out
}

// mdFloat formats a score with four decimals; nil is "n/a".
func mdFloat(f *float64) string {
	if f == nil {
		return "n/a"
	}
	return strconv.FormatFloat(*f, 'f', 4, 64)
}

// mdCodes renders strings as inline code, separated by spaces.
func mdCodes(list []string) string {
	parts := make([]string, len(list))
	for i, s := range list {
		parts[i] = "`" + strings.ReplaceAll(mdText(s), "`", "'") + "`"
	}
	return strings.Join(parts, " ")
}

// mdText makes text safe inside a Markdown table cell.
func mdText(s string) string {
	s = strings.ReplaceAll(s, "\\", "\\\\")
	s = strings.ReplaceAll(s, "|", "\\|")
	s = strings.ReplaceAll(s, "\r", " ")
	return strings.ReplaceAll(s, "\n", " ")
}
