package tabularread

import (
	"encoding/json"
	"strings"
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
		dec := json.NewDecoder(strings.NewReader(response[i:]))
		var raw json.RawMessage
		err := dec.Decode(&raw)
		scanned += dec.InputOffset() + 1
		if err != nil {
			continue
		}
		if recs, ok := recordList(string(raw)); ok {
			return recs, true
		}
	}
	return nil, false
}
