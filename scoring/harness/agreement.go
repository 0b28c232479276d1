package harness

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/docscore/docscore/scoring/agreement"
	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/groundtruth"
	"github.com/docscore/docscore/scoring/internal/mdtext"
	"github.com/docscore/docscore/scoring/judging"
)

// Agreement says how far the report's judges agree: with each other
// (Panel), with themselves when asked again (SelfConsistency) and when the
// references come in another order (OrderFlips). Each member is absent
// when the run gave it nothing to measure. Human (with HumanSource) is
// each judge against people, set by CompareWithPeople from a human
// verdicts file; absent without one.
type Agreement struct {
	Panel           *PanelAgreement  `json:"panel,omitempty"`
	SelfConsistency *SelfConsistency `json:"self_consistency,omitempty"`
	OrderFlips      *OrderFlips      `json:"order_flips,omitempty"`
	groundtruth.HumanAgreement
	HumanSource *HumanSource `json:"human_source,omitempty"`
}

// PanelAgreement is Krippendorff's α (nominal) over the judges' verdicts.
// A unit is one judge_panel metric of one stage (its variants are the
// judges) or the llm_judge metrics of one stage (each judge model is a
// judge). Uncertain verdicts and unusable answers are missing ratings; a
// single judge leaves α undefined (null, with the reason).
type PanelAgreement struct {
	agreement.Alpha
	// Judges names the judges: panel variants, or judge models.
	Judges []string `json:"judges"`
	// Dissent is each panel variant's rate of verdicts that differ from
	// its panel's decision (units without a decision do not count).
	Dissent map[string]agreement.Rate `json:"dissent"`
}

// SelfConsistency is, per judge model, the share of stages whose sampled
// verdicts were not all the same.
type SelfConsistency struct {
	// Samples is the most samples asked of one stage.
	Samples int                       `json:"samples"`
	Judges  map[string]agreement.Rate `json:"judges"`
}

// OrderFlips counts the judged stages whose verdict changed when the
// references came in their second, seeded order (judging.ShuffleKey).
type OrderFlips struct {
	agreement.Rate
	Flips []OrderFlip `json:"flips"`
}

// OrderFlip is one flipped verdict; its stage is on the review queue.
type OrderFlip struct {
	PipelineID      string           `json:"pipeline_id,omitempty"`
	CaseID          string           `json:"case_id"`
	StageID         string           `json:"stage_id"`
	Metric          string           `json:"metric"`
	Judge           string           `json:"judge"`
	Verdict         evalcase.Verdict `json:"verdict"`
	ShuffledVerdict evalcase.Verdict `json:"shuffled_verdict"`
	SeedKey         string           `json:"seed_key"`
	Order           []string         `json:"order"`
}

// rating is a verdict as an agreement rating: uncertain is missing.
func rating(v evalcase.Verdict) string {
	if v == evalcase.Uncertain {
		return agreement.Missing
	}
	return string(v)
}

// agreementCollector gathers the judged units of a report in stage order.
type agreementCollector struct {
	units     []map[string]string
	decisions []string
	dissent   map[string]bool // judges that belong to a panel with a decision
	samples   map[string][][]string
	maxSample int
	orderN    int
	flips     []OrderFlip
}

func (c *agreementCollector) stage(pipeline string, st StageReport) {
	models := map[string]string{}
	for _, m := range st.Metrics {
		if len(m.Details) == 0 {
			continue
		}
		if strings.Contains(string(m.Details), `"vote_rule"`) {
			var d judging.PanelDetails
			if json.Unmarshal(m.Details, &d) != nil || d.VoteRule == "" {
				continue
			}
			u := map[string]string{}
			for _, s := range d.Samples {
				u[s.Variant] = rating(s.Verdict)
				c.dissent[s.Variant] = true
			}
			dec := agreement.Missing
			if d.WinningVote != nil {
				dec = rating(*d.WinningVote)
			}
			c.units = append(c.units, u)
			c.decisions = append(c.decisions, dec)
			continue
		}
		var d judging.JudgeDetails
		if json.Unmarshal(m.Details, &d) != nil || d.Instruction == "" {
			continue
		}
		name := m.Metric
		if d.Judge != nil {
			name = d.Judge.Label()
		}
		models[name] = rating(m.Verdict)
		if len(d.SampleVerdicts) > 1 {
			g := make([]string, len(d.SampleVerdicts))
			for i, v := range d.SampleVerdicts {
				g[i] = string(v) // a change to uncertain is a change
			}
			c.samples[name] = append(c.samples[name], g)
			c.maxSample = max(c.maxSample, len(g))
		}
		if d.Shuffled != nil {
			c.orderN++
			if d.Shuffled.Flipped {
				c.flips = append(c.flips, OrderFlip{
					PipelineID: pipeline, CaseID: st.CaseID, StageID: st.StageID, Metric: m.Metric, Judge: name,
					Verdict: m.Verdict, ShuffledVerdict: d.Shuffled.Verdict, SeedKey: d.Shuffled.SeedKey, Order: d.Shuffled.Order,
				})
			}
		}
	}
	if len(models) > 0 {
		c.units = append(c.units, models)
		c.decisions = append(c.decisions, agreement.Missing)
	}
}

func (c *agreementCollector) result() *Agreement {
	var a Agreement
	if len(c.units) > 0 {
		judgeSet := map[string]bool{}
		for _, u := range c.units {
			for j := range u {
				judgeSet[j] = true
			}
		}
		judges := slices.Sorted(maps.Keys(judgeSet))
		rows := make([][]string, len(c.units))
		for i, u := range c.units {
			rows[i] = make([]string, len(judges))
			for k, j := range judges {
				rows[i][k] = u[j]
			}
		}
		p := &PanelAgreement{Alpha: agreement.NominalAlpha(rows), Judges: judges, Dissent: map[string]agreement.Rate{}}
		for j, r := range agreement.Dissent(judges, rows, c.decisions) {
			if c.dissent[j] {
				p.Dissent[j] = r
			}
		}
		a.Panel = p
	}
	if len(c.samples) > 0 {
		sc := &SelfConsistency{Samples: c.maxSample, Judges: map[string]agreement.Rate{}}
		for j, g := range c.samples {
			sc.Judges[j] = agreement.Changes(g)
		}
		a.SelfConsistency = sc
	}
	if c.orderN > 0 {
		flips := c.flips
		if flips == nil {
			flips = []OrderFlip{}
		}
		a.OrderFlips = &OrderFlips{Rate: agreement.NewRate(len(flips), c.orderN), Flips: flips}
	}
	if a.Panel == nil && a.SelfConsistency == nil && a.OrderFlips == nil {
		return nil
	}
	return &a
}

// agreementMarkdown renders the agreement section of the Markdown report.
func agreementMarkdown(b *strings.Builder, a *Agreement) {
	if a == nil {
		return
	}
	b.WriteString("## Judge agreement\n\n")
	if p := a.Panel; p != nil {
		fmt.Fprintf(b, "Krippendorff's α (nominal) over %d judge(s) (%s): %s over %d unit(s), %d pairable verdict(s)\n\n",
			len(p.Judges), mdText(strings.Join(p.Judges, ", ")), alphaText(p.Alpha.Alpha, p.Reason), p.Units, p.Values)
		if len(p.Dissent) > 0 {
			b.WriteString("| judge | dissent from the panel's decision |\n|---|---|\n")
			for _, j := range slices.Sorted(maps.Keys(p.Dissent)) {
				fmt.Fprintf(b, "| %s | %s |\n", mdCell(j), rateText(p.Dissent[j]))
			}
			b.WriteString("\n")
		}
	}
	if sc := a.SelfConsistency; sc != nil {
		fmt.Fprintf(b, "Self-consistency (%d samples): stages whose verdict changed between samples\n\n| judge | changed |\n|---|---|\n", sc.Samples)
		for _, j := range slices.Sorted(maps.Keys(sc.Judges)) {
			fmt.Fprintf(b, "| %s | %s |\n", mdCell(j), rateText(sc.Judges[j]))
		}
		b.WriteString("\n")
	}
	if of := a.OrderFlips; of != nil {
		fmt.Fprintf(b, "Order sensitivity: %s judged stage(s) flipped with the references in a second, seeded order (key `%s|case|stage`)\n\n", rateText(of.Rate), judging.ShuffleKeyVersion)
		if len(of.Flips) > 0 {
			b.WriteString("| pipeline | stage | judge | verdict | second order | verdict there |\n|---|---|---|---|---|---|\n")
			for _, f := range of.Flips {
				fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |\n", mdCell(f.PipelineID), mdCell(f.StageID), mdCell(f.Judge), f.Verdict, mdCell(strings.Join(f.Order, ", ")), f.ShuffledVerdict)
			}
			b.WriteString("\n")
		}
	}
	if hs := a.HumanSource; hs != nil {
		fmt.Fprintf(b, "Judges against people: %d human verdict(s) by %s (%s, sha256 %s).\n\n", hs.Verdicts, mdText(hs.ReviewedBy), mdText(hs.File), hs.SHA256)
		a.HumanAgreement.WriteMarkdown(b, humanVerdictWords)
		b.WriteString("\n")
	}
}

// humanVerdictWords are the words of the judge × human section.
var humanVerdictWords = groundtruth.HumanWords{
	Intro:        "Cohen's κ between each judge's verdict and the person's, over the stages the person decided; an uncertain verdict or unusable answer is skipped.",
	Rater:        "judge",
	Units:        "stages",
	RatedBy:      "judge's verdict",
	HumanDecided: "person's verdict",
	AllAlike:     "Every counted verdict matches the person's.",
}

func alphaText(v *float64, reason string) string { return mdtext.Coefficient(v, reason) }

func rateText(r agreement.Rate) string {
	if r.Rate == nil {
		return fmt.Sprintf("%d of %d", r.Count, r.N)
	}
	return fmt.Sprintf("%d of %d (%s)", r.Count, r.N, formatScore(*r.Rate))
}
