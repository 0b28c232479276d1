package bridge_test

import (
	"encoding/json"
	"testing"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/wasm/bridge"
)

// envelopeOf decodes an answer, checking that exactly one side is set.
func envelopeOf(t *testing.T, out string) (*api.ErrorDetail, json.RawMessage) {
	t.Helper()
	e, result, err := bridge.ParseResponse(out)
	if err != nil {
		t.Fatalf("%v: %.300s", err, out)
	}
	return e, result
}

// jsonOf encodes a request.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
