package receiptsread

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
)

// FuzzParseCORD checks that no CORD file panics the parser, that errors
// are input errors naming the file, and that reading order only reorders
// the annotation-order words.
func FuzzParseCORD(f *testing.F) {
	f.Add([]byte(`{"valid_line": [{"words": [{"text": "TOTAL", "row_id": 2, "quad": {"x1": 5, "y1": 40, "x2": 9, "y2": 40, "x3": 9, "y3": 50, "x4": 5, "y4": 50}}, {"text": "10", "row_id": 1, "quad": {"x1": 1, "y1": 1, "x2": 2, "y2": 1, "x3": 2, "y3": 3, "x4": 1, "y4": 3}}]}], "gt_parse": {"total": {"total_price": "10"}}}`))
	f.Add([]byte(`{"sample_id": "cord-test-0001", "ground_truth": "{\"valid_line\": [{\"words\": [{\"text\": \"A\"}]}]}"}`))
	f.Add([]byte(`{"ground_truth": {"valid_line": [{"words": [{"text": 5}]}]}}`))
	f.Add([]byte(`{"valid_line": [{"words": [{"text": "A B", "row_id": "x", "quad": {"x1": 1e400}}]}]}`))
	f.Add([]byte(`[{"valid_line": null}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ann, err1 := ParseCORD("refs/f.json", data, ParseOptions{})
		ro, err2 := ParseCORD("refs/f.json", data, ParseOptions{Order: ReadingOrder})
		for _, err := range []error{err1, err2} {
			if err != nil {
				if e, ok := inputerr.As(err); !ok || e.File != "refs/f.json" {
					t.Fatalf("error %v is not an input error naming the file", err)
				}
			}
		}
		if err1 == nil && err2 == nil {
			a, b := strings.Split(ann.Text, " "), strings.Split(ro.Text, " ")
			slices.Sort(a)
			slices.Sort(b)
			if !slices.Equal(a, b) {
				t.Fatalf("reading order %q is not a reordering of %q", ro.Text, ann.Text)
			}
		}
		if err2 == nil && err1 != nil {
			t.Fatalf("reading order parsed what annotation order refused: %v", err1)
		}
		// The one-pass decoding agrees with the careful parse.
		for _, opts := range []ParseOptions{{}, {Order: ReadingOrder}} {
			if fast, ok := parseCORDFast("refs/f.json", data, opts); ok {
				careful, err := parseCORDCareful(ingest.OpenBytes("refs/f.json", data), opts)
				if err != nil || !reflect.DeepEqual(fast, careful) {
					t.Fatalf("fast parse %+v, careful parse %+v, %v", fast, careful, err)
				}
			}
		}
	})
}
