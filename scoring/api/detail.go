package api

import "github.com/docscore/docscore/scoring/tabular"

// TabularDetailRequest asks for the drill-down of one image: the scoring
// request (its format is not used) and the image's line in the runs file,
// as the report's images give it.
type TabularDetailRequest struct {
	TabularRequest
	Line int `json:"line"`
}

// TabularDetail returns the drill-down of one image: its pairs with both
// sides' field values and their differences, its misses and its extras,
// scored exactly as ScoreTabular scores that image.
func TabularDetail(req TabularDetailRequest) (*tabular.ImageDetail, error) {
	return tabular.Detail(req.TabularRequest.tabular(), req.Line)
}

// tabular converts the request into the core's request.
func (req TabularRequest) tabular() tabular.Request {
	treq := tabular.Request{Runs: req.Runs.tabular(), Rules: optFile(req.Rules), Schema: optFile(req.Schema),
		Gate: req.Gate, Preview: req.Preview, SkipBadLines: req.SkipBadLines}
	for _, f := range req.GT {
		treq.GT = append(treq.GT, f.tabular())
	}
	return treq
}
