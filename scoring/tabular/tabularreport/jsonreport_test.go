package tabularreport_test

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/internal/jsonout"
	"github.com/docscore/docscore/scoring/stats"
	"github.com/docscore/docscore/scoring/tabular"
	"github.com/docscore/docscore/scoring/tabular/tabularread"
	"github.com/docscore/docscore/scoring/tabular/tabularreport"
	"github.com/docscore/docscore/scoring/tabular/tabulartest"
)

// reflectJSON is the report as encoding/json's Encoder writes it (no HTML
// escaping, two-space indentation): the oracle of WriteJSON, which writes
// the images by hand.
func reflectJSON(t testing.TB, rep *tabularreport.Report) []byte {
	t.Helper()
	return encodeLikeAReport(t, rep)
}

func encodeLikeAReport(t testing.TB, v any) []byte {
	t.Helper()
	b, err := jsonout.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// reflectSummaryJSON is the summary as encoding/json writes it from a
// mirror of the report whose images hold only the fields up to f1: the
// oracle of SummaryJSON.
func reflectSummaryJSON(t testing.TB, rep *tabularreport.Report) []byte {
	t.Helper()
	type image struct {
		Model     string          `json:"model"`
		Phase     string          `json:"phase"`
		Run       json.RawMessage `json:"run"`
		Page      string          `json:"page"`
		Status    string          `json:"status"`
		Line      int             `json:"line"`
		Failure   string          `json:"failure,omitempty"`
		Matched   int             `json:"matched"`
		NModel    int             `json:"n_model"`
		NGT       int             `json:"n_gt"`
		Precision float64         `json:"precision"`
		Recall    float64         `json:"recall"`
		F1        float64         `json:"f1"`
	}
	mirror := struct {
		Kind     string                     `json:"kind"`
		Gate     float64                    `json:"gate"`
		Key      string                     `json:"key"`
		Fields   []string                   `json:"fields"`
		Rules    tabularreport.RulesSummary `json:"rules"`
		Warnings []string                   `json:"warnings"`
		Cells    []*tabularreport.Cell      `json:"cells"`
		Images   []*image                   `json:"images"`
		Preview  *tabularreport.Preview     `json:"preview,omitempty"`
	}{Kind: rep.Kind, Gate: rep.Gate, Key: rep.Key, Fields: rep.Fields, Rules: rep.Rules, Warnings: rep.Warnings,
		Cells: rep.Cells, Preview: rep.Preview}
	if rep.Images != nil {
		mirror.Images = make([]*image, len(rep.Images))
	}
	for i, im := range rep.Images {
		if im != nil {
			mirror.Images[i] = &image{Model: im.Model, Phase: im.Phase, Run: im.Run, Page: im.Page, Status: im.Status,
				Line: im.Line, Failure: im.Failure, Matched: im.Matched, NModel: im.NModel, NGT: im.NGT,
				Precision: im.Precision, Recall: im.Recall, F1: im.F1}
		}
	}
	return encodeLikeAReport(t, mirror)
}

// checkAgainstReflection holds WriteJSON, JSON and SummaryJSON to
// encoding/json.
func checkAgainstReflection(t testing.TB, what string, rep *tabularreport.Report) {
	t.Helper()
	want := reflectJSON(t, rep)
	var buf bytes.Buffer
	if err := rep.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	sameBytes(t, what+": WriteJSON", buf.Bytes(), want)
	got, err := rep.JSON()
	if err != nil {
		t.Fatal(err)
	}
	sameBytes(t, what+": JSON", got, want)
	if got, err = rep.SummaryJSON(); err != nil {
		t.Fatal(err)
	}
	sameBytes(t, what+": SummaryJSON", got, reflectSummaryJSON(t, rep))
}

func sameBytes(t testing.TB, what string, got, want []byte) {
	t.Helper()
	if bytes.Equal(got, want) {
		return
	}
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	lo := max(0, i-200)
	t.Fatalf("%s differs from encoding/json at byte %d:\n got  …%s\n want …%s", what, i, got[lo:min(len(got), i+100)], want[lo:min(len(want), i+100)])
}

// TestWriteJSONEqualsEncodingJSON: the sample in its three forms and
// generated corpora (failed images, misses, extras, previews) give the same
// bytes by hand as through reflection, report and summary alike.
func TestWriteJSONEqualsEncodingJSON(t *testing.T) {
	// CPU-bound on inputs of its own: it runs beside the other parallel
	// tests, once the sequential ones (TestStreamFlatMemory) are done.
	t.Parallel()
	// The sample's reports, as scoring/tabular's golden files hold them.
	for _, c := range []struct {
		name        string
		withRules   bool
		preview     string
		noIntervals bool
	}{
		{"sample", true, "", false},
		{"sample_preview_open", true, "open", false},
		{"sample_no_rules", false, "", false},
		{"sample_bootstrap0", true, "", true},
	} {
		req, err := sample.TabularRequest(c.withRules)
		if err != nil {
			t.Fatal(err)
		}
		req.Preview = c.preview
		if !c.noIntervals {
			req.Intervals = tabular.Intervals{Bootstrap: stats.DefaultReplicates, Permutations: stats.DefaultPermutations} // the hosts' default
		}
		rep, err := tabular.ScoreRequest(req)
		if err != nil {
			t.Fatal(err)
		}
		checkAgainstReflection(t, c.name, rep)
	}
	s, err := sample.TabularRequest(true)
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range []tabulartest.Spec{
		tabulartest.Benchmark,
		{Models: 2, Runs: 3, Pages: 2, Travelers: 7, Phases: []string{"x"}, Seed: 3},
		{Models: 3, Runs: 2, Pages: 4, Travelers: 1, Phases: []string{"a", "b"}, Seed: 99},
	} {
		gt, runs := tabulartest.Generate(spec)
		for _, preview := range []string{"", "open"} {
			rep, err := tabular.ScoreRequest(tabular.Request{GT: gt, Runs: runs, Rules: s.Rules, Preview: preview,
				Intervals: tabular.Intervals{Bootstrap: 50, CILevel: 0.9, Seed: uint64(spec.Seed)}})
			if err != nil {
				t.Fatal(err)
			}
			checkAgainstReflection(t, "generated corpus", rep)
		}
	}
}

// FuzzWriteJSON builds reports from arbitrary strings, numbers and raw
// JSON values and holds WriteJSON and SummaryJSON to encoding/json on
// each.
func FuzzWriteJSON(f *testing.F) {
	f.Add("model", "07", `"r1"`, "name", `{"a": [1, {"b": null}], "c": "<&>"}`, "Maria q.m. Antonio", 0.5, 3)
	f.Add("m\u2028<&>", "\x00", `12`, "x\"y", `[ ]`, "bad\xff", 1e-7, 0)
	f.Add("", "", `null`, "", `"s"`, "", 1e21, -1)
	f.Fuzz(func(t *testing.T, model, page, run, key, extra, reading string, x float64, n int) {
		if !json.Valid([]byte(run)) || !json.Valid([]byte(extra)) || math.IsNaN(x) || math.IsInf(x, 0) {
			return // encoding/json refuses these: nothing to compare
		}
		score := x
		rep := &tabularreport.Report{Kind: "tabular", Gate: x, Key: key, Fields: []string{key}, Warnings: []string{reading},
			Rules: tabularreport.RulesSummary{File: page, Settled: n, Open: -n, SHA256: &reading, Preview: n%2 == 0},
			Cells: []*tabularreport.Cell{{Model: model, Phase: page, F1: x, NameCER: &score,
				Fields: tabularreport.FieldTotals{{Name: key, Accuracy: &score, Scored: n, Sum: x}, {Name: reading}},
				CI: &stats.CI{Level: x, Replicates: n, Seed: uint64(n), Unit: page, Units: -n, Stats: []stats.StatInterval{
					{Name: key, Interval: &stats.Range{x, -x}, Kept: n},
					{Name: reading, Group: model, Kept: -n},
					{Name: page, Group: model, Interval: &stats.Range{score, x / 3}},
				}}}, {}, nil},
			Images: []*tabularreport.ImageScore{
				{Model: model, Phase: key, Run: json.RawMessage(run), Page: page, Status: "failed", Line: n, Failure: reading},
				{Model: model, Run: json.RawMessage(run), Page: page, Status: "ok", Precision: x, Recall: -x, F1: x / 3,
					Fields: tabularreport.FieldSums{{Name: key, Sum: x, Scored: n}, {Name: reading}},
					Pairs: []*tabularreport.Pair{
						{GT: reading, Model: model, Similarity: x, SimilarityGT: "resolved", GTResolved: key, ModelReading: reading,
							Fields: tabularreport.PairFields{{Name: key, Score: &score}, {Name: page}},
							Extra:  tabularreport.ExtraFields{{Key: key, Value: json.RawMessage(extra)}, {Key: reading, Value: json.RawMessage(run)}}},
						{}, nil,
					},
					UnmatchedModel: []string{reading, key}, UnmatchedGT: []string{}},
				nil,
			},
		}
		if n%2 == 0 {
			rep.Preview = &tabularreport.Preview{Cells: []*tabularreport.PreviewCell{{Model: model, F1: tabularreport.Delta{Settled: &score},
				Fields: tabularreport.FieldDeltas{{Name: key, Delta: tabularreport.Delta{Preview: &score, Delta: &score}}, {Name: reading}}}, nil}}
		}
		checkAgainstReflection(t, "fuzzed report", rep)
	})
}

// TestImageScoresDoNotDependOnEachOther: the scorer computes a name's
// readings and candidates once per page and reuses them; scoring each image
// of a corpus on its own gives the same image scores as scoring them all.
func TestImageScoresDoNotDependOnEachOther(t *testing.T) {
	s, err := sample.TabularRequest(true)
	if err != nil {
		t.Fatal(err)
	}
	gt, runs := tabulartest.Generate(tabulartest.Spec{Models: 2, Runs: 4, Pages: 2, Travelers: 9, Phases: []string{"a", "b"}, Seed: 7})
	in, err := tabular.Load(tabular.Request{GT: gt, Runs: runs, Rules: s.Rules})
	if err != nil {
		t.Fatal(err)
	}
	all, err := tabular.Score(in)
	if err != nil {
		t.Fatal(err)
	}
	images := in.Runs.Images
	for i, im := range images {
		one := in
		one.Runs = &tabularread.Runs{File: in.Runs.File, Images: []*tabularread.Image{im}}
		alone, err := tabular.Score(one)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(alone.Images[0], all.Images[i]) {
			t.Fatalf("image at line %d scores differently alone:\n alone %+v\n all   %+v", im.Line, alone.Images[0], all.Images[i])
		}
	}
}
