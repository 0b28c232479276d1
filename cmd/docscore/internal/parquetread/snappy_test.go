package parquetread

import (
	"bytes"
	"math/rand"
	"testing"

	"github.com/klauspost/compress/snappy"
)

// TestSnappyAgainstEncoder: what a snappy encoder writes decodes back.
func TestSnappyAgainstEncoder(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for _, n := range []int{0, 1, 59, 60, 61, 300, 70000, 300000} {
		src := make([]byte, n)
		for i := range src {
			if i > 70 && rng.Intn(5) != 0 {
				src[i] = src[i-1-rng.Intn(70)]
			} else {
				src[i] = byte(rng.Intn(256))
			}
		}
		got, err := snappyDecode(snappy.Encode(nil, src), n)
		if err != nil || !bytes.Equal(got, src) {
			t.Errorf("%d bytes: err %v, equal %v", n, err, bytes.Equal(got, src))
		}
	}
}

// TestSnappyElements: each element kind by hand, overlapping copies and
// bad input included.
func TestSnappyElements(t *testing.T) {
	for _, c := range []struct {
		name string
		in   []byte
		want string // "" for an error
	}{
		{"literal", []byte{3, 2 << 2, 'a', 'b', 'c'}, "abc"},
		{"copy1 overlapping", []byte{6, 0, 'a', 1<<2 | 1, 1}, "aaaaaa"},
		{"copy2", []byte{5, 1 << 2, 'a', 'b', 2<<2 | 2, 2, 0}, "ababa"},
		{"copy4", []byte{5, 1 << 2, 'a', 'b', 2<<2 | 3, 2, 0, 0, 0}, "ababa"},
		{"offset past the start", []byte{5, 1 << 2, 'a', 'b', 2<<2 | 2, 3, 0}, ""},
		{"zero offset", []byte{5, 1 << 2, 'a', 'b', 2<<2 | 2, 0, 0}, ""},
		{"longer than said", []byte{2, 2 << 2, 'a', 'b', 'c'}, ""},
		{"shorter than said", []byte{4, 2 << 2, 'a', 'b', 'c'}, ""},
		{"literal cut", []byte{3, 2 << 2, 'a'}, ""},
		{"long literal length", []byte{2, 60 << 2, 1, 'a', 'b'}, "ab"},
	} {
		want := len(c.want)
		if c.want == "" {
			want = int(c.in[0])
		}
		got, err := snappyDecode(c.in, want)
		if c.want == "" {
			if err == nil {
				t.Errorf("%s: decoded %q, want an error", c.name, got)
			}
		} else if err != nil || string(got) != c.want {
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}
