package casefile

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/docscore/docscore/scoring/evalcase"
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
	Cases            []evalcase.EvaluationCase
	Pipelines        []PipelineCase
	StageMetrics     map[string][]evalcase.MetricSpec
	OperationMetrics map[string][]evalcase.MetricSpec
	// DefaultMetrics applies when DefaultMetricsSet; otherwise the default
	// is exact_structured (and llm_judge when a judge is configured).
	DefaultMetrics    []evalcase.MetricSpec
	DefaultMetricsSet bool
	OperationSpecs    []evalcase.OperationSpec
}

// ReadCaseFile reads a cases file: one JSON document, or JSONL with one
// item per line. An item is a case (it has case_id), a pipeline (it has
// pipeline_id) or a cases-file object (cases, pipelines, stage_metrics,
// operation_metrics, default_metrics, operation_specs); the format is
// docs/schema/cases.schema.json. Every problem is an input error naming
// name, the line and column, the field and what was expected.
func ReadCaseFile(r io.Reader, name string, opts ReadOptions) (_ *CaseFile, err error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	src := ingest.OpenBytes(name, data)
	defer func() { src.AttachAll(err) }() // every error shows its line
	data = src.Bytes()
	f := &CaseFile{Name: name, StageMetrics: map[string][]evalcase.MetricSpec{}, OperationMetrics: map[string][]evalcase.MetricSpec{}}
	st := &fileState{file: f, opts: opts, name: name, caseLine: map[string]string{}, pipelineLine: map[string]string{}}
	lower := strings.ToLower(name)
	jsonl := strings.HasSuffix(lower, ".jsonl") || strings.HasSuffix(lower, ".ndjson")
	if !jsonl {
		if e := ingest.CheckUTF8(name, data); e != nil {
			return nil, e
		}
		v, tree, err := ParseWithPositions(data, name, 0)
		switch {
		case err == nil:
			if err := st.item(v, &Decoder{Name: name, Tree: tree}); err != nil {
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
		if err := st.item(v, &Decoder{Name: name, Tree: tree, LineBase: l.No - 1}); err != nil {
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

func (st *fileState) item(v any, d *Decoder) error {
	obj, ok := v.(map[string]any)
	if !ok {
		return d.ErrAt("", "expected a JSON object (a case, a pipeline or a cases file), found %s", JSONType(v))
	}
	switch {
	case Has(obj, "case_id"):
		c, err := d.evalCase(obj, "", st.opts)
		if err != nil {
			return err
		}
		if len(c.DependsOn) > 0 {
			return d.ErrAt("depends_on", "a case on its own cannot depend on other stages: put it in a pipeline's stages")
		}
		return st.addCase(c, d, "")
	case Has(obj, "pipeline_id"):
		p, err := d.pipeline(obj, "", st.opts)
		if err != nil {
			return err
		}
		return st.addPipeline(p, d, "")
	}
	return st.fileObject(obj, d)
}

func (st *fileState) addCase(c evalcase.EvaluationCase, d *Decoder, at string) error {
	line, _ := d.Tree.Pos(at)
	where := fmt.Sprintf("line %d", line+d.LineBase)
	if prev, dup := st.caseLine[c.CaseID]; dup {
		return d.ErrAt(JoinKey(at, "case_id"), "case id %q is already used (%s); ids of cases on their own must be unique", c.CaseID, prev)
	}
	st.caseLine[c.CaseID] = where
	st.file.Cases = append(st.file.Cases, c)
	return nil
}

func (st *fileState) addPipeline(p PipelineCase, d *Decoder, at string) error {
	line, _ := d.Tree.Pos(at)
	where := fmt.Sprintf("line %d", line+d.LineBase)
	if prev, dup := st.pipelineLine[p.PipelineID]; dup {
		return d.ErrAt(JoinKey(at, "pipeline_id"), "pipeline id %q is already used (%s)", p.PipelineID, prev)
	}
	st.pipelineLine[p.PipelineID] = where
	st.file.Pipelines = append(st.file.Pipelines, p)
	return nil
}

var fileKeys = []string{"$schema", "description", "cases", "pipelines", "stage_metrics", "operation_metrics", "default_metrics", "operation_specs"}

func (st *fileState) fileObject(obj map[string]any, d *Decoder) error {
	if err := d.Keys(obj, "", fileKeys, nil); err != nil {
		return fmt.Errorf("%w (an item is a case with case_id, a pipeline with pipeline_id, or a cases file)", err)
	}
	if st.setKeys == nil {
		st.setKeys = map[string]bool{}
		st.specOps = map[string]bool{}
	}
	once := func(k string) error {
		if st.setKeys[k] {
			return d.ErrAt(k, "%s is given twice in this file", k)
		}
		st.setKeys[k] = true
		return nil
	}
	if _, err := d.OptString(obj, "", "$schema"); err != nil {
		return err
	}
	if _, err := d.OptString(obj, "", "description"); err != nil {
		return err
	}
	if v, ok := obj["operation_specs"]; ok {
		arr, err := d.Array(v, "operation_specs")
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
				return d.ErrAt(at+".operation", "operation %q already has a spec", s.Operation)
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
		m, err := d.Object(v, k)
		if err != nil {
			return err
		}
		target := st.file.StageMetrics
		if k == "operation_metrics" {
			target = st.file.OperationMetrics
		}
		for _, key := range SortedKeys(m) {
			at := k + "." + key
			if _, dup := target[key]; dup {
				return d.ErrAt(at, "%s for %q is given twice", k, key)
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
		arr, err := d.Array(v, "cases")
		if err != nil {
			return err
		}
		for i, e := range arr {
			at := "cases[" + strconv.Itoa(i) + "]"
			co, err := d.Object(e, at)
			if err != nil {
				return err
			}
			c, err := d.evalCase(co, at, st.opts)
			if err != nil {
				return err
			}
			if len(c.DependsOn) > 0 {
				return d.ErrAt(at+".depends_on", "a case on its own cannot depend on other stages: put it in a pipeline's stages")
			}
			if err := st.addCase(c, d, at); err != nil {
				return err
			}
		}
	}
	if v, ok := obj["pipelines"]; ok {
		arr, err := d.Array(v, "pipelines")
		if err != nil {
			return err
		}
		for i, e := range arr {
			at := "pipelines[" + strconv.Itoa(i) + "]"
			po, err := d.Object(e, at)
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
	if _, err := evalcase.NewOperationRegistry(st.file.OperationSpecs...); err != nil {
		return inputerr.New(st.name, 0, "%v", err)
	}
	return nil
}

// ParseWithPositions decodes one JSON value and records where every value
// starts (see ingest.ParseTree).
func ParseWithPositions(data []byte, name string, lineBase int) (any, *ingest.Tree, error) {
	return ingest.ParseTree(data, name, lineBase)
}

// JoinKey extends a tree path with an object key (see ingest.JoinKey).
func JoinKey(at, k string) string { return ingest.JoinKey(at, k) }
