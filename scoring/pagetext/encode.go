package pagetext

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/docscore/docscore/scoring/internal/jsonout"
)

// WriteJSON writes the report as indented JSON and a newline: key order
// follows the struct fields, floats encoding/json's shortest form.
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
	"model", "phase", "run", "page", "gt_file", "ocr_file", "line",
	"cer", "wer", "char_edits", "gt_chars", "ocr_chars", "word_edits", "gt_words", "ocr_words",
	"bow_matched", "bow_precision", "bow_recall", "bow_f1",
}

// WriteCSV writes one row per page (RFC 4180, header CSVHeader); an
// undefined rate is an empty cell.
func (r *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	for i := range r.Pages {
		if err := cw.Write(csvRecord(&r.Pages[i])); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvRecord is a row's record in WriteCSV.
func csvRecord(p *Row) []string {
	run := string(p.Run)
	if run == "null" {
		run = ""
	} else if s, err := strconv.Unquote(run); err == nil {
		run = s
	}
	line := ""
	if p.Line > 0 {
		line = strconv.Itoa(p.Line)
	}
	return []string{p.Model, p.Phase, run, p.Page, p.GTFile, p.OCRFile, line,
		optFloat(p.CER), optFloat(p.WER), itoa(p.CharEdits), itoa(p.GTChars), itoa(p.OCRChars),
		itoa(p.WordEdits), itoa(p.GTWords), itoa(p.OCRWords), itoa(p.BowMatched),
		float(p.BowPrecision), float(p.BowRecall), float(p.BowF1)}
}

func itoa(n int) string { return strconv.Itoa(n) }

// float formats a number as encoding/json does.
func float(f float64) string {
	b, err := json.Marshal(f)
	if err != nil {
		return ""
	}
	return string(b)
}

func optFloat(f *float64) string {
	if f == nil {
		return ""
	}
	return float(*f)
}

// MarkdownConfusions is how many confusions of each kind WriteMarkdown
// shows a cell.
const MarkdownConfusions = 10

// WriteMarkdown writes a summary for people: a table of the cells with
// their intervals, each cell's most frequent confusions, the unpaired
// pages and the warnings.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Page text scores\n\n")
	fmt.Fprintf(&b, "Text read at %s level, normalization %s. CER and WER are micro rates (Σ edits ÷ Σ ground-truth units, as fractions); the macro mean of the pages' rates is beside them.\n\n", r.Level, r.Normalization)
	b.WriteString("| model | phase | pages | CER | CER macro | WER | WER macro | bag-of-words F1 |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|\n")
	footnote := ""
	for i := range r.Cells {
		c := &r.Cells[i]
		cell := func(path string, v *float64) string {
			return frac(v) + c.CI.Text(path)
		}
		bow := c.BowF1
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %s | %s | %s | %s |\n", mdText(c.Model), mdText(c.Phase), c.Pages,
			cell("cer", c.CER), cell("cer_macro", c.CERMacro), cell("wer", c.WER), cell("wer_macro", c.WERMacro), cell("bow_f1", &bow))
		if c.CI != nil {
			footnote = c.CI.Footnote()
		}
	}
	if footnote != "" {
		fmt.Fprintf(&b, "\n%s", footnote)
	}
	for i := range r.Cells {
		c := &r.Cells[i]
		fmt.Fprintf(&b, "\n## %s / %s: most frequent confusions\n\n", mdText(c.Model), mdText(c.Phase))
		b.WriteString("| characters (GT → OCR) | count | words (GT → OCR) | count |\n|---|---:|---|---:|\n")
		n := min(MarkdownConfusions, max(len(c.CharConfusions), len(c.WordConfusions)))
		if n == 0 {
			b.WriteString("| none | | none | |\n")
		}
		for j := range n {
			var cs, cn, ws, wn string
			if j < len(c.CharConfusions) {
				x := c.CharConfusions[j]
				cs, cn = "`"+mdCode(x.GT)+"` → `"+mdCode(x.OCR)+"`", strconv.Itoa(x.Count)
			}
			if j < len(c.WordConfusions) {
				x := c.WordConfusions[j]
				ws, wn = "`"+mdCode(x.GT)+"` → `"+mdCode(x.OCR)+"`", strconv.Itoa(x.Count)
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", cs, cn, ws, wn)
		}
	}
	if len(r.Unpaired.GTOnly)+len(r.Unpaired.OCROnly) > 0 {
		b.WriteString("\n## Unpaired pages\n\n")
		if len(r.Unpaired.GTOnly) > 0 {
			fmt.Fprintf(&b, "- ground truth without OCR: %s\n", mdList(r.Unpaired.GTOnly))
		}
		if len(r.Unpaired.OCROnly) > 0 {
			fmt.Fprintf(&b, "- OCR without ground truth: %s\n", mdList(r.Unpaired.OCROnly))
		}
	}
	if len(r.Warnings) > 0 {
		b.WriteString("\n## Warnings\n\n")
		for _, x := range r.Warnings {
			fmt.Fprintf(&b, "- %s\n", mdText(x))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// frac writes a rate with four decimals, "–" when undefined.
func frac(v *float64) string {
	if v == nil {
		return "–"
	}
	return strconv.FormatFloat(*v, 'f', 4, 64)
}

// mdText escapes the characters that would break a table cell.
func mdText(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ", "`", "\\`", "*", `\*`, "_", `\_`).Replace(s)
}

// mdCode writes a unit inside a code span: white space made visible.
func mdCode(s string) string {
	return strings.NewReplacer("\n", "⏎", "|", `\|`, "`", "'", " ", "␣").Replace(s)
}

func mdList(ids []string) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = "`" + mdCode(id) + "`"
	}
	return strings.Join(parts, ", ")
}
