package api

import (
	"io"

	"github.com/docscore/docscore/scoring/provenance"
	"github.com/docscore/docscore/scoring/tabular/tabularreport"
	"github.com/docscore/docscore/scoring/tabular/tabularstream"
)

// StreamTabular is ScoreTabularOperation for a native host that reads
// the runs file as a stream (req.Runs.Text is not read; req.Runs.Name
// names it): the same checks, then tabularstream.Stream, which writes the
// report to out in req.Format, the operation's bytes, in memory that
// does not grow with the number of images. A preview is not streamed:
// run the operation. A JSON report ends in its provenance (SPEC F.8),
// the runs file described by the bytes read from runs.
func StreamTabular(ctx Cancel, req *TabularRequest, runs io.Reader, out io.Writer, o tabularstream.StreamOptions) (*tabularreport.Report, error) {
	if err := ScoreTabularOperation().Check(ctx, req); err != nil {
		return nil, err
	}
	treq, err := req.tabular()
	if err != nil {
		return nil, err
	}
	o.Format = req.Format
	if !ScoreTabularOperation().Provenance || (o.Format != "" && o.Format != "json") {
		return tabularstream.Stream(ctx, treq, runs, out, o)
	}
	// A JSON report carries its provenance (SPEC F.8): the runs file is
	// hashed as it is read, and the report's close held back for it.
	h := provenance.NewHash("runs", req.Runs.Name)
	tw := provenance.NewTailWriter(out)
	hashed := h.Reader(runs)
	rep, err := tabularstream.Stream(ctx, treq, hashed, tw, o)
	if err != nil {
		return nil, err
	}
	// The rest of the file, if the scorer stopped before its end.
	if _, err := io.Copy(io.Discard, hashed); err != nil {
		return nil, err
	}
	req.leftOut = leftOut(rep)
	p, err := ScoreTabularOperation().StreamedProvenance(req, &req.Runs, h.Input())
	if err != nil {
		return nil, err
	}
	return rep, tw.Finish(p)
}
