package harness

import (
	"context"
	"encoding/json"
	"math/rand"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/evalcase"
)

func mustValue(t *testing.T, v any, opts evalcase.ArtifactOptions) evalcase.ReferenceArtifact {
	t.Helper()
	a, err := evalcase.ArtifactFromValue(v, opts)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func mustBytes(t *testing.T, name, data string, opts evalcase.ArtifactOptions) evalcase.ReferenceArtifact {
	t.Helper()
	a, err := evalcase.ArtifactFromBytes(name, []byte(data), opts)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func prediction(t *testing.T, s string) any {
	t.Helper()
	v, err := evalcase.ParseJSONValue([]byte(s), "prediction.json")
	if err != nil {
		t.Fatal(err)
	}
	return v
}

const inspection = `{"heading": "Safety inspection", "status_text": "Needs review", "items": [{"code": "A-12", "quantity": 3}]}`

// TestExactPathTableSynonyms reads the seed's path/value table with every
// pair of column synonyms.
func TestExactPathTableSynonyms(t *testing.T) {
	rows := "$.heading,Safety inspection\n$.status_text,Needs review\n$.items[0].code,A-12\n$.items[0].quantity,3\n"
	for _, pathCol := range []string{"path", "field_path", " Path "} {
		for _, expCol := range []string{"expected", "expected_value", "value", "EXPECTED"} {
			t.Run(pathCol+"/"+expCol, func(t *testing.T) {
				table := "note," + pathCol + "," + expCol + "\n"
				for _, r := range strings.Split(strings.TrimSpace(rows), "\n") {
					table += "x," + r + "\n"
				}
				ref := mustBytes(t, "truth.csv", table, evalcase.ArtifactOptions{Authority: evalcase.AuthorityGroundTruth})
				res, err := (&ExactStructuredMetric{}).Evaluate(context.Background(), evalcase.EvaluationCase{CaseID: "c", Prediction: prediction(t, inspection), References: []evalcase.ReferenceArtifact{ref}})
				if err != nil {
					t.Fatal(err)
				}
				if res.Verdict != evalcase.Pass || res.Scores[evalcase.ScoreFieldAccuracy] != 1 {
					t.Fatalf("verdict %s scores %v reason %s", res.Verdict, res.Scores, res.Reason)
				}
			})
		}
	}
}

func TestExactStructured(t *testing.T) {
	gt := func(v string) evalcase.ReferenceArtifact {
		return mustValue(t, prediction(t, v), evalcase.ArtifactOptions{ArtifactID: "gt", Authority: evalcase.AuthorityGroundTruth})
	}
	tests := []struct {
		name     string
		pred     string
		refs     []evalcase.ReferenceArtifact
		verdict  evalcase.Verdict
		scores   map[string]float64
		skipped  int
		mismatch []string
	}{
		{"exact nested match", inspection, []evalcase.ReferenceArtifact{gt(inspection)}, evalcase.Pass, map[string]float64{evalcase.ScoreFieldAccuracy: 1}, 0, nil},
		{"one wrong, one missing", `{"heading": "Safety inspection", "status_text": "Done", "items": []}`, []evalcase.ReferenceArtifact{gt(inspection)}, evalcase.Fail,
			map[string]float64{evalcase.ScoreFieldAccuracy: 0.25}, 0, []string{"$.items[0].code", "$.items[0].quantity", "$.status_text"}},
		{"extra prediction fields do not count", `{"heading": "Safety inspection", "extra": 1}`, []evalcase.ReferenceArtifact{gt(`{"heading": "Safety inspection"}`)}, evalcase.Pass,
			map[string]float64{evalcase.ScoreFieldAccuracy: 1}, 0, nil},
		{"numbers compare by value", `{"total": 11.5}`, []evalcase.ReferenceArtifact{gt(`{"total": 11.50}`)}, evalcase.Pass, map[string]float64{evalcase.ScoreFieldAccuracy: 1}, 0, nil},
		{"evidence, semantic, notes and ordinary tables are skipped", inspection, []evalcase.ReferenceArtifact{
			mustBytes(t, "source.pdf", "%PDF-1.4", evalcase.ArtifactOptions{Authority: evalcase.AuthorityEvidence}),
			mustValue(t, prediction(t, `{"heading": "wrong"}`), evalcase.ArtifactOptions{ArtifactID: "sem", Authority: evalcase.AuthorityGroundTruth, ComparisonMode: evalcase.ComparisonSemantic}),
			mustBytes(t, "notes.md", "# heading is Safety inspection", evalcase.ArtifactOptions{Authority: evalcase.AuthorityGroundTruth}),
			mustBytes(t, "points.csv", "topic,main_point\nvehicle,Pooled fund\n", evalcase.ArtifactOptions{Authority: evalcase.AuthorityGroundTruth}),
			mustBytes(t, "exact-notes.md", "x", evalcase.ArtifactOptions{Authority: evalcase.AuthorityGroundTruth, ComparisonMode: evalcase.ComparisonExact}),
			mustValue(t, prediction(t, `{"heading": "Safety inspection"}`), evalcase.ArtifactOptions{ArtifactID: "evidence-json", Authority: evalcase.AuthorityEvidence}),
		}, evalcase.NotApplicable, map[string]float64{}, 6, nil},
		{"skipped references do not dilute the score", inspection, []evalcase.ReferenceArtifact{
			gt(`{"heading": "Safety inspection"}`),
			mustBytes(t, "points.csv", "topic,main_point\nvehicle,Pooled fund\n", evalcase.ArtifactOptions{Authority: evalcase.AuthorityGroundTruth}),
		}, evalcase.Pass, map[string]float64{evalcase.ScoreFieldAccuracy: 1}, 1, nil},
		{"generated reference alone: agreement, not accuracy", inspection, []evalcase.ReferenceArtifact{
			mustValue(t, prediction(t, `{"heading": "Safety inspection", "status_text": "x"}`), evalcase.ArtifactOptions{ArtifactID: "gen", Authority: evalcase.AuthorityGenerated}),
		}, evalcase.Fail, map[string]float64{evalcase.ScoreGeneratedAgreement: 0.5}, 0, []string{"$.status_text"}},
		{"ground truth decides when both are present", inspection, []evalcase.ReferenceArtifact{
			gt(`{"heading": "Safety inspection"}`),
			mustValue(t, prediction(t, `{"heading": "other"}`), evalcase.ArtifactOptions{ArtifactID: "gen", Authority: evalcase.AuthorityGenerated}),
		}, evalcase.Pass, map[string]float64{evalcase.ScoreFieldAccuracy: 1, evalcase.ScoreGeneratedAgreement: 0}, 0, []string{"$.heading"}},
		{"no references", inspection, nil, evalcase.NotApplicable, map[string]float64{}, 0, nil},
		{"TSV path table", inspection, []evalcase.ReferenceArtifact{mustBytes(t, "t.tsv", "path\tvalue\n$.heading\tSafety inspection\n", evalcase.ArtifactOptions{Authority: evalcase.AuthorityGroundTruth})},
			evalcase.Pass, map[string]float64{evalcase.ScoreFieldAccuracy: 1}, 0, nil},
		{"blank cell expects null", `{"a": null, "b": ""}`, []evalcase.ReferenceArtifact{mustBytes(t, "t.csv", "path,expected\na,\nb,\n", evalcase.ArtifactOptions{Authority: evalcase.AuthorityGroundTruth})},
			evalcase.Pass, map[string]float64{evalcase.ScoreFieldAccuracy: 1}, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := (&ExactStructuredMetric{}).Evaluate(context.Background(), evalcase.EvaluationCase{CaseID: "c", Prediction: prediction(t, tt.pred), References: tt.refs})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != tt.verdict {
				t.Errorf("verdict %s, want %s (%s)", res.Verdict, tt.verdict, res.Reason)
			}
			if len(res.Scores) != len(tt.scores) {
				t.Errorf("scores %v, want %v", res.Scores, tt.scores)
			}
			for k, v := range tt.scores {
				if got, ok := res.Scores[k]; !ok || got != v {
					t.Errorf("score %s = %v (present %v), want %v", k, got, ok, v)
				}
			}
			var det exactDetails
			if err := json.Unmarshal(res.Details, &det); err != nil {
				t.Fatal(err)
			}
			if len(det.Skipped) != tt.skipped {
				t.Errorf("skipped %d references, want %d: %+v", len(det.Skipped), tt.skipped, det.Skipped)
			}
			var mism []string
			for _, r := range det.References {
				for _, m := range r.Mismatches {
					mism = append(mism, m.Path)
				}
			}
			if strings.Join(mism, ",") != strings.Join(tt.mismatch, ",") {
				t.Errorf("mismatches %v, want %v", mism, tt.mismatch)
			}
		})
	}
}

func TestExactThreshold(t *testing.T) {
	ref := mustValue(t, prediction(t, `{"a": 1, "b": 2, "c": 3, "d": 4}`), evalcase.ArtifactOptions{Authority: evalcase.AuthorityGroundTruth})
	c := evalcase.EvaluationCase{CaseID: "c", Prediction: prediction(t, `{"a": 1, "b": 2, "c": 3, "d": 5}`), References: []evalcase.ReferenceArtifact{ref}}
	for _, tt := range []struct {
		threshold float64
		want      evalcase.Verdict
	}{{0, evalcase.Fail}, {1, evalcase.Fail}, {0.75, evalcase.Pass}, {0.8, evalcase.Fail}} {
		res, err := (&ExactStructuredMetric{Threshold: tt.threshold}).Evaluate(context.Background(), c)
		if err != nil || res.Verdict != tt.want {
			t.Errorf("threshold %v: %s, %v; want %s", tt.threshold, res.Verdict, err, tt.want)
		}
	}
}

func TestExactPathTableErrors(t *testing.T) {
	tests := []struct{ csv, want string }{
		{"path,expected\n$.a,1\n$.a,2\n", "t.csv:3: path $.a is listed twice (first on line 2)"},
		{"path,expected\n$.a[x],1\n", "t.csv:2: path \"$.a[x]\""},
		{"path,expected\n,1\n", "t.csv:2: expected a field path"},
		{"path,expected\n\"$.a,1\n", "t.csv:2:"},
	}
	for _, tt := range tests {
		ref := mustBytes(t, "t.csv", tt.csv, evalcase.ArtifactOptions{Authority: evalcase.AuthorityGroundTruth})
		_, err := (&ExactStructuredMetric{}).Evaluate(context.Background(), evalcase.EvaluationCase{CaseID: "c", Prediction: map[string]any{}, References: []evalcase.ReferenceArtifact{ref}})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want %q", tt.csv, err, tt.want)
		}
	}
}

// TestExactProperties checks, on random documents, that a prediction equal
// to its ground truth scores 1 and that every score lies in [0, 1].
func TestExactProperties(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var gen func(depth int) any
	gen = func(depth int) any {
		switch k := rng.Intn(6); {
		case depth > 3 || k == 0:
			return rng.Intn(5)
		case k == 1:
			return []string{"a", "b", "", "A-12"}[rng.Intn(4)]
		case k == 2:
			n := rng.Intn(3)
			arr := make([]any, n)
			for i := range arr {
				arr[i] = gen(depth + 1)
			}
			return arr
		default:
			m := map[string]any{}
			for i := rng.Intn(4); i > 0; i-- {
				m[[]string{"x", "y", "total", "odd key"}[rng.Intn(4)]] = gen(depth + 1)
			}
			return m
		}
	}
	for i := 0; i < 300; i++ {
		truth, pred := gen(0), gen(0)
		ref := mustValue(t, truth, evalcase.ArtifactOptions{Authority: evalcase.AuthorityGroundTruth, Kind: evalcase.KindJSON})
		m := &ExactStructuredMetric{}
		same, err := m.Evaluate(context.Background(), evalcase.EvaluationCase{CaseID: "c", Prediction: truth, References: []evalcase.ReferenceArtifact{ref}})
		if err != nil {
			t.Fatal(err)
		}
		if same.Verdict != evalcase.Pass || same.Scores[evalcase.ScoreFieldAccuracy] != 1 {
			t.Fatalf("identity: %#v scored %v", truth, same.Scores)
		}
		other, err := m.Evaluate(context.Background(), evalcase.EvaluationCase{CaseID: "c", Prediction: pred, References: []evalcase.ReferenceArtifact{ref}})
		if err != nil {
			t.Fatal(err)
		}
		if s := other.Scores[evalcase.ScoreFieldAccuracy]; s < 0 || s > 1 {
			t.Fatalf("score %v out of range", s)
		}
	}
}
