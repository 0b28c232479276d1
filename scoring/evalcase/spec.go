package evalcase

import (
	"fmt"
	"sort"
	"strings"
)

// SpecStatus records whether an EvaluationSpec's rules were reviewed.
type SpecStatus string

// The statuses of an evaluation spec.
const (
	// StatusDraft rules must still be calibrated; reports warn about them.
	StatusDraft SpecStatus = "draft"
	// StatusApproved rules were reviewed independently of the action prompt.
	StatusApproved SpecStatus = "approved"
)

// EvaluationSpec is the independently reviewed correctness rule of an
// operation: what a correct answer is, as opposed to what the action was
// asked (the action instruction may itself be wrong).
type EvaluationSpec struct {
	SpecID         string     `json:"spec_id"`
	Version        string     `json:"version,omitempty"`
	Status         SpecStatus `json:"status"`
	Objective      string     `json:"objective,omitempty"`
	Criteria       []string   `json:"criteria,omitempty"`
	AllowedOutputs []string   `json:"allowed_outputs,omitempty"`
}

// OperationSpec defines an operation once for every case that names it:
// the production action prompt under test, and the evaluation spec that
// decides correctness.
type OperationSpec struct {
	SpecID    string `json:"spec_id"`
	Operation string `json:"operation"`
	Version   string `json:"version,omitempty"`
	// ActionInstruction is the real prompt being tested; it may be imperfect.
	ActionInstruction string          `json:"action_instruction,omitempty"`
	EvaluationSpec    *EvaluationSpec `json:"evaluation_spec,omitempty"`
	// Rubric, JudgeInstruction and its mode apply to cases that do not set
	// their own.
	Rubric                   string          `json:"rubric,omitempty"`
	JudgeInstruction         string          `json:"judge_instruction,omitempty"`
	JudgeInstructionMode     InstructionMode `json:"judge_instruction_mode,omitempty"`
	AllowUnsafeJudgeOverride bool            `json:"allow_unsafe_judge_override,omitempty"`
}

func (s OperationSpec) validate() error {
	if strings.TrimSpace(s.SpecID) == "" {
		return fmt.Errorf("operation spec for %q: spec_id is empty", s.Operation)
	}
	if strings.TrimSpace(s.Operation) == "" {
		return fmt.Errorf("operation spec %q: operation is empty", s.SpecID)
	}
	if es := s.EvaluationSpec; es != nil {
		if strings.TrimSpace(es.SpecID) == "" {
			return fmt.Errorf("operation spec %q: evaluation_spec.spec_id is empty", s.SpecID)
		}
		if es.Status != StatusDraft && es.Status != StatusApproved {
			return fmt.Errorf("operation spec %q: evaluation_spec.status %q: expected draft or approved", s.SpecID, es.Status)
		}
	}
	return nil
}

// OperationRegistry resolves cases against the OperationSpec of their
// operation.
type OperationRegistry struct {
	byOperation map[string]OperationSpec
}

// NewOperationRegistry indexes specs by operation; two specs for one
// operation, or a spec without id or operation, are an error.
func NewOperationRegistry(specs ...OperationSpec) (*OperationRegistry, error) {
	r := &OperationRegistry{byOperation: map[string]OperationSpec{}}
	for _, s := range specs {
		if err := s.validate(); err != nil {
			return nil, err
		}
		if prev, dup := r.byOperation[s.Operation]; dup {
			return nil, fmt.Errorf("operation %q has two specs: %q and %q", s.Operation, prev.SpecID, s.SpecID)
		}
		r.byOperation[s.Operation] = s
	}
	return r, nil
}

// Specs returns the registered specs, sorted by operation.
func (r *OperationRegistry) Specs() []OperationSpec {
	if r == nil {
		return nil
	}
	ops := make([]string, 0, len(r.byOperation))
	for op := range r.byOperation {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	out := make([]OperationSpec, len(ops))
	for i, op := range ops {
		out[i] = r.byOperation[op]
	}
	return out
}

// Resolve returns c with its operation's spec applied: the spec is
// recorded in OperationSpec, and the action instruction, rubric and judge
// instruction (with its mode and override) are filled in where the case
// leaves them empty. A case's own values win. A case whose operation has no
// spec, or that already carries one, is returned unchanged.
func (r *OperationRegistry) Resolve(c EvaluationCase) EvaluationCase {
	if r == nil || c.OperationSpec != nil {
		return c
	}
	s, ok := r.byOperation[c.Operation]
	if !ok {
		return c
	}
	spec := s
	c.OperationSpec = &spec
	return ApplySpec(c)
}

// ApplySpec fills the case's empty fields from its OperationSpec.
func ApplySpec(c EvaluationCase) EvaluationCase {
	s := c.OperationSpec
	if s == nil {
		return c
	}
	if c.ActionInstruction == "" {
		c.ActionInstruction = s.ActionInstruction
	}
	if c.Rubric == "" {
		c.Rubric = s.Rubric
	}
	if c.JudgeInstruction == "" && s.JudgeInstruction != "" {
		c.JudgeInstruction = s.JudgeInstruction
		c.JudgeInstructionMode = s.JudgeInstructionMode
		c.AllowUnsafeJudgeOverride = s.AllowUnsafeJudgeOverride
	}
	return c
}
