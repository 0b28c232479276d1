package groundtruth_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docscore/docscore/internal/testkit"
	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/groundtruth"
	"github.com/docscore/docscore/scoring/inputerr"
)

// edit applies f to a review file's JSON and re-encodes it indented.
func edit(t *testing.T, data []byte, f func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	f(m)
	out, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func item(m map[string]any, i int) map[string]any {
	return m["review_items"].([]any)[i].(map[string]any)
}

// approveAll is what a reviewer does: decide every item, fix a claim,
// sign.
func approveAll(m map[string]any) {
	item(m, 0)["decision"] = "set"
	item(m, 0)["value"] = "1,250.00"
	item(m, 1)["decision"] = "set"
	item(m, 1)["value"] = "J. Smith"
	item(m, 2)["decision"] = "omit"
	m["claims"].([]any)[0].(map[string]any)["value"] = "EUR"
	m["status"] = "approved"
	m["approved_by"] = "reviewer@example.org"
}

func TestReviewFileRoundTrip(t *testing.T) {
	rep, _ := groundtruth.FirstPass(t)
	data, err := groundtruth.WriteGroundTruthReview(rep)
	if err != nil {
		t.Fatal(err)
	}
	groundtruth.Golden(t, filepath.Join("testdata", "ground-truth-review.golden.json"), data)
	var f groundtruth.ReviewFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if f.Status != groundtruth.ReviewPending || len(f.Claims) != 1 || len(f.ReviewItems) != 3 || f.ReviewItems[0].Decision != nil || f.GeneratedReference.SHA256 != rep.ProvisionalReference.SHA256 {
		t.Fatalf("review file %+v", f)
	}
	// As written, it is refused: undecided items, pending, unsigned.
	if _, err := groundtruth.ApprovedReferenceFromReview(data, "review.json"); err == nil || !strings.Contains(err.Error(), "3 review item(s) undecided ($.amount, $.account_name, $.date)") {
		t.Errorf("pending file: %v", err)
	}
	approved := edit(t, data, approveAll)
	ref, err := groundtruth.ApprovedReferenceFromReview(approved, "review.json")
	if err != nil {
		t.Fatal(err)
	}
	if ref.Authority != evalcase.AuthorityGroundTruth || ref.Value != "path,expected\n$.currency,EUR\n$.amount,\"1,250.00\"\n$.account_name,J. Smith\n" {
		t.Errorf("reference %s %q", ref.Authority, ref.Value)
	}
	if ref.Metadata["approved_by"] != "reviewer@example.org" || ref.Metadata["review_file_sha256"] != evalcase.SHA256Hex(approved) || ref.Metadata["generated_reference_sha256"] != rep.ProvisionalReference.SHA256 {
		t.Errorf("metadata %v", ref.Metadata)
	}
	if ref.ArtifactID != "statement-001-generated" {
		t.Errorf("id %s", ref.ArtifactID)
	}
}

func TestReviewFileRefusals(t *testing.T) {
	rep, _ := groundtruth.FirstPass(t)
	data, _ := groundtruth.WriteGroundTruthReview(rep)
	tests := []struct {
		name string
		edit func(m map[string]any)
		err  string
	}{
		{"pending", func(m map[string]any) { approveAll(m); m["status"] = "pending" }, `status: refusing to approve: status is "pending"`},
		{"unsigned", func(m map[string]any) { approveAll(m); m["approved_by"] = "  " }, "approved_by: refusing to approve an unsigned review"},
		{"null signature", func(m map[string]any) { approveAll(m); m["approved_by"] = nil }, "unsigned"},
		{"one undecided", func(m map[string]any) { approveAll(m); item(m, 2)["decision"] = nil }, "review_items[2].decision: refusing to approve: 1 review item(s) undecided ($.date)"},
		{"set without value", func(m map[string]any) { approveAll(m); item(m, 0)["value"] = nil }, `review_items[0].value: decision "set" needs a value`},
		{"unknown decision", func(m map[string]any) { approveAll(m); item(m, 0)["decision"] = "accept" }, `"accept": expected "set" or "omit"`},
		{"object value", func(m map[string]any) { approveAll(m); item(m, 0)["value"] = map[string]any{"a": 1} }, "expected a string, number, boolean or null, found an object"},
		{"path twice", func(m map[string]any) { approveAll(m); item(m, 0)["path"] = "currency" }, "path $.currency appears twice (first at claims[0])"},
		{"bad path", func(m map[string]any) { approveAll(m); item(m, 0)["path"] = "$.[" }, "review_items[0].path"},
		{"unknown field", func(m map[string]any) { approveAll(m); m["approved"] = true }, "approved: unknown field"},
		{"wrong kind", func(m map[string]any) { approveAll(m); m["kind"] = "harness" }, `kind: expected "docscore-ground-truth-review"`},
		{"wrong version", func(m map[string]any) { approveAll(m); m["version"] = 2 }, "version: expected 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := edit(t, data, tc.edit)
			_, err := groundtruth.ApprovedReferenceFromReview(b, "review.json")
			ie, ok := inputerr.As(err)
			if !ok || ie.File != "review.json" || ie.Line == 0 || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("error %v, want an input error with a line and %q", err, tc.err)
			}
		})
	}
	// A syntax error names line and column.
	_, err := groundtruth.ApprovedReferenceFromReview([]byte("{\n  \"kind\": \"docscore-ground-truth-review\",\n  \"version\": 1\n  \"status\": \"approved\"\n}"), "r.json")
	if err == nil || !strings.HasPrefix(err.Error(), "r.json:4:") {
		t.Errorf("syntax error %v", err)
	}
}

// TestReviewFileNoDisagreement: a unanimous generation needs only the
// signature.
func TestReviewFileNoDisagreement(t *testing.T) {
	answer := groundtruth.Fixed(groundtruth.Claims("$.x", `"1"`))
	p := &groundtruth.GroundTruthPanel{Providers: []groundtruth.GroundTruthProvider{{"a", groundtruth.ScriptedReader("a", answer)}, {"b", groundtruth.ScriptedReader("b", answer)}}, ExtractionInstruction: "x", ExpectedFields: []string{"$.x"}}
	rep, err := p.Generate(context.Background(), "c", testkit.PageSources(t))
	if err != nil || rep.RequiresHumanReview {
		t.Fatalf("%v %v", rep, err)
	}
	data, _ := groundtruth.WriteGroundTruthReview(rep)
	if _, err := groundtruth.ApprovedReferenceFromReview(data, "r.json"); err == nil || !strings.Contains(err.Error(), "status is \"pending\"") {
		t.Errorf("unsigned: %v", err)
	}
	signed := edit(t, data, func(m map[string]any) { m["status"] = "approved"; m["approved_by"] = "x@example.org" })
	ref, err := groundtruth.ApprovedReferenceFromReview(signed, "r.json")
	if err != nil || ref.Value != "path,expected\n$.x,1\n" {
		t.Errorf("%v %v", ref.Value, err)
	}
}

// FuzzApprovedReferenceFromReview feeds arbitrary bytes to the review-file
// reader: no panic, every rejection an input error naming the file, and
// every accepted file an approved ground-truth path/value table.
func FuzzApprovedReferenceFromReview(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("..", "groundtruth", "testdata", "ground-truth-review.golden.json")); err == nil {
		f.Add(b)
		var m map[string]any
		if json.Unmarshal(b, &m) == nil {
			approveAll(m)
			if signed, err := json.Marshal(m); err == nil {
				f.Add(signed)
			}
		}
	}
	f.Add([]byte(`{"kind": "docscore-ground-truth-review", "version": 1, "status": "approved", "approved_by": "a", "claims": [{"path": "$.a", "value": 1}], "review_items": [{"path": "b", "decision": "omit"}]}`))
	f.Add([]byte(`{"kind": "docscore-ground-truth-review", "version": 1, "status": "approved", "approved_by": "a", "claims": [], "review_items": [{"path": "$['x y']", "decision": "set", "value": ""}]}`))
	f.Add([]byte(`{"kind": "docscore-ground-truth-review"`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ref, err := groundtruth.ApprovedReferenceFromReview(data, "review.json")
		if err != nil {
			ie, ok := inputerr.As(err)
			if !ok || ie.File != "review.json" {
				t.Fatalf("not an input error naming the file: %v", err)
			}
			return
		}
		if ref.Authority != evalcase.AuthorityGroundTruth || ref.Metadata["approved_by"] == "" {
			t.Fatalf("accepted without approval: %+v", ref)
		}
		if _, isTable, err := evalcase.PathTable(ref.Value.(string), ref); err != nil || !isTable {
			t.Fatalf("the approved reference does not read back: %v", err)
		}
	})
}
