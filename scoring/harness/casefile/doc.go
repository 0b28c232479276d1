// Package casefile reads the evaluation harness's cases file (SPEC C): one
// JSON document, or JSONL with one item per line, of cases, pipelines,
// operation specs and metric specs, into a CaseFile. Every error is an
// input error at the file, line and column of the key or value it is
// about; Decoder is the positioned decoder the harness's other readers
// (review files, human verdicts) share. Package harness evaluates what it
// reads (harness.ReadCaseFile fills in the default metric kinds).
package casefile
