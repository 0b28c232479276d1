package judging

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/docscore/docscore/scoring/evalcase"
)

// VoteRule selects a panel's verdict from its model groups' votes.
type VoteRule string

// The vote rules of JudgePanelMetric.
const (
	// VoteMajority: a verdict cast by more than half of the model groups
	// wins; anything else (a tie, too many uncertain groups) is uncertain.
	VoteMajority VoteRule = "majority"
	// VoteUnanimous: every model group must cast the same decisive
	// verdict; anything else is uncertain.
	VoteUnanimous VoteRule = "unanimous"
)

// JudgeVariant is one judge of a panel: a model at a setting. Variants of
// the same provider and model form one self-consistency group that casts
// one vote, whatever their temperatures. Provider and Model default to the
// judge's own Info when it has one (a ModelJudge does).
type JudgeVariant struct {
	Name        string
	Judge       Judge
	Provider    string
	Model       string
	Temperature *float64
}

// JudgePanelMetric asks several judges and votes, model-balanced (after
// the PoLL panels of diverse evaluators): the samples of one provider/model
// first agree among themselves (self-consistency: the most frequent
// decisive verdict, uncertain on a tie), then each group casts one vote and
// VoteRule picks the verdict. So five temperature samples of one model never
// outvote two other models. Ties, uncertain samples or groups and, unless
// AcceptDissent is set, any sample that disagrees with the verdict put the
// stage on the human-review queue, and so does a panel with no judge
// independent of a known producer. Agreement is a reliability signal, not
// accuracy: validate a panel on human-labelled cases before gating on it.
type JudgePanelMetric struct {
	// MetricName defaults to "judge_panel".
	MetricName string
	Variants   []JudgeVariant
	// VoteRule defaults to VoteMajority.
	VoteRule VoteRule
	// AcceptDissent keeps a minority dissent off the review queue (the
	// seed's review_on_any_disagreement=False). Ties and uncertainty always
	// go to review.
	AcceptDissent bool
}

// KindJudgePanel is the metric kind name of a judge panel.
const KindJudgePanel = "judge_panel"

// Name returns the metric's name.
func (m *JudgePanelMetric) Name() string {
	if m.MetricName == "" {
		return KindJudgePanel
	}
	return m.MetricName
}

func (m *JudgePanelMetric) rule() VoteRule {
	if m.VoteRule == "" {
		return VoteMajority
	}
	return m.VoteRule
}

// Fingerprint names every variant's provider, model and temperature, the
// rule and the dissent policy.
func (m *JudgePanelMetric) Fingerprint() string {
	parts := []string{"judge_panel", m.Name(), BaseJudgeInstructionsVersion, string(m.rule()), strconv.FormatBool(m.AcceptDissent)}
	for _, v := range m.variants() {
		parts = append(parts, v.Name+"="+v.Provider+"/"+v.Model+"@"+TemperatureText(v.Temperature))
	}
	return strings.Join(parts, "|")
}

// TemperatureText prints a variant's temperature: "default" when unset.
func TemperatureText(t *float64) string {
	if t == nil {
		return "default"
	}
	return strconv.FormatFloat(*t, 'g', -1, 64)
}

// variants fills Provider, Model and Temperature from the judges' Info.
func (m *JudgePanelMetric) variants() []JudgeVariant {
	out := make([]JudgeVariant, len(m.Variants))
	for i, v := range m.Variants {
		if ij, ok := v.Judge.(InfoJudge); ok {
			info := ij.Info()
			if v.Provider == "" {
				v.Provider = info.Provider
			}
			if v.Model == "" {
				v.Model = info.Model
			}
			if v.Temperature == nil {
				v.Temperature = info.Temperature
			}
		}
		out[i] = v
	}
	return out
}

// Validate checks the panel: at least one variant, names unique and
// non-empty, every variant with a judge and a provider, a known rule.
func (m *JudgePanelMetric) Validate() error {
	if len(m.Variants) == 0 {
		return errors.New("judge panel has no variants")
	}
	if r := m.rule(); r != VoteMajority && r != VoteUnanimous {
		return fmt.Errorf("judge panel vote rule %q: expected majority or unanimous", r)
	}
	seen := map[string]bool{}
	for i, v := range m.variants() {
		switch {
		case strings.TrimSpace(v.Name) == "":
			return fmt.Errorf("judge panel variant %d has no name", i+1)
		case seen[v.Name]:
			return fmt.Errorf("judge panel variant %q is listed twice", v.Name)
		case v.Judge == nil:
			return fmt.Errorf("judge panel variant %q has no judge", v.Name)
		case strings.TrimSpace(v.Provider) == "":
			return fmt.Errorf("judge panel variant %q has no provider (votes are grouped by provider and model)", v.Name)
		}
		seen[v.Name] = true
	}
	return nil
}

// PanelSample is one variant's judgment.
type PanelSample struct {
	Variant     string           `json:"variant"`
	Provider    string           `json:"provider"`
	Model       string           `json:"model"`
	Temperature *float64         `json:"temperature"`
	Group       string           `json:"group"`
	Provenance  Provenance       `json:"provenance"`
	Verdict     evalcase.Verdict `json:"verdict"`
	Confidence  *float64         `json:"confidence"`
	Rationale   string           `json:"rationale"`
	// Unusable says why the answer could not be used; RawAnswer keeps it.
	Unusable  string             `json:"unusable,omitempty"`
	RawAnswer string             `json:"raw_answer,omitempty"`
	Scores    map[string]float64 `json:"scores"`
	Output    *JudgeOutput       `json:"output,omitempty"`
}

// PanelGroup is one provider/model group and its vote.
type PanelGroup struct {
	Group    string   `json:"group"`
	Provider string   `json:"provider"`
	Model    string   `json:"model"`
	Variants []string `json:"variants"`
	// Counts are the samples' verdicts.
	Counts VerdictCounts `json:"counts"`
	// Vote is the group's self-consistent verdict (uncertain on a tie or
	// when no sample decided).
	Vote evalcase.Verdict `json:"vote"`
	// Agreement is the share of the group's samples that cast Vote.
	Agreement float64 `json:"agreement"`
}

// VerdictCounts counts verdicts.
type VerdictCounts struct {
	Pass          int `json:"pass"`
	Fail          int `json:"fail"`
	Uncertain     int `json:"uncertain"`
	NotApplicable int `json:"not_applicable"`
}

func (c *VerdictCounts) add(v evalcase.Verdict) {
	switch v {
	case evalcase.Pass:
		c.Pass++
	case evalcase.Fail:
		c.Fail++
	case evalcase.NotApplicable:
		c.NotApplicable++
	default:
		c.Uncertain++
	}
}

func (c VerdictCounts) get(v evalcase.Verdict) int {
	switch v {
	case evalcase.Pass:
		return c.Pass
	case evalcase.Fail:
		return c.Fail
	case evalcase.NotApplicable:
		return c.NotApplicable
	}
	return c.Uncertain
}

func (c VerdictCounts) total() int { return c.Pass + c.Fail + c.Uncertain + c.NotApplicable }

// decisive lists the verdicts that can win a vote, in a fixed order.
var decisive = []evalcase.Verdict{evalcase.Pass, evalcase.Fail, evalcase.NotApplicable}

// plurality returns the decisive verdict cast most often, or uncertain
// when none was cast or the top is tied.
func (c VerdictCounts) plurality() (evalcase.Verdict, bool) {
	best, bestN, tie := evalcase.Uncertain, 0, false
	for _, v := range decisive {
		n := c.get(v)
		switch {
		case n > bestN:
			best, bestN, tie = v, n, false
		case n == bestN && n > 0:
			tie = true
		}
	}
	if bestN == 0 || tie {
		return evalcase.Uncertain, tie
	}
	return best, false
}

// Dissent is a sample that disagreed with the panel's verdict, with its
// evidence.
type Dissent struct {
	Variant   string           `json:"variant"`
	Group     string           `json:"group"`
	Verdict   evalcase.Verdict `json:"verdict"`
	Rationale string           `json:"rationale"`
	// Claims are the claims it judged contradicted or undecidable.
	Claims []ClaimJudgment `json:"claims"`
}

// PanelDetails is the JSON detail of a panel result.
type PanelDetails struct {
	VoteRule      VoteRule `json:"vote_rule"`
	AcceptDissent bool     `json:"accept_dissent"`
	// WinningVote is the verdict the rule selected, or null when none won.
	WinningVote *evalcase.Verdict `json:"winning_vote"`
	// SampleAgreement is the share of samples casting the most frequent
	// verdict; GroupAgreement the same over the groups' votes.
	SampleAgreement float64       `json:"sample_agreement"`
	GroupAgreement  float64       `json:"group_agreement"`
	GroupVotes      VerdictCounts `json:"group_votes"`
	Groups          []PanelGroup  `json:"groups"`
	Samples         []PanelSample `json:"samples"`
	Dissent         []Dissent     `json:"dissent"`
	// Producer is null when unknown; IndependentGroups counts groups whose
	// provider differs from a known producer's.
	Producer          *evalcase.Producer `json:"producer"`
	IndependentGroups *int               `json:"independent_groups"`
	ReviewReasons     []string           `json:"review_reasons"`
	// Instruction is the SHA-256 of the instructions every judge received.
	Instruction string `json:"instructions_sha256"`
}

// Evaluate asks every variant (concurrently; adapters bound their own
// provider's concurrency) and votes.
func (m *JudgePanelMetric) Evaluate(ctx context.Context, stage evalcase.EvaluationCase) (evalcase.MetricResult, error) {
	res := evalcase.MetricResult{Metric: m.Name(), Scores: map[string]float64{}}
	if err := m.Validate(); err != nil {
		return res, err
	}
	req, err := BuildJudgeRequest(stage)
	if err != nil {
		return res, err
	}
	vs := m.variants()
	samples := make([]PanelSample, len(vs))
	errs := make([]error, len(vs))
	var wg sync.WaitGroup
	for i, v := range vs {
		wg.Add(1)
		go func(i int, v JudgeVariant) {
			defer wg.Done()
			samples[i], errs[i] = judgeSample(ctx, v, req, stage.Producer)
		}(i, v)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return res, fmt.Errorf("judge panel variant %q: %w", vs[i].Name, err)
		}
	}
	det := vote(samples, m.rule(), m.AcceptDissent, stage.Producer)
	det.Instruction = evalcase.SHA256Hex([]byte(req.Instructions))
	res.Verdict = evalcase.Uncertain
	if det.WinningVote != nil {
		res.Verdict = *det.WinningVote
	}
	res.Scores["panel_sample_agreement"] = det.SampleAgreement
	res.Scores["panel_group_agreement"] = det.GroupAgreement
	res.RequiresReview = len(det.ReviewReasons) > 0
	res.Reason = panelReason(det, len(det.Groups))
	return res, res.SetDetails(det)
}

func judgeSample(ctx context.Context, v JudgeVariant, req JudgeRequest, producer *evalcase.Producer) (PanelSample, error) {
	s := PanelSample{
		Variant: v.Name, Provider: v.Provider, Model: v.Model, Temperature: v.Temperature,
		Group: groupKey(v.Provider, v.Model), Provenance: JudgeProvenance(producer, v.Provider, v.Model),
		Scores: map[string]float64{},
	}
	out, err := ask(ctx, v.Judge, req)
	var ua *UnusableAnswerError
	if errors.As(err, &ua) {
		s.Verdict = evalcase.Uncertain
		s.Unusable = ua.Error()
		s.RawAnswer = ua.Raw
		return s, nil
	}
	if err != nil {
		return s, err
	}
	s.Verdict = out.Verdict
	c := out.Confidence
	s.Confidence = &c
	s.Rationale = out.Rationale
	s.Scores = ScoreJudgeOutput(req, out)
	s.Output = &out
	return s, nil
}

// groupKey names a provider/model group; names compare case-insensitively.
func groupKey(provider, model string) string {
	p := strings.ToLower(strings.TrimSpace(provider))
	m := strings.ToLower(strings.TrimSpace(model))
	if m == "" {
		return p
	}
	return p + "/" + m
}

// vote is the pure voting step: samples to groups to a panel verdict.
func vote(samples []PanelSample, rule VoteRule, acceptDissent bool, producer *evalcase.Producer) PanelDetails {
	det := PanelDetails{VoteRule: rule, AcceptDissent: acceptDissent, Samples: samples, Groups: []PanelGroup{}, Dissent: []Dissent{}, ReviewReasons: []string{}, Producer: producer}
	index := map[string]int{}
	var all VerdictCounts
	for _, s := range samples {
		all.add(s.Verdict)
		i, ok := index[s.Group]
		if !ok {
			i = len(det.Groups)
			index[s.Group] = i
			det.Groups = append(det.Groups, PanelGroup{Group: s.Group, Provider: s.Provider, Model: s.Model, Variants: []string{}})
		}
		g := &det.Groups[i]
		g.Variants = append(g.Variants, s.Variant)
		g.Counts.add(s.Verdict)
	}
	var groupTies []string
	for i := range det.Groups {
		g := &det.Groups[i]
		var tie bool
		g.Vote, tie = g.Counts.plurality()
		g.Agreement = float64(g.Counts.get(g.Vote)) / float64(g.Counts.total())
		if tie {
			groupTies = append(groupTies, g.Group)
		}
		det.GroupVotes.add(g.Vote)
	}
	det.SampleAgreement = modalShare(all)
	det.GroupAgreement = modalShare(det.GroupVotes)

	n := len(det.Groups)
	var winner *evalcase.Verdict
	switch rule {
	case VoteUnanimous:
		for _, v := range decisive {
			if det.GroupVotes.get(v) == n {
				w := v
				winner = &w
			}
		}
		if winner == nil {
			det.ReviewReasons = append(det.ReviewReasons, fmt.Sprintf("no unanimous vote among %d model group(s) (%s)", n, det.GroupVotes.String()))
		}
	default:
		for _, v := range decisive {
			if 2*det.GroupVotes.get(v) > n {
				w := v
				winner = &w
			}
		}
		if winner == nil {
			top, tie := det.GroupVotes.plurality()
			switch {
			case tie:
				det.ReviewReasons = append(det.ReviewReasons, fmt.Sprintf("tie between model groups (%s)", det.GroupVotes.String()))
			case top == evalcase.Uncertain:
				det.ReviewReasons = append(det.ReviewReasons, fmt.Sprintf("no model group reached a decisive vote (%s)", det.GroupVotes.String()))
			default:
				det.ReviewReasons = append(det.ReviewReasons, fmt.Sprintf("no majority of %d model group(s) (%s)", n, det.GroupVotes.String()))
			}
		}
	}
	det.WinningVote = winner
	if len(groupTies) > 0 {
		det.ReviewReasons = append(det.ReviewReasons, fmt.Sprintf("tie within self-consistency group(s) %s", strings.Join(groupTies, ", ")))
	}
	if all.Uncertain > 0 {
		det.ReviewReasons = append(det.ReviewReasons, fmt.Sprintf("%d of %d sample(s) uncertain or unusable", all.Uncertain, len(samples)))
	}
	if winner != nil {
		for _, s := range samples {
			if s.Verdict == *winner || s.Verdict == evalcase.Uncertain {
				continue
			}
			d := Dissent{Variant: s.Variant, Group: s.Group, Verdict: s.Verdict, Rationale: s.Rationale, Claims: []ClaimJudgment{}}
			if s.Output != nil {
				for _, c := range s.Output.Claims {
					if c.Status != ClaimSupported {
						d.Claims = append(d.Claims, c)
					}
				}
			}
			det.Dissent = append(det.Dissent, d)
		}
		if len(det.Dissent) > 0 && !acceptDissent {
			names := make([]string, len(det.Dissent))
			for i, d := range det.Dissent {
				names[i] = d.Variant + " (" + string(d.Verdict) + ")"
			}
			det.ReviewReasons = append(det.ReviewReasons, fmt.Sprintf("dissent against %s: %s", *winner, strings.Join(names, ", ")))
		}
	}
	if producer != nil && strings.TrimSpace(producer.Provider) != "" {
		ind := 0
		for _, g := range det.Groups {
			if JudgeProvenance(producer, g.Provider, g.Model) == ProvenanceIndependent {
				ind++
			}
		}
		det.IndependentGroups = &ind
		if ind == 0 {
			det.ReviewReasons = append(det.ReviewReasons, fmt.Sprintf("no judge is independent of the producer (%s): every judge shares its provider", groupKey(producer.Provider, producer.Model)))
		}
	}
	return det
}

func modalShare(c VerdictCounts) float64 {
	t := c.total()
	if t == 0 {
		return 0
	}
	best := 0
	for _, v := range []evalcase.Verdict{evalcase.Pass, evalcase.Fail, evalcase.NotApplicable, evalcase.Uncertain} {
		if n := c.get(v); n > best {
			best = n
		}
	}
	return float64(best) / float64(t)
}

// String lists the verdicts counted, in a fixed order: "pass 2, fail 1".
func (c VerdictCounts) String() string {
	var parts []string
	for _, v := range []evalcase.Verdict{evalcase.Pass, evalcase.Fail, evalcase.Uncertain, evalcase.NotApplicable} {
		if n := c.get(v); n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", v, n))
		}
	}
	return strings.Join(parts, ", ")
}

func panelReason(det PanelDetails, groups int) string {
	var b strings.Builder
	if det.WinningVote != nil {
		fmt.Fprintf(&b, "%s vote of %d model group(s): %s (%d of %d)", det.VoteRule, groups, *det.WinningVote, det.GroupVotes.get(*det.WinningVote), groups)
	} else {
		fmt.Fprintf(&b, "%s vote of %d model group(s): no verdict", det.VoteRule, groups)
	}
	if len(det.ReviewReasons) > 0 {
		b.WriteString("; review: " + strings.Join(det.ReviewReasons, "; "))
	}
	return b.String()
}
