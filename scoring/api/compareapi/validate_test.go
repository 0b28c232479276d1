package compareapi

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/inputerr"
)

// edited is the report at path with edit applied to its decoded JSON.
func edited(t *testing.T, path string, edit func(r map[string]any)) api.File {
	t.Helper()
	f := file(t, path)
	var r map[string]any
	if err := json.Unmarshal([]byte(f.Text), &r); err != nil {
		t.Fatal(err)
	}
	edit(r)
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	f.Text = string(b)
	return f
}

func row(r map[string]any, list string, i int) map[string]any {
	return r[list].([]any)[i].(map[string]any)
}

// TestReportsAreValidated checks that a report whose numbers docscore
// score never writes is an input error naming the row: a field sum of
// 1e308 made compare's statistics NaN (exit 1, HTTP 500).
func TestReportsAreValidated(t *testing.T) {
	for _, tc := range []struct {
		name, path string
		edit       func(r map[string]any)
		want       string
	}{
		{"field sum 1e308", tabularReport, func(r map[string]any) {
			row(r, "images", 0)["fields"].(map[string]any)["title"].(map[string]any)["sum"] = 1e308
		}, `images[0] (model "gpt-4o-2024-08-06", phase "G", page "27", run line 1): fields.title.sum is 1e+308: expected a number from 0 to its scored count (26)`},
		{"field sum over scored", tabularReport, func(r map[string]any) {
			row(r, "images", 1)["fields"].(map[string]any)["title"].(map[string]any)["sum"] = 1000
		}, "images[1] (model"},
		{"fractional count", tabularReport, func(r map[string]any) { row(r, "images", 0)["n_gt"] = 26.5 }, "n_gt is 26.5: expected a whole number"},
		{"huge count", tabularReport, func(r map[string]any) { row(r, "images", 0)["name_ref_chars"] = 1e300 }, "name_ref_chars is 1e+300"},
		{"matched over the names", tabularReport, func(r map[string]any) { row(r, "images", 0)["matched"] = 27 }, "matched is 27: expected no more than n_model (26)"},
		{"image row twice", tabularReport, func(r map[string]any) {
			ims := r["images"].([]any)
			r["images"] = append(ims, ims[0])
		}, "the same run line as images[0]"},
		{"f1 over 1", receiptsReport, func(r map[string]any) { row(r, "pages", 0)["f1"] = 2 }, `pages[0] (phase "c1", sample "cord-test-0000"): f1 is 2: expected a number from 0 to 1`},
		{"numbers matched over the reference's", receiptsReport, func(r map[string]any) { row(r, "pages", 0)["numeric_matched"] = 22 }, "numeric_matched is 22: expected no more than numeric_ref (21)"},
		{"pair listed twice", receiptsReport, func(r map[string]any) {
			ps := r["pages"].([]any)
			r["pages"] = append(ps, ps[0])
		}, "the same phase and sample as pages[0]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := edited(t, tc.path, tc.edit)
			for _, req := range []CompareRequest{{Base: f, Within: true}, {Base: file(t, tc.path), New: f}} {
				_, err := CompareOperation().Run(api.NoCancel, small(&req))
				if _, ok := inputerr.As(err); !ok || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error %v (%T), want an input error saying %q", err, err, tc.want)
				}
			}
		})
	}
}
