// Package groundtruth generates ground truth with models and people: a
// [GroundTruthPanel] of providers reads source documents into claims
// (checked against schema/ground-truth-claims.schema.json), votes them
// into a provisional reference, and a [GroundTruthAdjudicator] settles
// what the panel split on; a [GroundTruthRouter] prepares the documents;
// [ApproveGeneratedReference] turns a provisional reference into ground
// truth only with a signed human approval. Models are reached through
// package judging's adapters.
//
// Reading a review file back (harness.ApprovedReferenceFromReview) stays
// in the harness, which shares the cases file's positioned decoder; its
// tests live here, beside the generator whose reports they read back.
//
// The package is pure: it reads no files and opens no connections.
package groundtruth
