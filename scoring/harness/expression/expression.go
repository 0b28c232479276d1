//go:build !noexpr

package expression

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm"
)

// ExpressionMetric is a metric written as an expression (the expr
// language, github.com/expr-lang/expr) over the stage:
//
//   - input: the stage's input_data
//   - prediction: the stage's prediction
//   - references: the list of reference artifacts (artifact_id, authority,
//     kind, comparison_mode, value, metadata)
//   - reference: a map from artifact_id to that reference's value
//   - stage: case_id, stage_id and operation
//
// Numbers are float64, or int when written without a fraction or exponent.
// The result decides the verdict: true passes and false fails (score 1 or
// 0); a number is a score that passes when it reaches the threshold (1 by
// default); one of the strings "pass", "fail", "uncertain",
// "not_applicable" is that verdict; nil, any other value, a runtime error
// or an exhausted step budget is uncertain. For example the seed's total
// check needs no Go code:
//
//	prediction.total == sum(input.line_items, .quantity * .unit_price)
type ExpressionMetric struct {
	spec     evalcase.MetricSpec
	program  *vm.Program
	maxSteps int
}

// exprEnvironment is what an expression sees. Fields of type any keep
// their type open, so input and prediction may be objects, arrays or
// scalars.
type exprEnvironment struct {
	Input      any                      `expr:"input"`
	Prediction any                      `expr:"prediction"`
	References []any                    `expr:"references"`
	Reference  map[string]any           `expr:"reference"`
	Stage      map[string]any           `expr:"stage"`
	Tick       func(x any) (any, error) `expr:"__tick"`
	Charge     func(x any) (any, error) `expr:"__charge"`
}

// NewExpressionMetric compiles spec.Expression. A syntax or type error is
// returned with the expression's line and column.
func NewExpressionMetric(spec evalcase.MetricSpec) (*ExpressionMetric, error) {
	if strings.TrimSpace(spec.Name) == "" {
		return nil, errors.New("an expression metric needs a name")
	}
	if err := CheckExpression(spec.Expression); err != nil {
		return nil, err
	}
	steps := spec.MaxSteps
	if steps == 0 {
		steps = DefaultExpressionSteps
	}
	if steps < 0 || steps > MaxExpressionSteps {
		return nil, fmt.Errorf("max_steps %d: expected 1 to %d", steps, MaxExpressionSteps)
	}
	program, err := expr.Compile(spec.Expression, exprOptions(true)...)
	if err != nil {
		return nil, fmt.Errorf("expression %q could not be prepared: %v", spec.Expression, err)
	}
	return &ExpressionMetric{spec: spec, program: program, maxSteps: steps}, nil
}

// CheckExpression reports whether src is a valid expression metric: not
// empty, not too long, and accepted by the expression compiler.
func CheckExpression(src string) error {
	if strings.TrimSpace(src) == "" {
		return errors.New("empty expression")
	}
	if len(src) > MaxExpressionLength {
		return fmt.Errorf("expression is %d bytes long; the limit is %d", len(src), MaxExpressionLength)
	}
	if !utf8.ValidString(src) {
		return errors.New("expression is not valid UTF-8")
	}
	if _, err := expr.Compile(src, exprOptions(false)...); err != nil {
		return fmt.Errorf("invalid expression: %s", oneLine(err.Error()))
	}
	return nil
}

func exprOptions(metered bool) []expr.Option {
	opts := []expr.Option{expr.Env(exprEnvironment{}), expr.MaxNodes(maxExpressionNodes)}
	for _, b := range disabledBuiltins {
		opts = append(opts, expr.DisableBuiltin(b))
	}
	if metered {
		opts = append(opts, expr.Patch(&meter{}))
	}
	return opts
}

// oneLine keeps the first line of a compiler message (the rest is a
// caret drawing).
func oneLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// Name returns the metric's name.
func (m *ExpressionMetric) Name() string { return m.spec.Name }

// Fingerprint returns the expression, threshold and budget.
func (m *ExpressionMetric) Fingerprint() string {
	return fmt.Sprintf("expression:%q:%q:%v:%d", m.spec.Expression, m.spec.ScoreName, m.threshold(), m.maxSteps)
}

func (m *ExpressionMetric) threshold() float64 {
	if m.spec.Threshold == nil {
		return 1
	}
	return *m.spec.Threshold
}

// errBudget is the error of a run that used up its steps.
var errBudget = errors.New("step budget exceeded")

// Evaluate runs the expression over the stage.
func (m *ExpressionMetric) Evaluate(ctx context.Context, stage evalcase.EvaluationCase) (evalcase.MetricResult, error) {
	res := evalcase.MetricResult{Metric: m.spec.Name, Scores: map[string]float64{}}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	env, err := exprEnv(stage)
	if err != nil {
		return res, err
	}
	out, err := runMetered(m.program, env, m.maxSteps)
	if err != nil {
		res.Verdict = evalcase.Uncertain
		res.RequiresReview = true
		if errors.Is(err, errBudget) {
			res.Reason = fmt.Sprintf("expression stopped: it exceeded its budget of %d steps", m.maxSteps)
		} else {
			res.Reason = "expression error: " + oneLine(err.Error())
		}
		return res, nil
	}
	score := m.spec.ScoreName
	if score == "" {
		score = m.spec.Name
	}
	switch v := out.(type) {
	case bool:
		if v {
			res.Verdict, res.Scores[score] = evalcase.Pass, 1
		} else {
			res.Verdict, res.Scores[score] = evalcase.Fail, 0
		}
		res.Reason = fmt.Sprintf("expression is %v", v)
	case string:
		if evalcase.Verdict(v).Validate() != nil {
			res.Verdict = evalcase.Uncertain
			res.Reason = fmt.Sprintf("expression returned the string %q, not a verdict", truncate(v, 80))
			break
		}
		res.Verdict = evalcase.Verdict(v)
		res.Reason = "expression returned " + v
	case nil:
		res.Verdict = evalcase.Uncertain
		res.Reason = "expression returned nil"
	default:
		f, ok := evalcase.Number(v)
		if !ok {
			res.Verdict = evalcase.Uncertain
			res.Reason = fmt.Sprintf("expression returned a %T, expected a bool, a number or a verdict", v)
			break
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			res.Verdict = evalcase.Uncertain
			res.Reason = fmt.Sprintf("expression returned %v", f)
			break
		}
		res.Scores[score] = f
		res.Verdict = verdictFor(f, m.threshold())
	}
	if res.Verdict == evalcase.Uncertain {
		res.RequiresReview = true
	}
	return res, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// runMetered runs program with a fresh step budget. Panics inside the
// expression library are errors, never crashes.
func runMetered(program *vm.Program, env *exprEnvironment, maxSteps int) (out any, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("expression failed: %v", r)
		}
	}()
	left := maxSteps
	spend := func(n int) error {
		left -= n
		if left < 0 {
			return errBudget
		}
		return nil
	}
	env.Tick = func(x any) (any, error) {
		return x, spend(1)
	}
	env.Charge = func(x any) (any, error) {
		return x, chargeValue(x, spend)
	}
	machine := vm.VM{}
	out, err = machine.Run(program, *env)
	if err != nil && left < 0 {
		return nil, errBudget
	}
	return out, err
}

// chargeValue spends one step per element, entry and bytesPerStep bytes of
// v, walking shared structure as often as it is shared, and stops as soon
// as the budget is gone.
func chargeValue(v any, spend func(int) error) error {
	switch x := v.(type) {
	case nil, bool, int, float64, int64:
		return nil
	case string:
		return spend(len(x) / bytesPerStep)
	case []any:
		if err := spend(len(x)); err != nil {
			return err
		}
		for _, e := range x {
			if err := chargeValue(e, spend); err != nil {
				return err
			}
		}
		return nil
	case map[string]any:
		if err := spend(len(x)); err != nil {
			return err
		}
		for k, e := range x {
			if err := spend(len(k) / bytesPerStep); err != nil {
				return err
			}
			if err := chargeValue(e, spend); err != nil {
				return err
			}
		}
		return nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		if err := spend(rv.Len()); err != nil {
			return err
		}
		if rv.Type().Elem().Kind() == reflect.Interface || rv.Type().Elem().Kind() == reflect.Slice || rv.Type().Elem().Kind() == reflect.Map {
			for i := 0; i < rv.Len(); i++ {
				if err := chargeValue(rv.Index(i).Interface(), spend); err != nil {
					return err
				}
			}
		}
	case reflect.Map:
		if err := spend(rv.Len()); err != nil {
			return err
		}
		it := rv.MapRange()
		for it.Next() {
			if err := chargeValue(it.Value().Interface(), spend); err != nil {
				return err
			}
		}
	case reflect.String:
		return spend(rv.Len() / bytesPerStep)
	}
	return nil
}

// meter rewrites the syntax tree so that every predicate body costs a
// step (__tick) and every operand of a data-sized operator or built-in
// pays for its size (__charge).
type meter struct{}

// meteredOperators are the binary operators whose cost grows with their
// operands.
var meteredOperators = map[string]bool{
	"==": true, "!=": true, "in": true, "+": true, "<": true, ">": true, "<=": true, ">=": true,
	"matches": true, "contains": true, "startsWith": true, "endsWith": true, "..": true,
}

func wrapCall(name string, n ast.Node) ast.Node {
	c := &ast.CallNode{Callee: &ast.IdentifierNode{Value: name}, Arguments: []ast.Node{n}}
	c.SetLocation(n.Location())
	return c
}

// Visit implements ast.Visitor.
func (*meter) Visit(node *ast.Node) {
	switch n := (*node).(type) {
	case *ast.PredicateNode:
		n.Node = wrapCall("__tick", n.Node)
	case *ast.BinaryNode:
		if meteredOperators[n.Operator] {
			n.Left = wrapCall("__charge", n.Left)
			n.Right = wrapCall("__charge", n.Right)
		}
	case *ast.BuiltinNode:
		for i, a := range n.Arguments {
			if _, isPred := a.(*ast.PredicateNode); !isPred {
				n.Arguments[i] = wrapCall("__charge", a)
			}
		}
	}
}

// exprEnv builds the expression environment of a stage: JSON values with
// json.Number turned into int or float64.
func exprEnv(stage evalcase.EvaluationCase) (*exprEnvironment, error) {
	conv := func(v any) (any, error) {
		n, err := evalcase.NormalizeValue(v)
		if err != nil {
			return nil, err
		}
		return exprValue(n), nil
	}
	input, err := conv(stage.InputData)
	if err != nil {
		return nil, fmt.Errorf("input_data: %w", err)
	}
	pred, err := conv(stage.Prediction)
	if err != nil {
		return nil, fmt.Errorf("prediction: %w", err)
	}
	refs := make([]any, 0, len(stage.References))
	byID := map[string]any{}
	for _, r := range stage.References {
		val, err := conv(r.Value)
		if err != nil {
			return nil, fmt.Errorf("reference %q: %w", r.ArtifactID, err)
		}
		meta, err := conv(r.Metadata)
		if err != nil {
			return nil, fmt.Errorf("reference %q metadata: %w", r.ArtifactID, err)
		}
		refs = append(refs, map[string]any{
			"artifact_id": r.ArtifactID, "authority": string(r.Authority), "kind": string(r.Kind),
			"comparison_mode": string(r.ComparisonMode), "media_type": r.MediaType,
			"sha256": r.SHA256, "value": val, "metadata": meta,
		})
		byID[r.ArtifactID] = val
	}
	return &exprEnvironment{
		Input:      input,
		Prediction: pred,
		References: refs,
		Reference:  byID,
		Stage:      map[string]any{"case_id": stage.CaseID, "stage_id": stage.Stage(), "operation": stage.Operation},
	}, nil
}

// exprValue converts json.Number leaves to int (integer literals that fit)
// or float64.
func exprValue(v any) any {
	switch x := v.(type) {
	case json.Number:
		s := string(x)
		if !strings.ContainsAny(s, ".eE") {
			if i, err := strconv.ParseInt(s, 10, 64); err == nil && i >= math.MinInt && i <= math.MaxInt {
				return int(i)
			}
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = exprValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = exprValue(e)
		}
		return out
	}
	return v
}

// verdictFor is the verdict of a score against a threshold: pass at or
// above it.
func verdictFor(score, threshold float64) evalcase.Verdict {
	if score >= threshold {
		return evalcase.Pass
	}
	return evalcase.Fail
}
