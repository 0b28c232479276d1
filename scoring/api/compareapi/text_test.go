package compareapi

import (
	"os"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/api"
)

// TestTextReports: two text reports compare page by page; a bad row is
// an input error naming it.
func TestTextReports(t *testing.T) {
	data, err := os.ReadFile("../textapi/testdata/two-pages.json")
	if err != nil {
		t.Fatal(err)
	}
	base := api.File{Name: "base.json", Text: string(data)}
	res, err := CompareOperation().Run(api.NoCancel, &CompareRequest{Base: base, New: api.File{Name: "new.json", Text: string(data)}})
	if err != nil {
		t.Fatal(err)
	}
	out := string(res.Bytes)
	for _, want := range []string{`"family": "text"`, `"units_paired": 2`, `"cer": {`, `"bow_f1": {`, `"id": "base:text/ocr/default"`} {
		if !strings.Contains(out, want) {
			t.Errorf("comparison lacks %s:\n%s", want, out)
		}
	}
	for _, c := range []struct{ from, to, want string }{
		{`"char_edits": 8,`, `"char_edits": 8.5,`, `pages[1] (model "ocr", phase "default", page "lorem"): char_edits is 8.5`},
		{`"bow_matched": 94,`, `"bow_matched": 1000,`, "bow_matched is 1000"},
		{`"cer": 0.01353637901861252,`, `"cer": -1,`, "cer is -1"},
	} {
		bad := strings.Replace(string(data), c.from, c.to, 1)
		if bad == string(data) {
			t.Fatalf("%s not in the golden report", c.from)
		}
		_, err := CompareOperation().Run(api.NoCancel, &CompareRequest{Base: base, New: api.File{Name: "bad.json", Text: bad}})
		if err == nil || !strings.HasPrefix(err.Error(), "bad.json: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one with %q", err, c.want)
		}
	}
}
