package evalapi

import (
	"bytes"
	"context"
	"encoding/base64"
	"testing"

	"github.com/docscore/docscore/scoring/api"
)

func TestEvaluate(t *testing.T) {
	cases := `{"case_id": "total", "prediction": {"total": 12},
	  "references": [{"artifact_id": "gt", "authority": "ground_truth", "kind": "json", "path": "gt.json"}]}`
	req := EvalRequest{Cases: api.File{Name: "cases.json", Text: cases}, Files: []api.File{{Name: "gt.json", Base64: base64.StdEncoding.EncodeToString([]byte(`{"total": 12}`))}}}
	out, err := Evaluate(context.Background(), req)
	if err != nil || !bytes.Contains(out, []byte(`"verdict": "pass"`)) {
		t.Fatalf("%v\n%s", err, out)
	}
	req.Format = "md"
	if out, err := Evaluate(context.Background(), req); err != nil || !bytes.HasPrefix(out, []byte("#")) {
		t.Fatalf("markdown: %v\n%s", err, out)
	}
	req.Files[0].Base64 = "!!"
	if _, err := Evaluate(context.Background(), req); err == nil || api.DescribeError(err).File == nil || *api.DescribeError(err).File != "gt.json" {
		t.Fatalf("bad base64: %v", err)
	}
}
