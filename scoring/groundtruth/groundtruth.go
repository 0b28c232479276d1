package groundtruth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/judging"
)

// GroundTruthProvider is one independent reader of a GroundTruthPanel.
type GroundTruthProvider struct {
	Name    string
	Adapter judging.ModelAdapter
}

// GroundTruthPanel generates a provisional reference from evidence when no
// human reference exists. Each provider reads only the sources and the
// extraction instruction, blind to the prediction (it is never given one)
// and to the other providers; their claims are voted field by field on
// normalized values. A field whose top value reaches MinimumAgreement (the
// share of all providers, a provider that omitted the field or answered
// unusably counting against it) becomes a consensus row; anything else is
// a disagreement and requires human review. The consensus rows form one
// reference with authority "generated": scores against it are agreement
// with a provisional AI reference, not accuracy.
type GroundTruthPanel struct {
	Providers             []GroundTruthProvider
	ExtractionInstruction string
	// ExpectedFields are the field paths to read ($.currency, $.amount).
	// With none, providers claim whatever the instruction asks for.
	ExpectedFields []string
	// MinimumAgreement is the share of providers that must agree (0 means
	// 1.0: any disagreement or omission is a review item).
	MinimumAgreement float64
	// AllowExtraFields lets providers claim paths beyond ExpectedFields
	// (always allowed when ExpectedFields is empty).
	AllowExtraFields bool
}

func (p *GroundTruthPanel) minimum() float64 {
	if p.MinimumAgreement == 0 {
		return 1
	}
	return p.MinimumAgreement
}

func validateProviders(kind string, ps []GroundTruthProvider, min int) error {
	if len(ps) < min {
		return fmt.Errorf("%s needs at least %d providers, has %d", kind, min, len(ps))
	}
	seen := map[string]bool{}
	for i, p := range ps {
		switch {
		case strings.TrimSpace(p.Name) == "":
			return fmt.Errorf("%s provider %d has no name", kind, i+1)
		case seen[p.Name]:
			return fmt.Errorf("%s provider %q is listed twice", kind, p.Name)
		case p.Adapter == nil:
			return fmt.Errorf("%s provider %q has no adapter", kind, p.Name)
		}
		seen[p.Name] = true
	}
	return nil
}

func checkMinimum(m float64) error {
	if math.IsNaN(m) || m < 0 || m > 1 {
		return fmt.Errorf("minimum_agreement %v: expected a share from 0 to 1", m)
	}
	return nil
}

// Validate checks the panel's settings.
func (p *GroundTruthPanel) Validate() error {
	if err := validateProviders("ground-truth panel", p.Providers, 2); err != nil {
		return err
	}
	if strings.TrimSpace(p.ExtractionInstruction) == "" {
		return errors.New("ground-truth panel has no extraction instruction")
	}
	if err := checkMinimum(p.MinimumAgreement); err != nil {
		return err
	}
	_, err := canonicalFields(p.ExpectedFields)
	return err
}

func canonicalFields(fields []string) ([]string, error) {
	out := []string{}
	seen := map[string]bool{}
	for _, f := range fields {
		c, err := evalcase.CanonicalPath(f)
		if err != nil {
			return nil, fmt.Errorf("expected field: %v", err)
		}
		if seen[c] {
			return nil, fmt.Errorf("expected field %s is listed twice", c)
		}
		seen[c] = true
		out = append(out, c)
	}
	return out, nil
}

// groundTruthTask is the user message of a ground-truth call. It has no
// place for a prediction.
type groundTruthTask struct {
	CaseID                string                   `json:"case_id"`
	ExtractionInstruction string                   `json:"extraction_instruction"`
	ExpectedFields        []string                 `json:"expected_fields,omitempty"`
	DisputedPaths         []string                 `json:"disputed_paths,omitempty"`
	AllowExtraFields      bool                     `json:"allow_extra_fields"`
	Sources               []judging.ReferenceEntry `json:"sources"`
	// TextSources are sources that travel as text (OCR or Markdown
	// derivatives, when a caller includes them).
	TextSources []judging.TextReference `json:"text_sources"`
}

const generatedNotice = "Generated ground truth: agreement among models is a reliability signal, not proof of accuracy. Scores against this reference are agreement with a provisional AI-generated reference. It becomes ground truth only through signed human approval."

// Generate asks every provider to read sources (concurrently, each on
// its own) and reconciles their claims. A provider whose answer cannot be
// used is kept with its raw answer and counts as having read nothing; any
// other error (no answer arrived) stops the generation.
func (p *GroundTruthPanel) Generate(ctx context.Context, caseID string, sources []evalcase.ReferenceArtifact) (*GroundTruthReport, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if len(sources) == 0 {
		return nil, errors.New("ground-truth panel: no sources")
	}
	fields, _ := canonicalFields(p.ExpectedFields)
	task := groundTruthTask{
		CaseID: caseID, ExtractionInstruction: p.ExtractionInstruction, ExpectedFields: fields,
		AllowExtraFields: p.AllowExtraFields || len(fields) == 0,
	}
	req, ids := sourceRequest(judging.PurposeGroundTruth, GroundTruthInstructions, &task, sources)
	readings, err := readAll(ctx, p.Providers, req, ids)
	if err != nil {
		return nil, err
	}
	r := &GroundTruthReport{
		Kind: GroundTruthReportKind, CaseID: caseID, ExtractionInstruction: p.ExtractionInstruction,
		ExpectedFields: fields, MinimumAgreement: p.minimum(), Sources: task.Sources, Readings: readings,
		Instructions: []judging.InstructionRecord{
			{Name: "ground_truth_instructions", Source: "docscore", Version: GroundTruthInstructionsVersion, SHA256: evalcase.SHA256Hex([]byte(GroundTruthInstructions))},
			{Name: "extraction_instruction", Source: "caller", SHA256: evalcase.SHA256Hex([]byte(p.ExtractionInstruction))},
		},
		Notice: generatedNotice,
	}
	if !task.AllowExtraFields {
		allowed := map[string]bool{}
		for _, f := range fields {
			allowed[f] = true
		}
		for i := range r.Readings {
			rd := &r.Readings[i]
			kept := rd.Claims[:0]
			for _, c := range rd.Claims {
				if allowed[c.Path] {
					kept = append(kept, c)
				} else {
					rd.Warnings = append(rd.Warnings, fmt.Sprintf("claim for %s ignored: not an expected field", c.Path))
				}
			}
			rd.Claims = kept
		}
	}
	meta := sourceMeta(sources)
	agreed, disputed := reconcile(fields, r.Readings, p.minimum(), meta)
	for i := range agreed {
		agreed[i].Resolution = "consensus"
	}
	r.Agreed, r.Disputed = agreed, disputed
	return r, r.finish()
}

// sourceRequest builds the request every provider of a pass receives.
func sourceRequest(purpose, instructions string, task *groundTruthTask, sources []evalcase.ReferenceArtifact) (judging.ModelRequest, []string) {
	var ids []string
	task.Sources = []judging.ReferenceEntry{}
	for _, s := range sources {
		task.Sources = append(task.Sources, judging.ReferenceEntry{ArtifactID: s.ArtifactID, Authority: s.Authority, Kind: s.Kind, MediaType: s.MediaType, ComparisonMode: s.ComparisonMode, SHA256: s.SHA256, Metadata: s.Metadata})
		ids = append(ids, s.ArtifactID)
	}
	text, files := judging.SplitReferences(sources)
	task.TextSources = []judging.TextReference{}
	for _, t := range text {
		if !t.Attached {
			task.TextSources = append(task.TextSources, t)
		}
	}
	return judging.ModelRequest{
		Purpose: purpose, Instructions: instructions, Input: *task,
		SchemaName: "docscore_ground_truth_claims", OutputSchema: json.RawMessage(judging.CompactJSON(GroundTruthClaimsSchema)),
		Attachments: files,
	}, ids
}

// readAll asks every provider the same request, each on its own.
func readAll(ctx context.Context, providers []GroundTruthProvider, req judging.ModelRequest, ids []string) ([]ProviderReading, error) {
	out := make([]ProviderReading, len(providers))
	errs := make([]error, len(providers))
	var wg sync.WaitGroup
	for i, pr := range providers {
		wg.Add(1)
		go func(i int, pr GroundTruthProvider) {
			defer wg.Done()
			rd := ProviderReading{Name: pr.Name, Model: pr.Adapter.Info(), Purpose: req.Purpose, Status: "ok", Claims: []GroundTruthClaim{}}
			resp, err := pr.Adapter.Call(ctx, req)
			var ua *judging.UnusableAnswerError
			if errors.As(err, &ua) {
				// An adapter that got an answer it cannot use (a batch item
				// the provider answered with an error) says so itself.
				rd.Status, rd.Unusable, rd.RawAnswer = "unusable", ua.Error(), ua.Raw
				out[i] = rd
				return
			}
			if err != nil {
				errs[i] = fmt.Errorf("ground-truth provider %q: %w", pr.Name, err)
				return
			}
			rd.Usage, rd.Warnings = resp.Usage, resp.Warnings
			claims, err := ParseGroundTruthClaims([]byte(resp.Text), ids)
			if errors.As(err, &ua) {
				rd.Status, rd.Unusable, rd.RawAnswer = "unusable", ua.Error(), ua.Raw
			} else {
				rd.Claims = claims
			}
			out[i] = rd
		}(i, pr)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func sourceMeta(sources []evalcase.ReferenceArtifact) map[string]map[string]any {
	m := map[string]map[string]any{}
	for _, s := range sources {
		m[s.ArtifactID] = s.Metadata
	}
	return m
}

// normalizedValue is the comparison key of a claimed value: the exact
// metrics' scalar key (numbers by exact value, true/false, blank) after
// collapsing runs of white space in text. Case is kept.
func normalizedValue(v any) string {
	if s, ok := v.(string); ok {
		v = strings.Join(strings.Fields(s), " ")
	}
	return evalcase.ScalarKey(v)
}

// reconcile votes every field: expected fields first, in order, then other
// claimed paths, sorted.
func reconcile(fields []string, readings []ProviderReading, minimum float64, meta map[string]map[string]any) ([]AgreedField, []DisputedField) {
	paths := append([]string{}, fields...)
	known := map[string]bool{}
	for _, f := range fields {
		known[f] = true
	}
	var extra []string
	for _, rd := range readings {
		for _, c := range rd.Claims {
			if !known[c.Path] {
				known[c.Path] = true
				extra = append(extra, c.Path)
			}
		}
	}
	sort.Strings(extra)
	paths = append(paths, extra...)
	agreed := []AgreedField{}
	disputed := []DisputedField{}
	idx := indexClaims(readings)
	for _, p := range paths {
		a, d := voteField(p, readings, idx, minimum, meta)
		if a != nil {
			agreed = append(agreed, *a)
		} else {
			disputed = append(disputed, *d)
		}
	}
	return agreed, disputed
}

// voteField votes one path among readings: the candidates in order of
// support (then first appearance), agreement = top support / providers.
func voteField(path string, readings []ProviderReading, idx []map[string]GroundTruthClaim, minimum float64, meta map[string]map[string]any) (*AgreedField, *DisputedField) {
	cands := candidatesFor(path, readings, idx, meta)
	var omitted []string
	for i, rd := range readings {
		if _, ok := idx[i][path]; !ok {
			omitted = append(omitted, rd.Name)
		}
	}
	if omitted == nil {
		omitted = []string{}
	}
	n := len(readings)
	if len(cands) == 0 {
		return nil, &DisputedField{Path: path, Kind: DisputeMissing, Candidates: []Candidate{}, Omitted: omitted}
	}
	top := cands[0]
	agreement := float64(len(top.Providers)) / float64(n)
	unique := len(cands) == 1 || len(cands[1].Providers) < len(top.Providers)
	if unique && agreement >= minimum-1e-12 {
		return &AgreedField{Path: path, Value: top.Value, Agreement: agreement, Providers: top.Providers, Citations: top.Citations}, nil
	}
	kind := DisputeConflict
	if len(cands) == 1 {
		kind = DisputeOmission
	}
	return nil, &DisputedField{Path: path, Kind: kind, Agreement: agreement, Candidates: cands, Omitted: omitted}
}

// indexClaims maps each reading's claims by path (a reading claims a
// path at most once).
func indexClaims(readings []ProviderReading) []map[string]GroundTruthClaim {
	out := make([]map[string]GroundTruthClaim, len(readings))
	for i, rd := range readings {
		out[i] = make(map[string]GroundTruthClaim, len(rd.Claims))
		for _, c := range rd.Claims {
			out[i][c.Path] = c
		}
	}
	return out
}

func candidatesFor(path string, readings []ProviderReading, idx []map[string]GroundTruthClaim, meta map[string]map[string]any) []Candidate {
	var cands []Candidate
	index := map[string]int{}
	for i, rd := range readings {
		if c, ok := idx[i][path]; ok {
			k := normalizedValue(c.Value)
			j, seen := index[k]
			if !seen {
				j = len(cands)
				index[k] = j
				cands = append(cands, Candidate{Value: c.Value, Providers: []string{}, Citations: []Citation{}})
			}
			cands[j].Providers = append(cands[j].Providers, rd.Name)
			cands[j].Citations = append(cands[j].Citations, Citation{Provider: rd.Name, ReferenceID: c.ReferenceID, SourceMetadata: meta[c.ReferenceID], VisualEvidence: c.VisualEvidence, Confidence: c.Confidence})
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return len(cands[i].Providers) > len(cands[j].Providers) })
	return cands
}
