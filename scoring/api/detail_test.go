package api

import (
	"encoding/json"
	"testing"
)

func TestTabularDetail(t *testing.T) {
	req := sampleTabular(t)
	raw, err := ScoreTabular(req)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Images []struct {
			Line        int      `json:"line"`
			Status      string   `json:"status"`
			UnmatchedGT []string `json:"unmatched_gt"`
			Pairs       []struct {
				GT         string  `json:"gt"`
				Similarity float64 `json:"similarity"`
			} `json:"pairs"`
		} `json:"images"`
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatal(err)
	}
	im := rep.Images[len(rep.Images)-1]
	d, err := TabularDetail(TabularDetailRequest{TabularRequest: req, Line: im.Line})
	if err != nil {
		t.Fatal(err)
	}
	if d.Line != im.Line || d.Status != im.Status || len(d.Pairs) != len(im.Pairs) || len(d.Misses) != len(im.UnmatchedGT) {
		t.Fatalf("detail of line %d: %d pairs %d misses, report %d pairs %d misses", im.Line, len(d.Pairs), len(d.Misses), len(im.Pairs), len(im.UnmatchedGT))
	}
	for i, p := range im.Pairs {
		if d.Pairs[i].Name.GT != p.GT || d.Pairs[i].Similarity != p.Similarity {
			t.Fatalf("pair %d: %+v, report %+v", i, d.Pairs[i].Name, p)
		}
	}
	// The request decodes from the JSON every host sends: the scoring
	// request's keys plus "line".
	var dr TabularDetailRequest
	if err := json.Unmarshal([]byte(`{"gt": [{"name": "a.csv", "text": "x"}], "runs": {"name": "r.jsonl", "text": ""}, "preview": "open", "line": 7}`), &dr); err != nil {
		t.Fatal(err)
	}
	if dr.Line != 7 || dr.Preview != "open" || len(dr.GT) != 1 || dr.Runs.Name != "r.jsonl" {
		t.Fatalf("decoded %+v", dr)
	}
	req.Runs.Text = "{oops\n"
	_, err = TabularDetail(TabularDetailRequest{TabularRequest: req, Line: 1})
	if d := DescribeError(err); d.Code != "input" || d.Line == nil || *d.Line != 1 || d.File == nil || *d.File != "sample/tabular/runs.jsonl" {
		t.Fatalf("error %+v", d)
	}
}
