package expression

import (
	"context"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/evalcase"
)

func seedCalculation(t *testing.T, total string) evalcase.EvaluationCase {
	return evalcase.EvaluationCase{
		CaseID:     "document-001",
		StageID:    "calculate-total",
		InputData:  prediction(t, `{"line_items": [{"quantity": 2, "unit_price": 4.25}, {"quantity": 1, "unit_price": 3.00}]}`),
		Prediction: prediction(t, `{"total": `+total+`}`),
		References: []evalcase.ReferenceArtifact{mustValue(t, prediction(t, `{"total": 11.5}`), evalcase.ArtifactOptions{ArtifactID: "gt", Authority: evalcase.AuthorityGroundTruth})},
	}
}

func TestExpressionMetric(t *testing.T) {
	tests := []struct {
		name, expr, total string
		threshold         *float64
		verdict           evalcase.Verdict
		score             *float64
		reason            string
	}{
		{"seed total, correct", "prediction.total == sum(input.line_items, .quantity * .unit_price)", "11.50", nil, evalcase.Pass, f64(1), "expression is true"},
		{"seed total, wrong", "prediction.total == sum(input.line_items, .quantity * .unit_price)", "12", nil, evalcase.Fail, f64(0), "expression is false"},
		{"brace predicate form", "prediction.total == sum(input.line_items, {.quantity * .unit_price})", "11.5", nil, evalcase.Pass, f64(1), ""},
		{"reference by id", `prediction.total == reference["gt"].total`, "11.5", nil, evalcase.Pass, f64(1), ""},
		{"references list", `references[0].authority == "ground_truth" && stage.stage_id == "calculate-total"`, "1", nil, evalcase.Pass, f64(1), ""},
		{"numeric score under threshold", "1 - abs(prediction.total - 11.5) / 11.5", "10.35", nil, evalcase.Fail, f64(0.9), ""},
		{"numeric score at threshold", "1 - abs(prediction.total - 11.5) / 11.5", "10.35", f64(0.85), evalcase.Pass, f64(0.9), ""},
		{"verdict string", `prediction.total == nil ? "uncertain" : "pass"`, "null", nil, evalcase.Uncertain, nil, "expression returned uncertain"},
		{"not applicable string", `"not_applicable"`, "1", nil, evalcase.NotApplicable, nil, ""},
		{"other string", `"maybe"`, "1", nil, evalcase.Uncertain, nil, "not a verdict"},
		{"nil result", `prediction.missing`, "1", nil, evalcase.Uncertain, nil, "returned nil"},
		{"runtime error", `prediction.total * input`, "1", nil, evalcase.Uncertain, nil, "expression error"},
		{"wrong result type", `[1, 2]`, "1", nil, evalcase.Uncertain, nil, "expected a bool"},
		{"integers stay integers", `prediction.total % 2 == 1`, "3", nil, evalcase.Pass, f64(1), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := NewExpressionMetric(evalcase.MetricSpec{Name: "m", Expression: tt.expr, Threshold: tt.threshold})
			if err != nil {
				t.Fatal(err)
			}
			res, err := m.Evaluate(context.Background(), seedCalculation(t, tt.total))
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != tt.verdict {
				t.Errorf("verdict %s, want %s (%s)", res.Verdict, tt.verdict, res.Reason)
			}
			if tt.score != nil {
				if got, ok := res.Scores["m"]; !ok || got < *tt.score-1e-9 || got > *tt.score+1e-9 {
					t.Errorf("score %v, want %v", res.Scores, *tt.score)
				}
			} else if len(res.Scores) != 0 {
				t.Errorf("scores %v, want none", res.Scores)
			}
			if !strings.Contains(res.Reason, tt.reason) {
				t.Errorf("reason %q, want it to contain %q", res.Reason, tt.reason)
			}
			if (res.Verdict == evalcase.Uncertain) != res.RequiresReview {
				t.Errorf("requires_review %v for verdict %s", res.RequiresReview, res.Verdict)
			}
		})
	}
}

func f64(v float64) *float64 { return &v }

func TestExpressionCompileErrors(t *testing.T) {
	tests := []struct{ expr, want string }{
		{"", "empty expression"},
		{"prediction.total ==", "invalid expression"},
		{"now() > 0", "invalid expression"}, // host clock: disabled
		{`date("2024-01-01")`, "invalid expression"},
		{strings.Repeat("1+", MaxExpressionLength), "limit is"},
		{"(" + strings.Repeat("1+", 3000) + "1)", "invalid expression"}, // too many nodes
		{"\xff", "UTF-8"},
	}
	for _, tt := range tests {
		_, err := NewExpressionMetric(evalcase.MetricSpec{Name: "m", Expression: tt.expr})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			name := tt.expr
			if len(name) > 40 {
				name = name[:40] + "…"
			}
			t.Errorf("NewExpressionMetric(%q) error %v, want %q", name, err, tt.want)
		}
	}
	if _, err := NewExpressionMetric(evalcase.MetricSpec{Name: "m", Expression: "true", MaxSteps: MaxExpressionSteps + 1}); err == nil {
		t.Error("max_steps above the limit was accepted")
	}
}

// TestExpressionHostile runs expressions whose naive cost is astronomical;
// each must stop within its step budget with verdict uncertain.
func TestExpressionHostile(t *testing.T) {
	hostile := []string{
		"all(1..1000, all(1..1000, all(1..1000, true)))",
		"count(1..100000, true) > 0 && count(1..100000, true) > 0",
		`let a = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"; let b = a + a; let c = b + b; let d = c + c; let e = d + d; let f = e + e; let g = f + f; let h = g + g; let i = h + h; let j = i + i; let k = j + j; let l = k + k; let m = l + l; let n = m + m; let o = n + n; let p = o + o; let q = p + p; let r = q + q; let s = r + r; let t = s + s; let u = t + t; let v = u + u; let w = v + v; let x = w + w; let y = x + x; let z = y + y; len(z + z) > 0`,
		`let a = [1, 1]; let b = [a, a]; let c = [b, b]; let d = [c, c]; let e = [d, d]; let f = [e, e]; let g = [f, f]; let h = [g, g]; let i = [h, h]; let j = [i, i]; let k = [j, j]; let l = [k, k]; let m = [l, l]; let n = [m, m]; let o = [n, n]; let p = [o, o]; let q = [p, p]; let r = [q, q]; let s = [r, r]; let t = [s, s]; let u = [t, t]; let v = [u, u]; let w = [v, v]; let x = [w, w]; let y = [x, x]; let z = [y, y]; z == [y, x]`,
		`let a = [1, 1]; let b = [a, a]; let c = [b, b]; let d = [c, c]; let e = [d, d]; let f = [e, e]; let g = [f, f]; let h = [g, g]; let i = [h, h]; let j = [i, i]; let k = [j, j]; let l = [k, k]; let m = [l, l]; let n = [m, m]; let o = [n, n]; let p = [o, o]; let q = [p, p]; let r = [q, q]; let s = [r, r]; let t = [s, s]; let u = [t, t]; let v = [u, u]; let w = [v, v]; let x = [w, w]; let y = [x, x]; let z = [y, y]; len(toJSON(z)) > 0`,
		`reduce(1..60, [#acc, #acc], [1]) == reduce(1..60, [#acc, #acc], [1])`,
		`len(flatten(reduce(1..60, [#acc, #acc], [1]))) > 0`,
		`max(reduce(1..60, [#acc, #acc], [1])) > 0`,
		`string(reduce(1..60, [#acc, #acc], [1])) != ""`,
		`repeat("x", 100000000) != ""`,
		`len(1..100000000) > 0`,
	}
	for i, src := range hostile {
		m, err := NewExpressionMetric(evalcase.MetricSpec{Name: "m", Expression: src})
		if err != nil {
			t.Fatalf("hostile %d does not compile: %v", i, err)
		}
		res, err := m.Evaluate(context.Background(), seedCalculation(t, "1"))
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != evalcase.Uncertain {
			t.Errorf("hostile %d: verdict %s (%s), want uncertain", i, res.Verdict, res.Reason)
		}
	}
}

func TestExpressionBudgetIsDeterministic(t *testing.T) {
	// Exactly 100 iterations fit a budget of 100 predicate steps plus the
	// array's 100 elements; one step less does not.
	src := "all(1..100, true)"
	for _, tt := range []struct {
		steps int
		want  evalcase.Verdict
	}{{200, evalcase.Pass}, {199, evalcase.Uncertain}} {
		m, err := NewExpressionMetric(evalcase.MetricSpec{Name: "m", Expression: src, MaxSteps: tt.steps})
		if err != nil {
			t.Fatal(err)
		}
		res, _ := m.Evaluate(context.Background(), seedCalculation(t, "1"))
		if res.Verdict != tt.want {
			t.Errorf("max_steps %d: %s (%s), want %s", tt.steps, res.Verdict, res.Reason, tt.want)
		}
	}
}
