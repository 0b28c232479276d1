// Package sha256sum computes the SHA-256 digest (FIPS 180-4) of a byte
// slice, and nothing else. It exists for the browser: crypto/sha256 links
// Go's FIPS 140 module with it (self-tests, a DRBG, AES), about 46 KB of
// the page core's 1.5 MB gzip budget and of every other page wasm, for one
// digest of a rule file and the provenance's digests of inputs given
// whole. The tests hold it to crypto/sha256 and to the standard's
// examples. It sits at the module's root so that rules and scoring both
// import it.
package sha256sum

import (
	"encoding/binary"
	"math/bits"
)

// Size is the length of a digest in bytes.
const Size = 32

var initial = [8]uint32{
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
}

var k = [64]uint32{
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
}

// Sum256 returns the SHA-256 digest of data.
func Sum256(data []byte) [Size]byte {
	h := initial
	n := len(data)
	for len(data) >= 64 {
		block(&h, data[:64])
		data = data[64:]
	}
	// The last block(s): the rest, a 1 bit, zeros, and the length in bits
	// as a big-endian 64-bit number.
	var tail [128]byte
	copy(tail[:], data)
	tail[len(data)] = 0x80
	end := 64
	if len(data) >= 56 {
		end = 128
	}
	binary.BigEndian.PutUint64(tail[end-8:end], uint64(n)<<3)
	for off := 0; off < end; off += 64 {
		block(&h, tail[off:off+64])
	}
	var sum [Size]byte
	for i, v := range h {
		binary.BigEndian.PutUint32(sum[4*i:], v)
	}
	return sum
}

// block runs the compression function on one 64-byte block.
func block(h *[8]uint32, p []byte) {
	var w [64]uint32
	for i := 0; i < 16; i++ {
		w[i] = binary.BigEndian.Uint32(p[4*i:])
	}
	for i := 16; i < 64; i++ {
		s0 := bits.RotateLeft32(w[i-15], -7) ^ bits.RotateLeft32(w[i-15], -18) ^ (w[i-15] >> 3)
		s1 := bits.RotateLeft32(w[i-2], -17) ^ bits.RotateLeft32(w[i-2], -19) ^ (w[i-2] >> 10)
		w[i] = w[i-16] + s0 + w[i-7] + s1
	}
	a, b, c, d, e, f, g, hh := h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]
	for i := 0; i < 64; i++ {
		s1 := bits.RotateLeft32(e, -6) ^ bits.RotateLeft32(e, -11) ^ bits.RotateLeft32(e, -25)
		ch := (e & f) ^ (^e & g)
		t1 := hh + s1 + ch + k[i] + w[i]
		s0 := bits.RotateLeft32(a, -2) ^ bits.RotateLeft32(a, -13) ^ bits.RotateLeft32(a, -22)
		maj := (a & b) ^ (a & c) ^ (b & c)
		t2 := s0 + maj
		hh, g, f, e, d, c, b, a = g, f, e, d+t1, c, b, a, t1+t2
	}
	h[0] += a
	h[1] += b
	h[2] += c
	h[3] += d
	h[4] += e
	h[5] += f
	h[6] += g
	h[7] += hh
}

// Digest is a running SHA-256 digest (a hash.Hash), for input that comes
// in pieces: the page's large files, hashed chunk by chunk as they are
// scored.
type Digest struct {
	h    [8]uint32
	buf  [64]byte
	nbuf int
	n    uint64
}

// New returns a Digest of no bytes.
func New() *Digest {
	d := &Digest{}
	d.Reset()
	return d
}

// Reset makes d the digest of no bytes.
func (d *Digest) Reset() { *d = Digest{h: initial} }

// Size is the digest's length in bytes.
func (d *Digest) Size() int { return Size }

// BlockSize is SHA-256's block size in bytes.
func (d *Digest) BlockSize() int { return 64 }

// Write adds p to the digested bytes; it never fails.
func (d *Digest) Write(p []byte) (int, error) {
	n := len(p)
	d.n += uint64(n)
	if d.nbuf > 0 {
		c := copy(d.buf[d.nbuf:], p)
		d.nbuf += c
		p = p[c:]
		if d.nbuf < 64 {
			return n, nil
		}
		block(&d.h, d.buf[:])
		d.nbuf = 0
	}
	for len(p) >= 64 {
		block(&d.h, p[:64])
		p = p[64:]
	}
	d.nbuf = copy(d.buf[:], p)
	return n, nil
}

// Sum appends the digest of the bytes written so far to b; d is
// unchanged.
func (d *Digest) Sum(b []byte) []byte {
	h := d.h
	var tail [128]byte
	copy(tail[:], d.buf[:d.nbuf])
	tail[d.nbuf] = 0x80
	end := 64
	if d.nbuf >= 56 {
		end = 128
	}
	binary.BigEndian.PutUint64(tail[end-8:end], d.n<<3)
	for off := 0; off < end; off += 64 {
		block(&h, tail[off:off+64])
	}
	var sum [Size]byte
	for i, v := range h {
		binary.BigEndian.PutUint32(sum[4*i:], v)
	}
	return append(b, sum[:]...)
}
