// Package groundtruth generates ground truth with models and people: a
// [GroundTruthPanel] of providers reads source documents into claims
// (checked against schema/ground-truth-claims.schema.json), votes them
// into a provisional reference, and a [GroundTruthAdjudicator] settles
// what the panel split on; a [GroundTruthRouter] prepares the documents;
// [ApproveGeneratedReference] turns a provisional reference into ground
// truth only with a signed human approval. Models are reached through
// package judging's adapters.
//
// A generation becomes a review file for a person to edit and sign
// ([WriteGroundTruthReview]); [ApprovedReferenceFromReview] reads it back
// into ground truth with the cases file's positioned decoder
// (scoring/harness/casefile), so every error names the file, line and
// column. [JudgeHumanAgreement] pairs signed review files with the
// generations they were written from and gives each provider's Cohen's κ
// against the people; [HumanAgreement.WriteMarkdown] writes that section,
// which the harness reuses for its judges against people.
//
// The package is pure: it reads no files and opens no connections.
package groundtruth
