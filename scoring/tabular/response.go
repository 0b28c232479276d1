package tabular

import (
	"encoding/json"
	"strings"
)

// maxResponseAttempts bounds how many "[" positions ExtractRecords tries,
// so hostile text cannot make it quadratic without limit.
const maxResponseAttempts = 1000

// ExtractRecords finds the records in a model's raw answer: the first JSON
// array whose elements are all objects, parsed at any "[" in the text (inside
// ```json fences, surrounded by prose, or nested in a larger object). An
// empty array is a valid answer with no records. ok is false when the text
// holds no such array.
func ExtractRecords(response string) (records []json.RawMessage, ok bool) {
	attempts := 0
	for i := 0; i < len(response); i++ {
		j := strings.IndexByte(response[i:], '[')
		if j < 0 {
			return nil, false
		}
		i += j
		if attempts++; attempts > maxResponseAttempts {
			return nil, false
		}
		dec := json.NewDecoder(strings.NewReader(response[i:]))
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			continue
		}
		if recs, ok := recordList(raw); ok {
			return recs, true
		}
	}
	return nil, false
}
