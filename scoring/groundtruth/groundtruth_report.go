package groundtruth

import (
	"github.com/docscore/docscore/scoring/agreement"
	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/judging"
)

// ProviderReading is one provider's pass over the sources.
type ProviderReading struct {
	Name     string            `json:"name"`
	Model    judging.ModelInfo `json:"model"`
	Purpose  string            `json:"purpose"`
	Status   string            `json:"status"` // ok, unusable
	Unusable string            `json:"unusable,omitempty"`
	// RawAnswer is kept when the answer could not be used.
	RawAnswer string             `json:"raw_answer,omitempty"`
	Claims    []GroundTruthClaim `json:"claims"`
	Usage     judging.Usage      `json:"usage"`
	Warnings  []string           `json:"warnings,omitempty"`
}

// Citation is where a provider says it read a value.
type Citation struct {
	Provider       string         `json:"provider"`
	ReferenceID    string         `json:"reference_id"`
	SourceMetadata map[string]any `json:"source_metadata,omitempty"`
	VisualEvidence string         `json:"visual_evidence"`
	Confidence     float64        `json:"confidence"`
}

// Candidate is one value of a field and the providers that read it.
type Candidate struct {
	Value     any        `json:"value"`
	Providers []string   `json:"providers"`
	Citations []Citation `json:"citations"`
}

// AgreedField is a consensus row of the provisional reference.
type AgreedField struct {
	Path  string `json:"path"`
	Value any    `json:"value"`
	// Agreement is the share of providers that read Value.
	Agreement float64    `json:"agreement"`
	Providers []string   `json:"providers"`
	Citations []Citation `json:"citations"`
	// Resolution is "consensus" (first pass), "adjudicated" (a blind
	// second reading) or "union" (a non-conflicting one-sided claim).
	Resolution string `json:"resolution"`
}

// The kinds of disagreement.
const (
	// DisputeConflict: providers read different values.
	DisputeConflict = "conflict"
	// DisputeOmission: one value, but some providers did not read the field.
	DisputeOmission = "omission"
	// DisputeMissing: an expected field no provider read.
	DisputeMissing = "missing"
)

// DisputedField is a field below the agreement threshold.
type DisputedField struct {
	Path string `json:"path"`
	Kind string `json:"kind"`
	// Agreement is the share of providers that read the top value.
	Agreement  float64     `json:"agreement"`
	Candidates []Candidate `json:"candidates"`
	// Omitted lists the providers with no claim for the path.
	Omitted []string `json:"omitted"`
	// Adjudication holds the candidates of a blind second reading that did
	// not settle the field.
	Adjudication []Candidate `json:"adjudication,omitempty"`
}

// GroundTruthReport is the outcome of a generation: every provider's
// claims, the agreed fields, the disputed ones, the expected fields no
// provider read, and the provisional reference.
type GroundTruthReport struct {
	Kind                  string                   `json:"kind"`
	CaseID                string                   `json:"case_id"`
	ExtractionInstruction string                   `json:"extraction_instruction"`
	ExpectedFields        []string                 `json:"expected_fields"`
	MinimumAgreement      float64                  `json:"minimum_agreement"`
	Sources               []judging.ReferenceEntry `json:"sources"`
	Readings              []ProviderReading        `json:"readings"`
	Agreed                []AgreedField            `json:"agreed"`
	Disputed              []DisputedField          `json:"disputed"`
	// OmittedFields are expected fields no provider read.
	OmittedFields       []string `json:"omitted_fields"`
	RequiresHumanReview bool     `json:"requires_human_review"`
	// ProvisionalReference is the consensus rows as a path/value table
	// with authority "generated".
	ProvisionalReference evalcase.ReferenceArtifact  `json:"provisional_reference"`
	Instructions         []judging.InstructionRecord `json:"instructions"`
	Notice               string                      `json:"notice"`
	// Agreement is how far the first-pass providers agree (absent with
	// no reading).
	Agreement *GroundTruthAgreement `json:"agreement,omitempty"`
}

// GroundTruthAgreement is Krippendorff's α (nominal) over the first-pass
// providers' readings: a unit is a field (every agreed or disputed path),
// a rating the normalized value a provider read, Missing when it omitted
// the field or answered unusably. Dissent is each provider's rate of
// values that differ from the field's agreed value (disputed fields have
// no decision and do not count).
type GroundTruthAgreement struct {
	agreement.Alpha
	Providers []string                  `json:"providers"`
	Dissent   map[string]agreement.Rate `json:"dissent"`
}

// agreementOf computes the report's GroundTruthAgreement.
func (r *GroundTruthReport) agreementOf() *GroundTruthAgreement {
	var first []ProviderReading
	for _, rd := range r.Readings {
		if rd.Purpose == judging.PurposeGroundTruth {
			first = append(first, rd)
		}
	}
	if len(first) == 0 {
		return nil
	}
	idx := indexClaims(first)
	names := make([]string, len(first))
	for i, rd := range first {
		names[i] = rd.Name
	}
	var rows [][]string
	var decisions []string
	unit := func(path string, decision string) {
		row := make([]string, len(first))
		for i := range first {
			if c, ok := idx[i][path]; ok {
				row[i] = normalizedValue(c.Value)
			}
		}
		rows = append(rows, row)
		decisions = append(decisions, decision)
	}
	for _, a := range r.Agreed {
		unit(a.Path, normalizedValue(a.Value))
	}
	for _, d := range r.Disputed {
		unit(d.Path, agreement.Missing)
	}
	return &GroundTruthAgreement{Alpha: agreement.NominalAlpha(rows), Providers: names, Dissent: agreement.Dissent(names, rows, decisions)}
}

// GroundTruthReportKind is the Kind of a GroundTruthReport.
const GroundTruthReportKind = "docscore-ground-truth-generation"

// finish recomputes the omitted fields, the review flag and the
// provisional reference.
func (r *GroundTruthReport) finish() error {
	r.OmittedFields = []string{}
	for _, d := range r.Disputed {
		if d.Kind == DisputeMissing {
			r.OmittedFields = append(r.OmittedFields, d.Path)
		}
	}
	usable := 0
	for _, rd := range r.Readings {
		if rd.Status == "ok" {
			usable++
		}
	}
	r.RequiresHumanReview = len(r.Disputed) > 0 || usable == 0 || len(r.Agreed) == 0
	r.Agreement = r.agreementOf()
	ref, err := r.reference()
	if err != nil {
		return err
	}
	r.ProvisionalReference = ref
	return nil
}

// DisputedPaths lists the paths still disputed.
func (r *GroundTruthReport) DisputedPaths() []string {
	out := []string{}
	for _, d := range r.Disputed {
		out = append(out, d.Path)
	}
	return out
}

// GeneratedMetadata is the "ground_truth_panel" metadata of a generated
// reference: what approval checks.
type GeneratedMetadata struct {
	CaseID              string   `json:"case_id"`
	Providers           []string `json:"providers"`
	MinimumAgreement    float64  `json:"minimum_agreement"`
	RequiresHumanReview bool     `json:"requires_human_review"`
	UnresolvedPaths     []string `json:"unresolved_paths"`
	SourceSHA256        []string `json:"source_sha256"`
	Notice              string   `json:"notice"`
}

// generatedMetaKey is the metadata key of a generated reference.
const generatedMetaKey = "ground_truth_panel"

func (r *GroundTruthReport) reference() (evalcase.ReferenceArtifact, error) {
	rows := make([]evalcase.Field, 0, len(r.Agreed))
	for _, a := range r.Agreed {
		rows = append(rows, evalcase.Field{Path: a.Path, Value: a.Value})
	}
	var names, shas []string
	for _, rd := range r.Readings {
		names = append(names, rd.Name)
	}
	for _, s := range r.Sources {
		shas = append(shas, s.SHA256)
	}
	gm := GeneratedMetadata{
		CaseID: r.CaseID, Providers: names, MinimumAgreement: r.MinimumAgreement,
		RequiresHumanReview: r.RequiresHumanReview, UnresolvedPaths: r.DisputedPaths(), SourceSHA256: shas,
		Notice: generatedNotice,
	}
	meta, err := toGeneric(map[string]any{generatedMetaKey: gm})
	if err != nil {
		return evalcase.ReferenceArtifact{}, err
	}
	id := r.CaseID + "-generated"
	if r.CaseID == "" {
		id = "generated-reference"
	}
	return evalcase.FieldTable(id, evalcase.AuthorityGenerated, rows, meta.(map[string]any))
}

func toGeneric(v any) (any, error) {
	b, err := evalcase.CanonicalJSON(v)
	if err != nil {
		return nil, err
	}
	return evalcase.DecodeJSON(b)
}
