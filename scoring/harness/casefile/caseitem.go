package casefile

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/inputerr"
)

var caseKeys = []string{"case_id", "stage_id", "operation", "action_instruction", "input_data", "prediction", "references",
	"rubric", "judge_instruction", "judge_instruction_mode", "allow_unsafe_judge_override", "producer", "depends_on",
	"metrics", "metadata", "operation_spec"}

func (d *Decoder) evalCase(obj map[string]any, at string, opts ReadOptions) (evalcase.EvaluationCase, error) {
	var c evalcase.EvaluationCase
	if err := d.Keys(obj, at, caseKeys, []string{"case_id", "prediction"}); err != nil {
		return c, err
	}
	var err error
	if c.CaseID, err = d.ReqString(obj, at, "case_id"); err != nil {
		return c, err
	}
	strs := []struct {
		k   string
		dst *string
	}{{"stage_id", &c.StageID}, {"operation", &c.Operation}, {"action_instruction", &c.ActionInstruction}, {"rubric", &c.Rubric}, {"judge_instruction", &c.JudgeInstruction}}
	for _, s := range strs {
		if *s.dst, err = d.OptString(obj, at, s.k); err != nil {
			return c, err
		}
	}
	if Has(obj, "stage_id") && strings.TrimSpace(c.StageID) == "" {
		return c, d.ErrAt(JoinKey(at, "stage_id"), "expected a non-empty string")
	}
	mode, err := d.EnumString(obj, at, "judge_instruction_mode", []string{string(evalcase.ModeAppend), string(evalcase.ModeReplace)})
	if err != nil {
		return c, err
	}
	c.JudgeInstructionMode = evalcase.InstructionMode(mode)
	if c.AllowUnsafeJudgeOverride, err = d.OptBool(obj, at, "allow_unsafe_judge_override"); err != nil {
		return c, err
	}
	c.InputData = obj["input_data"]
	c.Prediction = obj["prediction"]
	if pv, ok := obj["producer"]; ok && pv != nil {
		po, err := d.Object(pv, JoinKey(at, "producer"))
		if err != nil {
			return c, err
		}
		pat := JoinKey(at, "producer")
		if err := d.Keys(po, pat, []string{"provider", "model"}, nil); err != nil {
			return c, err
		}
		p := &evalcase.Producer{}
		if p.Provider, err = d.OptString(po, pat, "provider"); err != nil {
			return c, err
		}
		if p.Model, err = d.OptString(po, pat, "model"); err != nil {
			return c, err
		}
		c.Producer = p
	}
	if c.DependsOn, err = d.StringList(obj, at, "depends_on"); err != nil {
		return c, err
	}
	if c.Metadata, err = d.OptObject(obj, at, "metadata"); err != nil {
		return c, err
	}
	if v, ok := obj["references"]; ok {
		arr, err := d.Array(v, JoinKey(at, "references"))
		if err != nil {
			return c, err
		}
		ids := map[string]bool{}
		for i, e := range arr {
			rat := JoinKey(at, "references") + "[" + strconv.Itoa(i) + "]"
			a, err := d.artifact(e, rat, opts)
			if err != nil {
				return c, err
			}
			if ids[a.ArtifactID] {
				return c, d.ErrAt(rat, "artifact_id %q is used twice in this case", a.ArtifactID)
			}
			ids[a.ArtifactID] = true
			c.References = append(c.References, a)
		}
	}
	if v, ok := obj["metrics"]; ok {
		if c.Metrics, err = d.metricList(v, JoinKey(at, "metrics"), opts); err != nil {
			return c, err
		}
	}
	if v, ok := obj["operation_spec"]; ok {
		s, err := d.operationSpec(v, JoinKey(at, "operation_spec"))
		if err != nil {
			return c, err
		}
		if c.Operation != "" && s.Operation != c.Operation {
			return c, d.ErrAt(JoinKey(at, "operation_spec.operation"), "%q differs from the case's operation %q", s.Operation, c.Operation)
		}
		c.OperationSpec = &s
	}
	if err := c.CheckInstructionGuard(); err != nil {
		return c, d.ErrAt(JoinKey(at, "judge_instruction_mode"), "%v", err)
	}
	return c, nil
}

var artifactKeys = []string{"artifact_id", "authority", "kind", "value", "path", "media_type", "comparison_mode", "metadata", "sha256"}

func (d *Decoder) artifact(v any, at string, opts ReadOptions) (evalcase.ReferenceArtifact, error) {
	obj, err := d.Object(v, at)
	if err != nil {
		return evalcase.ReferenceArtifact{}, err
	}
	if err := d.Keys(obj, at, artifactKeys, []string{"authority"}); err != nil {
		return evalcase.ReferenceArtifact{}, err
	}
	var ao evalcase.ArtifactOptions
	if ao.ArtifactID, err = d.OptString(obj, at, "artifact_id"); err != nil {
		return evalcase.ReferenceArtifact{}, err
	}
	s, err := d.EnumString(obj, at, "authority", evalcase.AuthorityNames())
	if err != nil {
		return evalcase.ReferenceArtifact{}, err
	}
	ao.Authority = evalcase.Authority(s)
	if s, err = d.EnumString(obj, at, "kind", evalcase.ArtifactKindNames()); err != nil {
		return evalcase.ReferenceArtifact{}, err
	}
	ao.Kind = evalcase.ArtifactKind(s)
	if s, err = d.EnumString(obj, at, "comparison_mode", evalcase.ComparisonModeNames()); err != nil {
		return evalcase.ReferenceArtifact{}, err
	}
	ao.ComparisonMode = evalcase.ComparisonMode(s)
	if ao.MediaType, err = d.OptString(obj, at, "media_type"); err != nil {
		return evalcase.ReferenceArtifact{}, err
	}
	if ao.Metadata, err = d.OptObject(obj, at, "metadata"); err != nil {
		return evalcase.ReferenceArtifact{}, err
	}
	want, err := d.OptString(obj, at, "sha256")
	if err != nil {
		return evalcase.ReferenceArtifact{}, err
	}
	p, err := d.OptString(obj, at, "path")
	if err != nil {
		return evalcase.ReferenceArtifact{}, err
	}
	hasPath, hasValue := Has(obj, "path"), Has(obj, "value")
	var a evalcase.ReferenceArtifact
	switch {
	case hasPath == hasValue:
		return a, d.ErrAt(at, "expected exactly one of \"value\" and \"path\"")
	case hasPath:
		if strings.TrimSpace(p) == "" {
			return a, d.ErrAt(JoinKey(at, "path"), "expected a non-empty path")
		}
		if opts.Loader == nil {
			return a, d.ErrAt(JoinKey(at, "path"), "cannot read %q: no files were given with the cases file (give the content as \"value\" instead)", p)
		}
		data, lerr := opts.Loader(p)
		if lerr != nil {
			return a, d.ErrAt(JoinKey(at, "path"), "cannot read %q: %v", p, lerr)
		}
		a, err = evalcase.ArtifactFromBytes(p, data, ao)
		if err != nil {
			if ie, ok := inputerr.As(err); ok {
				return a, fmt.Errorf("%w (referenced at %s:%d)", ie, d.Name, d.lineOf(at))
			}
			return a, d.ErrAt(at, "%v", err)
		}
	default:
		val := obj["value"]
		switch ao.Kind {
		case evalcase.KindImage, evalcase.KindPDF, evalcase.KindFile:
			return a, d.ErrAt(JoinKey(at, "value"), "a %s artifact needs a \"path\" to its bytes, not a value", ao.Kind)
		case evalcase.KindText, evalcase.KindMarkdown, evalcase.KindCSV:
			if _, ok := val.(string); !ok {
				return a, d.ErrAt(JoinKey(at, "value"), "a %s artifact's value must be a string, found %s", ao.Kind, JSONType(val))
			}
		}
		a, err = evalcase.ArtifactFromValue(val, ao)
		if err != nil {
			return a, d.ErrAt(at, "%v", err)
		}
	}
	if want != "" && !strings.EqualFold(want, a.SHA256) {
		return a, d.ErrAt(JoinKey(at, "sha256"), "the content's SHA-256 is %s, not %s: the file changed", a.SHA256, want)
	}
	return a, nil
}

func (d *Decoder) lineOf(at string) int {
	line, _ := d.Tree.Pos(at)
	return line + d.LineBase
}
