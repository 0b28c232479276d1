package groundtruth

import (
	"context"
	"fmt"
	"sort"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/judging"
)

// GroundTruthAdjudicator is a blind second reading of disputed fields
// only: each provider gets the sources, the extraction instruction and the
// disputed paths, never the first pass's values. A path whose second-pass
// top value reaches MinimumAgreement (default 1: unanimity of the
// adjudicating providers) is resolved as "adjudicated"; the rest remain
// review items, with the second pass's candidates kept. The reference
// stays authority "generated".
type GroundTruthAdjudicator struct {
	Providers        []GroundTruthProvider
	MinimumAgreement float64
}

// Adjudicate re-reads report's disputed paths from sources (the same
// sources the report was generated from, checked by SHA-256).
func (a *GroundTruthAdjudicator) Adjudicate(ctx context.Context, report *GroundTruthReport, sources []evalcase.ReferenceArtifact) (*GroundTruthReport, error) {
	if err := validateProviders("ground-truth adjudicator", a.Providers, 1); err != nil {
		return nil, err
	}
	if err := checkMinimum(a.MinimumAgreement); err != nil {
		return nil, err
	}
	min := a.MinimumAgreement
	if min == 0 {
		min = 1
	}
	if err := sameSources(report.Sources, sources); err != nil {
		return nil, err
	}
	out := report.clone()
	if len(out.Disputed) == 0 {
		return out, nil
	}
	task := groundTruthTask{CaseID: report.CaseID, ExtractionInstruction: report.ExtractionInstruction, DisputedPaths: report.DisputedPaths()}
	req, ids := sourceRequest(judging.PurposeAdjudication, AdjudicationInstructions, &task, sources)
	readings, err := readAll(ctx, a.Providers, req, ids)
	if err != nil {
		return nil, err
	}
	disputed := map[string]bool{}
	for _, p := range task.DisputedPaths {
		disputed[p] = true
	}
	for i := range readings {
		rd := &readings[i]
		kept := rd.Claims[:0]
		for _, c := range rd.Claims {
			if disputed[c.Path] {
				kept = append(kept, c)
			} else {
				rd.Warnings = append(rd.Warnings, fmt.Sprintf("claim for %s ignored: not a disputed path", c.Path))
			}
		}
		rd.Claims = kept
	}
	out.Readings = append(out.Readings, readings...)
	meta := sourceMeta(sources)
	idx := indexClaims(readings)
	var still []DisputedField
	for _, d := range out.Disputed {
		ag, dd := voteField(d.Path, readings, idx, min, meta)
		if ag != nil {
			ag.Resolution = "adjudicated"
			out.Agreed = append(out.Agreed, *ag)
			continue
		}
		d.Adjudication = dd.Candidates
		still = append(still, d)
	}
	if still == nil {
		still = []DisputedField{}
	}
	out.Disputed = still
	out.Instructions = append(out.Instructions, judging.InstructionRecord{Name: "adjudication_instructions", Source: "docscore", Version: GroundTruthInstructionsVersion, SHA256: evalcase.SHA256Hex([]byte(AdjudicationInstructions))})
	out.sortAgreed()
	return out, out.finish()
}

func sameSources(entries []judging.ReferenceEntry, sources []evalcase.ReferenceArtifact) error {
	if len(entries) != len(sources) {
		return fmt.Errorf("adjudication sources: the report was generated from %d source(s), %d given", len(entries), len(sources))
	}
	for i, e := range entries {
		if e.ArtifactID != sources[i].ArtifactID || e.SHA256 != sources[i].SHA256 {
			return fmt.Errorf("adjudication sources: source %d is %q (sha256 %.12s…), the report was generated from %q (sha256 %.12s…)", i+1, sources[i].ArtifactID, sources[i].SHA256, e.ArtifactID, e.SHA256)
		}
	}
	return nil
}

// clone copies the report deeply enough that resolving it leaves the
// original unchanged.
func (r *GroundTruthReport) clone() *GroundTruthReport {
	c := *r
	c.Readings = append([]ProviderReading(nil), r.Readings...)
	c.Agreed = append([]AgreedField(nil), r.Agreed...)
	c.Disputed = append([]DisputedField(nil), r.Disputed...)
	c.Instructions = append([]judging.InstructionRecord(nil), r.Instructions...)
	return &c
}

// sortAgreed orders agreed fields as fields are voted: expected fields in
// order, then other paths sorted.
func (r *GroundTruthReport) sortAgreed() {
	rank := map[string]int{}
	for i, f := range r.ExpectedFields {
		rank[f] = i
	}
	sort.SliceStable(r.Agreed, func(i, j int) bool {
		ri, iok := rank[r.Agreed[i].Path]
		rj, jok := rank[r.Agreed[j].Path]
		switch {
		case iok && jok:
			return ri < rj
		case iok != jok:
			return iok
		}
		return r.Agreed[i].Path < r.Agreed[j].Path
	})
}

// ResolveGroundTruthUnion accepts non-conflicting one-sided claims: a
// disputed field that only one value was read for (the others omitted it)
// becomes an agreed row with resolution "union". Conflicting values and
// fields nobody read stay disputed. The reference keeps authority
// "generated"; scores against it remain provisional agreement signals.
func ResolveGroundTruthUnion(report *GroundTruthReport) (*GroundTruthReport, error) {
	out := report.clone()
	still := []DisputedField{}
	for _, d := range out.Disputed {
		if d.Kind == DisputeOmission && len(d.Candidates) == 1 {
			c := d.Candidates[0]
			out.Agreed = append(out.Agreed, AgreedField{Path: d.Path, Value: c.Value, Agreement: d.Agreement, Providers: c.Providers, Citations: c.Citations, Resolution: "union"})
			continue
		}
		still = append(still, d)
	}
	out.Disputed = still
	out.sortAgreed()
	return out, out.finish()
}
