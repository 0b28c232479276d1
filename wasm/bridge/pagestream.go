package bridge

import (
	"github.com/docscore/docscore/scoring/api"
)

// StreamMethods are the methods of the page's streamed scoring of a
// large runs file (site/js/pool.js): each worker of the page's pool
// scores parts of the file (streamScore), and one worker takes their
// results in input order (streamTake) into the summary or the report
// (streamFinish). A dispatcher holds at most one scorer and one merger:
// streamStart replaces them.
//
//	streamStart  {TabularRequest…, "summary": bool, "role": "scorer"|"merger"} → {}
//	streamScore  {"first": line} + bytes (whole lines) → raw: the results
//	streamTake   bytes (streamScore's results) → raw: api.StreamMerger.Take's sections, and a fourth: 1 when stopped
//	streamHash   bytes (the runs file's next bytes, in order) → {}: for a JSON report's provenance
//	streamFinish {} → raw: api.StreamMerger.Finish's answer
func StreamMethods() map[string]Method {
	var scorer *api.StreamScorer
	var merger *api.StreamMerger
	return map[string]Method{
		"streamStart": func(r Request) (any, error) {
			var req streamStartRequest
			if err := Decode("streamStart", r, &req); err != nil {
				return nil, err
			}
			var err error
			switch req.Role {
			case "scorer":
				scorer = nil
				scorer, err = api.NewStreamScorer(&req.TabularRequest, req.Summary)
			case "merger":
				merger = nil
				merger, err = api.NewStreamMerger(&req.TabularRequest, req.Summary)
			default:
				return nil, api.Paramf("role", "%q: expected scorer or merger", req.Role)
			}
			if err != nil {
				return nil, err
			}
			return struct{}{}, nil
		},
		"streamScore": func(r Request) (any, error) {
			var req struct {
				First int `json:"first"`
			}
			if err := Decode("streamScore", r, &req); err != nil {
				return nil, err
			}
			if scorer == nil {
				return nil, api.Paramf("streamScore", "no scorer: call streamStart first")
			}
			return Raw(scorer.Score(req.First, r.Bytes)), nil
		},
		"streamTake": func(r Request) (any, error) {
			if merger == nil {
				return nil, api.Paramf("streamTake", "no merger: call streamStart first")
			}
			out, err := merger.Take(r.Bytes)
			if err != nil {
				return nil, err
			}
			stopped := byte(0)
			if merger.Stopped() {
				stopped = 1
			}
			return Raw(append(out, 1, 0, 0, 0, stopped)), nil
		},
		"streamHash": func(r Request) (any, error) {
			if merger == nil {
				return nil, api.Paramf("streamHash", "no merger: call streamStart first")
			}
			merger.Hash(r.Bytes)
			return struct{}{}, nil
		},
		"streamFinish": func(r Request) (any, error) {
			if merger == nil {
				return nil, api.Paramf("streamFinish", "no merger: call streamStart first")
			}
			m := merger
			merger = nil
			out, err := m.Finish()
			if err != nil {
				return nil, err
			}
			return Raw(out), nil
		},
	}
}

// streamStartRequest starts a streamed scoring's scorer or merger.
type streamStartRequest struct {
	api.TabularRequest
	Summary bool   `json:"summary"`
	Role    string `json:"role"`
}
