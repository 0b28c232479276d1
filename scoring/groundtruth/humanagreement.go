package groundtruth

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/docscore/docscore/scoring/agreement"
	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/harness/casefile"
	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/internal/jsonout"
	"github.com/docscore/docscore/scoring/internal/mdtext"
)

// HumanAgreementKind is the Kind of a HumanAgreementReport.
const HumanAgreementKind = "docscore-ground-truth-human-agreement"

// HumanAgreementCategories says what a rating is, in the report itself.
const HumanAgreementCategories = "a unit is one field of one reviewed case; a rating is the field's path with its value's comparison key ($.amount=num:1250.5) or with absent ($.amount=absent): the provider's first reading against the reviewer's approved reference"

// NamedReport is a generation report and the name it was read from.
type NamedReport struct {
	Name   string
	Report *GroundTruthReport
}

// NamedFile is a file's bytes and its name.
type NamedFile struct {
	Name string
	Data []byte
}

// ReviewUse says whether a review file's decisions were counted.
type ReviewUse struct {
	Review       string `json:"review"`
	ReviewSHA256 string `json:"review_sha256"`
	CaseID       string `json:"case_id"`
	// Report names the generation report the review was written from.
	Report     string `json:"report,omitempty"`
	ApprovedBy string `json:"approved_by,omitempty"`
	Used       bool   `json:"used"`
	// Reason says why a review was not used (it is not signed yet).
	Reason string `json:"reason,omitempty"`
}

// HumanAgreement is the "agreement" member of a HumanAgreementReport:
// per provider (judge model), Cohen's κ between its reading and the
// people's decisions, with the sparse confusion matrix. Human is absent
// when no review carries decisions; HumanReason then says why.
type HumanAgreement struct {
	Human       map[string]agreement.Kappa `json:"human,omitempty"`
	HumanReason string                     `json:"human_reason,omitempty"`
}

// HumanAgreementReport compares a ground-truth panel's providers with the
// people who reviewed its generations.
type HumanAgreementReport struct {
	Kind       string         `json:"kind"`
	Version    int            `json:"version"`
	Categories string         `json:"categories"`
	Reviews    []ReviewUse    `json:"reviews"`
	Agreement  HumanAgreement `json:"agreement"`
}

// ReasonNoHumanDecisions is HumanAgreement.HumanReason when no review file
// is signed.
const ReasonNoHumanDecisions = "no review file is signed (status \"approved\" with approved_by): there are no human decisions to compare the providers with"

// JudgeHumanAgreement pairs every review file with the generation report
// it was written from: the report of the same case whose provisional
// reference has the file's generated_reference.sha256 (a file without one
// is paired by case id alone) and returns each provider's Cohen's κ against the people's
// decisions (judging.JudgeHumanKappa). A review that is not signed is
// listed, not counted; a signed one must pass ApprovedReferenceFromReview
// and match exactly one report, and no two reviews may decide the same
// generation. Errors are input errors naming the file and line.
func JudgeHumanAgreement(reports []NamedReport, reviews []NamedFile) (*HumanAgreementReport, error) {
	out := &HumanAgreementReport{Kind: HumanAgreementKind, Version: 1, Categories: HumanAgreementCategories, Reviews: []ReviewUse{}}
	decidedBy := map[int]string{}
	var gens []ReviewedGeneration
	for _, rv := range reviews {
		use := ReviewUse{Review: rv.Name, ReviewSHA256: evalcase.SHA256Hex(rv.Data)}
		v, tree, err := ingest.ParseTree(ingest.StripBOM(rv.Data), rv.Name, 0)
		if err != nil {
			return nil, err
		}
		d := &casefile.Decoder{Name: rv.Name, Tree: tree}
		obj, err := d.Object(v, "")
		if err != nil {
			return nil, err
		}
		if k, _ := obj["kind"].(string); k != ReviewFileKind {
			return nil, d.ErrAt("kind", "expected %q (a review file of docscore groundtruth review-file)", ReviewFileKind)
		}
		use.CaseID, _ = obj["case_id"].(string)
		if status, _ := obj["status"].(string); status != ReviewApproved {
			use.Reason = fmt.Sprintf("status %q: not signed, so not counted", status)
			out.Reviews = append(out.Reviews, use)
			continue
		}
		ref, err := ApprovedReferenceFromReview(rv.Data, rv.Name)
		if err != nil {
			return nil, err
		}
		use.ApprovedBy, _ = ref.Metadata["approved_by"].(string)
		sha, _ := ref.Metadata["generated_reference_sha256"].(string)
		var match []int
		for i, r := range reports {
			if r.Report != nil && r.Report.CaseID == use.CaseID && (sha == "" || r.Report.ProvisionalReference.SHA256 == sha) {
				match = append(match, i)
			}
		}
		if len(match) != 1 {
			what := "no --report"
			if len(match) > 1 {
				what = fmt.Sprintf("%d reports (%s and %s)", len(match), reports[match[0]].Name, reports[match[1]].Name)
			}
			return nil, d.ErrAt("generated_reference", "case %q, generated reference sha256 %q: matches %s; give the one generation report this review was written from", use.CaseID, sha, what)
		}
		idx := match[0]
		if prev, dup := decidedBy[idx]; dup {
			return nil, inputerr.New(rv.Name, 0, "decides the same generation (%s) as %s: count one review per generation", reports[idx].Name, prev)
		}
		decidedBy[idx] = rv.Name
		text, _ := ref.Value.(string)
		fields, _, err := evalcase.PathTable(text, ref)
		if err != nil {
			return nil, inputerr.New(rv.Name, 0, "%v", err)
		}
		use.Report, use.Used = reports[idx].Name, true
		out.Reviews = append(out.Reviews, use)
		gens = append(gens, ReviewedGeneration{Report: reports[idx].Report, Approved: fields})
	}
	if len(gens) == 0 {
		out.Agreement.HumanReason = ReasonNoHumanDecisions
		return out, nil
	}
	out.Agreement.Human = JudgeHumanKappa(gens)
	return out, nil
}

// JSON encodes the report like Report.JSON.
func (r *HumanAgreementReport) JSON() ([]byte, error) {
	return jsonout.Marshal(r)
}

// Markdown renders the report: κ per provider, then the cells where a
// provider and the reviewers differ.
func (r *HumanAgreementReport) Markdown() string {
	var b strings.Builder
	b.WriteString("# Ground-truth providers against people\n\n")
	used, pending := 0, 0
	for _, u := range r.Reviews {
		if u.Used {
			used++
		} else {
			pending++
		}
	}
	fmt.Fprintf(&b, "%d signed review(s) counted, %d not signed (not counted).\n\n", used, pending)
	r.Agreement.WriteMarkdown(&b, humanFieldWords)
	return b.String()
}

// HumanWords are the words of a κ-against-people section: the intro
// paragraph, what a rater and a unit are called, the two confusion
// columns and the line written when no cell is off the diagonal. The
// harness writes its judges-against-people section with its own words.
type HumanWords struct {
	Intro, Rater, Units, RatedBy, HumanDecided, AllAlike string
}

// humanFieldWords are the words of the providers-against-reviewers section.
var humanFieldWords = HumanWords{
	Intro:        "Cohen's κ between each provider's reading and the reviewers' decisions. A rating is a field with its value (`$.amount=num:1250.5`) or with `absent`; chance agreement comes from the two sides' marginals.",
	Rater:        "provider",
	Units:        "fields",
	RatedBy:      "provider read",
	HumanDecided: "reviewers decided",
	AllAlike:     "Every counted field was read as the reviewers decided.",
}

// WriteMarkdown writes the κ-against-people section to b in the words w:
// κ per rater, then the confusion cells off the diagonal, or why κ was
// not computed.
func (a HumanAgreement) WriteMarkdown(b *strings.Builder, w HumanWords) {
	if a.Human == nil {
		fmt.Fprintf(b, "Cohen's κ against people: not computed: %s.\n", a.HumanReason)
		return
	}
	fmt.Fprintf(b, "%s\n\n| %s | κ | %s | skipped | observed | by chance |\n|---|---|---|---|---|---|\n", w.Intro, w.Rater, w.Units)
	names := slices.Sorted(maps.Keys(a.Human))
	for _, n := range names {
		k := a.Human[n]
		fmt.Fprintf(b, "| %s | %s | %d | %d | %s | %s |\n", mdtext.Cell(n), mdtext.Coefficient(k.Kappa, k.Reason), k.N, k.Skipped, mdtext.Score(k.Observed), mdtext.Score(k.Expected))
	}
	var rows []string
	for _, n := range names {
		for _, c := range a.Human[n].Confusion {
			if c.Judge != c.Human {
				rows = append(rows, fmt.Sprintf("| %s | `%s` | `%s` | %d |\n", mdtext.Cell(n), mdtext.Cell(c.Judge), mdtext.Cell(c.Human), c.N))
			}
		}
	}
	b.WriteString("\n")
	if len(rows) == 0 {
		b.WriteString(w.AllAlike + "\n")
		return
	}
	fmt.Fprintf(b, "Confusion cells off the diagonal (the full matrix is in the JSON report):\n\n| %s | %s | %s | %s |\n|---|---|---|---|\n", w.Rater, w.RatedBy, w.HumanDecided, w.Units)
	for _, r := range rows {
		b.WriteString(r)
	}
}
