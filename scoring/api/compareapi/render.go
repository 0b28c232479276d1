package compareapi

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/docscore/docscore/scoring/stats"
)

// render writes the report in format: the JSON of SPEC F.6, CSV (a row
// per comparison and statistic), Markdown or JUnit XML. names are the
// Markdown's names of the sides (sideNames).
func render(r *stats.Report, format string, names [2]string) ([]byte, error) {
	switch format {
	case "csv":
		return renderCSV(r)
	case "md":
		return renderMarkdown(r, names), nil
	case "junit":
		return renderJUnit(r)
	}
	return r.JSON()
}

// sideNames names the sides of the request's comparisons: base and new,
// A and B (two cells of one report), or settled and preview.
func sideNames(req *CompareRequest) [2]string {
	switch {
	case req.Within:
		return [2]string{"A", "B"}
	case req.Preview:
		return [2]string{"settled", "preview"}
	}
	return [2]string{"base", "new"}
}

// label names a side: model/phase, or the phase of a receipts report.
func label(s stats.Side) string {
	if s.Model == nil {
		return s.Phase
	}
	return *s.Model + "/" + s.Phase
}

// title names a comparison: the cell when both sides are one cell of two
// reports, else "A → B".
func title(c *stats.Comparison) string {
	a, b := label(c.A), label(c.B)
	if a == b {
		return a
	}
	return a + " → " + b
}

// num writes a number exactly (as JSON does), empty for null.
func num(v *float64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(*v, 'g', -1, 64)
}

func better(s *stats.StatComparison) string {
	if s.Better == nil {
		return ""
	}
	return *s.Better
}

var csvHeader = []string{"family", "a_model", "a_phase", "a_id", "b_model", "b_phase", "b_id", "statistic",
	"a", "b", "delta", "ci_lo", "ci_hi", "p", "p_holm", "significant", "better",
	"min_p", "can_be_significant", "mde", "units_needed", "few_units",
	"units_paired", "units_only_a", "units_only_b", "rose", "fell", "same"}

func renderCSV(r *stats.Report) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write(csvHeader)
	opt := func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	}
	for _, c := range r.Comparisons {
		for i := range c.Stats {
			s := &c.Stats[i]
			lo, hi := "", ""
			if s.CI != nil {
				lo, hi = num(&s.CI[0]), num(&s.CI[1])
			}
			_ = w.Write([]string{r.Family, opt(c.A.Model), c.A.Phase, c.A.ID, opt(c.B.Model), c.B.Phase, c.B.ID, s.Path(),
				num(s.A), num(s.B), num(s.Delta), lo, hi, num(s.P), num(s.PHolm), strconv.FormatBool(s.Significant), better(s),
				num(&s.MinP), strconv.FormatBool(s.CanBeSignificant), num(s.MDE), optInt(s.UnitsNeeded), strconv.FormatBool(c.FewUnits),
				strconv.Itoa(c.UnitsPaired), strconv.Itoa(len(c.UnitsOnlyA)), strconv.Itoa(len(c.UnitsOnlyB)),
				strconv.Itoa(len(c.Movement.Rose)), strconv.Itoa(len(c.Movement.Fell)), strconv.Itoa(c.Movement.Same)})
		}
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}

// optInt writes a count, empty for null.
func optInt(n *int) string {
	if n == nil {
		return ""
	}
	return strconv.Itoa(*n)
}

// units names the report's unit, in the plural unless n is 1.
func units(r *stats.Report, n int) string {
	noun := "page"
	switch r.Family {
	case "receipts":
		noun = "sample"
	case "tables":
		noun = "table"
	}
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// movementStat is the statistic whose per-unit value the movement lists
// follow.
func movementStat(r *stats.Report) string {
	switch r.Family {
	case "receipts":
		return "rouge_l_f1_mean"
	case "tables":
		return "teds"
	}
	return "f1"
}

func f4(v *float64) string {
	if v == nil {
		return "–"
	}
	return fmt.Sprintf("%.4f", *v)
}

func signed(v float64) string { return fmt.Sprintf("%+.4f", v) }

// mdCell escapes a table cell's pipes.
func mdCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

func renderMarkdown(r *stats.Report, names [2]string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Comparison of %s scores\n\n", r.Family)
	plural := "s"
	if len(r.Comparisons) == 1 {
		plural = ""
	}
	fmt.Fprintf(&b, "%d comparison%s; %g%% intervals from %d bootstrap replicates; p from %d randomization rounds, Holm-adjusted per statistic; significant at α = %g; seed %d.\n\n",
		len(r.Comparisons), plural, 100*r.Level, r.Replicates, r.Permutations, r.Alpha, r.Seed)
	colA, colB := names[0], names[1]
	if r.Effect > 0 {
		fmt.Fprintf(&b, "mde: the smallest difference the test detects 80%% of the time at α on these %s; units for ±%g: the paired %s a difference of %g needs.\n\n",
			units(r, 2), r.Effect, units(r, 2), r.Effect)
		fmt.Fprintf(&b, "| cell | statistic | %s | %s | delta [lo, hi] | p (Holm) | significant | mde | units for ±%g | movement |\n", colA, colB, r.Effect)
		b.WriteString("|---|---|---:|---:|---|---|---|---:|---:|---|\n")
	} else {
		fmt.Fprintf(&b, "mde: the smallest difference the test detects 80%% of the time at α on these %s.\n\n", units(r, 2))
		fmt.Fprintf(&b, "| cell | statistic | %s | %s | delta [lo, hi] | p (Holm) | significant | mde | movement |\n", colA, colB)
		b.WriteString("|---|---|---:|---:|---|---|---|---:|---|\n")
	}
	few := false
	move := movementStat(r)
	for _, c := range r.Comparisons {
		for i := range c.Stats {
			s := &c.Stats[i]
			delta := "–"
			if s.Delta != nil {
				delta = signed(*s.Delta)
				if s.CI != nil {
					delta += fmt.Sprintf(" [%s, %s]", signed(s.CI[0]), signed(s.CI[1]))
					if c.FewUnits {
						delta += " †"
						few = true
					}
				}
			}
			p := "–"
			if s.P != nil {
				p = fmt.Sprintf("%s (%s)", f4(s.P), f4(s.PHolm))
			}
			sig := "no"
			if !s.CanBeSignificant && s.Delta != nil {
				sig = "cannot be"
			}
			if s.Significant {
				sig = "yes, " + colB + " better"
				if better(s) == "a" {
					sig = "**yes, " + colB + " worse**"
				}
			}
			mv := ""
			if s.Path() == move {
				mv = fmt.Sprintf("rose on %d %s, fell on %d", len(c.Movement.Rose), units(r, len(c.Movement.Rose)), len(c.Movement.Fell))
			}
			extra := f4(s.MDE)
			if r.Effect > 0 {
				extra += " | " + optInt(s.UnitsNeeded)
				if s.UnitsNeeded == nil {
					extra += "–"
				}
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
				mdCell(title(c)), mdCell(s.Path()), f4(s.A), f4(s.B), delta, p, sig, extra, mv)
		}
	}
	if few {
		b.WriteString("\n" + stats.FewUnitsNote(units(r, 1)) + "\n")
	}
	if lim := r.Limits(units(r, 1), title); len(lim) > 0 {
		b.WriteString("\nWhat cannot be significant, however large the difference (the randomization test's p has a floor of 2^(1−n), n the paired " +
			units(r, 2) + " that differ):\n\n")
		for _, l := range lim {
			b.WriteString("- " + l + "\n")
		}
	}
	return b.Bytes()
}

// renderJUnit writes one test suite per comparison and one test case per
// statistic, failed when the statistic is significantly worse on B. It
// writes the XML itself, escaping as encoding/xml's EscapeText does:
// linking encoding/xml (its Marshal's reflection, its entity tables)
// added 124 KB gzipped to the Worker, which Cloudflare caps at 3 MB.
func renderJUnit(r *stats.Report) ([]byte, error) {
	var b bytes.Buffer
	tests, failures := 0, 0
	var suites bytes.Buffer
	for _, c := range r.Comparisons {
		failed := 0
		var cases bytes.Buffer
		for i := range c.Stats {
			s := &c.Stats[i]
			fmt.Fprintf(&cases, "    <testcase name=\"%s\" classname=\"%s\">\n", esc(s.Path()), esc("docscore.compare."+title(c)))
			if better(s) == "a" {
				failed++
				msg := fmt.Sprintf("%s significantly worse on %s than on %s", s.Path(), c.B.ID, c.A.ID)
				fmt.Fprintf(&cases, "      <failure message=\"%s\" type=\"regression\">%s</failure>\n", esc(msg), esc(statLine(s)))
			}
			fmt.Fprintf(&cases, "      <system-out>%s</system-out>\n    </testcase>\n", esc(statLine(s)))
		}
		fmt.Fprintf(&suites, "  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\">\n%s  </testsuite>\n",
			esc(c.A.ID+" → "+c.B.ID), len(c.Stats), failed, cases.Bytes())
		tests += len(c.Stats)
		failures += failed
	}
	b.WriteString(xmlHeader)
	fmt.Fprintf(&b, "<testsuites name=\"%s\" tests=\"%d\" failures=\"%d\">\n%s</testsuites>\n",
		esc("docscore compare "+r.Family), tests, failures, suites.Bytes())
	return b.Bytes(), nil
}

// statLine says a statistic's comparison in one line.
func statLine(s *stats.StatComparison) string {
	line := fmt.Sprintf("a %s, b %s", f4(s.A), f4(s.B))
	if s.Delta != nil {
		line += ", delta " + signed(*s.Delta)
	}
	if s.CI != nil {
		line += fmt.Sprintf(" [%s, %s]", signed(s.CI[0]), signed(s.CI[1]))
	}
	if s.P != nil {
		line += fmt.Sprintf(", p %s, p_holm %s", f4(s.P), f4(s.PHolm))
	}
	line += ", min_p " + strconv.FormatFloat(s.MinP, 'g', 4, 64) + ", mde " + f4(s.MDE)
	if s.UnitsNeeded != nil {
		line += ", units_needed " + strconv.Itoa(*s.UnitsNeeded)
	}
	if !s.CanBeSignificant && s.Delta != nil {
		line += ", cannot be significant"
	}
	return line
}

// xmlHeader is encoding/xml's Header.
const xmlHeader = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"

// esc escapes text for an XML attribute or element as encoding/xml's
// EscapeText does: the five markup characters and tab, newline and
// carriage return as references, a character XML cannot hold as U+FFFD.
func esc(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString("&#34;")
		case r == '\'':
			b.WriteString("&#39;")
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '\t':
			b.WriteString("&#x9;")
		case r == '\n':
			b.WriteString("&#xA;")
		case r == '\r':
			b.WriteString("&#xD;")
		case !xmlChar(r):
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// xmlChar reports whether r is a character XML 1.0 allows.
func xmlChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}
