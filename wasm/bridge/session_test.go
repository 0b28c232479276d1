package bridge

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/api"
)

// FuzzSession makes two calls through a dispatcher with a session, as the
// page does (a drop, then a toggle, a download or a drill-down), and
// checks each answer against a dispatcher without one: byte for byte the
// same, and a dropTabular answer is JSON with its three members.
func FuzzSession(f *testing.F) {
	sample := sampleRequest(f, "", "json")
	drop := mustJSON(f, sample)
	sample.Preview = "open"
	open := mustJSON(f, sample)
	sample.Format = "md"
	md := mustJSON(f, sample)
	detail := mustJSON(f, api.TabularDetailRequest{TabularRequest: sampleRequest(f, "", ""), Line: 3})
	small := `{"gt": [{"name": "gt_page_1.csv", "text": "name\nA\n"}], "runs": {"name": "r", "text": "{\"model\":\"m\",\"page\":1,\"records\":[{\"name\":\"A\"}]}"}}`
	for _, s := range [][4]string{
		{"dropTabular", drop, "dropTabular", open},
		{"dropTabular", open, "scoreTabular", md},
		{"dropTabular", drop, "tabularDetail", detail},
		{"dropTabular", small, "scoreTabular", strings.Replace(small, `"r"`, `"r2"`, 1)},
		{"dropTabular", small, "tabularDetail", strings.Replace(small, `{"gt"`, `{"line": 1, "gate": 0.5, "gt"`, 1)},
		{"scoreTabular", `{"runs": {}}`, "dropTabular", `{"gt": [], "rules": {"name": "r.md", "text": "x"}}`},
	} {
		f.Add(s[0], s[1], s[2], s[3])
	}
	f.Fuzz(func(t *testing.T, m1, r1, m2, r2 string) {
		session := NewSession(api.TabularOperations())
		for _, c := range [][2]string{{m1, r1}, {m2, r2}} {
			got, want := session.Call(c[0], c[1]), New(api.TabularOperations()).Call(c[0], c[1])
			if got != want {
				t.Fatalf("%s %.200q: with the session\n%.300s\nwithout\n%.300s", c[0], c[1], got, want)
			}
			if raw, ok := strings.CutPrefix(got, RawMarker+"\n"); ok && c[0] == "dropTabular" {
				var answer map[string]json.RawMessage
				if err := json.Unmarshal([]byte(raw), &answer); err != nil || len(answer) != 3 || answer["rules"] == nil || answer["error"] == nil || answer["summary"] == nil {
					t.Fatalf("dropTabular answer %.300s (%v)", raw, err)
				}
			}
		}
	})
}
