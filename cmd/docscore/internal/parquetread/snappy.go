package parquetread

import (
	"encoding/binary"
	"errors"
)

// snappyDecode decodes a snappy block (the raw format parquet uses, not
// the framed one) whose decoded length must be want. It is written here
// rather than imported: the snappy packages compute a CRC table when the
// program starts, which every docscore command paid for (issue 34).
func snappyDecode(src []byte, want int) ([]byte, error) {
	n, k := binary.Uvarint(src)
	if k <= 0 || n != uint64(want) {
		return nil, errors.New("snappy data: its length is not the page's")
	}
	src = src[k:]
	// dst grows as the data decodes: a forged length allocates nothing.
	var dst []byte
	for len(src) > 0 {
		tag := src[0]
		switch tag & 3 {
		case 0: // literal
			l := int(tag >> 2)
			src = src[1:]
			if l >= 60 {
				nb := l - 59
				if len(src) < nb {
					return nil, errSnappy
				}
				l = 0
				for i := nb - 1; i >= 0; i-- {
					l = l<<8 | int(src[i])
				}
				src = src[nb:]
			}
			l++
			if l <= 0 || l > len(src) || l > want-len(dst) {
				return nil, errSnappy
			}
			dst = append(dst, src[:l]...)
			src = src[l:]
			continue
		case 1:
			if len(src) < 2 {
				return nil, errSnappy
			}
			l := 4 + int(tag>>2)&7
			off := int(tag&0xe0)<<3 | int(src[1])
			src = src[2:]
			if dst = snappyCopy(dst, off, l, want); dst == nil {
				return nil, errSnappy
			}
		default: // copies with a 2-byte (tag 2) or 4-byte (tag 3) offset
			nb := 2
			if tag&3 == 3 {
				nb = 4
			}
			if len(src) < 1+nb {
				return nil, errSnappy
			}
			l := 1 + int(tag>>2)
			off := 0
			for i := nb; i >= 1; i-- {
				off = off<<8 | int(src[i])
			}
			src = src[1+nb:]
			if dst = snappyCopy(dst, off, l, want); dst == nil {
				return nil, errSnappy
			}
		}
	}
	if len(dst) != want {
		return nil, errSnappy
	}
	return dst, nil
}

var errSnappy = errors.New("corrupt snappy data")

// snappyCopy appends l bytes copied from off bytes back (they may
// overlap what is appended), or returns nil when that is out of bounds.
func snappyCopy(dst []byte, off, l, want int) []byte {
	if off <= 0 || off > len(dst) || l > want-len(dst) {
		return nil
	}
	start := len(dst) - off
	for i := 0; i < l; i++ {
		dst = append(dst, dst[start+i])
	}
	return dst
}
