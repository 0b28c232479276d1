// Package harness evaluates multi-stage document pipelines: an extraction
// stage reads a document, later stages compute, classify or compare what it
// read, and every stage is scored against references of known authority.
//
// The concepts follow the visual_evals library described in the project's
// seed: an evalcase.EvaluationCase is one stage (what it was asked, what it
// got, what it answered, what it is judged against); a casefile.PipelineCase
// chains stages through depends_on; an evalcase.ReferenceArtifact carries
// an authority (evidence, generated or ground_truth) and a comparison mode.
// Metrics ([ExactStructuredMetric], [FunctionMetric],
// expression.ExpressionMetric (package scoring/harness/expression) and,
// through judging.Judge, judging.LLMJudgeMetric) give each stage a verdict; the
// [PipelineEvaluator] selects metrics by stage id, then operation, then
// defaults, and attributes failures across the dependency graph
// ([FailureContext]). Completed stages can be checkpointed through a
// [CheckpointStore] and are reused only while their fingerprint matches.
//
// Cases are data: [ReadCaseFile] reads the JSON or JSONL cases file
// documented by docs/schema/cases.schema.json (package
// scoring/harness/casefile is the reader), and [EvaluateCaseFile] turns
// it into a [Report]. Hosts run it through one operation,
// scoring/api/evalapi's EvaluateOperation, so the command line, the
// browser and the Worker produce the same report.
//
// The harness sits on top of two pure packages and neither imports it:
// scoring/judging (judges, panels, model adapters) and, below both,
// scoring/evalcase (the case, reference, verdict and metric types they
// share); the cases file is read by scoring/harness/casefile, expression
// metrics live in scoring/harness/expression, and generated ground truth
// in scoring/groundtruth:
//
//	harness -> casefile, expression -> evalcase
//	harness -> groundtruth -> judging -> evalcase
//	groundtruth -> casefile
//
// What stays here is the evaluator, the built-in metrics, the report and
// the reader of human-verdict files, which all share the evaluator's
// results; the ground-truth review file and the providers' agreement with
// its reviewers are scoring/groundtruth's.
//
// The package is pure: it reads no files and opens no connections. Files
// named by a cases file are read through a casefile.Loader supplied by the
// caller.
package harness
