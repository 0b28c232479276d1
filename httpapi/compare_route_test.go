package httpapi

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompareRoute: multipart with query options answers what JSON does;
// bad options and inputs are 400 and 422 naming the field or the file;
// JUnit comes as XML.
func TestCompareRoute(t *testing.T) {
	h := New(Options{})
	report, err := os.ReadFile(filepath.Join("..", "scoring", "receipts", "testdata", "golden", "receipts.json"))
	if err != nil {
		t.Fatal(err)
	}
	tab := golden(t, "sample.json")
	opts := "bootstrap=100&permutations=100&seed=18446744073709551615"
	jsonBody := []byte(`{"base": {"name": "receipts.json", "text": ` + string(mustJSON(t, string(report))) + `}, "within": true}`)
	want := do(h, http.MethodPost, "/v1/compare?"+opts, "application/json", jsonBody)
	if want.Code != http.StatusOK || !strings.Contains(want.Body.String(), `"seed": 18446744073709551615`) {
		t.Fatalf("JSON request: status %d, %.300s", want.Code, want.Body.String())
	}
	mp, ct := multipartBody(t, part{"base", "receipts.json", string(report)}, part{"within", "", "true"})
	got := do(h, http.MethodPost, "/v1/compare?"+opts, ct, mp)
	if got.Code != http.StatusOK || !bytes.Equal(got.Body.Bytes(), want.Body.Bytes()) {
		t.Errorf("multipart: status %d, body differs from the JSON request's:\n%.300s", got.Code, got.Body.String())
	}
	junit := do(h, http.MethodPost, "/v1/compare?format=junit&"+opts, ct, mp)
	if junit.Code != http.StatusOK || junit.Header().Get("Content-Type") != "application/xml; charset=utf-8" ||
		!strings.HasPrefix(junit.Body.String(), "<?xml") {
		t.Errorf("junit: status %d, %s, %.100s", junit.Code, junit.Header().Get("Content-Type"), junit.Body.String())
	}
	two, twoCT := multipartBody(t, part{"base", "sample.json", string(tab)}, part{"new", "receipts.json", string(report)})
	for _, c := range []struct {
		name, query, ct string
		body            []byte
		status          int
		msg             string
	}{
		{"ci_level", "?ci_level=1.5", ct, mp, 400, `ci_level 1.5: expected a number strictly between 0 and 1`},
		{"bootstrap", "?bootstrap=-1", ct, mp, 400, `bootstrap -1: expected`},
		{"seed", "?seed=-1", ct, mp, 400, `field \"seed\"`},
		{"no base", "", "application/json", []byte(`{"within": true}`), 400, `missing field \"base\"`},
		{"no new", "", "application/json", []byte(`{"base": {"name": "a.json", "text": "{}"}}`), 400, `new missing`},
		{"kinds differ", "", twoCT, two, 422, `compare two reports of one family`},
	} {
		rec := do(h, http.MethodPost, "/v1/compare"+c.query, c.ct, c.body)
		if rec.Code != c.status || !strings.Contains(rec.Body.String(), c.msg) {
			t.Errorf("%s: status %d, %s; want %d saying %s", c.name, rec.Code, rec.Body.String(), c.status, c.msg)
		}
	}
}

// TestCompareWorkCap: a comparison that would draw more units than the
// handler's cap allows is refused 422 too_much_work before it runs; under
// the default cap the same request runs.
func TestCompareWorkCap(t *testing.T) {
	report, err := os.ReadFile(filepath.Join("..", "scoring", "receipts", "testdata", "golden", "receipts.json"))
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"base": {"name": "receipts.json", "text": ` + string(mustJSON(t, string(report))) + `}, "within": true}`)
	small := New(Options{MaxPairs: 10})
	rec := do(small, http.MethodPost, "/v1/compare?bootstrap=100&permutations=100", "application/json", body)
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `"code": "too_much_work"`) ||
		!strings.Contains(rec.Body.String(), "docscore compare") {
		t.Fatalf("over the cap: status %d, %s", rec.Code, rec.Body.String())
	}
	rec = do(New(Options{}), http.MethodPost, "/v1/compare?bootstrap=100&permutations=100", "application/json", body)
	if rec.Code != http.StatusOK {
		t.Fatalf("under the default cap: status %d, %.300s", rec.Code, rec.Body.String())
	}
}
