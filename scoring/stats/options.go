package stats

import (
	"fmt"
	"math"
)

// Options are the settings of SPEC F.4–F.6, with the defaults of
// DefaultOptions.
type Options struct {
	// Level is the interval's confidence level, in (0, 1) (--ci-level).
	Level float64
	// Replicates is B, the bootstrap replicates (--bootstrap); 0 turns
	// intervals off.
	Replicates int
	// Permutations is R, the randomization rounds (--permutations); 0
	// turns p-values off (they are null).
	Permutations int
	// Seed is xored into every stream's start (--seed).
	Seed uint64
	// Alpha is the significance threshold on Holm-adjusted p-values, in
	// (0, 1) (--alpha).
	Alpha float64
	// Effect is the difference a comparison's units_needed is computed
	// for (--effect, SPEC F.7); 0 names none.
	Effect float64
	// Stop, when set, is asked between bootstrap replicates and
	// randomization rounds (every stopEvery of them): an error it returns
	// ends the work with that error. A host passes its context's Err, so
	// that a million replicates stop at Ctrl-C or when a client leaves.
	// It changes no result.
	Stop func() error
}

// stopEvery is how many replicates or rounds run between two questions
// to Options.Stop.
const stopEvery = 64

// stopped asks o.Stop, when set, once every stopEvery calls (i counts
// them from 0).
func (o *Options) stopped(i int) error {
	if o.Stop == nil || i%stopEvery != 0 {
		return nil
	}
	return o.Stop()
}

// DefaultOptions returns SPEC F's defaults: level 0.95, 2000 replicates,
// 10000 permutations, seed 0, alpha 0.05.
func DefaultOptions() Options {
	return Options{Level: 0.95, Replicates: 2000, Permutations: 10000, Seed: 0, Alpha: 0.05}
}

// MaxDraws bounds Replicates and Permutations, so that a request cannot
// ask for unbounded work.
const MaxDraws = 1_000_000

// MaxEffect bounds --effect: a difference of statistics that are ratios
// (and of name CER, which can pass 1) is below it.
const MaxEffect = 1e6

// Validate returns an error naming the first setting out of its range.
func (o Options) Validate() error {
	switch {
	case !(o.Level > 0 && o.Level < 1):
		return fmt.Errorf("stats: level %v, expected a number strictly between 0 and 1", o.Level)
	case o.Replicates < 0 || o.Replicates > MaxDraws:
		return fmt.Errorf("stats: %d bootstrap replicates, expected 0 to %d", o.Replicates, MaxDraws)
	case o.Permutations < 0 || o.Permutations > MaxDraws:
		return fmt.Errorf("stats: %d permutations, expected 0 to %d", o.Permutations, MaxDraws)
	case !(o.Alpha > 0 && o.Alpha < 1) || math.IsNaN(o.Alpha):
		return fmt.Errorf("stats: alpha %v, expected a number strictly between 0 and 1", o.Alpha)
	case !(o.Effect >= 0 && o.Effect <= MaxEffect):
		return fmt.Errorf("stats: effect %v, expected a difference from 0 to %v (0: none)", o.Effect, MaxEffect)
	}
	return nil
}

// check returns an error when the schema reads a component it does not
// have.
func (s *Schema) check() error {
	if s == nil {
		return fmt.Errorf("stats: no schema")
	}
	if s.Movement < 0 || s.Movement >= len(s.Stats) {
		return fmt.Errorf("stats: %s schema: movement statistic %d of %d", s.Family, s.Movement, len(s.Stats))
	}
	for _, st := range s.Stats {
		if st.Num < 0 || st.Num >= s.Width || st.Den < 0 || st.Den >= s.Width || st.Ref < 0 || st.Ref >= s.Width {
			return fmt.Errorf("stats: %s schema: statistic %s reads past the %d components", s.Family, st.Path(), s.Width)
		}
	}
	return nil
}
