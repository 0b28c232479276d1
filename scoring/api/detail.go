package api

import (
	"github.com/docscore/docscore/scoring/param"
	"github.com/docscore/docscore/scoring/tabular"
)

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
	treq, err := req.TabularRequest.tabular()
	if err != nil {
		return nil, err
	}
	return tabular.Detail(treq, req.Line)
}

// CheckGate applies the rule every host shares: a gate left out means
// the default, a gate given must be a similarity in (0, 1] (0, NaN and
// the infinities are refused). The error names the parameter "gate".
func (req TabularRequest) CheckGate() error {
	if req.Gate == nil {
		return nil
	}
	return param.Float("gate", *req.Gate, param.Gate)
}

// tabular converts the request into the core's request, checking its
// gate.
func (req TabularRequest) tabular() (tabular.Request, error) {
	if err := req.CheckGate(); err != nil {
		return tabular.Request{}, err
	}
	treq := tabular.Request{Runs: req.Runs.tabular(), Rules: optFile(req.Rules), Schema: optFile(req.Schema),
		Preview: req.Preview, SkipBadLines: req.SkipBadLines, SkipBadInputs: req.SkipBadInputs, Intervals: req.intervals()}
	if req.Gate != nil {
		treq.Gate = *req.Gate
	}
	for _, f := range req.GT {
		treq.GT = append(treq.GT, f.tabular())
	}
	return treq, nil
}
