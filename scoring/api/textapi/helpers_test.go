package textapi

import "github.com/docscore/docscore/scoring/internal/jsonout"

func jsonMarshal(v any) ([]byte, error) { return jsonout.Marshal(v) }
