// Package receiptsbridge is the method table of receipts.wasm: the
// receipt OCR scorer (SPEC B) behind wasm/bridge's dispatcher. It is a
// package of its own so that only receipts.wasm links the receipt scorer.
package receiptsbridge

import (
	"errors"

	"github.com/docscore/docscore/scoring/api/receiptsapi"
	"github.com/docscore/docscore/wasm/bridge"
)

// Methods returns the receipts family's methods:
//
//   - scoreReceipts: a receiptsapi.ReceiptsRequest → the report as a
//     string, exactly the bytes of "docscore score receipts --format F".
//     An incomplete run without allow_incomplete is refused with the
//     error code "incomplete" (file: the run; the message names every
//     missing and duplicated pair).
func Methods() map[string]bridge.Method {
	return map[string]bridge.Method{
		"scoreReceipts": func(r bridge.Request) (any, error) {
			var req receiptsapi.ReceiptsRequest
			if err := bridge.Decode("scoreReceipts", r, &req); err != nil {
				return nil, err
			}
			out, err := receiptsapi.ScoreReceipts(req)
			var inc *receiptsapi.IncompleteError
			if errors.As(err, &inc) {
				return nil, bridge.WithCode("incomplete", err)
			}
			if err != nil {
				return nil, err
			}
			return bridge.Raw(out), nil
		},
	}
}
