package api

import (
	"io"

	"github.com/docscore/docscore/scoring/tabular/tabularreport"
	"github.com/docscore/docscore/scoring/tabular/tabularstream"
)

// StreamTabular is ScoreTabularOperation for a native host that reads
// the runs file as a stream (req.Runs.Text is not read; req.Runs.Name
// names it): the same checks, then tabular.Stream, which writes the
// report to out in req.Format, the operation's bytes, in memory that
// does not grow with the number of images. A preview is not streamed:
// run the operation.
func StreamTabular(ctx Cancel, req *TabularRequest, runs io.Reader, out io.Writer, o tabularstream.StreamOptions) (*tabularreport.Report, error) {
	if err := ScoreTabularOperation.Check(ctx, req); err != nil {
		return nil, err
	}
	treq, err := req.tabular()
	if err != nil {
		return nil, err
	}
	o.Format = req.Format
	return tabularstream.Stream(ctx, treq, runs, out, o)
}
