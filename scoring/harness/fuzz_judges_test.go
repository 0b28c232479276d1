package harness

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/docscore/docscore/scoring/inputerr"
)

// FuzzApprovedReferenceFromReview feeds arbitrary bytes to the review-file
// reader: no panic, every rejection an input error naming the file, and
// every accepted file an approved ground-truth path/value table.
func FuzzApprovedReferenceFromReview(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", "ground-truth-review.golden.json")); err == nil {
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
		ref, err := ApprovedReferenceFromReview(data, "review.json")
		if err != nil {
			ie, ok := inputerr.As(err)
			if !ok || ie.File != "review.json" {
				t.Fatalf("not an input error naming the file: %v", err)
			}
			return
		}
		if ref.Authority != AuthorityGroundTruth || ref.Metadata["approved_by"] == "" {
			t.Fatalf("accepted without approval: %+v", ref)
		}
		if _, isTable, err := pathTable(ref.Value.(string), ref); err != nil || !isTable {
			t.Fatalf("the approved reference does not read back: %v", err)
		}
	})
}

// FuzzParseGroundTruthClaims feeds arbitrary answers to the claims parser:
// no panic, every rejection an unusable answer keeping the raw text, and
// every accepted claim a canonical path citing a known source.
func FuzzParseGroundTruthClaims(f *testing.F) {
	f.Add([]byte(claims("$.currency", `"USD"`, "amount", "12.50", "$.items[0].code", "null", "$.ok", "true")))
	f.Add([]byte("```json\n{\"claims\": []}\n```"))
	f.Add([]byte(`{"claims": [{"path": "$[\"odd key\"]", "value": "x", "reference_id": "page-001", "visual_evidence": "", "confidence": 0}]}`))
	f.Add([]byte(`{"claims": [{"path": "$.a", "value": 1e400, "reference_id": "page-001", "visual_evidence": "", "confidence": 1}]}`))
	// Found by fuzzing: a key with '&' was rendered as a JSON string
	// (\u0026) that CanonicalPath did not read back.
	f.Add([]byte(`{"claims":[{"path":"aaaaaaaa","value":"","reference_id":"page-001","visual_evidence":"","confidence":0},{"path":"aa 00&000000000","value":true,"reference_id":"page-001","visual_evidence":"","confidence":0}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := ParseGroundTruthClaims(data, []string{"page-001"})
		if err != nil {
			var ua *UnusableAnswerError
			if !errors.As(err, &ua) || !bytes.Equal([]byte(ua.Raw), data) {
				t.Fatalf("not an unusable answer keeping the raw text: %v", err)
			}
			return
		}
		for _, c := range got {
			if p, err := CanonicalPath(c.Path); err != nil || p != c.Path || c.ReferenceID != "page-001" || c.Confidence < 0 || c.Confidence > 1 {
				t.Fatalf("accepted claim %+v", c)
			}
		}
	})
}
