package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
)

// Loader returns the bytes of a file named by a cases file (a reference's
// path), as written there. The native loader resolves it against the cases
// file's folder; the browser gives the files the user dropped.
type Loader func(path string) ([]byte, error)

// MapLoader returns a Loader that serves files from memory.
func MapLoader(files map[string][]byte) Loader {
	return func(p string) ([]byte, error) {
		if b, ok := files[p]; ok {
			return b, nil
		}
		return nil, fmt.Errorf("no file %q was given", p)
	}
}

// ReadOptions are the settings of ReadCaseFile.
type ReadOptions struct {
	// Loader reads the files that references name by path; nil means no
	// file can be read, so such references are errors.
	Loader Loader
	// MetricKinds are the metric kinds the file may use; nil means
	// DefaultMetricKinds.
	MetricKinds MetricKinds
}

// CaseFile is the content of a cases file: cases, pipelines, the metrics
// to select by stage id, operation or default, and operation specs.
type CaseFile struct {
	Name             string
	Cases            []EvaluationCase
	Pipelines        []PipelineCase
	StageMetrics     map[string][]MetricSpec
	OperationMetrics map[string][]MetricSpec
	// DefaultMetrics applies when DefaultMetricsSet; otherwise the default
	// is exact_structured (and llm_judge when a judge is configured).
	DefaultMetrics    []MetricSpec
	DefaultMetricsSet bool
	OperationSpecs    []OperationSpec
}

// ReadCaseFile reads a cases file: one JSON document, or JSONL with one
// item per line. An item is a case (it has case_id), a pipeline (it has
// pipeline_id) or a cases-file object (cases, pipelines, stage_metrics,
// operation_metrics, default_metrics, operation_specs); the format is
// docs/schema/cases.schema.json. Every problem is an input error naming
// name, the line and column, the field and what was expected.
func ReadCaseFile(r io.Reader, name string, opts ReadOptions) (*CaseFile, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	data = ingest.StripBOM(data)
	if opts.MetricKinds == nil {
		opts.MetricKinds = DefaultMetricKinds()
	}
	f := &CaseFile{Name: name, StageMetrics: map[string][]MetricSpec{}, OperationMetrics: map[string][]MetricSpec{}}
	st := &fileState{file: f, opts: opts, name: name, caseLine: map[string]string{}, pipelineLine: map[string]string{}}
	lower := strings.ToLower(name)
	jsonl := strings.HasSuffix(lower, ".jsonl") || strings.HasSuffix(lower, ".ndjson")
	if !jsonl {
		if e := ingest.CheckUTF8(name, data); e != nil {
			return nil, e
		}
		v, tree, err := parseWithPositions(data, name, 0)
		switch {
		case err == nil:
			if err := st.item(v, &fileDecoder{name: name, tree: tree}); err != nil {
				return nil, err
			}
			return f, st.finish()
		case strings.Contains(err.Error(), ingest.TrailingData):
			jsonl = true // more than one value: JSON Lines
		default:
			return nil, err
		}
	}
	lines := ingest.NewLines(name, data)
	items := 0
	for lines.Next() {
		if e := lines.BadLine(); e != nil {
			return nil, e
		}
		l := lines.Line()
		v, tree, err := ingest.ParseLineTree(name, l)
		if err != nil {
			return nil, err
		}
		if err := st.item(v, &fileDecoder{name: name, tree: tree, lineBase: l.No - 1}); err != nil {
			return nil, err
		}
		items++
	}
	if items == 0 {
		return nil, inputerr.New(name, 0, "expected a JSON object or JSON Lines of cases and pipelines, found no data")
	}
	return f, st.finish()
}

// fileState accumulates items into a CaseFile.
type fileState struct {
	file         *CaseFile
	opts         ReadOptions
	name         string
	caseLine     map[string]string // case id → "line N", for duplicates
	pipelineLine map[string]string
	specOps      map[string]bool
	setKeys      map[string]bool
}

func (st *fileState) item(v any, d *fileDecoder) error {
	obj, ok := v.(map[string]any)
	if !ok {
		return d.errAt("", "expected a JSON object (a case, a pipeline or a cases file), found %s", jsonType(v))
	}
	switch {
	case has(obj, "case_id"):
		c, err := d.evalCase(obj, "", st.opts)
		if err != nil {
			return err
		}
		if len(c.DependsOn) > 0 {
			return d.errAt("depends_on", "a case on its own cannot depend on other stages: put it in a pipeline's stages")
		}
		return st.addCase(c, d, "")
	case has(obj, "pipeline_id"):
		p, err := d.pipeline(obj, "", st.opts)
		if err != nil {
			return err
		}
		return st.addPipeline(p, d, "")
	}
	return st.fileObject(obj, d)
}

func (st *fileState) addCase(c EvaluationCase, d *fileDecoder, at string) error {
	line, _ := d.tree.Pos(at)
	where := fmt.Sprintf("line %d", line+d.lineBase)
	if prev, dup := st.caseLine[c.CaseID]; dup {
		return d.errAt(joinKey(at, "case_id"), "case id %q is already used (%s); ids of cases on their own must be unique", c.CaseID, prev)
	}
	st.caseLine[c.CaseID] = where
	st.file.Cases = append(st.file.Cases, c)
	return nil
}

func (st *fileState) addPipeline(p PipelineCase, d *fileDecoder, at string) error {
	line, _ := d.tree.Pos(at)
	where := fmt.Sprintf("line %d", line+d.lineBase)
	if prev, dup := st.pipelineLine[p.PipelineID]; dup {
		return d.errAt(joinKey(at, "pipeline_id"), "pipeline id %q is already used (%s)", p.PipelineID, prev)
	}
	st.pipelineLine[p.PipelineID] = where
	st.file.Pipelines = append(st.file.Pipelines, p)
	return nil
}

var fileKeys = []string{"$schema", "description", "cases", "pipelines", "stage_metrics", "operation_metrics", "default_metrics", "operation_specs"}

func (st *fileState) fileObject(obj map[string]any, d *fileDecoder) error {
	if err := d.keys(obj, "", fileKeys, nil); err != nil {
		return fmt.Errorf("%w (an item is a case with case_id, a pipeline with pipeline_id, or a cases file)", err)
	}
	if st.setKeys == nil {
		st.setKeys = map[string]bool{}
		st.specOps = map[string]bool{}
	}
	once := func(k string) error {
		if st.setKeys[k] {
			return d.errAt(k, "%s is given twice in this file", k)
		}
		st.setKeys[k] = true
		return nil
	}
	if _, err := d.optString(obj, "", "$schema"); err != nil {
		return err
	}
	if _, err := d.optString(obj, "", "description"); err != nil {
		return err
	}
	if v, ok := obj["operation_specs"]; ok {
		arr, err := d.array(v, "operation_specs")
		if err != nil {
			return err
		}
		for i, e := range arr {
			at := "operation_specs[" + strconv.Itoa(i) + "]"
			s, err := d.operationSpec(e, at)
			if err != nil {
				return err
			}
			if st.specOps[s.Operation] {
				return d.errAt(at+".operation", "operation %q already has a spec", s.Operation)
			}
			st.specOps[s.Operation] = true
			st.file.OperationSpecs = append(st.file.OperationSpecs, s)
		}
	}
	for _, k := range []string{"stage_metrics", "operation_metrics"} {
		v, ok := obj[k]
		if !ok {
			continue
		}
		m, err := d.object(v, k)
		if err != nil {
			return err
		}
		target := st.file.StageMetrics
		if k == "operation_metrics" {
			target = st.file.OperationMetrics
		}
		for _, key := range sortedKeys(m) {
			at := k + "." + key
			if _, dup := target[key]; dup {
				return d.errAt(at, "%s for %q is given twice", k, key)
			}
			specs, err := d.metricList(m[key], at, st.opts)
			if err != nil {
				return err
			}
			target[key] = specs
		}
	}
	if v, ok := obj["default_metrics"]; ok {
		if err := once("default_metrics"); err != nil {
			return err
		}
		specs, err := d.metricList(v, "default_metrics", st.opts)
		if err != nil {
			return err
		}
		st.file.DefaultMetrics = specs
		st.file.DefaultMetricsSet = true
	}
	if v, ok := obj["cases"]; ok {
		arr, err := d.array(v, "cases")
		if err != nil {
			return err
		}
		for i, e := range arr {
			at := "cases[" + strconv.Itoa(i) + "]"
			co, err := d.object(e, at)
			if err != nil {
				return err
			}
			c, err := d.evalCase(co, at, st.opts)
			if err != nil {
				return err
			}
			if len(c.DependsOn) > 0 {
				return d.errAt(at+".depends_on", "a case on its own cannot depend on other stages: put it in a pipeline's stages")
			}
			if err := st.addCase(c, d, at); err != nil {
				return err
			}
		}
	}
	if v, ok := obj["pipelines"]; ok {
		arr, err := d.array(v, "pipelines")
		if err != nil {
			return err
		}
		for i, e := range arr {
			at := "pipelines[" + strconv.Itoa(i) + "]"
			po, err := d.object(e, at)
			if err != nil {
				return err
			}
			p, err := d.pipeline(po, at, st.opts)
			if err != nil {
				return err
			}
			if err := st.addPipeline(p, d, at); err != nil {
				return err
			}
		}
	}
	return nil
}

func (st *fileState) finish() error {
	if len(st.file.Cases) == 0 && len(st.file.Pipelines) == 0 {
		return inputerr.New(st.name, 0, "expected at least one case or pipeline")
	}
	if _, err := NewOperationRegistry(st.file.OperationSpecs...); err != nil {
		return inputerr.New(st.name, 0, "%v", err)
	}
	return nil
}

// fileDecoder converts one parsed item into Go values, naming positions.
type fileDecoder struct {
	name     string
	tree     *ingest.Tree
	lineBase int
}

func (d *fileDecoder) errAt(at, format string, args ...any) error {
	line, col := d.tree.Pos(at)
	msg := fmt.Sprintf(format, args...)
	if at != "" {
		msg = at + ": " + msg
	}
	return &inputerr.Error{File: d.name, Line: line + d.lineBase, Column: col, Msg: msg}
}

func has(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// keys checks that obj has every required key and no unknown one.
func (d *fileDecoder) keys(obj map[string]any, at string, allowed, required []string) error {
	for _, k := range sortedKeys(obj) {
		if !oneOf(k, allowed) {
			return d.errAt(joinKey(at, k), "unknown field (expected one of %s)", strings.Join(allowed, ", "))
		}
	}
	for _, k := range required {
		if !has(obj, k) {
			return d.errAt(at, "missing required field %q", k)
		}
	}
	return nil
}

func (d *fileDecoder) object(v any, at string) (map[string]any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, d.errAt(at, "expected an object, found %s", jsonType(v))
	}
	return m, nil
}

func (d *fileDecoder) array(v any, at string) ([]any, error) {
	a, ok := v.([]any)
	if !ok {
		return nil, d.errAt(at, "expected an array, found %s", jsonType(v))
	}
	return a, nil
}

func (d *fileDecoder) optString(obj map[string]any, at, k string) (string, error) {
	v, ok := obj[k]
	if !ok {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", d.errAt(joinKey(at, k), "expected a string, found %s", jsonType(v))
	}
	return s, nil
}

func (d *fileDecoder) reqString(obj map[string]any, at, k string) (string, error) {
	s, err := d.optString(obj, at, k)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(s) == "" {
		if !has(obj, k) {
			return "", d.errAt(at, "missing required field %q", k)
		}
		return "", d.errAt(joinKey(at, k), "expected a non-empty string")
	}
	return s, nil
}

func (d *fileDecoder) enumString(obj map[string]any, at, k string, allowed []string) (string, error) {
	s, err := d.optString(obj, at, k)
	if err != nil || !has(obj, k) {
		return s, err
	}
	if !oneOf(s, allowed) {
		return "", d.errAt(joinKey(at, k), "%q: expected one of %s", s, strings.Join(allowed, ", "))
	}
	return s, nil
}

func (d *fileDecoder) optBool(obj map[string]any, at, k string) (bool, error) {
	v, ok := obj[k]
	if !ok {
		return false, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, d.errAt(joinKey(at, k), "expected true or false, found %s", jsonType(v))
	}
	return b, nil
}

func (d *fileDecoder) stringList(obj map[string]any, at, k string) ([]string, error) {
	v, ok := obj[k]
	if !ok {
		return nil, nil
	}
	arr, err := d.array(v, joinKey(at, k))
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(arr))
	for i, e := range arr {
		s, ok := e.(string)
		if !ok {
			return nil, d.errAt(joinKey(at, k)+"["+strconv.Itoa(i)+"]", "expected a string, found %s", jsonType(e))
		}
		out = append(out, s)
	}
	return out, nil
}

func (d *fileDecoder) optObject(obj map[string]any, at, k string) (map[string]any, error) {
	v, ok := obj[k]
	if !ok {
		return nil, nil
	}
	return d.object(v, joinKey(at, k))
}

var caseKeys = []string{"case_id", "stage_id", "operation", "action_instruction", "input_data", "prediction", "references",
	"rubric", "judge_instruction", "judge_instruction_mode", "allow_unsafe_judge_override", "producer", "depends_on",
	"metrics", "metadata", "operation_spec"}

func (d *fileDecoder) evalCase(obj map[string]any, at string, opts ReadOptions) (EvaluationCase, error) {
	var c EvaluationCase
	if err := d.keys(obj, at, caseKeys, []string{"case_id", "prediction"}); err != nil {
		return c, err
	}
	var err error
	if c.CaseID, err = d.reqString(obj, at, "case_id"); err != nil {
		return c, err
	}
	strs := []struct {
		k   string
		dst *string
	}{{"stage_id", &c.StageID}, {"operation", &c.Operation}, {"action_instruction", &c.ActionInstruction}, {"rubric", &c.Rubric}, {"judge_instruction", &c.JudgeInstruction}}
	for _, s := range strs {
		if *s.dst, err = d.optString(obj, at, s.k); err != nil {
			return c, err
		}
	}
	if has(obj, "stage_id") && strings.TrimSpace(c.StageID) == "" {
		return c, d.errAt(joinKey(at, "stage_id"), "expected a non-empty string")
	}
	mode, err := d.enumString(obj, at, "judge_instruction_mode", []string{string(ModeAppend), string(ModeReplace)})
	if err != nil {
		return c, err
	}
	c.JudgeInstructionMode = InstructionMode(mode)
	if c.AllowUnsafeJudgeOverride, err = d.optBool(obj, at, "allow_unsafe_judge_override"); err != nil {
		return c, err
	}
	c.InputData = obj["input_data"]
	c.Prediction = obj["prediction"]
	if pv, ok := obj["producer"]; ok && pv != nil {
		po, err := d.object(pv, joinKey(at, "producer"))
		if err != nil {
			return c, err
		}
		pat := joinKey(at, "producer")
		if err := d.keys(po, pat, []string{"provider", "model"}, nil); err != nil {
			return c, err
		}
		p := &Producer{}
		if p.Provider, err = d.optString(po, pat, "provider"); err != nil {
			return c, err
		}
		if p.Model, err = d.optString(po, pat, "model"); err != nil {
			return c, err
		}
		c.Producer = p
	}
	if c.DependsOn, err = d.stringList(obj, at, "depends_on"); err != nil {
		return c, err
	}
	if c.Metadata, err = d.optObject(obj, at, "metadata"); err != nil {
		return c, err
	}
	if v, ok := obj["references"]; ok {
		arr, err := d.array(v, joinKey(at, "references"))
		if err != nil {
			return c, err
		}
		ids := map[string]bool{}
		for i, e := range arr {
			rat := joinKey(at, "references") + "[" + strconv.Itoa(i) + "]"
			a, err := d.artifact(e, rat, opts)
			if err != nil {
				return c, err
			}
			if ids[a.ArtifactID] {
				return c, d.errAt(rat, "artifact_id %q is used twice in this case", a.ArtifactID)
			}
			ids[a.ArtifactID] = true
			c.References = append(c.References, a)
		}
	}
	if v, ok := obj["metrics"]; ok {
		if c.Metrics, err = d.metricList(v, joinKey(at, "metrics"), opts); err != nil {
			return c, err
		}
	}
	if v, ok := obj["operation_spec"]; ok {
		s, err := d.operationSpec(v, joinKey(at, "operation_spec"))
		if err != nil {
			return c, err
		}
		if c.Operation != "" && s.Operation != c.Operation {
			return c, d.errAt(joinKey(at, "operation_spec.operation"), "%q differs from the case's operation %q", s.Operation, c.Operation)
		}
		c.OperationSpec = &s
	}
	if err := c.checkInstructionGuard(); err != nil {
		return c, d.errAt(joinKey(at, "judge_instruction_mode"), "%v", err)
	}
	return c, nil
}

var artifactKeys = []string{"artifact_id", "authority", "kind", "value", "path", "media_type", "comparison_mode", "metadata", "sha256"}

func (d *fileDecoder) artifact(v any, at string, opts ReadOptions) (ReferenceArtifact, error) {
	obj, err := d.object(v, at)
	if err != nil {
		return ReferenceArtifact{}, err
	}
	if err := d.keys(obj, at, artifactKeys, []string{"authority"}); err != nil {
		return ReferenceArtifact{}, err
	}
	var ao ArtifactOptions
	if ao.ArtifactID, err = d.optString(obj, at, "artifact_id"); err != nil {
		return ReferenceArtifact{}, err
	}
	s, err := d.enumString(obj, at, "authority", authorities)
	if err != nil {
		return ReferenceArtifact{}, err
	}
	ao.Authority = Authority(s)
	if s, err = d.enumString(obj, at, "kind", artifactKinds); err != nil {
		return ReferenceArtifact{}, err
	}
	ao.Kind = ArtifactKind(s)
	if s, err = d.enumString(obj, at, "comparison_mode", comparisonModes); err != nil {
		return ReferenceArtifact{}, err
	}
	ao.ComparisonMode = ComparisonMode(s)
	if ao.MediaType, err = d.optString(obj, at, "media_type"); err != nil {
		return ReferenceArtifact{}, err
	}
	if ao.Metadata, err = d.optObject(obj, at, "metadata"); err != nil {
		return ReferenceArtifact{}, err
	}
	want, err := d.optString(obj, at, "sha256")
	if err != nil {
		return ReferenceArtifact{}, err
	}
	p, err := d.optString(obj, at, "path")
	if err != nil {
		return ReferenceArtifact{}, err
	}
	hasPath, hasValue := has(obj, "path"), has(obj, "value")
	var a ReferenceArtifact
	switch {
	case hasPath == hasValue:
		return a, d.errAt(at, "expected exactly one of \"value\" and \"path\"")
	case hasPath:
		if strings.TrimSpace(p) == "" {
			return a, d.errAt(joinKey(at, "path"), "expected a non-empty path")
		}
		if opts.Loader == nil {
			return a, d.errAt(joinKey(at, "path"), "cannot read %q: no files were given with the cases file (give the content as \"value\" instead)", p)
		}
		data, lerr := opts.Loader(p)
		if lerr != nil {
			return a, d.errAt(joinKey(at, "path"), "cannot read %q: %v", p, lerr)
		}
		a, err = ArtifactFromBytes(p, data, ao)
		if err != nil {
			if ie, ok := inputerr.As(err); ok {
				return a, fmt.Errorf("%w (referenced at %s:%d)", ie, d.name, d.lineOf(at))
			}
			return a, d.errAt(at, "%v", err)
		}
	default:
		val := obj["value"]
		switch ao.Kind {
		case KindImage, KindPDF, KindFile:
			return a, d.errAt(joinKey(at, "value"), "a %s artifact needs a \"path\" to its bytes, not a value", ao.Kind)
		case KindText, KindMarkdown, KindCSV:
			if _, ok := val.(string); !ok {
				return a, d.errAt(joinKey(at, "value"), "a %s artifact's value must be a string, found %s", ao.Kind, jsonType(val))
			}
		}
		a, err = ArtifactFromValue(val, ao)
		if err != nil {
			return a, d.errAt(at, "%v", err)
		}
	}
	if want != "" && !strings.EqualFold(want, a.SHA256) {
		return a, d.errAt(joinKey(at, "sha256"), "the content's SHA-256 is %s, not %s: the file changed", a.SHA256, want)
	}
	return a, nil
}

func (d *fileDecoder) lineOf(at string) int {
	line, _ := d.tree.Pos(at)
	return line + d.lineBase
}

var metricKeys = []string{"name", "kind", "expression", "score_name", "threshold", "max_steps", "options"}

func (d *fileDecoder) metricList(v any, at string, opts ReadOptions) ([]MetricSpec, error) {
	arr, err := d.array(v, at)
	if err != nil {
		return nil, err
	}
	out := []MetricSpec{}
	names := map[string]bool{}
	for i, e := range arr {
		mat := at + "[" + strconv.Itoa(i) + "]"
		obj, err := d.object(e, mat)
		if err != nil {
			return nil, err
		}
		if err := d.keys(obj, mat, metricKeys, []string{"name"}); err != nil {
			return nil, err
		}
		var s MetricSpec
		if s.Name, err = d.reqString(obj, mat, "name"); err != nil {
			return nil, err
		}
		if names[s.Name] {
			return nil, d.errAt(joinKey(mat, "name"), "metric %q is listed twice", s.Name)
		}
		names[s.Name] = true
		if s.Kind, err = d.optString(obj, mat, "kind"); err != nil {
			return nil, err
		}
		if s.Expression, err = d.optString(obj, mat, "expression"); err != nil {
			return nil, err
		}
		if s.ScoreName, err = d.optString(obj, mat, "score_name"); err != nil {
			return nil, err
		}
		if tv, ok := obj["threshold"]; ok {
			n, ok := tv.(json.Number)
			f, ferr := n.Float64()
			if !ok || ferr != nil {
				return nil, d.errAt(joinKey(mat, "threshold"), "expected a number, found %s", jsonType(tv))
			}
			s.Threshold = &f
		}
		if mv, ok := obj["max_steps"]; ok {
			n, ok := mv.(json.Number)
			k, kerr := strconv.Atoi(string(n))
			if !ok || kerr != nil || k < 1 || k > MaxExpressionSteps {
				return nil, d.errAt(joinKey(mat, "max_steps"), "expected an integer from 1 to %d", MaxExpressionSteps)
			}
			s.MaxSteps = k
		}
		if s.Options, err = d.optObject(obj, mat, "options"); err != nil {
			return nil, err
		}
		kind := s.EffectiveKind()
		switch {
		case kind == "":
			return nil, d.errAt(mat, "expected \"expression\" or \"kind\" (one of %s)", strings.Join(opts.MetricKinds.Names(), ", "))
		case kind == KindExpression:
			if err := CheckExpression(s.Expression); err != nil {
				return nil, d.errAt(joinKey(mat, "expression"), "%v", err)
			}
		case s.Expression != "":
			return nil, d.errAt(joinKey(mat, "expression"), "only expression metrics take an expression (kind is %q)", kind)
		}
		f, ok := opts.MetricKinds[kind]
		if !ok {
			return nil, d.errAt(joinKey(mat, "kind"), "unknown metric kind %q (known: %s)", kind, strings.Join(opts.MetricKinds.Names(), ", "))
		}
		if _, err := f(s); err != nil {
			return nil, d.errAt(mat, "%v", err)
		}
		out = append(out, s)
	}
	return out, nil
}

var opSpecKeys = []string{"spec_id", "operation", "version", "action_instruction", "evaluation_spec", "rubric", "judge_instruction", "judge_instruction_mode", "allow_unsafe_judge_override"}
var evalSpecKeys = []string{"spec_id", "version", "status", "objective", "criteria", "allowed_outputs"}

func (d *fileDecoder) operationSpec(v any, at string) (OperationSpec, error) {
	var s OperationSpec
	obj, err := d.object(v, at)
	if err != nil {
		return s, err
	}
	if err := d.keys(obj, at, opSpecKeys, []string{"spec_id", "operation"}); err != nil {
		return s, err
	}
	if s.SpecID, err = d.reqString(obj, at, "spec_id"); err != nil {
		return s, err
	}
	if s.Operation, err = d.reqString(obj, at, "operation"); err != nil {
		return s, err
	}
	for _, f := range []struct {
		k   string
		dst *string
	}{{"version", &s.Version}, {"action_instruction", &s.ActionInstruction}, {"rubric", &s.Rubric}, {"judge_instruction", &s.JudgeInstruction}} {
		if *f.dst, err = d.optString(obj, at, f.k); err != nil {
			return s, err
		}
	}
	mode, err := d.enumString(obj, at, "judge_instruction_mode", []string{string(ModeAppend), string(ModeReplace)})
	if err != nil {
		return s, err
	}
	s.JudgeInstructionMode = InstructionMode(mode)
	if s.AllowUnsafeJudgeOverride, err = d.optBool(obj, at, "allow_unsafe_judge_override"); err != nil {
		return s, err
	}
	if s.JudgeInstructionMode == ModeReplace && !s.AllowUnsafeJudgeOverride {
		return s, d.errAt(joinKey(at, "judge_instruction_mode"), "\"replace\" discards the protected judge instructions and is refused unless allow_unsafe_judge_override is true")
	}
	if ev, ok := obj["evaluation_spec"]; ok {
		eat := joinKey(at, "evaluation_spec")
		eo, err := d.object(ev, eat)
		if err != nil {
			return s, err
		}
		if err := d.keys(eo, eat, evalSpecKeys, []string{"spec_id", "status"}); err != nil {
			return s, err
		}
		es := &EvaluationSpec{}
		if es.SpecID, err = d.reqString(eo, eat, "spec_id"); err != nil {
			return s, err
		}
		if es.Version, err = d.optString(eo, eat, "version"); err != nil {
			return s, err
		}
		st, err := d.enumString(eo, eat, "status", []string{string(StatusDraft), string(StatusApproved)})
		if err != nil {
			return s, err
		}
		es.Status = SpecStatus(st)
		if es.Objective, err = d.optString(eo, eat, "objective"); err != nil {
			return s, err
		}
		if es.Criteria, err = d.stringList(eo, eat, "criteria"); err != nil {
			return s, err
		}
		if es.AllowedOutputs, err = d.stringList(eo, eat, "allowed_outputs"); err != nil {
			return s, err
		}
		s.EvaluationSpec = es
	}
	return s, nil
}

func (d *fileDecoder) pipeline(obj map[string]any, at string, opts ReadOptions) (PipelineCase, error) {
	var p PipelineCase
	if err := d.keys(obj, at, []string{"pipeline_id", "stages", "description"}, []string{"pipeline_id", "stages"}); err != nil {
		return p, err
	}
	var err error
	if p.PipelineID, err = d.reqString(obj, at, "pipeline_id"); err != nil {
		return p, err
	}
	if _, err := d.optString(obj, at, "description"); err != nil {
		return p, err
	}
	sat := joinKey(at, "stages")
	arr, err := d.array(obj["stages"], sat)
	if err != nil {
		return p, err
	}
	if len(arr) == 0 {
		return p, d.errAt(sat, "expected at least one stage")
	}
	where := map[string]string{}
	for i, e := range arr {
		cat := sat + "[" + strconv.Itoa(i) + "]"
		co, err := d.object(e, cat)
		if err != nil {
			return p, err
		}
		c, err := d.evalCase(co, cat, opts)
		if err != nil {
			return p, err
		}
		if _, dup := where[c.Stage()]; dup {
			idAt := joinKey(cat, "stage_id")
			if c.StageID == "" {
				idAt = joinKey(cat, "case_id")
			}
			return p, d.errAt(idAt, "stage id %q is used twice in pipeline %q (stage_id defaults to case_id)", c.Stage(), p.PipelineID)
		}
		where[c.Stage()] = cat
		p.Stages = append(p.Stages, c)
	}
	for i, c := range p.Stages {
		for k, dep := range c.DependsOn {
			dat := sat + "[" + strconv.Itoa(i) + "].depends_on[" + strconv.Itoa(k) + "]"
			if _, ok := where[dep]; !ok {
				return p, d.errAt(dat, "%q is not a stage of pipeline %q", dep, p.PipelineID)
			}
		}
	}
	if err := p.Validate(); err != nil {
		ie, _ := inputerr.As(err)
		msg := err.Error()
		if ie != nil {
			msg = ie.Msg
		}
		return p, d.errAt(sat, "%s", msg)
	}
	return p, nil
}

// EvaluatorOptions configure CaseFile.Evaluate.
type EvaluatorOptions struct {
	// MetricKinds builds the file's metric specs; nil means
	// DefaultMetricKinds (with Judge, when set, behind llm_judge).
	MetricKinds MetricKinds
	// Judge, when set, backs the llm_judge kind and joins the default
	// metrics; nil means deterministic metrics only.
	Judge Judge
	// JudgeName is recorded in the report ("none" when empty).
	JudgeName         string
	Checkpoints       CheckpointStore
	CheckpointContext any
}

// Evaluator builds the PipelineEvaluator the file describes.
func (f *CaseFile) Evaluator(opts EvaluatorOptions) (*PipelineEvaluator, error) {
	kinds := opts.MetricKinds
	if kinds == nil {
		kinds = DefaultMetricKinds()
	}
	if opts.Judge != nil {
		kinds = kinds.With(KindLLMJudge, JudgeMetricKind(opts.Judge, KindLLMJudge))
	}
	reg, err := NewOperationRegistry(f.OperationSpecs...)
	if err != nil {
		return nil, inputerr.New(f.Name, 0, "%v", err)
	}
	e := &PipelineEvaluator{
		StageMetrics: map[string][]Metric{}, OperationMetrics: map[string][]Metric{},
		Registry: reg, MetricKinds: kinds, Checkpoints: opts.Checkpoints,
		CheckpointContext: opts.CheckpointContext, JudgeName: opts.JudgeName,
	}
	build := func(where string, specs []MetricSpec) ([]Metric, error) {
		ms, err := kinds.Build(specs)
		if err != nil {
			return nil, inputerr.New(f.Name, 0, "%s: %v", where, err)
		}
		return ms, nil
	}
	for k, specs := range f.StageMetrics {
		if e.StageMetrics[k], err = build("stage_metrics."+k, specs); err != nil {
			return nil, err
		}
	}
	for k, specs := range f.OperationMetrics {
		if e.OperationMetrics[k], err = build("operation_metrics."+k, specs); err != nil {
			return nil, err
		}
	}
	if f.DefaultMetricsSet {
		if e.DefaultMetrics, err = build("default_metrics", f.DefaultMetrics); err != nil {
			return nil, err
		}
	} else {
		e.DefaultMetrics = []Metric{&ExactStructuredMetric{}}
		if opts.Judge != nil {
			e.DefaultMetrics = append(e.DefaultMetrics, &LLMJudgeMetric{Judge: opts.Judge})
		}
	}
	return e, nil
}

// Evaluate evaluates every pipeline and case of the file into one report.
func (f *CaseFile) Evaluate(ctx context.Context, opts EvaluatorOptions) (*Report, error) {
	e, err := f.Evaluator(opts)
	if err != nil {
		return nil, err
	}
	r, err := e.Run(ctx, f.Pipelines, f.Cases)
	if err != nil {
		return nil, err
	}
	r.Source = f.Name
	return r, nil
}

// RunOptions are the settings of EvaluateCasesJSON.
type RunOptions struct {
	// Name is the cases file's name, used in errors and the report.
	Name string `json:"name"`
	// Files are the files the cases file names by path, keyed by that
	// path as written.
	Files map[string][]byte `json:"files,omitempty"`
}

// EvaluateCasesJSON evaluates the bytes of a cases file with
// deterministic metrics only and returns the JSON report. It is the entry
// point the WebAssembly bridge and the Worker call: bytes in, bytes out,
// the same bytes for the same input on every host.
func EvaluateCasesJSON(ctx context.Context, data []byte, opts RunOptions) ([]byte, error) {
	r, err := evaluateCases(ctx, data, opts)
	if err != nil {
		return nil, err
	}
	return r.JSON()
}

// EvaluateCasesMarkdown is EvaluateCasesJSON with the Markdown report.
func EvaluateCasesMarkdown(ctx context.Context, data []byte, opts RunOptions) ([]byte, error) {
	r, err := evaluateCases(ctx, data, opts)
	if err != nil {
		return nil, err
	}
	return r.Markdown(), nil
}

func evaluateCases(ctx context.Context, data []byte, opts RunOptions) (*Report, error) {
	name := opts.Name
	if name == "" {
		name = "cases.json"
	}
	var loader Loader
	if opts.Files != nil {
		loader = MapLoader(opts.Files)
	}
	f, err := ReadCaseFile(bytes.NewReader(data), name, ReadOptions{Loader: loader})
	if err != nil {
		return nil, err
	}
	return f.Evaluate(ctx, EvaluatorOptions{})
}

// parseWithPositions decodes one JSON value and records where every value
// starts (see ingest.ParseTree).
func parseWithPositions(data []byte, name string, lineBase int) (any, *ingest.Tree, error) {
	return ingest.ParseTree(data, name, lineBase)
}

// joinKey extends a tree path with an object key (see ingest.JoinKey).
func joinKey(at, k string) string { return ingest.JoinKey(at, k) }
