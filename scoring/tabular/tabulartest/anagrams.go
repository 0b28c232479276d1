package tabulartest

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	"github.com/docscore/docscore/scoring/tabular"
)

// anagramLetters is the name every anagram is a permutation of: two words,
// so that a permutation is also a plausible two-token name.
const anagramLetters = "abcdefghi klmnoprs"

// Anagrams returns the worst case of the pairing: one ground-truth page of
// n rows and one image of n records whose names are all distinct
// anagrams of one name. Every pair clears the cheap prefilters (same
// letters, so the same letter counts) and needs the full similarity, so
// the scoring compares n×n pairs the slow way. Hosts' work limits are
// tested with it; n = 10,000 is a body of about 450 KB and 10⁸ pairs.
func Anagrams(n int) (gt tabular.File, runs tabular.File) {
	rng := rand.New(rand.NewPCG(16, 2))
	seen := map[string]bool{}
	name := func() string {
		for {
			r := []byte(anagramLetters)
			rng.Shuffle(len(r), func(i, j int) { r[i], r[j] = r[j], r[i] })
			s := string(bytes.TrimSpace(r))
			if !seen[s] && bytes.Count(r, []byte(" ")) == 1 && s == string(r) {
				seen[s] = true
				return s
			}
		}
	}
	var g bytes.Buffer
	g.WriteString("name,title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count\n")
	for range n {
		fmt.Fprintf(&g, "%s,,,,,,,,\n", name())
	}
	var r bytes.Buffer
	r.WriteString(`{"model": "m", "phase": "G", "run": 1, "page": "1", "records": [`)
	for i := range n {
		if i > 0 {
			r.WriteString(", ")
		}
		fmt.Fprintf(&r, `{"name": %q}`, name())
	}
	r.WriteString("]}\n")
	return tabular.File{Name: "gt_page_1.csv", Data: g.Bytes()}, tabular.File{Name: "runs.jsonl", Data: r.Bytes()}
}
