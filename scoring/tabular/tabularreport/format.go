package tabularreport

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/docscore/docscore/scoring/stats"
	"github.com/docscore/docscore/scoring/tabular/tabularread"
)

// formatFloat renders a score for CSV and Markdown cells: the shortest
// representation that round-trips, like the JSON.
//
//go:noinline
func formatFloat(v float64) string {
	return strconv.FormatFloat(v, 'g', -1, 64)
}

//go:noinline
func formatOpt(p *float64) string {
	if p == nil {
		return ""
	}
	return formatFloat(*p)
}

// WriteCSV writes one CSV table: a row per image (table "image") followed
// by a row per cell (table "cell"). The first column names the table, so
// tools can filter on it; columns that do not apply to a row are empty.
func (r *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	ciCols := r.ciColumns()
	header := CSVHeader(r.Fields, ciCols)
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, im := range r.Images {
		if err := cw.Write(ImageCSVRow(im, len(header), len(ciCols))); err != nil {
			return err
		}
	}
	if err := WriteCellRows(cw, r.Cells, len(ciCols)); err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

// CSVHeader is the CSV's first row, for the scored fields and the
// interval columns (ciColumns).
func CSVHeader(fields, ciCols []string) []string {
	header := []string{"table", "model", "phase", "run", "page", "status", "line", "failure",
		"images_ok", "images_failed", "matched", "n_model", "n_gt", "precision", "recall", "f1",
		"name_cer", "name_cer_edits", "name_ref_chars"}
	for _, f := range fields {
		header = append(header, f+"_accuracy", f+"_scored")
	}
	return append(header, ciCols...)
}

// ImageCSVRow is an image's CSV row, width columns of which ci are the
// interval columns (empty for an image).
func ImageCSVRow(im *ImageScore, width, ci int) []string {
	row := []string{"image", im.Model, im.Phase, runText(im.Run), im.Page, im.Status, strconv.Itoa(im.Line), im.Failure, "", ""}
	if im.Status != "ok" {
		return append(row, make([]string, width-len(row))...)
	}
	var cer string
	if im.NameRefChars > 0 {
		cer = formatFloat(float64(im.NameEdits) / float64(im.NameRefChars))
	}
	row = append(row, strconv.Itoa(im.Matched), strconv.Itoa(im.NModel), strconv.Itoa(im.NGT),
		formatFloat(im.Precision), formatFloat(im.Recall), formatFloat(im.F1),
		cer, strconv.Itoa(im.NameEdits), strconv.Itoa(im.NameRefChars))
	for _, f := range im.Fields {
		acc := ""
		if f.Scored > 0 {
			acc = formatFloat(f.Sum / float64(f.Scored))
		}
		row = append(row, acc, strconv.Itoa(f.Scored))
	}
	return append(row, make([]string, ci)...)
}

// WriteCellRows writes the cells' CSV rows, after the images'.
func WriteCellRows(cw *csv.Writer, cells []*Cell, ci int) error {
	for _, c := range cells {
		row := []string{"cell", c.Model, c.Phase, "", "", "", "", "",
			strconv.Itoa(c.ImagesOK), strconv.Itoa(c.ImagesFailed),
			strconv.Itoa(c.Matched), strconv.Itoa(c.NModel), strconv.Itoa(c.NGT),
			formatFloat(c.Precision), formatFloat(c.Recall), formatFloat(c.F1),
			formatOpt(c.NameCER), strconv.Itoa(c.NameEdits), strconv.Itoa(c.NameRefChars)}
		for _, f := range c.Fields {
			row = append(row, formatOpt(f.Accuracy), strconv.Itoa(f.Scored))
		}
		row = append(row, ciCells(c.CI, ci)...)
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	return nil
}

// runText renders a run id: strings without their quotes.
//
//go:noinline
func runText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// WriteMarkdown writes the cells table, the per-page comparison (F1 per
// page and cell, pooled over runs) and, for a preview, the deltas.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var failed bytes.Buffer
	agg := NewMDSummary(&failed)
	for _, im := range r.Images {
		agg.Add(im)
	}
	return r.WriteMarkdownWith(w, agg, func(w io.Writer) error {
		_, err := w.Write(failed.Bytes())
		return err
	})
}

// MDSummary is what the Markdown needs of the images, gathered image by
// image in input order (WriteMarkdown over a report's images, Stream as
// it goes): match counts per (cell, page), the pages, and the failed
// images' table rows, rendered into failed as they come.
type MDSummary struct {
	perPage map[pageCellKey]*pageCounts
	pageSet map[string]bool
	failed  io.Writer
	nFailed int
	row     bytes.Buffer
	strs    Interner
}

type pageCellKey struct{ model, phase, page string }

type pageCounts struct{ matched, nModel, nGT int }

// NewMDSummary returns an empty summary; the failed images' rows go to
// failed.
func NewMDSummary(failed io.Writer) *MDSummary {
	return &MDSummary{perPage: map[pageCellKey]*pageCounts{}, pageSet: map[string]bool{}, failed: failed, strs: Interner{}}
}

// Add counts one image, or renders its row of failed images.
func (a *MDSummary) Add(im *ImageScore) error {
	if im.Status != "ok" {
		a.nFailed++
		a.row.Reset()
		writeRow(&a.row, []string{strconv.Itoa(im.Line), im.Model, im.Phase, runText(im.Run), im.Page, im.Failure})
		_, err := a.failed.Write(a.row.Bytes())
		return err
	}
	k := pageCellKey{im.Model, im.Phase, im.Page}
	n := a.perPage[k]
	if n == nil {
		n = &pageCounts{}
		k = pageCellKey{a.strs.Get(im.Model), a.strs.Get(im.Phase), a.strs.Get(im.Page)}
		a.perPage[k] = n
		a.pageSet[k.page] = true
	}
	n.matched += im.Matched
	n.nModel += im.NModel
	n.nGT += im.NGT
	return nil
}

// WriteMarkdownWith writes the Markdown from the report's summaries and agg;
// failedRows writes the failed images' rows agg rendered.
func (r *Report) WriteMarkdownWith(w io.Writer, agg *MDSummary, failedRows func(io.Writer) error) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Tabular extraction scores\n\n")
	fmt.Fprintf(&b, "Gate %s (name CER is computed on the pairs that cleared it).", formatFloat(r.Gate))
	if r.Rules.SHA256 != nil {
		fmt.Fprintf(&b, " Rules: `%s`, %d settled, %d OPEN, sha256 `%s`.", r.Rules.File, r.Rules.Settled, r.Rules.Open, (*r.Rules.SHA256)[:12])
	} else {
		fmt.Fprintf(&b, " No rule file: built-in normalization only.")
	}
	if r.Preview != nil {
		fmt.Fprintf(&b, " **Preview**: %d OPEN row(s) switched on; the tables show the preview scores.", len(r.Preview.Rows))
	}
	b.WriteString("\n\n## Cells\n\n")
	head := []string{"model", "phase", "images ok", "failed", "F1", "precision", "recall", "name CER"}
	head = append(head, r.Fields...)
	writeRow(&b, head)
	writeRule(&b, len(head))
	for _, c := range r.Cells {
		row := []string{c.Model, c.Phase, strconv.Itoa(c.ImagesOK), strconv.Itoa(c.ImagesFailed),
			withCI(fmt4(c.F1), c.CI, "f1"), withCI(fmt4(c.Precision), c.CI, "precision"),
			withCI(fmt4(c.Recall), c.CI, "recall"), withCI(fmtOpt4(c.NameCER), c.CI, "name_cer")}
		for _, f := range c.Fields {
			row = append(row, withCI(fmtOpt4(f.Accuracy), c.CI, "fields."+f.Name))
		}
		writeRow(&b, row)
	}
	if ci := r.firstCI(); ci != nil {
		b.WriteString("\n" + ci.Footnote())
	}

	b.WriteString("\n## Per-page F1\n\nF1 of each page, pooled over the runs of each cell.\n\n")
	pages := make([]string, 0, len(agg.pageSet))
	for p := range agg.pageSet {
		pages = append(pages, p)
	}
	sort.Slice(pages, func(i, j int) bool { return pageLess(pages[i], pages[j]) })
	head = []string{"page"}
	for _, c := range r.Cells {
		head = append(head, c.Model+" / "+c.Phase)
	}
	writeRow(&b, head)
	writeRule(&b, len(head))
	for _, p := range pages {
		row := []string{p}
		for _, c := range r.Cells {
			n := agg.perPage[pageCellKey{c.Model, c.Phase, p}]
			if n == nil {
				row = append(row, "–")
				continue
			}
			_, _, f1 := PRF(n.matched, n.nModel, n.nGT)
			row = append(row, fmt4(f1))
		}
		writeRow(&b, row)
	}

	if agg.nFailed > 0 {
		b.WriteString("\n## Failed images\n\nCounted, and excluded from every score.\n\n")
		writeRow(&b, []string{"line", "model", "phase", "run", "page", "why"})
		writeRule(&b, 6)
		if _, err := w.Write(b.Bytes()); err != nil {
			return err
		}
		b.Reset()
		if err := failedRows(w); err != nil {
			return err
		}
	}

	if r.Preview != nil {
		b.WriteString("\n## Preview: settled → preview (delta)\n\nRows switched on:\n\n")
		for _, row := range r.Preview.Rows {
			fmt.Fprintf(&b, "- line %d (%s): %s\n", row.Line, row.Kind, row.String())
		}
		b.WriteString("\n")
		head = []string{"model", "phase", "F1", "name CER"}
		head = append(head, r.Fields...)
		writeRow(&b, head)
		writeRule(&b, len(head))
		cmp := r.Preview.Comparison
		for i, c := range r.Preview.Cells {
			row := []string{c.Model, c.Phase, fmtDelta(c.F1, cmp.Text(i, "f1")), fmtDelta(c.NameCER, cmp.Text(i, "name_cer"))}
			for _, f := range c.Fields {
				row = append(row, fmtDelta(f.Delta, cmp.Text(i, "fields."+f.Name)))
			}
			writeRow(&b, row)
		}
		if cmp != nil {
			writePreviewSignificance(&b, r.Preview)
		}
		writePreviewChanges(&b, r.Preview, r.Key)
	}
	if len(r.Warnings) > 0 {
		b.WriteString("\n## Warnings\n\n")
		for _, wn := range r.Warnings {
			fmt.Fprintf(&b, "- %s\n", mdEscape(wn))
		}
	}
	writeLeftOutMD(&b, r.LeftOut)
	_, err := w.Write(b.Bytes())
	return err
}

// firstCI returns the first cell's intervals, which carry the settings
// every cell shares; nil without intervals.
//
//go:noinline
func (r *Report) firstCI() *stats.CI {
	for _, c := range r.Cells {
		if c != nil && c.CI != nil {
			return c.CI
		}
	}
	return nil
}

// withCI appends the statistic's interval to its value: "0.9805
// [0.9712, 0.9881]" (stats.CI.Text).
//
//go:noinline
func withCI(v string, ci *stats.CI, path string) string { return v + ci.Text(path) }

// ciColumns are the interval columns of the CSV, after the others: each
// statistic's lo and hi, in the cells' order (a field's named after its
// accuracy column); none without intervals.
//
//go:noinline
func (r *Report) ciColumns() []string {
	ci := r.firstCI()
	if ci == nil {
		return nil
	}
	return CIColumnNames(ci.Stats)
}

// CIColumnNames are the interval columns of statistics in their order.
func CIColumnNames(st []stats.StatInterval) []string {
	cols := make([]string, 0, 2*len(st))
	for _, st := range st {
		name := st.Name
		if st.Group != "" {
			name += "_accuracy"
		}
		cols = append(cols, name+"_lo", name+"_hi")
	}
	return cols
}

// ciCells are a cell's interval columns (ciColumns), n of them: empty
// when the interval is null or the cell has none.
func ciCells(ci *stats.CI, n int) []string {
	out := make([]string, n)
	if ci == nil {
		return out
	}
	for i, st := range ci.Stats {
		if st.Interval != nil && 2*i+1 < n {
			out[2*i], out[2*i+1] = formatFloat(st.Interval[0]), formatFloat(st.Interval[1])
		}
	}
	return out
}

//go:noinline
func fmt4(v float64) string { return strconv.FormatFloat(v, 'f', 4, 64) }

//go:noinline
func fmtOpt4(p *float64) string {
	if p == nil {
		return "–"
	}
	return fmt4(*p)
}

// fmtDelta renders a delta: "0.9663 → 0.9775 (+0.0112)", sig (the
// comparison's interval and p, stats.Report.Text) inside the parentheses;
// no parentheses when the delta is zero.
func fmtDelta(d Delta, sig string) string {
	if d.Settled == nil || d.Preview == nil {
		return fmtOpt4(d.Settled) + " → " + fmtOpt4(d.Preview)
	}
	s := fmt4(*d.Settled) + " → " + fmt4(*d.Preview)
	if *d.Delta != 0 {
		s += " (" + stats.Signed(*d.Delta) + sig + ")"
	}
	return s
}

// writePreviewSignificance writes, under the preview table, what its
// brackets and p mean, then each cell's movement: the pages whose own F1
// rose, fell or stayed, listed.
func writePreviewSignificance(b *bytes.Buffer, p *Preview) {
	cmp := p.Comparison
	b.WriteString("\nIn parentheses: the change")
	if cmp.Replicates > 0 {
		b.WriteString(", in brackets its paired " + strconv.FormatFloat(100*cmp.Level, 'g', -1, 64) + "% bootstrap interval (" +
			strconv.Itoa(cmp.Replicates) + " replicates over pages)")
	}
	if cmp.Permutations > 0 {
		b.WriteString(", p its randomization p-value (" + strconv.Itoa(cmp.Permutations) + " rounds) Holm-adjusted over the " +
			strconv.Itoa(len(cmp.Comparisons)) + " cells, * where significant at α = " + strconv.FormatFloat(cmp.Alpha, 'g', -1, 64))
	}
	b.WriteString("; seed " + strconv.FormatUint(cmp.Seed, 10) + ".\n\nF1 per page, settled → preview:\n\n")
	for i, c := range cmp.Comparisons {
		m := &c.Movement
		b.WriteString("- " + p.Cells[i].Model + " / " + p.Cells[i].Phase + ": F1 rose on " + pages(len(m.Rose)) +
			", fell on " + strconv.Itoa(len(m.Fell)) + ", same on " + strconv.Itoa(m.Same))
		switch {
		case len(m.Rose) > 0 && len(m.Fell) > 0:
			b.WriteString(" (rose: " + strings.Join(m.Rose, ", ") + "; fell: " + strings.Join(m.Fell, ", ") + ")")
		case len(m.Rose) > 0:
			b.WriteString(" (rose: " + strings.Join(m.Rose, ", ") + ")")
		case len(m.Fell) > 0:
			b.WriteString(" (fell: " + strings.Join(m.Fell, ", ") + ")")
		}
		b.WriteString("\n")
	}
	writeSampleLimits(b, cmp)
}

// writeSampleLimits writes what the preview's sample can tell (SPEC
// F.7): the note on intervals from few pages, each cell's minimum
// detectable F1 change, and which statistics cannot be significant.
func writeSampleLimits(b *bytes.Buffer, cmp *stats.Report) {
	few := false
	for _, c := range cmp.Comparisons {
		few = few || c.FewUnits
	}
	if few {
		b.WriteString("\n" + stats.FewUnitsNote("page") + "\n")
	}
	b.WriteString("\nSmallest F1 change the test detects 80% of the time at α (mde)")
	if cmp.Effect > 0 {
		b.WriteString(", and the paired pages a change of " + strconv.FormatFloat(cmp.Effect, 'g', -1, 64) + " needs")
	}
	b.WriteString(":\n\n")
	for _, c := range cmp.Comparisons {
		s, ok := c.Get("f1")
		if !ok {
			continue
		}
		line := "- " + previewTitle(c) + ": mde " + fmtOpt4(s.MDE)
		if s.UnitsNeeded != nil {
			line += ", " + pages(*s.UnitsNeeded) + " needed (" + strconv.Itoa(c.UnitsPaired) + " now)"
		}
		b.WriteString(line + "\n")
	}
	if lim := cmp.Limits("page", previewTitle); len(lim) > 0 {
		b.WriteString("\nWhat cannot be significant, however large the change (p has a floor of 2^(1−n), n the pages that differ):\n\n")
		for _, l := range lim {
			b.WriteString("- " + l + "\n")
		}
	}
}

// previewTitle names a preview's comparison by its cell: model / phase.
func previewTitle(c *stats.Comparison) string {
	model := ""
	if c.A.Model != nil {
		model = *c.A.Model
	}
	return model + " / " + c.A.Phase
}

// pages is "1 page" or "n pages".
func pages(n int) string {
	if n == 1 {
		return "1 page"
	}
	return strconv.Itoa(n) + " pages"
}

func writeRow(b *bytes.Buffer, cells []string) {
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" ")
		b.WriteString(mdEscape(c))
		b.WriteString(" |")
	}
	b.WriteString("\n")
}

func writeRule(b *bytes.Buffer, n int) {
	b.WriteString("|")
	for i := 0; i < n; i++ {
		b.WriteString("---|")
	}
	b.WriteString("\n")
}

func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// pageLess orders page ids numerically when both are integers.
func pageLess(a, b string) bool {
	na, okA := tabularread.PageKey(a)
	nb, okB := tabularread.PageKey(b)
	if okA && okB && na != nb {
		return na < nb
	}
	return a < b
}

// The report writers' small helpers in this file (and copyFloat, delta,
// abbreviate, columnNames) are //go:noinline: they run once per cell or
// row of a report, never in the pairing loop, and inlined at each call
// they made the page's docscore.wasm larger (sitebuild.WasmBuildFlags).

// writeLeftOutMD writes the Markdown's "Left out" section: one item per
// input a scoring with SkipBadInputs left out; nothing without any.
func writeLeftOutMD(b *bytes.Buffer, l []LeftOut) {
	if len(l) == 0 {
		return
	}
	fmt.Fprintf(b, "\n## Left out (%d)\n\n", len(l))
	for _, x := range l {
		fmt.Fprintf(b, "- %s\n", mdEscape(x.String()))
	}
}
