// Package judging asks models to decide what deterministic metrics cannot:
// a [Judge] decides a stage from a [JudgeRequest] (built by
// [BuildJudgeRequest]); [LLMJudgeMetric] and [JudgePanelMetric] turn one
// judge or a model-balanced panel of them into metrics; [ReviewPages]
// asks a judge for advisory reviews. Models are reached through
// [ModelAdapter]s (transport lives in the host:
// cmd/docscore/internal/judge), optionally cached ([CachedAdapter]) and
// metered ([UsageTracker]). Generated ground truth, which uses the same
// adapters, is package scoring/groundtruth.
//
// Dependencies run one way: scoring/harness imports this package (the
// llm_judge metric kind, judge instructions in reports, usage summaries),
// and this package imports only scoring/evalcase, where the types both
// need live (cases, references, verdicts, the metric contract).
//
// Its 2,100 lines are one concern, a model's verdict: the request, the
// panel's vote, the adapters' cache and usage all serve it.
//
// The package is pure: it reads no files and opens no connections.
package judging
