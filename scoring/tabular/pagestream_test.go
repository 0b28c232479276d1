package tabular_test

import (
	"bytes"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/docscore/docscore/scoring/tabular"
	"github.com/docscore/docscore/scoring/tabular/tabularstream"
	"github.com/docscore/docscore/scoring/tabular/tabulartest"
)

// partSpool is a spool a host drains after each batch, as the page keeps
// the rows in a Blob of parts.
type partSpool struct{ bytes.Buffer }

func (p *partSpool) Contents() (io.Reader, error) { return &p.Buffer, nil }

// paged scores req as the page does: the runs file cut on line ends into
// parts of random sizes, scored by scorers BatchScorers taking the parts
// in turn, each part's results encoded and decoded, then taken in order
// by a Merger whose output and spool are drained after every part. The
// report is the parts put together: the output's, the head, the spool's,
// the tail.
func paged(req tabular.Request, format string, scorers int, seed uint64) ([]byte, error) {
	var out bytes.Buffer
	spool := &partSpool{}
	m, err := tabularstream.NewMerger(req, &out, tabularstream.StreamOptions{Format: format, Spool: func() (tabularstream.Spool, error) { return spool, nil }})
	if err != nil {
		return nil, err
	}
	var bss []*tabularstream.BatchScorer
	for range scorers {
		bs, err := tabularstream.NewBatchScorer(req, format, 64)
		if err != nil {
			return nil, err
		}
		bss = append(bss, bs)
	}
	var outParts, spoolParts []byte
	drain := func() {
		outParts = append(outParts, out.Bytes()...)
		out.Reset()
		spoolParts = append(spoolParts, spool.Bytes()...)
		spool.Reset()
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	data := req.Runs.Data
	line, k := 1, 0
	for len(data) > 0 {
		// Whole lines, from 1 to 40 of them.
		n, end := 1+rng.IntN(40), 0
		for ; n > 0 && end < len(data); n-- {
			i := bytes.IndexByte(data[end:], '\n')
			if i < 0 {
				end = len(data)
				break
			}
			end += i + 1
		}
		part := append([]byte(nil), data[:end]...)
		b := bss[k%len(bss)].ScoreLines(line, part)
		k++
		line += bytes.Count(part, []byte("\n"))
		data = data[end:]
		enc := b.Encode(nil)
		got, err := tabularstream.DecodeBatch(enc)
		if err != nil {
			return nil, err
		}
		if err := m.Take(got); err != nil {
			return nil, err
		}
		if err := m.Flush(); err != nil {
			return nil, err
		}
		drain()
	}
	mark := -1
	_, err = m.Finish(func(io.Writer) error {
		mark = out.Len()
		return nil
	})
	if err != nil {
		return nil, err
	}
	rest := out.Bytes()
	if mark < 0 {
		mark = len(rest)
	}
	report := append(outParts, rest[:mark]...)
	report = append(report, spoolParts...)
	return append(report, rest[mark:]...), nil
}

// TestDecodeBatchRefusesGarbage: bytes that are not an encoded batch, or
// one cut short at any byte, are an error, never a panic. The batch is
// rendered as CSV: DecodeBatch reads the rendered rows as one
// length-prefixed blob whatever the format, and the CSV rows (4 KB here)
// cross the same checks as the JSON rows (365 KB) in a 42nd of the cuts.
func TestDecodeBatchRefusesGarbage(t *testing.T) {
	c := tabulartest.New(tabulartest.Large(20, 3))
	var runs bytes.Buffer
	if _, err := c.WriteRuns(&runs, tabulartest.RunsOptions{Images: 20, BadLines: []int{5}, Responses: true}); err != nil {
		t.Fatal(err)
	}
	req := tabular.Request{GT: c.GT, Runs: tabular.File{Name: "runs.jsonl", Data: runs.Bytes()}}
	bs, err := tabularstream.NewBatchScorer(req, "csv", 0)
	if err != nil {
		t.Fatal(err)
	}
	enc := bs.ScoreLines(1, runs.Bytes()).Encode(nil)
	if b, err := tabularstream.DecodeBatch(enc); err != nil || b.Lines() != 21 {
		t.Fatalf("the whole batch: %v, %d lines; want 21", err, b.Lines())
	}
	for n := range len(enc) {
		if _, err := tabularstream.DecodeBatch(enc[:n]); err == nil {
			t.Fatalf("cut to %d of %d bytes: no error", n, len(enc))
		}
	}
	if _, err := tabularstream.DecodeBatch(append(enc, 0)); err == nil {
		t.Error("a byte after the batch: no error")
	}
}
