package api

import (
	"strings"

	"github.com/docscore/docscore/scoring/param"
	"github.com/docscore/docscore/scoring/stats"
	"github.com/docscore/docscore/scoring/tabular"
)

// IntervalOptions are the confidence-interval options of a scoring
// request (SPEC F.4), embedded in TabularRequest and the receipts
// request; each is also an HTTP query parameter. A field left out takes
// SPEC's default: 2000 replicates, level 0.95, seed 0.
type IntervalOptions struct {
	// Bootstrap is the number of bootstrap replicates, 0 to 1000000; 0
	// leaves the "ci" members out (--bootstrap).
	Bootstrap *int `json:"bootstrap,omitempty"`
	// CILevel is the intervals' level, strictly between 0 and 1
	// (--ci-level).
	CILevel *float64 `json:"ci_level,omitempty"`
	// Seed is xored into every random stream (--seed).
	Seed *uint64 `json:"seed,omitempty"`
}

// Validate checks the options given: a *ParamError naming "bootstrap" or
// "ci_level" for a value out of range (NaN and the infinities included).
func (o IntervalOptions) Validate() error {
	if o.Bootstrap != nil {
		if err := stats.CheckReplicates("bootstrap", *o.Bootstrap); err != nil {
			return &ParamError{Param: "bootstrap", Msg: strings.TrimPrefix(err.Error(), "bootstrap ")}
		}
	}
	if o.CILevel != nil {
		if err := param.Float("ci_level", *o.CILevel, stats.LevelRange); err != nil {
			return &ParamError{Param: "ci_level", Msg: strings.TrimPrefix(err.Error(), "ci_level ")}
		}
	}
	return nil
}

// Settings returns the options with SPEC's defaults applied: replicates
// (0: no intervals), level and seed.
func (o IntervalOptions) Settings() (replicates int, level float64, seed uint64) {
	replicates, level = stats.DefaultReplicates, stats.DefaultLevel
	if o.Bootstrap != nil {
		replicates = *o.Bootstrap
	}
	if o.CILevel != nil {
		level = *o.CILevel
	}
	if o.Seed != nil {
		seed = *o.Seed
	}
	return replicates, level, seed
}

// tabular returns the options as the tabular scorer takes them.
func (o IntervalOptions) tabular() tabular.Intervals {
	b, l, s := o.Settings()
	return tabular.Intervals{Bootstrap: b, CILevel: l, Seed: s}
}
