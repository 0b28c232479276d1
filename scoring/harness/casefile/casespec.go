package casefile

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/harness/expression"
	"github.com/docscore/docscore/scoring/inputerr"
)

var metricKeys = []string{"name", "kind", "expression", "score_name", "threshold", "max_steps", "options"}

func (d *Decoder) metricList(v any, at string, opts ReadOptions) ([]evalcase.MetricSpec, error) {
	arr, err := d.Array(v, at)
	if err != nil {
		return nil, err
	}
	out := []evalcase.MetricSpec{}
	names := map[string]bool{}
	for i, e := range arr {
		mat := at + "[" + strconv.Itoa(i) + "]"
		obj, err := d.Object(e, mat)
		if err != nil {
			return nil, err
		}
		if err := d.Keys(obj, mat, metricKeys, []string{"name"}); err != nil {
			return nil, err
		}
		var s evalcase.MetricSpec
		if s.Name, err = d.ReqString(obj, mat, "name"); err != nil {
			return nil, err
		}
		if names[s.Name] {
			return nil, d.ErrAt(JoinKey(mat, "name"), "metric %q is listed twice", s.Name)
		}
		names[s.Name] = true
		if s.Kind, err = d.OptString(obj, mat, "kind"); err != nil {
			return nil, err
		}
		if s.Expression, err = d.OptString(obj, mat, "expression"); err != nil {
			return nil, err
		}
		if s.ScoreName, err = d.OptString(obj, mat, "score_name"); err != nil {
			return nil, err
		}
		if tv, ok := obj["threshold"]; ok {
			n, ok := tv.(json.Number)
			f, ferr := n.Float64()
			if !ok || ferr != nil {
				return nil, d.ErrAt(JoinKey(mat, "threshold"), "expected a number, found %s", JSONType(tv))
			}
			s.Threshold = &f
		}
		if mv, ok := obj["max_steps"]; ok {
			n, ok := mv.(json.Number)
			k, kerr := strconv.Atoi(string(n))
			if !ok || kerr != nil || k < 1 || k > expression.MaxExpressionSteps {
				return nil, d.ErrAt(JoinKey(mat, "max_steps"), "expected an integer from 1 to %d", expression.MaxExpressionSteps)
			}
			s.MaxSteps = k
		}
		if s.Options, err = d.OptObject(obj, mat, "options"); err != nil {
			return nil, err
		}
		kind := s.EffectiveKind()
		switch {
		case kind == "":
			return nil, d.ErrAt(mat, "expected \"expression\" or \"kind\" (one of %s)", strings.Join(opts.MetricKinds.Names(), ", "))
		case kind == evalcase.KindExpression:
			if err := expression.CheckExpression(s.Expression); err != nil {
				return nil, d.ErrAt(JoinKey(mat, "expression"), "%v", err)
			}
		case s.Expression != "":
			return nil, d.ErrAt(JoinKey(mat, "expression"), "only expression metrics take an expression (kind is %q)", kind)
		}
		f, ok := opts.MetricKinds[kind]
		if !ok {
			return nil, d.ErrAt(JoinKey(mat, "kind"), "unknown metric kind %q (known: %s)", kind, strings.Join(opts.MetricKinds.Names(), ", "))
		}
		if _, err := f(s); err != nil {
			return nil, d.ErrAt(mat, "%v", err)
		}
		out = append(out, s)
	}
	return out, nil
}

var opSpecKeys = []string{"spec_id", "operation", "version", "action_instruction", "evaluation_spec", "rubric", "judge_instruction", "judge_instruction_mode", "allow_unsafe_judge_override"}
var evalSpecKeys = []string{"spec_id", "version", "status", "objective", "criteria", "allowed_outputs"}

func (d *Decoder) operationSpec(v any, at string) (evalcase.OperationSpec, error) {
	var s evalcase.OperationSpec
	obj, err := d.Object(v, at)
	if err != nil {
		return s, err
	}
	if err := d.Keys(obj, at, opSpecKeys, []string{"spec_id", "operation"}); err != nil {
		return s, err
	}
	if s.SpecID, err = d.ReqString(obj, at, "spec_id"); err != nil {
		return s, err
	}
	if s.Operation, err = d.ReqString(obj, at, "operation"); err != nil {
		return s, err
	}
	for _, f := range []struct {
		k   string
		dst *string
	}{{"version", &s.Version}, {"action_instruction", &s.ActionInstruction}, {"rubric", &s.Rubric}, {"judge_instruction", &s.JudgeInstruction}} {
		if *f.dst, err = d.OptString(obj, at, f.k); err != nil {
			return s, err
		}
	}
	mode, err := d.EnumString(obj, at, "judge_instruction_mode", []string{string(evalcase.ModeAppend), string(evalcase.ModeReplace)})
	if err != nil {
		return s, err
	}
	s.JudgeInstructionMode = evalcase.InstructionMode(mode)
	if s.AllowUnsafeJudgeOverride, err = d.OptBool(obj, at, "allow_unsafe_judge_override"); err != nil {
		return s, err
	}
	if s.JudgeInstructionMode == evalcase.ModeReplace && !s.AllowUnsafeJudgeOverride {
		return s, d.ErrAt(JoinKey(at, "judge_instruction_mode"), "\"replace\" discards the protected judge instructions and is refused unless allow_unsafe_judge_override is true")
	}
	if ev, ok := obj["evaluation_spec"]; ok {
		eat := JoinKey(at, "evaluation_spec")
		eo, err := d.Object(ev, eat)
		if err != nil {
			return s, err
		}
		if err := d.Keys(eo, eat, evalSpecKeys, []string{"spec_id", "status"}); err != nil {
			return s, err
		}
		es := &evalcase.EvaluationSpec{}
		if es.SpecID, err = d.ReqString(eo, eat, "spec_id"); err != nil {
			return s, err
		}
		if es.Version, err = d.OptString(eo, eat, "version"); err != nil {
			return s, err
		}
		st, err := d.EnumString(eo, eat, "status", []string{string(evalcase.StatusDraft), string(evalcase.StatusApproved)})
		if err != nil {
			return s, err
		}
		es.Status = evalcase.SpecStatus(st)
		if es.Objective, err = d.OptString(eo, eat, "objective"); err != nil {
			return s, err
		}
		if es.Criteria, err = d.StringList(eo, eat, "criteria"); err != nil {
			return s, err
		}
		if es.AllowedOutputs, err = d.StringList(eo, eat, "allowed_outputs"); err != nil {
			return s, err
		}
		s.EvaluationSpec = es
	}
	return s, nil
}

func (d *Decoder) pipeline(obj map[string]any, at string, opts ReadOptions) (PipelineCase, error) {
	var p PipelineCase
	if err := d.Keys(obj, at, []string{"pipeline_id", "stages", "description"}, []string{"pipeline_id", "stages"}); err != nil {
		return p, err
	}
	var err error
	if p.PipelineID, err = d.ReqString(obj, at, "pipeline_id"); err != nil {
		return p, err
	}
	if _, err := d.OptString(obj, at, "description"); err != nil {
		return p, err
	}
	sat := JoinKey(at, "stages")
	arr, err := d.Array(obj["stages"], sat)
	if err != nil {
		return p, err
	}
	if len(arr) == 0 {
		return p, d.ErrAt(sat, "expected at least one stage")
	}
	where := map[string]string{}
	for i, e := range arr {
		cat := sat + "[" + strconv.Itoa(i) + "]"
		co, err := d.Object(e, cat)
		if err != nil {
			return p, err
		}
		c, err := d.evalCase(co, cat, opts)
		if err != nil {
			return p, err
		}
		if _, dup := where[c.Stage()]; dup {
			idAt := JoinKey(cat, "stage_id")
			if c.StageID == "" {
				idAt = JoinKey(cat, "case_id")
			}
			return p, d.ErrAt(idAt, "stage id %q is used twice in pipeline %q (stage_id defaults to case_id)", c.Stage(), p.PipelineID)
		}
		where[c.Stage()] = cat
		p.Stages = append(p.Stages, c)
	}
	for i, c := range p.Stages {
		for k, dep := range c.DependsOn {
			dat := sat + "[" + strconv.Itoa(i) + "].depends_on[" + strconv.Itoa(k) + "]"
			if _, ok := where[dep]; !ok {
				return p, d.ErrAt(dat, "%q is not a stage of pipeline %q", dep, p.PipelineID)
			}
		}
	}
	if err := p.Validate(); err != nil {
		ie, _ := inputerr.As(err)
		msg := err.Error()
		if ie != nil {
			msg = ie.Msg
		}
		return p, d.ErrAt(sat, "%s", msg)
	}
	return p, nil
}
