package pagetext

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"io"

	"github.com/docscore/docscore/scoring/internal/jsonout"
	"github.com/docscore/docscore/scoring/internal/linepipe"
)

// Spool holds the JSON rows a streamed scoring writes aside until the
// cells are known (linepipe.Spool: the command line's is a temporary
// file).
type Spool = linepipe.Spool

// StreamOptions tune StreamRuns.
type StreamOptions struct {
	// Format is the report's format: json (also ""), csv or md.
	Format string
	// Spool returns the storage of the JSON's rows; nil keeps them in
	// memory.
	Spool func() (Spool, error)
	// Progress, when set, is called with the number of lines read so far,
	// every 256 lines, from the goroutine that called StreamRuns.
	Progress func(lines int)
	// Tail, when set, gives what the JSON ends with instead of its "\n}\n"
	// (provenance.Tail: the provenance member, then the close), once the
	// runs are read.
	Tail func(*Report) ([]byte, error)
}

// StreamRuns scores a runs file as ScoreRuns does and writes the report
// to out in so.Format as it goes, byte for byte what the report's
// writers write, in memory that does not grow with the number of lines.
// Each line's row is written and dropped: the CSV's straight to out, the
// JSON's to the spool, since the JSON lists its cells (known at the end)
// before its pages; the Markdown has no rows. What is kept is a cell per
// (model, phase) with its distinct confusions, a sum per page and cell
// for the intervals, and about four bytes per line for the repeated-line
// check (ingest.RunKeys). The report returned has no Pages.
func StreamRuns(ctx Cancel, gt []Input, runsName string, runs io.Reader, opts ReportOptions, out io.Writer, so StreamOptions) (*Report, error) {
	s := NewScorer(opts.withCancel(ctx))
	var (
		spool Spool
		sw    *bufio.Writer
		rows  int
		cw    *csv.Writer
	)
	switch so.Format {
	case "", "json":
		var err error
		if spool, err = linepipe.NewSpool(so.Spool); err != nil {
			return nil, err
		}
		sw = bufio.NewWriterSize(spool, 64<<10)
		s.onRow = func(r *Row) error {
			b, err := jsonout.Marshal(r)
			if err != nil {
				return err
			}
			if rows > 0 {
				sw.WriteString(",")
			}
			rows++
			return writeElement(sw, b)
		}
	case "csv":
		cw = csv.NewWriter(out)
		if err := cw.Write(CSVHeader); err != nil {
			return nil, err
		}
		s.onRow = func(r *Row) error {
			cw.Write(csvRecord(r))
			return cw.Error()
		}
	case "md":
		s.onRow = func(*Row) error { return nil }
	default:
		return nil, errors.New("pagetext: unknown format " + so.Format)
	}
	if err := s.addRuns(ctx, gt, runsName, runs, so.Progress); err != nil {
		return nil, err
	}
	rep, err := s.Report()
	if err != nil {
		return nil, err
	}
	rep.Pages = nil
	switch {
	case cw != nil:
		cw.Flush()
		return rep, cw.Error()
	case sw == nil:
		return rep, rep.WriteMarkdown(out)
	}
	if err := sw.Flush(); err != nil {
		return nil, err
	}
	rep.Pages = []Row{}
	b, err := jsonout.Marshal(rep)
	rep.Pages = nil
	if err != nil {
		return nil, err
	}
	// The report without rows has "pages": []; the rows go between the
	// brackets, each as Marshal writes an element of the array.
	const empty = "\n  \"pages\": [],\n"
	at := bytes.Index(b, []byte(empty))
	if at < 0 {
		return nil, errors.New("pagetext: no pages member in the report's JSON")
	}
	head, rest := b[:at+len(empty)-3], b[at+len(empty)-3:]
	if so.Tail != nil {
		tail, err := so.Tail(rep)
		if err != nil {
			return nil, err
		}
		rest = append(bytes.TrimSuffix(rest, []byte("\n}\n")), tail...)
	}
	if _, err := out.Write(head); err != nil {
		return nil, err
	}
	if rows > 0 {
		r, err := spool.Contents()
		if err != nil {
			return nil, err
		}
		if _, err := io.Copy(out, r); err != nil {
			return nil, err
		}
		if _, err := io.WriteString(out, "\n  "); err != nil {
			return nil, err
		}
	}
	_, err = out.Write(rest)
	return rep, err
}

// writeElement writes a value Marshal wrote (with its final newline) as
// an element of the report's pages array: on a new line, every line
// indented by four more spaces.
func writeElement(w *bufio.Writer, b []byte) error {
	b = bytes.TrimSuffix(b, []byte("\n"))
	w.WriteString("\n    ")
	_, err := w.Write(bytes.ReplaceAll(b, []byte("\n"), []byte("\n    ")))
	return err
}
