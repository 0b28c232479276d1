package harnessio

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/harness"
	"github.com/docscore/docscore/scoring/harness/casefile"
)

func TestArtifactFromPath(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name, content string
		kind          evalcase.ArtifactKind
		media         string
		hasValue      bool
	}{
		{"truth.csv", "path,expected\n$.a,1\n", evalcase.KindCSV, "text/csv", true},
		{"truth.json", `{"a": 1}`, evalcase.KindJSON, "application/json", true},
		{"notes.md", "# notes", evalcase.KindMarkdown, "text/markdown", true},
		{"page.PNG", "\x89PNG", evalcase.KindImage, "image/png", false},
		{"statement.pdf", "%PDF-1.4", evalcase.KindPDF, "application/pdf", false},
		{"data.bin", "\x00\x01", evalcase.KindFile, "application/octet-stream", false},
	}
	for _, tt := range tests {
		a, err := ArtifactFromPath(write(tt.name, tt.content), evalcase.ArtifactOptions{Authority: evalcase.AuthorityGroundTruth})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if a.ArtifactID != tt.name || a.Kind != tt.kind || a.MediaType != tt.media || len(a.SHA256) != 64 || (a.Value != nil) != tt.hasValue || (a.Content != nil) == tt.hasValue {
			t.Errorf("%s: %+v", tt.name, a)
		}
	}
	_, err := ArtifactFromPath(write("bad.json", "{\n  \"a\": }"), evalcase.ArtifactOptions{})
	if err == nil || !strings.Contains(err.Error(), "bad.json:2:") {
		t.Errorf("malformed JSON: %v", err)
	}
	if _, err := ArtifactFromPath(filepath.Join(dir, "missing.png"), evalcase.ArtifactOptions{}); !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
}

func TestFileCheckpointStore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ckpt")
	s, err := NewFileCheckpointStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.Load("p/a"); ok || err != nil {
		t.Fatalf("empty store: %v %v", ok, err)
	}
	for _, v := range []string{"one", "two"} {
		if err := s.Save("p/a", []byte(v)); err != nil {
			t.Fatal(err)
		}
		if b, ok, err := s.Load("p/a"); !ok || err != nil || string(b) != v {
			t.Fatalf("load after save %q: %q %v %v", v, b, ok, err)
		}
	}
	if s.Path("p/a") == s.Path("p_a") || s.Path("a/b") == s.Path("a/c") {
		t.Error("distinct keys share a file")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files left in the store: %v", entries)
	}
}

// countingMetric passes every stage and counts its calls.
type countingMetric struct{ calls *int64 }

func (countingMetric) Name() string { return "counting" }
func (m countingMetric) Evaluate(context.Context, evalcase.EvaluationCase) (evalcase.MetricResult, error) {
	atomic.AddInt64(m.calls, 1)
	return evalcase.MetricResult{Verdict: evalcase.Pass, Scores: map[string]float64{"s": 1}}, nil
}

func pipeline() casefile.PipelineCase {
	return casefile.PipelineCase{PipelineID: "doc", Stages: []evalcase.EvaluationCase{
		{CaseID: "doc", StageID: "extract", Prediction: map[string]any{"a": 1}},
		{CaseID: "doc", StageID: "calculate", Prediction: map[string]any{"t": 2}, DependsOn: []string{"extract"}},
	}}
}

// TestRerunReusesCheckpoints proves with a counting metric that a rerun
// over the same directory calls no metric, and that a changed context
// reruns every stage.
func TestRerunReusesCheckpoints(t *testing.T) {
	dir := t.TempDir()
	var calls int64
	run := func(ctx map[string]string) harness.PipelineReport {
		t.Helper()
		store, err := NewFileCheckpointStore(dir)
		if err != nil {
			t.Fatal(err)
		}
		e := &harness.PipelineEvaluator{DefaultMetrics: []evalcase.Metric{countingMetric{&calls}}, Checkpoints: store, CheckpointContext: ctx}
		r, err := e.Evaluate(context.Background(), pipeline())
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	run(map[string]string{"judge_model": "a"})
	if calls != 2 {
		t.Fatalf("first run: %d calls", calls)
	}
	r := run(map[string]string{"judge_model": "a"})
	if calls != 2 || !r.Stages[0].FromCheckpoint || !r.Stages[1].FromCheckpoint {
		t.Fatalf("rerun: %d calls, reused %v %v", calls, r.Stages[0].FromCheckpoint, r.Stages[1].FromCheckpoint)
	}
	run(map[string]string{"judge_model": "b"})
	if calls != 4 {
		t.Fatalf("changed context: %d calls, want 4", calls)
	}
}

// TestCrashBetweenWriteAndRename simulates a process killed after the
// temporary checkpoint is written and before it is renamed: the directory
// still holds the previous checkpoint, a later run ignores the stray
// temporary file and completes.
func TestCrashBetweenWriteAndRename(t *testing.T) {
	dir := t.TempDir()
	var calls int64
	store, err := NewFileCheckpointStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	eval := func(s evalcase.CheckpointStore, ctx string) (harness.PipelineReport, error) {
		e := &harness.PipelineEvaluator{DefaultMetrics: []evalcase.Metric{countingMetric{&calls}}, Checkpoints: s, CheckpointContext: ctx}
		return e.Evaluate(context.Background(), pipeline())
	}
	if _, err := eval(store, "v1"); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(store.Path("doc/extract"))

	crash := errors.New("killed")
	crashing := &FileCheckpointStore{dir: dir, beforeRename: func(tmp string) error {
		// The temporary file is complete and synced, but not in place.
		if b, err := os.ReadFile(tmp); err != nil || len(b) == 0 {
			t.Errorf("temporary checkpoint %s: %v", tmp, err)
		}
		return crash
	}}
	if _, err := eval(crashing, "v2"); !errors.Is(err, crash) {
		t.Fatalf("crashing run: %v", err)
	}
	after, _ := os.ReadFile(store.Path("doc/extract"))
	if string(before) != string(after) {
		t.Fatal("the crash changed the previous checkpoint")
	}
	stray, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*"))
	if len(stray) != 1 {
		t.Fatalf("stray temporary files %v, want the one the crash left", stray)
	}

	// The state is usable: v1 is still reused, v2 completes.
	calls = 0
	r, err := eval(store, "v1")
	if err != nil || calls != 0 || !r.Stages[0].FromCheckpoint {
		t.Fatalf("v1 after the crash: %v, %d calls", err, calls)
	}
	r, err = eval(store, "v2")
	if err != nil || calls != 2 || r.Stages[1].Verdict != evalcase.Pass {
		t.Fatalf("v2 after the crash: %v, %d calls", err, calls)
	}
	r, err = eval(store, "v2")
	if err != nil || calls != 2 || !r.Stages[1].FromCheckpoint {
		t.Fatalf("v2 rerun: %v, %d calls", err, calls)
	}
}

// TestTornCheckpointIsRerun: a checkpoint file cut short (a store without
// atomic writes, a disk error) is never trusted.
func TestTornCheckpointIsRerun(t *testing.T) {
	dir := t.TempDir()
	var calls int64
	store, _ := NewFileCheckpointStore(dir)
	e := &harness.PipelineEvaluator{DefaultMetrics: []evalcase.Metric{countingMetric{&calls}}, Checkpoints: store}
	if _, err := e.Evaluate(context.Background(), pipeline()); err != nil {
		t.Fatal(err)
	}
	p := store.Path("doc/extract")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, b[:len(b)/2], 0o644)
	r, err := e.Evaluate(context.Background(), pipeline())
	if err != nil || calls != 3 || r.Stages[0].FromCheckpoint || !r.Stages[1].FromCheckpoint {
		t.Fatalf("torn checkpoint: %v, %d calls", err, calls)
	}
}
