package expression

import (
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

func prediction(t *testing.T, s string) any {
	t.Helper()
	v, err := evalcase.ParseJSONValue([]byte(s), "prediction.json")
	if err != nil {
		t.Fatal(err)
	}
	return v
}
