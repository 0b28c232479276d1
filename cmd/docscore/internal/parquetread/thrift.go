package parquetread

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Thrift's compact protocol, read into a generic tree: parquet's footer
// and page headers are thrift structs, of which a few fields are used and
// the rest skipped.

// Compact protocol type ids.
const (
	tStop   = 0
	tTrue   = 1
	tFalse  = 2
	tByte   = 3
	tI16    = 4
	tI32    = 5
	tI64    = 6
	tDouble = 7
	tBinary = 8
	tList   = 9
	tSet    = 10
	tMap    = 11
	tStruct = 12
)

// maxDepth bounds the nesting of thrift values (parquet's own is under 8).
const maxDepth = 32

// errShort is a thrift value cut off by the end of its bytes.
var errShort = errors.New("thrift data cut short")

// tvalue is one thrift value: an integer (booleans are 0 or 1), bytes, a
// list (sets too) or a struct's fields by id. Maps are skipped.
type tvalue struct {
	i      int64
	b      []byte
	list   []tvalue
	fields map[int16]tvalue
}

// field returns the struct field id, and whether it is present.
func (v tvalue) field(id int16) (tvalue, bool) {
	f, ok := v.fields[id]
	return f, ok
}

// int returns the integer field id, or def when absent.
func (v tvalue) int(id int16, def int64) int64 {
	if f, ok := v.fields[id]; ok {
		return f.i
	}
	return def
}

// tdecoder reads compact-protocol values from buf.
type tdecoder struct {
	buf []byte
	pos int
}

func (d *tdecoder) byte() (byte, error) {
	if d.pos >= len(d.buf) {
		return 0, errShort
	}
	b := d.buf[d.pos]
	d.pos++
	return b, nil
}

func (d *tdecoder) uvarint() (uint64, error) {
	v, n := binary.Uvarint(d.buf[d.pos:])
	if n <= 0 {
		if n == 0 {
			return 0, errShort
		}
		return 0, errors.New("thrift varint over 64 bits")
	}
	d.pos += n
	return v, nil
}

func (d *tdecoder) varint() (int64, error) {
	u, err := d.uvarint()
	return int64(u>>1) ^ -int64(u&1), err
}

// structValue reads a struct's fields up to its stop byte.
func (d *tdecoder) structValue(depth int) (tvalue, error) {
	if depth > maxDepth {
		return tvalue{}, errors.New("thrift structs nested too deep")
	}
	v := tvalue{fields: map[int16]tvalue{}}
	var id int16
	for {
		h, err := d.byte()
		if err != nil {
			return v, err
		}
		typ := h & 0x0f
		if typ == tStop {
			return v, nil
		}
		if delta := h >> 4; delta != 0 {
			id += int16(delta)
		} else {
			x, err := d.varint()
			if err != nil {
				return v, err
			}
			id = int16(x)
		}
		var f tvalue
		switch typ {
		case tTrue:
			f.i = 1
		case tFalse:
		default:
			if f, err = d.value(typ, depth+1); err != nil {
				return v, err
			}
		}
		v.fields[id] = f
	}
}

// value reads one value of type typ (booleans as list elements: a byte).
func (d *tdecoder) value(typ byte, depth int) (tvalue, error) {
	var v tvalue
	var err error
	switch typ {
	case tTrue, tFalse:
		var b byte
		b, err = d.byte()
		v.i = int64(b & 1)
	case tByte:
		var b byte
		b, err = d.byte()
		v.i = int64(int8(b))
	case tI16, tI32, tI64:
		v.i, err = d.varint()
	case tDouble:
		if len(d.buf)-d.pos < 8 {
			return v, errShort
		}
		d.pos += 8
	case tBinary:
		var n uint64
		if n, err = d.uvarint(); err != nil {
			return v, err
		}
		if n > uint64(len(d.buf)-d.pos) {
			return v, errShort
		}
		v.b = d.buf[d.pos : d.pos+int(n)]
		d.pos += int(n)
	case tList, tSet:
		var h byte
		if h, err = d.byte(); err != nil {
			return v, err
		}
		n := uint64(h >> 4)
		if n == 15 {
			if n, err = d.uvarint(); err != nil {
				return v, err
			}
		}
		if n > uint64(len(d.buf)-d.pos) { // every element takes a byte at least
			return v, errShort
		}
		v.list = make([]tvalue, n)
		for i := range v.list {
			if v.list[i], err = d.value(h&0x0f, depth+1); err != nil {
				return v, err
			}
		}
	case tMap:
		var n uint64
		if n, err = d.uvarint(); err != nil || n == 0 {
			return v, err
		}
		if n > uint64(len(d.buf)-d.pos) {
			return v, errShort
		}
		var kv byte
		if kv, err = d.byte(); err != nil {
			return v, err
		}
		for i := uint64(0); i < 2*n; i++ {
			t := kv >> 4
			if i%2 == 1 {
				t = kv & 0x0f
			}
			if _, err = d.value(t, depth+1); err != nil {
				return v, err
			}
		}
	case tStruct:
		if depth > maxDepth {
			return v, errors.New("thrift structs nested too deep")
		}
		return d.structValue(depth)
	default:
		return v, fmt.Errorf("thrift type %d unknown", typ)
	}
	return v, err
}
