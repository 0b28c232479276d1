package groundtruth

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/harness/casefile"
	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/internal/jsonout"
)

// ReviewFileKind and ReviewFileVersion identify a ground-truth review file.
const (
	ReviewFileKind    = "docscore-ground-truth-review"
	ReviewFileVersion = 1
)

// The statuses of a review file.
const (
	ReviewPending  = "pending"
	ReviewApproved = "approved"
)

// ReviewFile is the persistent, human-edited form of a generation: the
// agreed claims (editable), one review item per disagreement (to decide
// with "set" and a value, or "omit"), and the signature: status
// "approved" and approved_by. WriteGroundTruthReview writes it;
// ApprovedReferenceFromReview reads it back.
type ReviewFile struct {
	Kind        string   `json:"kind"`
	Version     int      `json:"version"`
	CaseID      string   `json:"case_id"`
	Status      string   `json:"status"`
	ApprovedBy  string   `json:"approved_by"`
	HowToReview []string `json:"how_to_review"`
	// GeneratedReference names the provisional reference the file was
	// written from.
	GeneratedReference ReviewSource   `json:"generated_reference"`
	Sources            []ReviewSource `json:"sources"`
	Notice             string         `json:"notice"`
	Claims             []ReviewClaim  `json:"claims"`
	ReviewItems        []ReviewEntry  `json:"review_items"`
}

// ReviewSource names a file by id and SHA-256.
type ReviewSource struct {
	ArtifactID string         `json:"artifact_id"`
	SHA256     string         `json:"sha256"`
	MediaType  string         `json:"media_type,omitempty"`
	Metadata   map[string]any `json:"metadata,omitempty"`
}

// ReviewClaim is an agreed field; a reviewer may change its value or
// delete it.
type ReviewClaim struct {
	Path       string     `json:"path"`
	Value      any        `json:"value"`
	Agreement  float64    `json:"agreement"`
	Providers  []string   `json:"providers"`
	Resolution string     `json:"resolution"`
	Citations  []Citation `json:"citations"`
}

// ReviewEntry is one disagreement for the reviewer to decide.
type ReviewEntry struct {
	Path         string      `json:"path"`
	Kind         string      `json:"kind"`
	Candidates   []Candidate `json:"candidates"`
	Omitted      []string    `json:"omitted"`
	Adjudication []Candidate `json:"adjudication,omitempty"`
	// Decision is null until the reviewer writes "set" or "omit".
	Decision *string `json:"decision"`
	// Value is the value to set (with decision "set").
	Value any    `json:"value"`
	Note  string `json:"note"`
}

var howToReview = []string{
	"Check every claim against the sources; correct a value in place or delete the claim.",
	"Decide every review item: \"decision\": \"set\" with the correct \"value\" (\"\" for a visibly empty field), or \"decision\": \"omit\".",
	"Then sign: \"status\": \"approved\" and \"approved_by\": your name or e-mail address.",
	"Load it with `docscore groundtruth approve` (ApprovedReferenceFromReview); unresolved or unsigned files are refused.",
	"Freeze ground truth for the whole batch before generating the predictions it will score.",
}

// WriteGroundTruthReview returns the review file of a generation, as
// indented JSON, status "pending".
func WriteGroundTruthReview(r *GroundTruthReport) ([]byte, error) {
	f := ReviewFile{
		Kind: ReviewFileKind, Version: ReviewFileVersion, CaseID: r.CaseID, Status: ReviewPending,
		HowToReview: howToReview, Notice: r.Notice,
		GeneratedReference: ReviewSource{ArtifactID: r.ProvisionalReference.ArtifactID, SHA256: r.ProvisionalReference.SHA256},
		Sources:            []ReviewSource{}, Claims: []ReviewClaim{}, ReviewItems: []ReviewEntry{},
	}
	for _, s := range r.Sources {
		f.Sources = append(f.Sources, ReviewSource{ArtifactID: s.ArtifactID, SHA256: s.SHA256, MediaType: s.MediaType, Metadata: s.Metadata})
	}
	for _, a := range r.Agreed {
		f.Claims = append(f.Claims, ReviewClaim{Path: a.Path, Value: a.Value, Agreement: a.Agreement, Providers: a.Providers, Resolution: a.Resolution, Citations: a.Citations})
	}
	for _, d := range r.Disputed {
		f.ReviewItems = append(f.ReviewItems, ReviewEntry{Path: d.Path, Kind: d.Kind, Candidates: d.Candidates, Omitted: d.Omitted, Adjudication: d.Adjudication})
	}
	return jsonout.Marshal(f)
}

// ApprovedReferenceFromReview reads a review file and returns the
// approved reference: authority ground_truth, the claims as edited plus
// every item decided "set", minus those decided "omit", with approved_by
// and the file's SHA-256 in its metadata. It refuses a file that is not
// approved, is unsigned, or has an undecided item; every problem is an
// input error naming name, the line and what was expected.
func ApprovedReferenceFromReview(data []byte, name string) (evalcase.ReferenceArtifact, error) {
	v, tree, err := ingest.ParseTree(ingest.StripBOM(data), name, 0)
	if err != nil {
		return evalcase.ReferenceArtifact{}, err
	}
	d := &casefile.Decoder{Name: name, Tree: tree}
	obj, err := d.Object(v, "")
	if err != nil {
		return evalcase.ReferenceArtifact{}, err
	}
	allowed := []string{"kind", "version", "case_id", "status", "approved_by", "how_to_review", "generated_reference", "sources", "notice", "claims", "review_items"}
	if err := d.Keys(obj, "", allowed, []string{"kind", "version", "status", "approved_by", "claims", "review_items"}); err != nil {
		return evalcase.ReferenceArtifact{}, err
	}
	if k, _ := obj["kind"].(string); k != ReviewFileKind {
		return evalcase.ReferenceArtifact{}, d.ErrAt("kind", "expected %q", ReviewFileKind)
	}
	if n, _ := obj["version"].(json.Number); string(n) != strconv.Itoa(ReviewFileVersion) {
		return evalcase.ReferenceArtifact{}, d.ErrAt("version", "expected %d", ReviewFileVersion)
	}
	caseID, err := d.OptString(obj, "", "case_id")
	if err != nil {
		return evalcase.ReferenceArtifact{}, err
	}
	status, err := d.ReqString(obj, "", "status")
	if err != nil {
		return evalcase.ReferenceArtifact{}, err
	}
	var approvedBy string
	switch x := obj["approved_by"].(type) {
	case nil:
	case string:
		approvedBy = strings.TrimSpace(x)
	default:
		return evalcase.ReferenceArtifact{}, d.ErrAt("approved_by", "expected a string, found %s", casefile.JSONType(x))
	}
	var rows []evalcase.Field
	seen := map[string]string{}
	claims, err := d.Array(obj["claims"], "claims")
	if err != nil {
		return evalcase.ReferenceArtifact{}, err
	}
	for i, c := range claims {
		at := "claims[" + strconv.Itoa(i) + "]"
		m, err := d.Object(c, at)
		if err != nil {
			return evalcase.ReferenceArtifact{}, err
		}
		if err := d.Keys(m, at, []string{"path", "value", "agreement", "providers", "resolution", "citations"}, []string{"path", "value"}); err != nil {
			return evalcase.ReferenceArtifact{}, err
		}
		p, err := reviewPath(d, m, at, seen)
		if err != nil {
			return evalcase.ReferenceArtifact{}, err
		}
		val, err := scalar(d, m["value"], ingest.JoinKey(at, "value"))
		if err != nil {
			return evalcase.ReferenceArtifact{}, err
		}
		rows = append(rows, evalcase.Field{Path: p, Value: val})
	}
	items, err := d.Array(obj["review_items"], "review_items")
	if err != nil {
		return evalcase.ReferenceArtifact{}, err
	}
	var undecided []string
	firstUndecided := ""
	for i, it := range items {
		at := "review_items[" + strconv.Itoa(i) + "]"
		m, err := d.Object(it, at)
		if err != nil {
			return evalcase.ReferenceArtifact{}, err
		}
		if err := d.Keys(m, at, []string{"path", "kind", "candidates", "omitted", "adjudication", "decision", "value", "note"}, []string{"path", "decision"}); err != nil {
			return evalcase.ReferenceArtifact{}, err
		}
		p, err := reviewPath(d, m, at, seen)
		if err != nil {
			return evalcase.ReferenceArtifact{}, err
		}
		switch dec := m["decision"].(type) {
		case nil:
			undecided = append(undecided, p)
			if firstUndecided == "" {
				firstUndecided = ingest.JoinKey(at, "decision")
			}
		case string:
			switch dec {
			case DecisionOmit:
			case DecisionSet:
				val, ok := m["value"]
				if !ok || val == nil {
					return evalcase.ReferenceArtifact{}, d.ErrAt(ingest.JoinKey(at, "value"), "decision \"set\" needs a value (use \"\" for a visibly empty field)")
				}
				if val, err = scalar(d, val, ingest.JoinKey(at, "value")); err != nil {
					return evalcase.ReferenceArtifact{}, err
				}
				rows = append(rows, evalcase.Field{Path: p, Value: val})
			default:
				return evalcase.ReferenceArtifact{}, d.ErrAt(ingest.JoinKey(at, "decision"), "%q: expected \"set\" or \"omit\"", dec)
			}
		default:
			return evalcase.ReferenceArtifact{}, d.ErrAt(ingest.JoinKey(at, "decision"), "expected \"set\", \"omit\" or null, found %s", casefile.JSONType(dec))
		}
	}
	if len(undecided) > 0 {
		return evalcase.ReferenceArtifact{}, d.ErrAt(firstUndecided, "refusing to approve: %d review item(s) undecided (%s): set each decision to \"set\" (with a value) or \"omit\"", len(undecided), strings.Join(undecided, ", "))
	}
	if status != ReviewApproved {
		return evalcase.ReferenceArtifact{}, d.ErrAt("status", "refusing to approve: status is %q; after checking every claim and deciding every item, set it to %q", status, ReviewApproved)
	}
	if approvedBy == "" {
		return evalcase.ReferenceArtifact{}, d.ErrAt("approved_by", "refusing to approve an unsigned review: approved_by must name who approved it")
	}
	genID, genSHA := "", ""
	if g, ok := obj["generated_reference"].(map[string]any); ok {
		genID, _ = g["artifact_id"].(string)
		genSHA, _ = g["sha256"].(string)
	}
	id := genID
	if id == "" {
		id = caseID + "-reference"
	}
	meta := map[string]any{
		"approved_by":                approvedBy,
		"review_file_sha256":         evalcase.SHA256Hex(data),
		"generated_reference_sha256": genSHA,
		"case_id":                    caseID,
	}
	if srcs, ok := obj["sources"]; ok {
		meta["sources"] = srcs
	}
	ref, err := evalcase.FieldTable(id, evalcase.AuthorityGroundTruth, rows, meta)
	if err != nil {
		return evalcase.ReferenceArtifact{}, inputerr.New(name, 0, "%v", err)
	}
	return ref, nil
}

func reviewPath(d *casefile.Decoder, m map[string]any, at string, seen map[string]string) (string, error) {
	raw, err := d.ReqString(m, at, "path")
	if err != nil {
		return "", err
	}
	p, err := evalcase.CanonicalPath(raw)
	if err != nil {
		return "", d.ErrAt(ingest.JoinKey(at, "path"), "%v", err)
	}
	if prev, dup := seen[p]; dup {
		return "", d.ErrAt(ingest.JoinKey(at, "path"), "path %s appears twice (first at %s)", p, prev)
	}
	seen[p] = at
	return p, nil
}

func scalar(d *casefile.Decoder, v any, at string) (any, error) {
	switch v.(type) {
	case nil, string, bool, json.Number:
		return v, nil
	}
	return nil, d.ErrAt(at, "expected a string, number, boolean or null, found %s", casefile.JSONType(v))
}
