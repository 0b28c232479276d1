package stats

import (
	"strconv"

	"github.com/docscore/docscore/scoring/inputerr"

	"github.com/docscore/docscore/scoring/param"
)

// Defaults of SPEC F.4 that hosts apply when a request leaves an option
// out.
const (
	DefaultReplicates = 2000
	DefaultLevel      = 0.95
)

// The ranges of the interval options, as every host checks them
// (param.Float names the option in the error).
var (
	// LevelRange is (0, 1): --ci-level.
	LevelRange = param.Range{Lo: 0, Hi: 1, LoOpen: true, HiOpen: true, Want: "a confidence level strictly between 0 and 1"}
	// ReplicatesRange is 0 to MaxDraws: --bootstrap (0 turns intervals off).
	ReplicatesRange = param.Range{Lo: 0, Hi: MaxDraws, Want: "a whole number of replicates from 0 to 1000000"}
)

// CheckReplicates checks a replicate count given as the option called
// name: 0 to MaxDraws. The error is an input error that reads "NAME N:
// expected RANGE", as param.Float's.
func CheckReplicates(name string, n int) error {
	if n >= 0 && n <= MaxDraws {
		return nil
	}
	return inputerr.New("", 0, "%s %d: expected %s", name, n, ReplicatesRange)
}

// IntervalOptions returns the options of a cell's intervals (Interval)
// from a host's settings: replicates (0: none), level (0: DefaultLevel)
// and seed. It checks them as the options --bootstrap and --ci-level.
func IntervalOptions(replicates int, level float64, seed uint64) (Options, error) {
	o := DefaultOptions()
	o.Replicates, o.Seed = replicates, seed
	if level != 0 {
		o.Level = level
	}
	if err := CheckReplicates("bootstrap", o.Replicates); err != nil {
		return Options{}, err
	}
	if err := param.Float("ci-level", o.Level, LevelRange); err != nil {
		return Options{}, err
	}
	return o, nil
}

// Text is the named statistic's interval as Markdown reports show it
// after the value: " [lo, hi]" with four decimals, " [–]" when the
// interval is null, and "" when ci is nil or has no such statistic.
func (ci *CI) Text(path string) string {
	if ci == nil {
		return ""
	}
	s, ok := ci.Get(path)
	switch {
	case !ok:
		return ""
	case s.Interval == nil:
		return " [–]"
	}
	return " [" + strconv.FormatFloat(s.Interval[0], 'f', 4, 64) + ", " + strconv.FormatFloat(s.Interval[1], 'f', 4, 64) + "]"
}

// Footnote is the sentence a Markdown report writes under a table whose
// values carry intervals, naming the settings; "" when ci is nil.
func (ci *CI) Footnote() string {
	if ci == nil {
		return ""
	}
	return "In brackets: " + strconv.FormatFloat(100*ci.Level, 'g', -1, 64) + "% bootstrap percentile intervals, " +
		strconv.Itoa(ci.Replicates) + " replicates over " + ci.Unit + "s, seed " + strconv.FormatUint(ci.Seed, 10) + ".\n"
}
