package tabularread

import (
	"encoding/json"
	"strings"

	"github.com/docscore/docscore/scoring/internal/jsonscan"
)

// maxResponseAttempts bounds how many "[" positions ExtractRecords tries,
// and maxResponseScan how many bytes all its parse attempts may read
// together, so hostile text cannot make the search quadratic.
const (
	maxResponseAttempts = 1000
	maxResponseScan     = 32 << 20
)

// ExtractRecords finds the records in a model's raw answer: the first JSON
// array whose elements are all objects, parsed at any "[" in the text (inside
// ```json fences, surrounded by prose, or nested in a larger object). An
// empty array is a valid answer with no records. ok is false when the text
// holds no such array, or when the search gives up: after 1000 "[" that
// start no such array, or 32 MiB of parsing in all.
func ExtractRecords(response string) (records []string, ok bool) {
	attempts, scanned := 0, int64(0)
	for i := 0; i < len(response); i++ {
		j := strings.IndexByte(response[i:], '[')
		if j < 0 {
			return nil, false
		}
		i += j
		if attempts++; attempts > maxResponseAttempts {
			return nil, false
		}
		if scanned > maxResponseScan {
			return nil, false
		}
		// A value that starts here is scanned in place (no copy of the
		// rest of the text, as a json.Decoder makes); its records are
		// substrings of the response.
		if end, ok := jsonscan.ValueEnd(response, i); ok {
			scanned += int64(end-i) + 1
			if recs, ok := recordList(response[i:end]); ok {
				return recs, true
			}
			continue
		}
		// None does: encoding/json says how far it read before giving up,
		// which the scan budget counts.
		dec := json.NewDecoder(strings.NewReader(response[i:]))
		var raw json.RawMessage
		dec.Decode(&raw)
		scanned += dec.InputOffset() + 1
	}
	return nil, false
}
