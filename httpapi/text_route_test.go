package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScoreTextRoute: POST /v1/score/text answers the bytes of the
// text family's golden report (scoring/api/textapi), the same request
// as JSON or multipart.
func TestScoreTextRoute(t *testing.T) {
	dh := filepath.Join("..", "scoring", "pagetext", "testdata", "dinglehopper")
	read := func(p string) string {
		b, err := os.ReadFile(filepath.Join(dh, p))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	type file struct {
		Name string `json:"name"`
		Text string `json:"text"`
	}
	req := map[string]any{
		"gt": []file{{"gt/hartkopf.gt.xml", read("test-gt.page2018.xml")}, {"gt/lorem.gt.page.xml", read("lorem-ipsum/lorem-ipsum-scan-bad.gt.page.xml")},
			{"gt/lonely.gt.txt", "no OCR for me"}},
		"ocr": []file{{"ocr/hartkopf.fake.xml", read("test-fake-ocr.page2018.xml")}, {"ocr/lorem.tesseract.alto.xml", read("lorem-ipsum/lorem-ipsum-scan-bad.ocr.tesseract.alto.xml")},
			{"ocr/stray.txt", "no GT for me"}},
		"bootstrap": 200,
	}
	body, _ := json.Marshal(req)
	golden := filepath.Join("..", "scoring", "api", "textapi", "testdata")
	h := New(Options{})
	for _, format := range []string{"json", "md"} {
		rec := do(h, http.MethodPost, "/v1/score/text?format="+format, "application/json", body)
		want, _ := os.ReadFile(filepath.Join(golden, "two-pages."+format))
		if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), want) {
			t.Errorf("%s: status %d, body differs from the golden report:\n%s", format, rec.Code, rec.Body.String())
		}
	}
	bad, _ := json.Marshal(map[string]any{"gt": []file{{"g.xml", "<PcGts>\n<x>"}}, "ocr": []file{{"o.txt", "x"}}})
	rec := do(h, http.MethodPost, "/v1/score/text", "application/json", bad)
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "g.xml") {
		t.Errorf("bad XML: status %d, %s", rec.Code, rec.Body.String())
	}
	rec = do(h, http.MethodPost, "/v1/text/page", "application/json", []byte(`{"gt":{"name":"p.gt.txt","text":"Dies ist eine Tst!"},"ocr":{"name":"p.txt","text":"Dies ist ein Test."}}`))
	want, _ := os.ReadFile(filepath.Join(golden, "page-view.json"))
	if rec.Code != http.StatusOK || strings.TrimSpace(rec.Body.String()) != strings.TrimSpace(string(want)) {
		t.Errorf("text page: status %d, %s", rec.Code, rec.Body.String())
	}
}
