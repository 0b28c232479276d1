package sha256sum

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestExamples checks the digests FIPS 180-4's examples give (NIST's
// "SHA256.pdf" and "SHA2_Additional.pdf").
func TestExamples(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
		{string(bytes.Repeat([]byte("a"), 1000000)), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
	} {
		got := Sum256([]byte(c.in))
		if hex.EncodeToString(got[:]) != c.want {
			t.Errorf("Sum256(%.20q…, %d bytes) = %x, want %s", c.in, len(c.in), got, c.want)
		}
	}
}

// TestEqualsCryptoSHA256 compares every length up to three blocks and
// longer random inputs with crypto/sha256: the padding's edge cases (55,
// 56, 63, 64 bytes…) are all there.
func TestEqualsCryptoSHA256(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, 5000)
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	for n := 0; n <= 3*64; n++ {
		check(t, data[:n])
	}
	for _, n := range []int{1000, 4095, 4096, 4999, 5000} {
		check(t, data[:n])
	}
}

func check(t *testing.T, b []byte) {
	t.Helper()
	want := sha256.Sum256(b)
	if got := Sum256(b); got != want {
		t.Fatalf("%d bytes: %x, crypto/sha256 %x", len(b), got, want)
	}
	// The running digest, fed in pieces of every size from 1 to 65 and
	// summed midway (Sum leaves it unchanged), agrees too.
	for step := 1; step <= 65; step += 8 {
		d := New()
		for i := 0; i < len(b); i += step {
			d.Write(b[i:min(i+step, len(b))])
			if i == len(b)/2 {
				d.Sum(nil)
			}
		}
		if got := d.Sum(nil); !bytes.Equal(got, want[:]) {
			t.Fatalf("%d bytes in pieces of %d: %x, crypto/sha256 %x", len(b), step, got, want)
		}
	}
}

// FuzzSum256 holds Sum256 to crypto/sha256 on any input.
func FuzzSum256(f *testing.F) {
	for _, s := range []string{"", "abc", string(make([]byte, 55)), string(make([]byte, 56)), string(make([]byte, 64)), "| 12 | name | OPEN |"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { check(t, b) })
}

func ExampleSum256() {
	fmt.Printf("%x\n", Sum256([]byte("abc")))
	// Output: ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
}
