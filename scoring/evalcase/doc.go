// Package evalcase is the vocabulary every evaluation package shares: an
// [EvaluationCase] (one stage: what it was asked, what it got, what it
// answered), the [ReferenceArtifact]s it is judged against with their
// [Authority] and [ComparisonMode], the [Verdict]s, the [Metric] contract
// and its [MetricResult], the [OperationSpec]s that supply instructions
// and rubrics, the [CheckpointStore] contract, and the value helpers they
// rest on (canonical paths and JSON, path/value tables, JSON with
// positions).
//
// The evaluation packages form one chain, each importing only the ones
// below it:
//
//	scoring/harness   pipelines, the evaluator, deterministic metrics,
//	                  cases and review files, reports
//	      |
//	scoring/judging   judges, judge metrics and panels, generated ground
//	      |           truth, model adapters, usage, routers
//	      |
//	scoring/evalcase  this package: the types both of them need
//
// The package is pure: it reads no files and opens no connections.
package evalcase
