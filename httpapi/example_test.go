package httpapi_test

import (
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/docscore/docscore/httpapi"
)

// New's handler is an ordinary http.Handler: mount it on a server, hand
// it to the Workers runtime, or call it in a test.
func ExampleNew() {
	h := httpapi.New(httpapi.Options{Version: "1.0.0"})

	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/healthz", nil))
	fmt.Print(w.Code, " ", w.Body)

	// A bad request is a 4xx with a JSON error naming what was expected.
	r := httptest.NewRequest("POST", "/v1/score/tabular", strings.NewReader(`{"gt": []}`))
	r.Header.Set("Content-Type", "application/json")
	w = httptest.NewRecorder()
	h.ServeHTTP(w, r)
	fmt.Print(w.Code, " ", w.Body)
	// Output:
	// 200 {
	//   "status": "ok"
	// }
	// 400 {
	//   "error": {
	//     "code": "bad_request",
	//     "message": "missing field \"gt\" (expected one or more ground-truth CSV files)",
	//     "file": null,
	//     "line": null,
	//     "column": null,
	//     "source_line": null
	//   }
	// }
}

// A malformed file is a 422 naming the file, the line and the column; the
// message shows the line with a caret.
func ExampleNew_inputError() {
	h := httpapi.New(httpapi.Options{})
	header := "name,title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count"
	body := `{"gt": [{"name": "gt_page_1.csv", "text": "` + header + `\nAnna,,,,,,,,\n"}],
	          "runs": {"name": "runs.jsonl", "text": "{\"model\": \"m\", \"page\": \"1\", \"records\": []}\nnot json\n"}}`
	r := httptest.NewRequest("POST", "/v1/score/tabular", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	fmt.Print(w.Code, " ", w.Body)
	// Output:
	// 422 {
	//   "error": {
	//     "code": "input",
	//     "message": "runs.jsonl:2:2: invalid JSON: invalid character 'o' in literal null (expecting 'u'): expected a JSON object (one image per line)\n    2 | not json\n      |  ^",
	//     "file": "runs.jsonl",
	//     "line": 2,
	//     "column": 2,
	//     "source_line": "not json"
	//   }
	// }
}
