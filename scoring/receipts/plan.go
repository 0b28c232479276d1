package receipts

import (
	"github.com/docscore/docscore/scoring/receipts/receiptsreport"
)

// MaxListedPairs caps the missing (unattempted) pairs a report or an
// error lists; their count is always given in full. A run header plans
// phases × samples, so a few hundred kilobytes of header plan billions of
// pairs: listing them all once cost gigabytes for a run with no records.
const MaxListedPairs = 20

// MissingPairs counts the planned pairs — phases × samples, phase by
// phase — that recorded says were not recorded, and lists the first
// MaxListedPairs of them. n is how many planned pairs recorded reports: the
// walk stops at the last pair to list, so it costs at most
// n + MaxListedPairs steps, never phases × samples.
func MissingPairs(phases, samples []string, n int, recorded func(pi, si int) bool) (count int, first []receiptsreport.Pair) {
	count = len(phases)*len(samples) - n
	first = []receiptsreport.Pair{}
	for pi := 0; pi < len(phases) && len(first) < min(count, MaxListedPairs); pi++ {
		for si := 0; si < len(samples) && len(first) < min(count, MaxListedPairs); si++ {
			if !recorded(pi, si) {
				first = append(first, receiptsreport.Pair{Phase: phases[pi], SampleID: samples[si]})
			}
		}
	}
	return count, first
}

// bitset is a set of non-negative integers, a bit each, kept in pages of
// 4,096 bits made on first use: the planned pairs of a run cost memory
// for those recorded, not for the whole plan.
type bitset struct {
	pages map[int]*[64]uint64
	n     int // the bits set
}

// newBitset is an empty set.
func newBitset() *bitset { return &bitset{pages: map[int]*[64]uint64{}} }

// has reports whether i is set.
func (b *bitset) has(i int) bool {
	p := b.pages[i>>12]
	return p != nil && p[(i>>6)&63]&(1<<(i&63)) != 0
}

// set sets i.
func (b *bitset) set(i int) {
	p := b.pages[i>>12]
	if p == nil {
		p = new([64]uint64)
		b.pages[i>>12] = p
	}
	if w := &p[(i>>6)&63]; *w&(1<<(i&63)) == 0 {
		*w |= 1 << (i & 63)
		b.n++
	}
}
