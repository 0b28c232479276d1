package api

// The page scores a large runs file in parts, in a pool of Web Workers
// (site/js/pool.js), each its own Go instance: every worker holds a
// StreamScorer and scores the parts it is sent; one worker holds a
// StreamMerger and takes the parts' results in input order. The report
// they give is byte for byte that of ScoreTabularOperation (tabular's
// BatchScorer and Merger are the halves of tabularstream.Stream).

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"

	"github.com/docscore/docscore/scoring/internal/jsonout"
	"github.com/docscore/docscore/scoring/provenance"
	"github.com/docscore/docscore/scoring/tabular"
	"github.com/docscore/docscore/scoring/tabular/tabularreport"
	"github.com/docscore/docscore/scoring/tabular/tabularstream"
)

// streamRequest checks req as ScoreTabularOperation does and returns the
// scoring request (its runs file's text is not read).
func streamRequest(req *TabularRequest) (tabular.Request, error) {
	if err := ScoreTabularOperation().Check(NoCancel, req); err != nil {
		return tabular.Request{}, err
	}
	return req.tabular()
}

// StreamFormat is the page's format of a streamed scoring: "summary" for
// the summary the page shows, or the report's format (json, csv, md).
func streamFormat(req *TabularRequest, summary bool) string {
	if summary {
		return "summary"
	}
	if req.Format == "" {
		return "json"
	}
	return req.Format
}

// StreamScorer scores parts of a runs file for a StreamMerger.
type StreamScorer struct{ bs *tabularstream.BatchScorer }

// NewStreamScorer prepares the scoring of req's runs lines for a report
// in req.Format, or for the page's summary; the runs file's text is not
// read. An error of the ground truth or the rule file is the merger's to
// report: the lines are then only checked.
func NewStreamScorer(req *TabularRequest, summary bool) (*StreamScorer, error) {
	treq, err := streamRequest(req)
	if err != nil {
		return nil, err
	}
	bs, err := tabularstream.NewBatchScorer(treq, streamFormat(req, summary), 0)
	if err != nil {
		return nil, err
	}
	return &StreamScorer{bs: bs}, nil
}

// Score scores the whole lines of data, the first of which is line first
// of the runs file, and returns their results encoded for
// StreamMerger.Take.
func (s *StreamScorer) Score(first int, data []byte) []byte {
	return s.bs.ScoreLines(first, data).Encode(nil)
}

// StreamMerger takes the results of the parts of a runs file in input
// order.
type StreamMerger struct {
	req     TabularRequest
	summary bool
	m       *tabularstream.Merger
	out     bytes.Buffer
	spool   partSpool
	images  []byte // the images taken since the last Take's answer: "[" and rows, each ending in ","
	err     error  // the scoring's error, once one stopped it
	// runs describes the runs file as the host hands its bytes over
	// (Hash), for a JSON report's provenance (SPEC F.8).
	runs *provenance.Hash
}

// partSpool is a spool the merger empties after each part: the page
// keeps the rows.
type partSpool struct{ bytes.Buffer }

func (p *partSpool) Contents() (io.Reader, error) { return &p.Buffer, nil }

// NewStreamMerger starts the in-order half of req's scoring, for the
// page's summary or for the report in req.Format.
func NewStreamMerger(req *TabularRequest, summary bool) (*StreamMerger, error) {
	treq, err := streamRequest(req)
	if err != nil {
		return nil, err
	}
	sm := &StreamMerger{req: keep(req), summary: summary, images: []byte{'['}, runs: provenance.NewHash("runs", req.Runs.Name)}
	o := tabularstream.StreamOptions{Format: streamFormat(req, summary), Spool: func() (tabularstream.Spool, error) { return &sm.spool, nil }}
	if summary {
		o.Image = sm.image
	}
	if sm.m, err = tabularstream.NewMerger(treq, &sm.out, o); err != nil {
		return nil, err
	}
	return sm, nil
}

// image lists an image of the page's table, in the order of its columns
// (site/js/streamview.js): line, model, phase, run (as given), page, ok
// (1 or 0), matched, n_model, n_gt, f1, failure.
func (sm *StreamMerger) image(im *tabularreport.ImageScore) {
	b := strconv.AppendInt(append(sm.images, '['), int64(im.Line), 10)
	b = append(b, ',')
	b = jsonout.AppendString(b, im.Model)
	b = append(b, ',')
	b = jsonout.AppendString(b, im.Phase)
	b = append(b, ',')
	b = append(b, im.Run...)
	b = append(b, ',')
	b = jsonout.AppendString(b, im.Page)
	ok := "0"
	if im.Status == "ok" {
		ok = "1"
	}
	b = append(b, ',')
	b = append(b, ok...)
	for _, n := range []int{im.Matched, im.NModel, im.NGT} {
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(n), 10)
	}
	b = append(b, ',')
	b = jsonout.AppendFloat(b, im.F1)
	b = append(b, ',')
	b = jsonout.AppendString(b, im.Failure)
	sm.images = append(b, ']', ',')
}

// Take takes the next part's results (StreamScorer.Score's bytes) and
// answers, as three sections each of a 4-byte little-endian length and
// its bytes: the images it added to the page's table (a JSON array;
// summary only), then the report's bytes it wrote to the output (the
// CSV's rows) and to the spool (the JSON's image rows, the Markdown's
// failed images), which the host keeps in order. After an error (a bad
// line not skipped, a repeated image) the scoring is stopped: Take
// answers an empty array and Stopped is true; Finish reports the error.
func (sm *StreamMerger) Take(results []byte) ([]byte, error) {
	if sm.err == nil {
		b, err := tabularstream.DecodeBatch(results)
		if err != nil {
			return nil, err
		}
		if sm.err = sm.m.Take(b); sm.err == nil {
			sm.err = sm.m.Flush()
		}
	}
	imgs := append(bytes.TrimSuffix(sm.images, []byte(",")), ']')
	if sm.err != nil {
		imgs = []byte("[]")
	}
	out := sections(imgs, sm.out.Bytes(), sm.spool.Bytes())
	sm.out.Reset()
	sm.spool.Reset()
	sm.images = append(sm.images[:0], '[')
	return out, nil
}

// Hash takes the next bytes of the runs file, in file order, for the
// provenance of a JSON report (SPEC F.8): the host hands over every byte
// it read, the whole file, before Finish. The page reads the file once.
func (sm *StreamMerger) Hash(data []byte) { sm.runs.Write(data) }

// Stopped reports whether an error stopped the scoring: the host reads
// no more of the file and calls Finish.
func (sm *StreamMerger) Stopped() bool { return sm.err != nil }

// Images is the number of images taken.
func (sm *StreamMerger) Images() int { return sm.m.Images() }

// Finish ends the scoring after the last part. For the summary it
// answers DropTabular's JSON (the rule file's check, and the error or
// the report's summary, whose images are null: the page has them from
// Take). For a report it answers two sections: the bytes that go before
// the spool's, and those after (the host's report is the output's parts,
// the first section, the spool's parts, the second section); an error is
// the call's.
func (sm *StreamMerger) Finish() ([]byte, error) {
	var rep *tabularreport.Report
	err := sm.err
	mark := -1
	if err == nil {
		rep, err = sm.m.Finish(func(io.Writer) error {
			mark = sm.out.Len()
			return nil
		})
	}
	if !sm.summary {
		if err != nil {
			return nil, err
		}
		b := sm.out.Bytes()
		if mark < 0 {
			mark = len(b)
		}
		after := b[mark:]
		if f := streamFormat(&sm.req, false); f == "json" && ScoreTabularOperation().Provenance {
			sm.req.leftOut = leftOut(rep)
			if after, err = sm.stamp(after); err != nil {
				return nil, err
			}
		}
		return sections(b[:mark], after), nil
	}
	var check any
	if sm.req.Rules != nil {
		check = rulesCheckAnswer(&sm.req)
	}
	return dropAnswer(check, rep, err)
}

// stamp ends a JSON report's last bytes in its provenance, the runs
// file described by the bytes Hash took.
func (sm *StreamMerger) stamp(last []byte) ([]byte, error) {
	body, ok := bytes.CutSuffix(last, []byte("\n}\n"))
	if !ok {
		return nil, fmt.Errorf("provenance: the streamed report does not end in an indented JSON object's close")
	}
	p, err := ScoreTabularOperation().StreamedProvenance(&sm.req, &sm.req.Runs, sm.runs.Input())
	if err != nil {
		return nil, err
	}
	tail, err := provenance.Tail(p)
	if err != nil {
		return nil, err
	}
	return append(body[:len(body):len(body)], tail...), nil
}

// sections puts byte strings one after the other, each after its length
// (4 bytes, little-endian).
func sections(parts ...[]byte) []byte {
	n := 0
	for _, p := range parts {
		n += 4 + len(p)
	}
	out := make([]byte, 0, n)
	for _, p := range parts {
		out = binary.LittleEndian.AppendUint32(out, uint32(len(p)))
		out = append(out, p...)
	}
	return out
}
