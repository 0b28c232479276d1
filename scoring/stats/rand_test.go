package stats

import "testing"

// The first outputs of SplitMix64 as published with the algorithm (the
// reference splitmix64.c; Rosetta Code's task uses seed 1234567).
func TestSplitMix64Reference(t *testing.T) {
	tests := []struct {
		seed uint64
		want []uint64
	}{
		{1234567, []uint64{6457827717110365317, 3203168211198807973, 9817491932198370423,
			4593380528125082431, 16408922859458223821}},
		{0, []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f, 0xf88bb8a8724c81ec}},
	}
	for _, tt := range tests {
		g := NewSplitMix64(tt.seed)
		for i, w := range tt.want {
			if got := g.Next(); got != w {
				t.Errorf("seed %d output %d = %d, want %d", tt.seed, i, got, w)
			}
		}
	}
}

// FNV-1a 64 test vectors from the FNV reference test suite.
func TestFNV1a64Vectors(t *testing.T) {
	tests := []struct {
		in   string
		want uint64
	}{
		{"", 0xcbf29ce484222325},
		{"a", 0xaf63dc4c8601ec8c},
		{"b", 0xaf63df4c8601f1a5},
		{"foo", 0xdcb27518fed9d577},
		{"foobar", 0x85944171f73967e8},
	}
	for _, tt := range tests {
		if got := FNV1a64(tt.in); got != tt.want {
			t.Errorf("FNV1a64(%q) = %#x, want %#x", tt.in, got, tt.want)
		}
	}
}

func TestStreamStartsAtSeedXorKey(t *testing.T) {
	g := Stream(42, "ci:tabular/m/G")
	h := NewSplitMix64(42 ^ FNV1a64("ci:tabular/m/G"))
	for i := 0; i < 3; i++ {
		if a, b := g.Next(), h.Next(); a != b {
			t.Fatalf("output %d: %d != %d", i, a, b)
		}
	}
	// A coin is the top bit, an index the output mod n.
	g, h = Stream(0, "k"), Stream(0, "k")
	for i := 0; i < 64; i++ {
		x := h.Next()
		if got, want := g.Coin(), x>>63 == 1; got != want {
			t.Fatalf("coin %d = %v, want %v", i, got, want)
		}
		x = h.Next()
		if got, want := g.Index(7), int(x%7); got != want {
			t.Fatalf("index %d = %d, want %d", i, got, want)
		}
	}
}
