// Package judging asks models to decide what deterministic metrics cannot:
// a [Judge] decides a stage from a [JudgeRequest] (built by
// [BuildJudgeRequest]); [LLMJudgeMetric] and [JudgePanelMetric] turn one
// judge or a model-balanced panel of them into metrics; a
// [GroundTruthPanel] and [GroundTruthAdjudicator] generate a provisional
// reference from source documents, which [ApproveGeneratedReference] turns
// into ground truth only with a signed human approval; a
// [GroundTruthRouter] prepares the documents; [ReviewPages] asks a judge
// for advisory reviews. Models are reached through [ModelAdapter]s
// (transport lives in the host: cmd/docscore/internal/judge), optionally
// cached ([CachedAdapter]) and metered ([UsageTracker]).
//
// Dependencies run one way: scoring/harness imports this package (the
// llm_judge metric kind, judge instructions in reports, usage summaries),
// and this package imports only scoring/evalcase, where the types both
// need live (cases, references, verdicts, the metric contract). Reading a
// review file (harness.ApprovedReferenceFromReview) stays in the harness
// for now because it shares the cases file's positioned decoder; its tests
// live here, beside the generator whose reports they read back.
//
// The package is pure: it reads no files and opens no connections.
package judging
