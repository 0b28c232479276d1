// Package pilotreport builds the report of a pilot run (SPEC B.4): per
// phase throughput, latency percentiles, token usage and status counts
// (from scoring/runfile's Stats) beside the receipt scores of
// scoring/receipts, with the run's completeness: an incomplete run is
// labelled and lists its unattempted phase/sample pairs.
//
// The package is pure: it works on a run file already read and on
// references already parsed; when no references are given it takes them
// from the original labels the run header carries.
package pilotreport

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/internal/jsonout"
	"github.com/docscore/docscore/scoring/receipts"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
	"github.com/docscore/docscore/scoring/receipts/receiptsreport"
	"github.com/docscore/docscore/scoring/runfile"
)

// Report is the report of one pilot run. Its JSON form has a stable key
// order (struct order; map keys sorted) and float formatting.
type Report struct {
	Kind         string           `json:"kind"` // always "pilot"
	RunID        string           `json:"run_id"`
	CreatedAt    string           `json:"created_at,omitempty"`
	Engine       *runfile.Engine  `json:"engine"`
	Model        *runfile.Model   `json:"model"`
	Dataset      *runfile.Dataset `json:"dataset"`
	PromptSHA256 string           `json:"prompt_sha256,omitempty"`
	DeadlineS    float64          `json:"deadline_s"`
	Samples      int              `json:"samples"`
	// Complete is true when every planned (phase, sample) pair is
	// recorded exactly once and no line was cut; Incomplete is its
	// opposite.
	Complete   bool `json:"complete"`
	Incomplete bool `json:"incomplete"`
	// CutLine describes the run file's last line when it was cut short
	// (runfile.Run.Cut): the run was killed while writing it.
	CutLine   string  `json:"cut_line,omitempty"`
	EndStatus *string `json:"end_status"` // the last end record's; null when none (a killed run)
	EndReason *string `json:"end_reason"`
	// Planned counts the planned measured pairs, Recorded those recorded
	// (each once, however often it appears).
	Planned  int `json:"planned"`
	Recorded int `json:"recorded"`
	// UnattemptedCount counts the planned pairs with no record;
	// Unattempted lists the first receipts.MaxListedPairs of them, in
	// plan order; Duplicated the pairs recorded more than once.
	UnattemptedCount int                   `json:"unattempted_count"`
	Unattempted      []receiptsreport.Pair `json:"unattempted"`
	Duplicated       []Duplicate           `json:"duplicated"`
	// WarmupsMissing lists the samples without a warmup record.
	WarmupsMissing []string `json:"warmups_missing"`
	// Phases holds the performance of each phase (warmup first).
	Phases []runfile.PhaseStats `json:"phases"`
	// ReferencesFrom says where the references came from: "run header"
	// (the original labels), the --refs path, or "" when there were none.
	ReferencesFrom string `json:"references_from"`
	// Scores is the receipts scorer's report (scored with
	// AllowIncomplete); null when there are no references, ScoresNote
	// then says why.
	Scores     *receiptsreport.Report `json:"scores"`
	ScoresNote string                 `json:"scores_note,omitempty"`
}

// Duplicate is a measured pair recorded more than once.
type Duplicate struct {
	Phase    string `json:"phase"`
	SampleID string `json:"sample_id"`
	Count    int    `json:"count"`
}

// Options tune Build.
type Options struct {
	// References to score against; nil takes them from the run header's
	// labels (when every sample has one).
	References receiptsread.References
	// ReferencesFrom names where References came from, for the report.
	ReferencesFrom string
	// Order is the reference protocol (see receipts.Order).
	Order receiptsread.Order
}

// Build reports on run. Scoring errors (a sample without a reference, a
// record made on another image) are input errors.
func Build(run *runfile.Run, opts Options) (*Report, error) {
	h := run.Header
	rep := &Report{
		Kind: "pilot", RunID: h.RunID, CreatedAt: h.CreatedAt, Engine: h.Engine, Model: h.Model, Dataset: h.Dataset,
		PromptSHA256: h.PromptSHA256, DeadlineS: h.DeadlineS, Samples: len(h.Planned.SampleIDs),
		Unattempted: []receiptsreport.Pair{}, Duplicated: []Duplicate{}, WarmupsMissing: []string{},
		Phases: runfile.Stats(run),
	}
	if run.End != nil {
		s := run.End.Status
		rep.EndStatus = &s
		if run.End.Reason != "" {
			r := run.End.Reason
			rep.EndReason = &r
		}
	}
	completeness(run, rep)

	refs := opts.References
	rep.ReferencesFrom = opts.ReferencesFrom
	if refs == nil {
		var missing []string
		var err error
		refs, missing, err = HeaderReferences(run, receiptsread.ParseOptions{Order: opts.Order})
		switch {
		case err != nil:
			return nil, err
		case len(h.Samples) == 0:
			rep.ScoresNote = "no scores: the run header lists no samples with labels; give --refs"
			refs = nil
		case len(missing) > 0:
			rep.ScoresNote = fmt.Sprintf("no scores: %d of %d samples have no label in the run header (%s); give --refs",
				len(missing), len(h.Samples), strings.Join(firstN(missing, 5), ", "))
			refs = nil
		default:
			rep.ReferencesFrom = "run header"
		}
	}
	if refs != nil {
		sc, err := receipts.Score(refs, run, receipts.Options{AllowIncomplete: true, Order: opts.Order})
		if err != nil {
			return nil, err
		}
		rep.Scores = sc
	}
	return rep, nil
}

// completeness fills the plan counts, unattempted and duplicated pairs.
func completeness(run *runfile.Run, rep *Report) {
	var phases []string
	planned := map[string]bool{}
	for _, p := range run.Header.Planned.Phases {
		if p != runfile.WarmupPhase && !planned[p] {
			planned[p] = true
			phases = append(phases, p)
		}
	}
	var samples []string
	seenSample := map[string]bool{}
	for _, s := range run.Header.Planned.SampleIDs {
		if !seenSample[s] {
			seenSample[s] = true
			samples = append(samples, s)
		}
	}
	count := map[receiptsreport.Pair]int{}
	var order []receiptsreport.Pair
	warm := map[string]bool{}
	for _, r := range run.Requests {
		if r.Phase == runfile.WarmupPhase {
			warm[r.SampleID] = true
			continue
		}
		k := receiptsreport.Pair{Phase: r.Phase, SampleID: r.SampleID}
		if count[k] == 0 {
			order = append(order, k)
		}
		count[k]++
	}
	rep.Planned = len(phases) * len(samples)
	for _, k := range order {
		if planned[k.Phase] && seenSample[k.SampleID] {
			rep.Recorded++
		}
	}
	rep.UnattemptedCount, rep.Unattempted = receipts.MissingPairs(phases, samples, rep.Recorded, func(pi, si int) bool {
		return count[receiptsreport.Pair{Phase: phases[pi], SampleID: samples[si]}] > 0
	})
	for _, k := range order {
		if count[k] > 1 {
			rep.Duplicated = append(rep.Duplicated, Duplicate{Phase: k.Phase, SampleID: k.SampleID, Count: count[k]})
		}
	}
	for _, s := range samples {
		if !warm[s] {
			rep.WarmupsMissing = append(rep.WarmupsMissing, s)
		}
	}
	if run.Cut != nil {
		rep.CutLine = run.Cut.Error()
	}
	rep.Complete = rep.UnattemptedCount == 0 && len(rep.Duplicated) == 0 && run.Cut == nil
	rep.Incomplete = !rep.Complete
}

// HeaderReferences builds references from the original labels of the run
// header's samples: a CORD annotation (label) or a plain-text reference.
// It returns the ids of the samples without either in missing. A label
// that does not parse is an input error naming the run file's header line.
func HeaderReferences(run *runfile.Run, opts receiptsread.ParseOptions) (refs receiptsread.References, missing []string, err error) {
	for _, s := range run.Header.Samples {
		source := fmt.Sprintf("%s:%d (run header, sample %s)", run.Name, run.HeaderLine, s.SampleID)
		switch {
		case len(s.Label) > 0:
			ref, perr := receiptsread.ParseCORD(source, s.Label, opts)
			if perr != nil {
				if ie, ok := inputerr.As(perr); ok {
					return nil, nil, inputerr.New(run.Name, run.HeaderLine, "sample %s: label: %s", s.SampleID, ie.Msg)
				}
				return nil, nil, perr
			}
			ref.SampleID, ref.Source, ref.ImageSHA256 = s.SampleID, source, s.ImageSHA256
			refs = append(refs, ref)
		case s.Reference != nil:
			if opts.Order == receiptsread.ReadingOrder {
				return nil, nil, inputerr.New(run.Name, run.HeaderLine, "sample %s: reading order needs CORD annotations with word quads; its label is plain text", s.SampleID)
			}
			refs = append(refs, receiptsread.Reference{SampleID: s.SampleID, Text: *s.Reference, Source: source, ImageSHA256: s.ImageSHA256})
		default:
			missing = append(missing, s.SampleID)
		}
	}
	return refs, missing, nil
}

func firstN(s []string, n int) []string {
	if len(s) <= n {
		return s
	}
	return append(append([]string{}, s[:n]...), "…")
}

// WriteJSON writes the report as indented JSON and a newline.
func (r *Report) WriteJSON(w io.Writer) error {
	b, err := jsonout.Marshal(r)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// WriteMarkdown writes the report for people: the run, its completeness,
// a performance table per phase and the receipts scorer's summary.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Pilot report: run %s\n\n", mdText(r.RunID))
	var facts []string
	if r.Engine != nil {
		e := "engine `" + mdCode(r.Engine.Kind) + "`"
		if r.Engine.Command != "" {
			e += " (`" + mdCode(r.Engine.Command) + "`)"
		}
		facts = append(facts, e)
	}
	if r.Model != nil {
		m := "model `" + mdCode(r.Model.Name) + "`"
		if r.Model.BaseURL != "" {
			m += " at " + mdText(r.Model.BaseURL)
		}
		if r.Model.MaxTokens > 0 {
			m += fmt.Sprintf(", max_tokens %d", r.Model.MaxTokens)
		}
		if r.Model.Temperature != nil {
			m += ", temperature " + strconv.FormatFloat(*r.Model.Temperature, 'g', -1, 64)
		}
		facts = append(facts, m)
	}
	if r.Dataset != nil {
		d := "dataset `" + mdCode(r.Dataset.Name) + "`"
		if r.Dataset.Split != "" {
			d += " split " + mdText(r.Dataset.Split)
		}
		if r.Dataset.Revision != "" {
			d += " revision `" + mdCode(r.Dataset.Revision) + "`"
		}
		facts = append(facts, d)
	}
	samples := fmt.Sprintf("%d samples", r.Samples)
	if r.Samples == 1 {
		samples = "1 sample"
	}
	facts = append(facts, samples, "deadline "+strconv.FormatFloat(r.DeadlineS, 'g', -1, 64)+" s")
	if r.PromptSHA256 != "" {
		facts = append(facts, "prompt sha256 `"+r.PromptSHA256[:min(12, len(r.PromptSHA256))]+"…`")
	}
	if r.CreatedAt != "" {
		facts = append(facts, "prepared "+mdText(r.CreatedAt))
	}
	b.WriteString(strings.Join(facts, " · ") + "\n\n")
	end := "none (the runner never wrote an end record: killed?)"
	if r.EndStatus != nil {
		end = mdText(*r.EndStatus)
		if r.EndReason != nil {
			end += " — " + mdText(*r.EndReason)
		}
	}
	if r.Complete {
		fmt.Fprintf(&b, "**Complete:** each of the %d planned phase/sample pairs was recorded exactly once. Run end status: %s.\n\n", r.Planned, end)
	} else {
		fmt.Fprintf(&b, "**INCOMPLETE:** %d of %d planned phase/sample pairs recorded, %d unattempted, %d recorded more than once. Run end status: %s.\n\n",
			r.Recorded, r.Planned, r.UnattemptedCount, len(r.Duplicated), end)
		if len(r.Unattempted) > 0 {
			parts := make([]string, len(r.Unattempted))
			for i, p := range r.Unattempted {
				parts[i] = mdText(p.Phase + "/" + p.SampleID)
			}
			if more := r.UnattemptedCount - len(r.Unattempted); more > 0 {
				parts = append(parts, fmt.Sprintf("… and %d more", more))
			}
			b.WriteString("Unattempted: " + strings.Join(parts, ", ") + "\n\n")
		}
		for _, d := range r.Duplicated {
			fmt.Fprintf(&b, "- recorded %d times: %s/%s\n", d.Count, mdText(d.Phase), mdText(d.SampleID))
		}
		if len(r.Duplicated) > 0 {
			b.WriteString("\n")
		}
		if r.CutLine != "" {
			b.WriteString("Cut line: " + mdText(r.CutLine) + "\n\n")
		}
	}
	if len(r.WarmupsMissing) > 0 && len(r.WarmupsMissing) < r.Samples {
		fmt.Fprintf(&b, "Samples without a warmup record: %s\n\n", mdText(strings.Join(firstN(r.WarmupsMissing, 10), ", ")))
	}

	b.WriteString("## Throughput and latency\n\n")
	b.WriteString("Latency percentiles (seconds) interpolate between ranks and leave out cancelled requests. Requests per second divide the timed requests by the time at least one was in flight.\n\n")
	b.WriteString("| phase | concurrency | requests | ok | timeout | http_error | transport_error | cancelled | empty | truncated | req/s | p50 | p90 | p99 | max | prompt tokens | completion tokens |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, p := range r.Phases {
		conc := "?"
		if p.Concurrency != nil {
			conc = strconv.Itoa(*p.Concurrency)
		}
		lat := [4]string{"n/a", "n/a", "n/a", "n/a"}
		if l := p.LatencyS; l != nil {
			lat = [4]string{secs(l.P50), secs(l.P90), secs(l.P99), secs(l.Max)}
		}
		rps := "n/a"
		if p.RequestsPerS != nil {
			rps = strconv.FormatFloat(*p.RequestsPerS, 'f', 3, 64)
		}
		tokP, tokC := "n/a", "n/a"
		if p.Usage.Requests > 0 {
			tokP, tokC = strconv.Itoa(p.Usage.PromptTokens), strconv.Itoa(p.Usage.CompletionTokens)
		}
		s := p.Statuses
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %d | %d | %d | %d | %s | %s | %s | %s | %s | %s | %s |\n",
			mdText(p.Phase), conc, p.Requests, s.OK, s.Timeout, s.HTTPError, s.TransportError, s.Cancelled,
			p.EmptyOutputs, p.Truncated, rps, lat[0], lat[1], lat[2], lat[3], tokP, tokC)
	}
	b.WriteString("\n")
	reasons := map[string]bool{}
	for _, p := range r.Phases {
		for k := range p.FinishReasons {
			reasons[k] = true
		}
	}
	if len(reasons) > 0 {
		names := make([]string, 0, len(reasons))
		for k := range reasons {
			names = append(names, k)
		}
		sort.Strings(names)
		b.WriteString("Finish reasons: ")
		var parts []string
		for _, p := range r.Phases {
			var cs []string
			for _, k := range names {
				if n := p.FinishReasons[k]; n > 0 {
					cs = append(cs, fmt.Sprintf("%s %d", k, n))
				}
			}
			parts = append(parts, mdText(p.Phase)+" ("+mdText(strings.Join(cs, ", "))+")")
		}
		b.WriteString(strings.Join(parts, " · ") + "\n\n")
	}

	b.WriteString("## Scores\n\n")
	if r.Scores == nil {
		b.WriteString(mdText(r.ScoresNote) + "\n")
	} else {
		fmt.Fprintf(&b, "References from %s; scored by `docscore score receipts` rules (warmups never scored; pages whose request did not end ok/stop score as empty).\n\n", mdText(r.ReferencesFrom))
		var sb strings.Builder
		if err := r.Scores.WriteMarkdown(&sb); err != nil {
			return err
		}
		b.WriteString(demote(sb.String()))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// demote pushes every Markdown heading two levels down, so that an
// embedded report sits under this one's "## Scores".
func demote(md string) string {
	return strings.ReplaceAll("\n"+md, "\n#", "\n###")[1:]
}

func secs(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }

// mdText makes text safe inside a Markdown table cell or line.
func mdText(s string) string {
	s = strings.ReplaceAll(s, "\\", "\\\\")
	s = strings.ReplaceAll(s, "|", "\\|")
	s = strings.ReplaceAll(s, "\r", " ")
	return strings.ReplaceAll(s, "\n", " ")
}

// mdCode makes text safe inside inline code.
func mdCode(s string) string {
	return strings.ReplaceAll(mdText(s), "`", "'")
}
