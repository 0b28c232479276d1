package api

import (
	"strings"

	"github.com/docscore/docscore/scoring/provenance"
	"github.com/docscore/docscore/scoring/tabular"
	"github.com/docscore/docscore/scoring/tabular/tabularreport"
)

// ProvenanceOptions are the tabular scoring's options that change
// numbers, as they take effect (defaults included), so that the command
// line, which gives every option, and a page or API request, which
// leaves the defaults out, record the same provenance (SPEC F.8): the
// gate, the preview, what is skipped, the interval level, α and the
// effect. A skip option is recorded as given only when the scoring left
// something out (it changed no number otherwise): the page, which skips
// bad inputs unless told not to, and the command line, which does not
// unless told to, write the same bytes for valid inputs, and verify
// re-runs a report that left something out with the skip it had.
func (req *TabularRequest) ProvenanceOptions() []provenance.Option {
	gate := tabular.DefaultGate
	if req.Gate != nil && *req.Gate != 0 {
		gate = *req.Gate
	}
	iv := req.intervals()
	return []provenance.Option{Option("gate", gate), Option("preview", req.Preview),
		Option("skip_bad_lines", req.SkipBadLines && req.leftOut), Option("skip_bad_inputs", req.SkipBadInputs && req.leftOut),
		Option("ci_level", iv.CILevel), Option("alpha", iv.Alpha), Option("effect", iv.Effect)}
}

// Draws are the seed, bootstrap replicates and permutations the scoring
// uses, defaults included (SPEC F.8).
func (req *TabularRequest) Draws() (uint64, int, int) {
	iv := req.intervals()
	return iv.Seed, iv.Bootstrap, iv.Permutations
}

// StreamedProvenance is the provenance of the operation's answer to req
// whose file *streamed was not held but read as a stream through the
// scorer: in is that file as it went through (provenance.Hash), in the
// place the file holds among the request's inputs, so that the bytes are
// those of the operation given the whole file.
func (o Operation) StreamedProvenance(req Request, streamed *File, in provenance.Input) (*provenance.Provenance, error) {
	return o.provenanceOf(req, map[*File]provenance.Input{streamed: in})
}

// leftOut reports whether a scoring left anything out: a ground-truth
// file, a rule row or a runs line (SkipBadInputs), or a runs line skipped
// (SkipBadLines; its warning starts "skipped: ").
func leftOut(rep *tabularreport.Report) bool {
	if len(rep.LeftOut) > 0 {
		return true
	}
	for _, w := range rep.Warnings {
		if strings.HasPrefix(w, "skipped: ") {
			return true
		}
	}
	return false
}
