package groundtruth

import (
	"bytes"
	"os"
	"testing"

	"github.com/docscore/docscore/internal/testkit"
)

// TestGroundTruthClaimsSchema: the schema and the parser accept and reject
// the same answers, and the docs copy is the embedded one.
func TestGroundTruthClaimsSchema(t *testing.T) {
	docs, err := os.ReadFile("../../docs/schema/ground-truth-claims.schema.json")
	if err != nil || !bytes.Equal(docs, GroundTruthClaimsSchema) {
		t.Error("docs/schema/ground-truth-claims.schema.json and scoring/judging/schema/ground-truth-claims.schema.json differ: copy one over the other")
	}
	s := testkit.CompileSchema(t, "schema/ground-truth-claims.schema.json")
	for _, a := range []struct {
		raw   string
		valid bool
	}{
		{claims("$.a", `"x"`, "$.b", "1.5", "$.c", "null", "$.d", "false"), true},
		{`{"claims": []}`, true},
		{`{"claims": [], "extra": 1}`, false},
		{`{}`, false},
		{claims("$.a", `["x"]`), false},
		{`{"claims": [{"path": "$.a", "value": "x", "reference_id": "page-001", "visual_evidence": "", "confidence": 1, "page": 2}]}`, false},
		{`{"claims": [{"path": "$.a", "value": "x", "reference_id": "page-001", "confidence": 1}]}`, false},
	} {
		schemaErr := testkit.Validate(s, []byte(a.raw))
		_, parseErr := ParseGroundTruthClaims([]byte(a.raw), []string{"page-001"})
		if (schemaErr == nil) != a.valid || (parseErr == nil) != a.valid {
			t.Errorf("%s\n  schema: %v\n  parser: %v\n  want valid=%v", a.raw, schemaErr, parseErr, a.valid)
		}
	}
}
