// Package rules reads EQUIVALENCES.md, the rule file of the tabular scorer
// (SPEC A.5): ignore rules (tokens a model adds that the ground truth does
// not carry) and equivalences (forms that mean the same thing), each row
// settled (applied) or OPEN (a draft that changes no score unless
// previewed).
//
// The file is an ordinary Markdown document. Parse reads it from the
// gomarkdown syntax tree, keeping every row's line number for errors and
// for choosing rows to preview; Check validates rows against a schema and,
// optionally, the ground truth; Compile turns the active rows into per-field
// tables for the scorer. The package does no I/O.
package rules
