package evalcase

import (
	"fmt"
	"strings"
)

// Verdict is the outcome of a metric or a stage.
type Verdict string

// The four verdicts.
const (
	Pass          Verdict = "pass"
	Fail          Verdict = "fail"
	Uncertain     Verdict = "uncertain"
	NotApplicable Verdict = "not_applicable"
)

var verdicts = []string{string(Pass), string(Fail), string(Uncertain), string(NotApplicable)}

// Validate refuses a verdict that is not one of the four.
func (v Verdict) Validate() error {
	if !oneOf(string(v), verdicts) {
		return fmt.Errorf("verdict %q: expected one of %s", v, strings.Join(verdicts, ", "))
	}
	return nil
}

// InstructionMode says how a stage's judge_instruction combines with the
// judge's base instructions.
type InstructionMode string

// The judge instruction modes.
const (
	// ModeAppend (the default) adds the stage's guidance after the base
	// instructions, which keep their evidence and response-contract rules.
	ModeAppend InstructionMode = "append"
	// ModeReplace replaces the base instructions. It is refused unless the
	// case also sets AllowUnsafeJudgeOverride, and every report that uses it
	// carries a warning.
	ModeReplace InstructionMode = "replace"
)

// Producer records which system produced a prediction, so judges can be
// labelled same_model, same_provider or independent. Absent means unknown.
type Producer struct {
	Provider string `json:"provider,omitempty"`
	Model    string `json:"model,omitempty"`
}

// EvaluationCase is one stage of a pipeline, or a case on its own: what
// the stage was asked to do, what it received, what it answered and what
// it is judged against.
type EvaluationCase struct {
	CaseID string `json:"case_id"`
	// StageID names the stage within its pipeline; it defaults to CaseID.
	StageID string `json:"stage_id,omitempty"`
	// Operation is a free-form name used to select metrics and an
	// OperationSpec: extraction, calculation, classification, anything.
	Operation string `json:"operation,omitempty"`
	// ActionInstruction is the exact prompt or rules the stage was given.
	// It is part of the system under test, never a source of truth.
	ActionInstruction string              `json:"action_instruction,omitempty"`
	InputData         any                 `json:"input_data,omitempty"`
	Prediction        any                 `json:"prediction"`
	References        []ReferenceArtifact `json:"references,omitempty"`
	// Rubric is the caller's success rule for the operation.
	Rubric string `json:"rubric,omitempty"`
	// JudgeInstruction is optional stage-specific guidance for judges.
	JudgeInstruction     string          `json:"judge_instruction,omitempty"`
	JudgeInstructionMode InstructionMode `json:"judge_instruction_mode,omitempty"`
	// AllowUnsafeJudgeOverride must be set for JudgeInstructionMode
	// replace to be accepted.
	AllowUnsafeJudgeOverride bool      `json:"allow_unsafe_judge_override,omitempty"`
	Producer                 *Producer `json:"producer,omitempty"`
	DependsOn                []string  `json:"depends_on,omitempty"`
	// Metrics are metrics written on the stage itself (cases files); they
	// take precedence over every other selection.
	Metrics  []MetricSpec   `json:"metrics,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"`
	// OperationSpec is the spec the case was resolved against (set by
	// OperationRegistry.Resolve, or written in-line).
	OperationSpec *OperationSpec `json:"operation_spec,omitempty"`
}

// Stage returns the stage id: StageID, or CaseID when it is empty.
func (c EvaluationCase) Stage() string {
	if c.StageID != "" {
		return c.StageID
	}
	return c.CaseID
}

// EffectiveInstructionMode returns the judge instruction mode, append when
// none is set.
func (c EvaluationCase) EffectiveInstructionMode() InstructionMode {
	if c.JudgeInstructionMode == "" {
		return ModeAppend
	}
	return c.JudgeInstructionMode
}

// CheckInstructionGuard refuses replace mode without the explicit unsafe
// override, and an unknown mode.
func (c EvaluationCase) CheckInstructionGuard() error {
	switch c.EffectiveInstructionMode() {
	case ModeAppend:
		return nil
	case ModeReplace:
		if !c.AllowUnsafeJudgeOverride {
			return fmt.Errorf("stage %q: judge_instruction_mode \"replace\" discards the protected judge instructions and is refused unless allow_unsafe_judge_override is true", c.Stage())
		}
		if strings.TrimSpace(c.JudgeInstruction) == "" {
			return fmt.Errorf("stage %q: judge_instruction_mode \"replace\" needs a non-empty judge_instruction", c.Stage())
		}
		return nil
	}
	return fmt.Errorf("stage %q: judge_instruction_mode %q: expected append or replace", c.Stage(), c.JudgeInstructionMode)
}
