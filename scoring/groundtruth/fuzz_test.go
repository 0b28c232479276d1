package groundtruth

import (
	"bytes"
	"errors"
	"testing"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/judging"
)

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
			var ua *judging.UnusableAnswerError
			if !errors.As(err, &ua) || !bytes.Equal([]byte(ua.Raw), data) {
				t.Fatalf("not an unusable answer keeping the raw text: %v", err)
			}
			return
		}
		for _, c := range got {
			if p, err := evalcase.CanonicalPath(c.Path); err != nil || p != c.Path || c.ReferenceID != "page-001" || c.Confidence < 0 || c.Confidence > 1 {
				t.Fatalf("accepted claim %+v", c)
			}
		}
	})
}
