package ingest

import "strings"

// RunKeys finds a record a runs file gives twice: the same model, phase,
// run and page. It keeps a line number per record, in about four bytes:
// the (model, phase, page) triples and the run ids are numbered once
// each, and a triple's lines are a slice indexed by run number (a map
// where its run numbers are sparse), so that a streamed runs file's check
// does not grow with its lines' texts. The zero value is empty.
type RunKeys struct {
	triples map[[3]string]int32
	runs    map[string]int32
	lines   []tripleLines
}

// tripleLines are the lines of one triple's runs: dense[run] (0 for
// none) while the triple's run numbers are dense, sparse after.
type tripleLines struct {
	dense  []int32
	sparse map[int32]int
	n      int
}

// Add records the record (model, phase, run, page) at line (from 1) and
// returns 0, or returns the line that gave it before and records nothing.
// run is the run id as written (its JSON, compacted).
func (k *RunKeys) Add(model, phase string, run []byte, page string, line int) (prev int) {
	if k.triples == nil {
		k.triples, k.runs = map[[3]string]int32{}, map[string]int32{}
	}
	tk := [3]string{model, phase, page}
	t, ok := k.triples[tk]
	if !ok {
		t = int32(len(k.lines))
		// Clones: the strings may share the memory of their whole line.
		k.triples[[3]string{strings.Clone(model), strings.Clone(phase), strings.Clone(page)}] = t
		k.lines = append(k.lines, tripleLines{})
	}
	r, ok := k.runs[string(run)]
	if !ok {
		r = int32(len(k.runs))
		k.runs[string(run)] = r
	}
	tl := &k.lines[t]
	switch {
	case tl.sparse != nil:
		prev = tl.sparse[r]
	case int(r) < len(tl.dense):
		prev = int(tl.dense[r])
	}
	if prev != 0 {
		return prev
	}
	tl.n++
	if tl.sparse == nil && (int(r) >= len(tl.dense) && int(r) > 2*tl.n+64 || line > 1<<31-1) {
		tl.sparse = make(map[int32]int, tl.n)
		for run, line := range tl.dense {
			if line != 0 {
				tl.sparse[int32(run)] = int(line)
			}
		}
		tl.dense = nil
	}
	if tl.sparse != nil {
		tl.sparse[r] = line
		return 0
	}
	if int(r) >= len(tl.dense) {
		tl.dense = append(tl.dense, make([]int32, int(r)+1-len(tl.dense))...)
	}
	tl.dense[r] = int32(line)
	return 0
}
