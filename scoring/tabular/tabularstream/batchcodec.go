package tabularstream

// A batch's results cross from one Web Worker (a BatchScorer) to another
// (the Merger) as bytes: Encode writes what Merger.Take reads of each
// line (its error, or its image's key and, when scored, its sums, exact
// to the bit) and the rows the batch rendered; DecodeBatch reads them
// back. Nothing else of a line is kept.

import (
	"encoding/binary"
	"errors"
	"math"

	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/tabular/tabularread"
	"github.com/docscore/docscore/scoring/tabular/tabularreport"
)

// batchMagic starts an encoded batch (and names its version).
const batchMagic = "DSB2" // 2: a bad line's error carries its source line

// The kinds of an encoded line.
const (
	lineErr     = 1 // a bad line: its input error
	lineStopped = 2 // the scoring stopped (cancelled) at it
	lineImage   = 3 // an image not scored: missing page, or only checked
	lineScored  = 4 // a scored image
)

// Lines is the number of non-blank lines the batch holds.
func (b *Batch) Lines() int { return len(b.results) }

// Encode appends the batch's results to dst.
func (b *Batch) Encode(dst []byte) []byte {
	dst = append(dst, batchMagic...)
	dst = binary.AppendUvarint(dst, uint64(len(b.results)))
	str := func(s string) {
		dst = binary.AppendUvarint(dst, uint64(len(s)))
		dst = append(dst, s...)
	}
	num := func(n int) { dst = binary.AppendVarint(dst, int64(n)) }
	flt := func(f float64) { dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(f)) }
	for i := range b.results {
		r := &b.results[i]
		switch {
		case r.stopped != nil:
			dst = append(dst, lineStopped)
			str(r.stopped.Error())
		case r.err != nil:
			dst = append(dst, lineErr)
			str(r.err.File)
			num(r.err.Line)
			num(r.err.Column)
			str(r.err.Msg)
			str(r.err.Source)
		case r.score == nil:
			dst = append(dst, lineImage)
			missing := byte(0)
			if r.missing {
				missing = 1
			}
			dst = append(dst, missing)
			num(r.im.Line)
			str(r.im.Model)
			str(r.im.Phase)
			str(string(r.im.Run))
			str(r.im.Page)
		default:
			im := r.score
			dst = append(dst, lineScored)
			num(im.Line)
			str(im.Model)
			str(im.Phase)
			str(string(im.Run))
			str(im.Page)
			str(im.Status)
			str(im.Failure)
			num(im.Matched)
			num(im.NModel)
			num(im.NGT)
			flt(im.Precision)
			flt(im.Recall)
			flt(im.F1)
			num(im.NameEdits)
			num(im.NameRefChars)
			num(len(im.Fields))
			for _, f := range im.Fields {
				str(f.Name)
				flt(f.Sum)
				num(f.Scored)
			}
			num(r.row[0])
			num(r.row[1])
		}
	}
	dst = binary.AppendUvarint(dst, uint64(b.rows.Len()))
	return append(dst, b.rows.Bytes()...)
}

// errBatch is the error of bytes that are not an encoded batch.
var errBatch = errors.New("tabular: not an encoded batch of runs lines")

// batchReader reads an encoded batch; the first problem sticks.
type batchReader struct {
	b   []byte
	bad bool
}

func (r *batchReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.bad, r.b = true, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *batchReader) num() int {
	v, n := binary.Varint(r.b)
	if n <= 0 || v > math.MaxInt32 || v < math.MinInt32 {
		r.bad, r.b = true, nil
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

func (r *batchReader) bytes() []byte {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.bad, r.b = true, nil
		return nil
	}
	s := r.b[:n:n]
	r.b = r.b[n:]
	return s
}

func (r *batchReader) str() string { return string(r.bytes()) }

func (r *batchReader) byte1() byte {
	if len(r.b) == 0 {
		r.bad = true
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *batchReader) flt() float64 {
	if len(r.b) < 8 {
		r.bad, r.b = true, nil
		return 0
	}
	f := math.Float64frombits(binary.LittleEndian.Uint64(r.b))
	r.b = r.b[8:]
	return f
}

// DecodeBatch reads a batch Encode wrote, for Merger.Take.
func DecodeBatch(data []byte) (*Batch, error) {
	if len(data) < len(batchMagic) || string(data[:len(batchMagic)]) != batchMagic {
		return nil, errBatch
	}
	r := &batchReader{b: data[len(batchMagic):]}
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		return nil, errBatch
	}
	b := &Batch{results: make([]lineResult, n)}
	for i := range b.results {
		lr := &b.results[i]
		switch r.byte1() {
		case lineStopped:
			lr.stopped = errors.New(r.str())
		case lineErr:
			lr.err = &inputerr.Error{File: r.str(), Line: r.num(), Column: r.num(), Msg: r.str(), Source: r.str()}
		case lineImage:
			lr.missing = r.byte1() == 1
			lr.im = &tabularread.Image{Line: r.num(), Model: r.str(), Phase: r.str(), Run: r.bytes(), Page: r.str()}
		case lineScored:
			im := &tabularreport.ImageScore{Line: r.num(), Model: r.str(), Phase: r.str(), Run: r.bytes(), Page: r.str(), Status: r.str(), Failure: r.str(),
				Matched: r.num(), NModel: r.num(), NGT: r.num(), Precision: r.flt(), Recall: r.flt(), F1: r.flt(),
				NameEdits: r.num(), NameRefChars: r.num()}
			nf := r.num()
			if nf < 0 || nf > len(r.b) {
				return nil, errBatch
			}
			im.Fields = make(tabularreport.FieldSums, nf)
			for j := range im.Fields {
				im.Fields[j] = tabularreport.FieldSum{Name: r.str(), Sum: r.flt(), Scored: r.num()}
			}
			lr.row = [2]int{r.num(), r.num()}
			lr.score = im
			lr.im = &tabularread.Image{Line: im.Line, Model: im.Model, Phase: im.Phase, Run: im.Run, Page: im.Page, Status: im.Status, Failure: im.Failure}
		default:
			return nil, errBatch
		}
		if r.bad {
			return nil, errBatch
		}
	}
	rows := r.bytes()
	if r.bad || len(r.b) != 0 {
		return nil, errBatch
	}
	b.rows.Write(rows)
	for i := range b.results {
		if rw := b.results[i].row; rw[0] < 0 || rw[0] > rw[1] || rw[1] > len(rows) {
			return nil, errBatch
		}
	}
	return b, nil
}
