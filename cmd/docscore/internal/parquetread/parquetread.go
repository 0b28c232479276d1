// Package parquetread reads the byte-array columns of flat parquet files
// (no repeated fields), as the Hugging Face cord-v2 files hold their
// receipts: a row at a time, a page of each column in memory.
//
// It reads data pages v1 and v2, PLAIN and dictionary encodings, and
// pages stored uncompressed, snappy or gzip. It replaces parquet-go in
// the docscore binary, whose 86 packages' initialisation (a random seed
// from the system, compression tables, protobuf registries) took about
// 1 ms of every command's start, a sixth of "docscore --version" (issue
// 34); the tests check it against parquet-go on files parquet-go writes.
package parquetread

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Parquet's physical type, repetition, codec, page and encoding ids.
const (
	typeByteArray = 6

	repRequired = 0
	repOptional = 1
	repRepeated = 2

	codecNone   = 0
	codecSnappy = 1
	codecGzip   = 2

	pageData       = 0
	pageDictionary = 2
	pageDataV2     = 3

	encPlain          = 0
	encPlainDict      = 2
	encRLE            = 3
	encDeltaLength    = 6
	encRLEDict        = 8
	maxPageBytes      = 1 << 30 // the largest page read (decompressed)
	firstHeaderBytes  = 1 << 12 // a page header's first read; grown when cut short
	maxPageHeaderSize = 1 << 24
)

// File is an open parquet file.
type File struct {
	r       io.ReaderAt
	size    int64
	columns []column
	groups  []rowGroup
	rows    int64
}

// column is a leaf of the schema.
type column struct {
	path   []string
	typ    int64
	maxDef int
}

type rowGroup struct {
	rows   int64
	chunks []chunk // by leaf column
}

type chunk struct {
	codec      int64
	start, end int64 // the column chunk's pages
	values     int64
}

// Open reads the footer of the parquet file r of size bytes.
func Open(r io.ReaderAt, size int64) (*File, error) {
	if size < 12 {
		return nil, errors.New("too short for a parquet file")
	}
	tail := make([]byte, 8)
	if _, err := r.ReadAt(tail, size-8); err != nil {
		return nil, err
	}
	if string(tail[4:]) != "PAR1" {
		return nil, errors.New("no PAR1 magic at the end")
	}
	n := int64(binary.LittleEndian.Uint32(tail))
	if n > size-12 {
		return nil, fmt.Errorf("footer of %d bytes in a file of %d", n, size)
	}
	meta := make([]byte, n)
	if _, err := r.ReadAt(meta, size-8-n); err != nil {
		return nil, err
	}
	d := tdecoder{buf: meta}
	fm, err := d.structValue(0)
	if err != nil {
		return nil, fmt.Errorf("footer: %w", err)
	}
	f := &File{r: r, size: size}
	if err := f.readSchema(fm); err != nil {
		return nil, err
	}
	if err := f.readRowGroups(fm); err != nil {
		return nil, err
	}
	return f, nil
}

// readSchema flattens the footer's schema (field 2) into leaf columns.
func (f *File) readSchema(fm tvalue) error {
	s, _ := fm.field(2)
	elems := s.list
	if len(elems) == 0 {
		return errors.New("footer: no schema")
	}
	i := 1 // elems[0] is the root
	var walk func(path []string, def, children int) error
	walk = func(path []string, def, children int) error {
		for c := 0; c < children; c++ {
			if i >= len(elems) {
				return errors.New("footer: schema cut short")
			}
			e := elems[i]
			i++
			name, _ := e.field(4)
			p := append(path[:len(path):len(path)], string(name.b))
			d := def
			switch e.int(3, repRequired) {
			case repOptional:
				d++
			case repRepeated:
				return fmt.Errorf("column %s is repeated: only flat files (structs, no lists) are read", strings.Join(p, "."))
			}
			if nc := e.int(5, 0); nc > 0 {
				if nc > int64(len(elems)) {
					return errors.New("footer: schema cut short")
				}
				if err := walk(p, d, int(nc)); err != nil {
					return err
				}
				continue
			}
			f.columns = append(f.columns, column{path: p, typ: e.int(1, -1), maxDef: d})
		}
		return nil
	}
	root := elems[0].int(5, 0)
	if root < 0 || root > int64(len(elems)) {
		return errors.New("footer: schema cut short")
	}
	if err := walk(nil, 0, int(root)); err != nil {
		return err
	}
	if i != len(elems) {
		return errors.New("footer: schema elements left over")
	}
	return nil
}

// readRowGroups reads the row groups' column chunks (field 4).
func (f *File) readRowGroups(fm tvalue) error {
	rgs, _ := fm.field(4)
	for g, rg := range rgs.list {
		cols, _ := rg.field(1)
		rows := rg.int(3, -1)
		if rows < 0 {
			return fmt.Errorf("row group %d: no row count", g)
		}
		// Every row of a cord-v2 file holds an annotation of hundreds of
		// bytes: more rows than bytes is a forged count, whose rows
		// would be made from nothing.
		if f.rows += rows; f.rows > f.size {
			return fmt.Errorf("%d rows claimed in a file of %d bytes", f.rows, f.size)
		}
		if len(cols.list) != len(f.columns) {
			return fmt.Errorf("row group %d: %d column chunks for %d columns", g, len(cols.list), len(f.columns))
		}
		group := rowGroup{rows: rows}
		for c, cc := range cols.list {
			md, ok := cc.field(3)
			if !ok {
				return fmt.Errorf("row group %d, column %s: no metadata", g, f.name(c))
			}
			start := md.int(9, -1)
			if dict := md.int(11, -1); dict > 0 && dict < start {
				start = dict
			}
			length := md.int(7, -1)
			if start < 4 || length < 0 || start > f.size || length > f.size-start {
				return fmt.Errorf("row group %d, column %s: pages outside the file", g, f.name(c))
			}
			group.chunks = append(group.chunks, chunk{codec: md.int(4, 0), start: start, end: start + length, values: md.int(5, -1)})
		}
		f.groups = append(f.groups, group)
	}
	return nil
}

func (f *File) name(c int) string { return strings.Join(f.columns[c].path, ".") }

// Columns returns the path of every leaf column, in schema order.
func (f *File) Columns() [][]string {
	out := make([][]string, len(f.columns))
	for i, c := range f.columns {
		out[i] = c.path
	}
	return out
}

// Lookup returns the index of the leaf column at path, and whether there
// is one.
func (f *File) Lookup(path ...string) (int, bool) {
	for i, c := range f.columns {
		if strings.Join(c.path, "\x00") == strings.Join(path, "\x00") {
			return i, true
		}
	}
	return -1, false
}

// NumRows is the row count the footer gives.
func (f *File) NumRows() int64 { return f.rows }

// Value is one cell: its bytes, or Null.
type Value struct {
	Bytes []byte
	Null  bool
}

// Rows calls fn for every row, in file order, with the values of the
// columns cols (indices from Lookup), in that order. The values' bytes
// are only valid during the call. An error from fn stops the read and is
// returned as is; a malformed file gives a *RowError.
func (f *File) Rows(cols []int, fn func(row int64, values []Value) error) error {
	for _, c := range cols {
		if c < 0 || c >= len(f.columns) {
			return fmt.Errorf("column %d out of range", c)
		}
		if f.columns[c].typ != typeByteArray {
			return fmt.Errorf("column %s is not a byte array", f.name(c))
		}
	}
	var row int64
	values := make([]Value, len(cols))
	for _, g := range f.groups {
		readers := make([]*columnReader, len(cols))
		for i, c := range cols {
			readers[i] = &columnReader{f: f, col: f.columns[c], name: f.name(c), chunk: g.chunks[c], pos: g.chunks[c].start, left: g.rows}
		}
		for r := int64(0); r < g.rows; r++ {
			for i, cr := range readers {
				v, err := cr.next()
				if err != nil {
					return &RowError{Row: row, Err: err}
				}
				values[i] = v
			}
			if err := fn(row, values); err != nil {
				return err
			}
			row++
		}
	}
	return nil
}

// RowError is a malformed page met at a row.
type RowError struct {
	Row int64 // 0-based in the file
	Err error
}

func (e *RowError) Error() string { return fmt.Sprintf("row %d: %v", e.Row, e.Err) }
func (e *RowError) Unwrap() error { return e.Err }

// columnReader hands out one column chunk's values a page at a time.
type columnReader struct {
	f     *File
	col   column
	name  string
	chunk chunk
	pos   int64 // the next page header
	left  int64 // values still to read in the row group
	dict  [][]byte

	// the current data page
	inPage  int64 // its values (nulls included) not yet handed out
	defs    hybrid
	plain   []byte // PLAIN values still to read
	isDict  bool
	indices hybrid
	lengths []int64 // DELTA_LENGTH_BYTE_ARRAY's lengths still to use
	isDelta bool
}

func (cr *columnReader) next() (Value, error) {
	for cr.inPage == 0 {
		if err := cr.readPage(); err != nil {
			return Value{}, fmt.Errorf("column %s: %w", cr.name, err)
		}
	}
	cr.inPage--
	cr.left--
	if cr.col.maxDef > 0 {
		d, err := cr.defs.next()
		if err != nil {
			return Value{}, fmt.Errorf("column %s: definition levels: %w", cr.name, err)
		}
		if int(d) < cr.col.maxDef {
			return Value{Null: true}, nil
		}
	}
	if cr.isDict {
		i, err := cr.indices.next()
		if err != nil {
			return Value{}, fmt.Errorf("column %s: dictionary indices: %w", cr.name, err)
		}
		if int64(i) >= int64(len(cr.dict)) {
			return Value{}, fmt.Errorf("column %s: dictionary index %d of %d", cr.name, i, len(cr.dict))
		}
		return Value{Bytes: cr.dict[i]}, nil
	}
	if cr.isDelta {
		if len(cr.lengths) == 0 || cr.lengths[0] < 0 || cr.lengths[0] > int64(len(cr.plain)) {
			return Value{}, fmt.Errorf("column %s: values cut short", cr.name)
		}
		n := cr.lengths[0]
		b := cr.plain[:n]
		cr.plain, cr.lengths = cr.plain[n:], cr.lengths[1:]
		return Value{Bytes: b}, nil
	}
	b, rest, err := plainValue(cr.plain)
	if err != nil {
		return Value{}, fmt.Errorf("column %s: %w", cr.name, err)
	}
	cr.plain = rest
	return Value{Bytes: b}, nil
}

// plainValue splits a PLAIN byte array off buf.
func plainValue(buf []byte) (v, rest []byte, err error) {
	if len(buf) < 4 {
		return nil, nil, errors.New("values cut short")
	}
	n := binary.LittleEndian.Uint32(buf)
	if uint64(n) > uint64(len(buf)-4) {
		return nil, nil, errors.New("values cut short")
	}
	return buf[4 : 4+n], buf[4+n:], nil
}

// readPage reads the page at cr.pos: a dictionary is kept, a data page
// becomes the current one.
func (cr *columnReader) readPage() error {
	if cr.pos >= cr.chunk.end {
		return errors.New("pages end before the row group's rows")
	}
	h, hlen, err := cr.header()
	if err != nil {
		return err
	}
	typ := h.int(1, -1)
	usize, csize := h.int(2, -1), h.int(3, -1)
	body := cr.pos + hlen
	if usize < 0 || usize > maxPageBytes || csize < 0 || csize > cr.chunk.end-body {
		return errors.New("a page's size is outside its column chunk")
	}
	raw := make([]byte, csize)
	if _, err := cr.f.r.ReadAt(raw, body); err != nil {
		return err
	}
	cr.pos = body + csize
	switch typ {
	case pageDictionary:
		dh, _ := h.field(7)
		if enc := dh.int(2, encPlain); enc != encPlain && enc != encPlainDict {
			return fmt.Errorf("dictionary encoding %d not read", enc)
		}
		data, err := decompress(cr.chunk.codec, raw, int(usize))
		if err != nil {
			return err
		}
		n := dh.int(1, -1)
		if n < 0 || n > int64(len(data))/4 {
			return errors.New("dictionary size past its page")
		}
		cr.dict = make([][]byte, 0, n)
		for i := int64(0); i < n; i++ {
			var v []byte
			if v, data, err = plainValue(data); err != nil {
				return fmt.Errorf("dictionary: %w", err)
			}
			cr.dict = append(cr.dict, v)
		}
		return nil
	case pageData:
		dh, _ := h.field(5)
		data, err := decompress(cr.chunk.codec, raw, int(usize))
		if err != nil {
			return err
		}
		var defs []byte
		if cr.col.maxDef > 0 {
			if enc := dh.int(3, encRLE); enc != encRLE {
				return fmt.Errorf("definition levels encoded %d, not RLE", enc)
			}
			if len(data) < 4 {
				return errors.New("definition levels cut short")
			}
			n := binary.LittleEndian.Uint32(data)
			if uint64(n) > uint64(len(data)-4) {
				return errors.New("definition levels cut short")
			}
			defs, data = data[4:4+n], data[4+n:]
		}
		return cr.startPage(dh.int(1, -1), dh.int(2, -1), defs, data)
	case pageDataV2:
		dh, _ := h.field(8)
		rl, dl := dh.int(6, 0), dh.int(5, 0)
		if rl != 0 {
			return errors.New("repetition levels in a flat column")
		}
		if dl < 0 || dl > int64(len(raw)) {
			return errors.New("definition levels cut short")
		}
		defs, data := raw[:dl], raw[dl:]
		if dh.int(7, 1) != 0 {
			if data, err = decompress(cr.chunk.codec, data, int(usize-dl)); err != nil {
				return err
			}
		}
		return cr.startPage(dh.int(1, -1), dh.int(4, -1), defs, data)
	default:
		return nil // an index page: skipped
	}
}

// startPage makes a data page of n values the current one.
func (cr *columnReader) startPage(n, enc int64, defs, data []byte) error {
	if n <= 0 || n > cr.left {
		return fmt.Errorf("a page of %d values where %d are left", n, cr.left)
	}
	cr.inPage = n
	cr.defs = hybrid{buf: defs, width: bitWidth(cr.col.maxDef)}
	cr.isDict, cr.isDelta = false, false
	switch enc {
	case encPlain:
		cr.plain = data
	case encDeltaLength:
		lengths, rest, err := deltaBinaryPacked(data, n)
		if err != nil {
			return fmt.Errorf("value lengths: %w", err)
		}
		cr.isDelta, cr.lengths, cr.plain = true, lengths, rest
	case encPlainDict, encRLEDict:
		if cr.dict == nil {
			return errors.New("dictionary-encoded page without a dictionary")
		}
		if len(data) < 1 || data[0] > 32 {
			return errors.New("dictionary indices: bad bit width")
		}
		cr.isDict, cr.indices = true, hybrid{buf: data[1:], width: int(data[0])}
	default:
		return fmt.Errorf("values encoded %d: only PLAIN, DELTA_LENGTH_BYTE_ARRAY and dictionary encodings are read (re-save the file with pyarrow's defaults)", enc)
	}
	return nil
}

// header reads the page header at cr.pos, and its length.
func (cr *columnReader) header() (tvalue, int64, error) {
	for n := int64(firstHeaderBytes); ; n *= 4 {
		short := false
		if n >= cr.chunk.end-cr.pos {
			n, short = cr.chunk.end-cr.pos, true
		}
		if n > maxPageHeaderSize {
			return tvalue{}, 0, errors.New("a page header over 16 MiB")
		}
		buf := make([]byte, n)
		if _, err := cr.f.r.ReadAt(buf, cr.pos); err != nil && err != io.EOF {
			return tvalue{}, 0, err
		}
		d := tdecoder{buf: buf}
		h, err := d.structValue(0)
		if err == nil {
			return h, int64(d.pos), nil
		}
		if err != errShort || short {
			return tvalue{}, 0, fmt.Errorf("page header: %w", err)
		}
	}
}

// decompress returns a page's data as stored with codec.
func decompress(codec int64, raw []byte, size int) ([]byte, error) {
	if size < 0 {
		return nil, errors.New("a page's size is negative")
	}
	switch codec {
	case codecNone:
		if len(raw) != size {
			return nil, errors.New("an uncompressed page's sizes differ")
		}
		return raw, nil
	case codecSnappy:
		return snappyDecode(raw, size)
	case codecGzip:
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			return nil, err
		}
		// Read as it decodes: a forged size allocates nothing.
		out, err := io.ReadAll(io.LimitReader(zr, int64(size)+1))
		if err != nil {
			return nil, fmt.Errorf("gzip page: %w", err)
		}
		if len(out) != size {
			return nil, errors.New("a gzip page's sizes differ")
		}
		return out, nil
	}
	return nil, fmt.Errorf("compression codec %d not read: only uncompressed, snappy (pyarrow's default) and gzip pages are", codec)
}

// bitWidth is the bits needed for levels up to max.
func bitWidth(max int) int {
	w := 0
	for max > 0 {
		w++
		max >>= 1
	}
	return w
}

// hybrid reads parquet's RLE / bit-packed hybrid encoding of width-bit
// values, one at a time.
type hybrid struct {
	buf   []byte
	width int
	run   uint64 // values left in the current run
	rle   bool
	value uint32 // the RLE run's value
	bit   uint64 // the next bit of the bit-packed run, from buf's start
}

func (h *hybrid) next() (uint32, error) {
	if h.run == 0 {
		if err := h.start(); err != nil {
			return 0, err
		}
	}
	h.run--
	if h.rle {
		return h.value, nil
	}
	var v uint32
	for i := 0; i < h.width; i++ {
		byteAt := h.bit >> 3
		if byteAt >= uint64(len(h.buf)) {
			return 0, errors.New("bit-packed run cut short")
		}
		v |= uint32(h.buf[byteAt]>>(h.bit&7)&1) << i
		h.bit++
	}
	return v, nil
}

// start reads the next run's header, skipping empty runs.
func (h *hybrid) start() error {
	for h.run == 0 {
		if err := h.startRun(); err != nil {
			return err
		}
	}
	return nil
}

// startRun reads one run's header.
func (h *hybrid) startRun() error {
	if !h.rle {
		// skip the bit-packed run just read
		skip := (h.bit + 7) >> 3
		if skip > uint64(len(h.buf)) {
			return errors.New("bit-packed run cut short")
		}
		h.buf, h.bit = h.buf[skip:], 0
	}
	hd, n := binary.Uvarint(h.buf)
	if n <= 0 {
		return errors.New("levels or indices cut short")
	}
	h.buf = h.buf[n:]
	if hd&1 == 0 {
		h.rle, h.run = true, hd>>1
		nb := (h.width + 7) / 8
		if len(h.buf) < nb {
			return errors.New("RLE run cut short")
		}
		h.value = 0
		for i := nb - 1; i >= 0; i-- {
			h.value = h.value<<8 | uint32(h.buf[i])
		}
		h.buf = h.buf[nb:]
	} else {
		groups := hd >> 1
		if groups > uint64(len(h.buf)) {
			return errors.New("bit-packed run cut short")
		}
		h.rle, h.run, h.bit = false, groups*8, 0
	}
	return nil
}

// deltaBinaryPacked decodes a DELTA_BINARY_PACKED run of at most max
// integers off buf, and returns them with the bytes after it.
func deltaBinaryPacked(buf []byte, max int64) ([]int64, []byte, error) {
	d := tdecoder{buf: buf}
	blockSize, err1 := d.uvarint()
	minis, err2 := d.uvarint()
	total, err3 := d.uvarint()
	first, err4 := d.varint()
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		return nil, nil, errors.New("header cut short")
	}
	if minis == 0 || blockSize == 0 || blockSize%minis != 0 || blockSize/minis%32 != 0 || blockSize > 1<<16 {
		return nil, nil, fmt.Errorf("blocks of %d values in %d miniblocks", blockSize, minis)
	}
	if total > uint64(max) {
		return nil, nil, fmt.Errorf("%d values in a page of %d", total, max)
	}
	var out []int64 // grown as values decode: a forged count allocates nothing
	if total == 0 {
		return out, d.buf[d.pos:], nil
	}
	out = append(out, first)
	per := blockSize / minis
	prev := first
	for uint64(len(out)) < total {
		minDelta, err := d.varint()
		if err != nil {
			return nil, nil, errors.New("block cut short")
		}
		if uint64(len(d.buf)-d.pos) < minis {
			return nil, nil, errors.New("block cut short")
		}
		widths := d.buf[d.pos : d.pos+int(minis)]
		d.pos += int(minis)
		for _, w := range widths {
			if uint64(len(out)) >= total {
				break
			}
			if w > 64 {
				return nil, nil, fmt.Errorf("a miniblock of %d-bit values", w)
			}
			size := per * uint64(w) / 8
			if uint64(len(d.buf)-d.pos) < size {
				return nil, nil, errors.New("miniblock cut short")
			}
			mb := d.buf[d.pos : d.pos+int(size)]
			d.pos += int(size)
			for i := uint64(0); i < per && uint64(len(out)) < total; i++ {
				var v uint64
				bit := i * uint64(w)
				for j := uint64(0); j < uint64(w); j++ {
					v |= uint64(mb[(bit+j)>>3]>>((bit+j)&7)&1) << j
				}
				prev += minDelta + int64(v)
				out = append(out, prev)
			}
		}
	}
	return out, d.buf[d.pos:], nil
}
