package casefile

import (
	"strings"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/inputerr"
)

// PipelineCase is an ordered set of stages linked by depends_on.
type PipelineCase struct {
	PipelineID string                    `json:"pipeline_id"`
	Stages     []evalcase.EvaluationCase `json:"stages"`
}

// Validate checks the stage graph: every stage has an id, ids are unique,
// every dependency names a stage of the pipeline, and there is no cycle.
// Problems are input errors.
func (p PipelineCase) Validate() error {
	_, err := p.Order()
	return err
}

// Order returns the stage indices in dependency order: a stage comes after
// everything it depends on, and otherwise keeps its place in the list.
func (p PipelineCase) Order() ([]int, error) {
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
