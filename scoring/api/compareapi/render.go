package compareapi

import (
	"bytes"
	"encoding/csv"
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"

	"github.com/docscore/docscore/scoring/internal/jsonout"
	"github.com/docscore/docscore/scoring/stats"
)

// render writes the report in format: the JSON of SPEC F.6, CSV (a row
// per comparison and statistic), Markdown or JUnit XML. within says the
// sides are two cells of one report (A, B) rather than base and new.
func render(r *stats.Report, format string, within bool) ([]byte, error) {
	switch format {
	case "csv":
		return renderCSV(r)
	case "md":
		return renderMarkdown(r, within), nil
	case "junit":
		return renderJUnit(r)
	}
	return jsonout.Marshal(r)
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
				strconv.Itoa(c.UnitsPaired), strconv.Itoa(len(c.UnitsOnlyA)), strconv.Itoa(len(c.UnitsOnlyB)),
				strconv.Itoa(len(c.Movement.Rose)), strconv.Itoa(len(c.Movement.Fell)), strconv.Itoa(c.Movement.Same)})
		}
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}

// units names the report's unit in the plural.
func units(r *stats.Report) string {
	if r.Family == "receipts" {
		return "samples"
	}
	return "pages"
}

// movementStat is the statistic whose per-unit value the movement lists
// follow.
func movementStat(r *stats.Report) string {
	if r.Family == "receipts" {
		return "rouge_l_f1_mean"
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

func renderMarkdown(r *stats.Report, within bool) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Comparison of %s scores\n\n", r.Family)
	plural := "s"
	if len(r.Comparisons) == 1 {
		plural = ""
	}
	fmt.Fprintf(&b, "%d comparison%s; %g%% intervals from %d bootstrap replicates; p from %d randomization rounds, Holm-adjusted per statistic; significant at α = %g; seed %d.\n\n",
		len(r.Comparisons), plural, 100*r.Level, r.Replicates, r.Permutations, r.Alpha, r.Seed)
	colA, colB := "base", "new"
	if within {
		colA, colB = "A", "B"
	}
	fmt.Fprintf(&b, "| cell | statistic | %s | %s | delta [lo, hi] | p (Holm) | significant | movement |\n", colA, colB)
	b.WriteString("|---|---|---:|---:|---|---|---|---|\n")
	move := movementStat(r)
	for _, c := range r.Comparisons {
		for i := range c.Stats {
			s := &c.Stats[i]
			delta := "–"
			if s.Delta != nil {
				delta = signed(*s.Delta)
				if s.CI != nil {
					delta += fmt.Sprintf(" [%s, %s]", signed(s.CI[0]), signed(s.CI[1]))
				}
			}
			p := "–"
			if s.P != nil {
				p = fmt.Sprintf("%s (%s)", f4(s.P), f4(s.PHolm))
			}
			sig := "no"
			if s.Significant {
				sig = "yes, " + colB + " better"
				if better(s) == "a" {
					sig = "**yes, " + colB + " worse**"
				}
			}
			mv := ""
			if s.Path() == move {
				mv = fmt.Sprintf("rose on %d %s, fell on %d", len(c.Movement.Rose), units(r), len(c.Movement.Fell))
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n",
				mdCell(title(c)), mdCell(s.Path()), f4(s.A), f4(s.B), delta, p, sig, mv)
		}
	}
	return b.Bytes()
}

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// renderJUnit writes one test suite per comparison and one test case per
// statistic, failed when the statistic is significantly worse on B.
func renderJUnit(r *stats.Report) ([]byte, error) {
	doc := junitSuites{Name: "docscore compare " + r.Family}
	for _, c := range r.Comparisons {
		suite := junitSuite{Name: c.A.ID + " → " + c.B.ID}
		for i := range c.Stats {
			s := &c.Stats[i]
			tc := junitCase{Name: s.Path(), ClassName: "docscore.compare." + title(c), SystemOut: statLine(s)}
			if better(s) == "a" {
				msg := fmt.Sprintf("%s significantly worse on %s than on %s", s.Path(), c.B.ID, c.A.ID)
				tc.Failure = &junitFailure{Message: msg, Type: "regression", Text: statLine(s)}
				suite.Failures++
			}
			suite.Cases = append(suite.Cases, tc)
			suite.Tests++
		}
		doc.Tests += suite.Tests
		doc.Failures += suite.Failures
		doc.Suites = append(doc.Suites, suite)
	}
	out, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(append([]byte(xml.Header), out...), '\n'), nil
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
	return line
}
