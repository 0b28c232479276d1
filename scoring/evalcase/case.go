package harness

import (
	"fmt"
	"strings"

	"github.com/docscore/docscore/scoring/inputerr"
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

// instructionMode returns the effective judge instruction mode.
func (c EvaluationCase) instructionMode() InstructionMode {
	if c.JudgeInstructionMode == "" {
		return ModeAppend
	}
	return c.JudgeInstructionMode
}

// checkInstructionGuard refuses replace mode without the explicit unsafe
// override, and an unknown mode.
func (c EvaluationCase) checkInstructionGuard() error {
	switch c.instructionMode() {
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

// PipelineCase is an ordered set of stages linked by depends_on.
type PipelineCase struct {
	PipelineID string           `json:"pipeline_id"`
	Stages     []EvaluationCase `json:"stages"`
}

// Validate checks the stage graph: every stage has an id, ids are unique,
// every dependency names a stage of the pipeline, and there is no cycle.
// Problems are input errors.
func (p PipelineCase) Validate() error {
	_, err := p.order()
	return err
}

// order returns the stage indices in dependency order: a stage comes after
// everything it depends on, and otherwise keeps its place in the list.
func (p PipelineCase) order() ([]int, error) {
	where := "pipeline " + p.PipelineID
	index := map[string]int{}
	for i, s := range p.Stages {
		id := s.Stage()
		if id == "" {
			return nil, inputerr.New(where, 0, "stage %d has neither stage_id nor case_id", i+1)
		}
		if _, dup := index[id]; dup {
			return nil, inputerr.New(where, 0, "two stages have the id %q", id)
		}
		index[id] = i
	}
	for _, s := range p.Stages {
		for _, d := range s.DependsOn {
			if _, ok := index[d]; !ok {
				return nil, inputerr.New(where, 0, "stage %q depends on %q, which is not a stage of this pipeline", s.Stage(), d)
			}
			if d == s.Stage() {
				return nil, inputerr.New(where, 0, "stage %q depends on itself", d)
			}
		}
	}
	// Depth-first search, visiting stages in list order, so the order is
	// stable and a cycle can be named.
	const (
		unvisited = iota
		active
		done
	)
	state := make([]int, len(p.Stages))
	var out []int
	var stack []string
	var visit func(i int) error
	visit = func(i int) error {
		switch state[i] {
		case done:
			return nil
		case active:
			id := p.Stages[i].Stage()
			start := 0
			for k, s := range stack {
				if s == id {
					start = k
				}
			}
			cycle := append(append([]string{}, stack[start:]...), id)
			return inputerr.New(where, 0, "depends_on forms a cycle: %s", strings.Join(cycle, " -> "))
		}
		state[i] = active
		stack = append(stack, p.Stages[i].Stage())
		for _, d := range p.Stages[i].DependsOn {
			if err := visit(index[d]); err != nil {
				return err
			}
		}
		stack = stack[:len(stack)-1]
		state[i] = done
		out = append(out, i)
		return nil
	}
	for i := range p.Stages {
		if err := visit(i); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// upstream returns the ids of every stage that stage i depends on,
// directly or transitively, in pipeline order.
func (p PipelineCase) upstream(i int) []string {
	index := map[string]int{}
	for k, s := range p.Stages {
		index[s.Stage()] = k
	}
	seen := map[int]bool{}
	var walk func(k int)
	walk = func(k int) {
		for _, d := range p.Stages[k].DependsOn {
			j := index[d]
			if !seen[j] {
				seen[j] = true
				walk(j)
			}
		}
	}
	walk(i)
	var out []string
	for k, s := range p.Stages {
		if seen[k] {
			out = append(out, s.Stage())
		}
	}
	return out
}
