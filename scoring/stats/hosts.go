package stats

import (
	"strconv"

	"github.com/docscore/docscore/scoring/inputerr"

	"github.com/docscore/docscore/scoring/param"
)

// Defaults of SPEC F.4 that hosts apply when a request leaves an option
// out.
const (
	DefaultReplicates   = 2000
	DefaultLevel        = 0.95
	DefaultPermutations = 10000 // SPEC F.5
	DefaultAlpha        = 0.05  // SPEC F.5
)

// The ranges of the interval options, as every host checks them
// (param.Float names the option in the error).
var (
	// LevelRange is (0, 1): --ci-level.
	LevelRange = param.Range{Lo: 0, Hi: 1, LoOpen: true, HiOpen: true, Want: "a confidence level strictly between 0 and 1"}
	// ReplicatesRange is 0 to MaxDraws: --bootstrap (0 turns intervals off).
	ReplicatesRange = param.Range{Lo: 0, Hi: MaxDraws, Want: "a whole number of replicates from 0 to 1000000"}
	// RoundsRange is 0 to MaxDraws: --permutations (0 turns p-values off).
	RoundsRange = param.Range{Lo: 0, Hi: MaxDraws, Want: "a whole number of randomization rounds from 0 to 1000000"}
	// AlphaRange is (0, 1): --alpha.
	AlphaRange = param.Range{Lo: 0, Hi: 1, LoOpen: true, HiOpen: true, Want: "a significance level strictly between 0 and 1"}
	// EffectRange is 0 to MaxEffect: --effect (0: none).
	EffectRange = param.Range{Lo: 0, Hi: MaxEffect, Want: "a difference from 0 to 1000000 (0: none), such as 0.01"}
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

// CheckRounds checks a count of randomization rounds given as the option
// called name: 0 to MaxDraws, an input error reading "NAME N: expected
// RANGE" otherwise.
func CheckRounds(name string, n int) error {
	if n >= 0 && n <= MaxDraws {
		return nil
	}
	return inputerr.New("", 0, "%s %d: expected %s", name, n, RoundsRange)
}

// ComparisonOptions returns the options of a paired comparison (Compare)
// from a host's settings: those of IntervalOptions, rounds (0: no
// p-values) and alpha (0: DefaultAlpha), checked as the options
// --bootstrap, --ci-level, --permutations and --alpha.
func ComparisonOptions(replicates, rounds int, level, alpha float64, seed uint64) (Options, error) {
	o, err := IntervalOptions(replicates, level, seed)
	if err != nil {
		return Options{}, err
	}
	o.Permutations = rounds
	if alpha != 0 {
		o.Alpha = alpha
	}
	if err := CheckRounds("permutations", rounds); err != nil {
		return Options{}, err
	}
	if err := param.Float("alpha", o.Alpha, AlphaRange); err != nil {
		return Options{}, err
	}
	return o, nil
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
		strconv.Itoa(ci.Replicates) + " replicates over " + ci.Unit + "s, seed " + strconv.FormatUint(ci.Seed, 10) + "." + ci.fewNote() + "\n"
}

// fewNote is the warning SPEC F.7 asks for under intervals from fewer
// than FewUnits units, after a space; "" otherwise.
func (ci *CI) fewNote() string {
	if !ci.FewUnits {
		return ""
	}
	return " From " + strconv.Itoa(ci.Units) + " " + ci.Unit + "s, fewer than " + strconv.Itoa(FewUnits) +
		": a percentile interval is unreliable there (it can exclude zero while a test cannot reject)."
}

// Text is the paired interval and Holm-adjusted p of the named statistic
// of comparison i, as a Markdown table shows them after the delta: "
// [+lo, +hi], p=0.0040*" with four decimals, the star when significant;
// " [–]" for a null interval, no interval without replicates, no p when it
// is null. It is "" when the report has no such comparison or statistic.
func (r *Report) Text(i int, path string) string {
	if r == nil || i >= len(r.Comparisons) {
		return ""
	}
	s, ok := r.Comparisons[i].Get(path)
	if !ok {
		return ""
	}
	out := ""
	switch {
	case s.CI != nil:
		out = " [" + Signed(s.CI[0]) + ", " + Signed(s.CI[1]) + "]"
	case r.Replicates > 0:
		out = " [–]"
	}
	if s.PHolm != nil {
		out += ", p=" + strconv.FormatFloat(*s.PHolm, 'f', 4, 64)
		if s.Significant {
			out += "*"
		}
	}
	return out
}

// Signed is v with four decimals and its sign: "+0.0031", "-0.0120".
func Signed(v float64) string {
	s := strconv.FormatFloat(v, 'f', 4, 64)
	if s[0] != '-' {
		s = "+" + s
	}
	return s
}
