package stats

// FNV-1a, 64-bit (SPEC F.3).
const (
	fnvOffset64 = 0xcbf29ce484222325
	fnvPrime64  = 0x100000001b3
)

// FNV1a64 returns the 64-bit FNV-1a hash of s's bytes (offset basis
// 0xcbf29ce484222325, prime 0x100000001b3), the hash that turns a stream's
// key into its starting state (SPEC F.3).
func FNV1a64(s string) uint64 {
	h := uint64(fnvOffset64)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime64
	}
	return h
}

// SplitMix64 is the random number generator of SPEC F.3: a 64-bit state
// advanced by the golden-ratio increment and mixed by two multiply-xorshift
// rounds, in unsigned wrapping arithmetic. Its zero value is the stream of
// state 0. It is not safe for concurrent use.
type SplitMix64 struct {
	state uint64
}

// NewSplitMix64 returns a generator whose state is state.
func NewSplitMix64(state uint64) *SplitMix64 { return &SplitMix64{state: state} }

// Stream returns the generator of the stream named key under seed: its
// state starts at seed xor FNV1a64(key), so each key's numbers are its own
// and adding a stream never changes another (SPEC F.3).
func Stream(seed uint64, key string) *SplitMix64 {
	return &SplitMix64{state: seed ^ FNV1a64(key)}
}

// golden is the state's increment per output.
const golden = 0x9E3779B97F4A7C15

// Next advances the state and returns the next 64-bit output.
func (g *SplitMix64) Next() uint64 {
	g.state += golden
	return mix(g.state)
}

// mix is the output of state z.
func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// Index returns an index into n units: Next() mod n (SPEC F.3). n must be
// positive.
func (g *SplitMix64) Index(n int) int { return int(g.Next() % uint64(n)) }

// Coin returns the top bit of the next output: 1 swaps a unit's sides in a
// permutation round (SPEC F.3, F.5).
func (g *SplitMix64) Coin() bool { return g.Next()>>63 == 1 }
