package stats

import (
	"fmt"
	"math"
	"sort"
)

// Side names one side of a comparison: {"model", "phase", "id"}, the model
// left out for receipts (SPEC F.5).
type Side struct {
	Model *string `json:"model,omitempty"`
	Phase string  `json:"phase"`
	ID    string  `json:"id"`
}

// TabularSide returns the side of a tabular cell.
func TabularSide(model, phase, id string) Side { return Side{Model: &model, Phase: phase, ID: id} }

// ReceiptsSide returns the side of a receipts phase.
func ReceiptsSide(phase, id string) Side { return Side{Phase: phase, ID: id} }

// Kept counts the replicates and rounds on which a difference was defined.
type Kept struct {
	Bootstrap    int `json:"bootstrap"`
	Permutations int `json:"permutations"`
}

// StatComparison is one statistic of a paired comparison (SPEC F.5, F.6).
// A, B and Delta are computed over the paired units only; nil is null.
type StatComparison struct {
	Name  string `json:"-"`
	Group string `json:"-"`
	// LowerIsBetter is copied from the statistic (name CER).
	LowerIsBetter bool     `json:"-"`
	A             *float64 `json:"a"`
	B             *float64 `json:"b"`
	Delta         *float64 `json:"delta"`
	CI            *Range   `json:"ci"`
	P             *float64 `json:"p"`
	// PHolm, Significant and Better are set by NewReport, across the
	// report's comparisons.
	PHolm       *float64 `json:"p_holm"`
	Significant bool     `json:"significant"`
	Better      *string  `json:"better"` // "a", "b" or null
	// MinP is the floor of the sign-flip test's p-value, 2^(1−n) for the
	// UnitsDiffer paired units whose contributions to the statistic
	// differ (SPEC F.7).
	MinP        float64 `json:"min_p"`
	UnitsDiffer int     `json:"-"`
	// CanBeSignificant, set by NewReport, is MinP times the number of
	// comparisons in the statistic's Holm family ≤ α, the delta defined.
	CanBeSignificant bool `json:"can_be_significant"`
	// MDE is the minimum detectable effect at 80 % power for α and the
	// paired units where the statistic is defined on both sides, from
	// their differences' standard deviation; nil (null) under two units.
	MDE *float64 `json:"mde"`
	// UnitsNeeded, set by NewReport when the options name an effect, is
	// the paired units needed to detect it (UnitsNeeded); nil is null.
	UnitsNeeded *int `json:"units_needed,omitempty"`
	Kept        Kept `json:"kept"`
	// sd is the per-unit differences' standard deviation, defined
	// (spread) from two units, for NewReport's units_needed.
	sd     float64
	spread bool
}

// Path is the statistic's name with its group: "f1", "fields.title".
func (s *StatComparison) Path() string { return (&Stat{Name: s.Name, Group: s.Group}).Path() }

// Movement lists the paired units whose own score rose or fell from A to
// B, each ordered by |change| descending, then id, and counts those that
// stayed (SPEC F.5). A unit whose score is undefined on either side is in
// no list and not counted.
type Movement struct {
	Rose []string `json:"rose"`
	Fell []string `json:"fell"`
	Same int      `json:"same"`
}

// Comparison is the paired comparison of cell A (baseline) with cell B.
type Comparison struct {
	A           Side     `json:"a"`
	B           Side     `json:"b"`
	UnitsPaired int      `json:"units_paired"`
	UnitsOnlyA  []string `json:"units_only_a"`
	UnitsOnlyB  []string `json:"units_only_b"`
	// FewUnits marks a comparison whose intervals come from fewer than
	// FewUnits paired units (SPEC F.7); written only when true, and only
	// with intervals.
	FewUnits bool `json:"few_units,omitempty"`
	// Stats are in the cells' order; MarshalJSON writes them under
	// "stats", grouped ones inside their group's object.
	Stats    []StatComparison `json:"-"`
	Movement Movement         `json:"movement"`
}

// Get returns the named statistic ("f1", "fields.title").
func (c *Comparison) Get(path string) (*StatComparison, bool) {
	for i := range c.Stats {
		if c.Stats[i].Path() == path {
			return &c.Stats[i], true
		}
	}
	return nil, false
}

// pTolerance is the slack in the randomization test's |d_r| ≥ |d|
// (SPEC F.5).
const pTolerance = 1e-12

// Compare compares cell a (baseline) with cell b on the units both have
// (SPEC F.5): the observed differences, their bootstrap intervals from
// the stream boot:<a.ID>|<b.ID>, randomization p-values from the stream
// perm:<a.ID>|<b.ID>, and the movement lists. Sides carry the cells' ids
// only; the caller names their model and phase. P-values are not yet
// adjusted: NewReport does that across a report's comparisons. Cells
// whose schemas differ (their fields differ) cannot be compared.
func Compare(a, b *Cell, o Options) (*Comparison, error) { return compare(a, b, o, true) }

// compare is Compare; with enumerate false it draws and sums every
// replicate and round even where few units make them repeat (see
// enumerate.go), which the tests use to check that both give the same
// bits.
func compare(a, b *Cell, o Options, enumerate bool) (*Comparison, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if err := a.Schema.check(); err != nil {
		return nil, err
	}
	if !sameLayout(a.Schema, b.Schema) {
		return nil, fmt.Errorf("stats: cells %q and %q score different statistics (their fields differ); they cannot be compared", a.ID, b.ID)
	}
	s, w := a.Schema, a.Schema.Width
	st := s.Stats
	cmpn := &Comparison{A: Side{ID: a.ID}, B: Side{ID: b.ID}, UnitsOnlyA: []string{}, UnitsOnlyB: []string{}}

	// Pair the units: both lists are sorted, so walk them together.
	var units []string
	var ca, cb []float64
	for i, j := 0, 0; i < len(a.units) || j < len(b.units); {
		switch {
		case j == len(b.units) || (i < len(a.units) && a.units[i] < b.units[j]):
			cmpn.UnitsOnlyA = append(cmpn.UnitsOnlyA, a.units[i])
			i++
		case i == len(a.units) || b.units[j] < a.units[i]:
			cmpn.UnitsOnlyB = append(cmpn.UnitsOnlyB, b.units[j])
			j++
		default:
			units = append(units, a.units[i])
			ca = append(ca, a.Contribution(i)...)
			cb = append(cb, b.Contribution(j)...)
			i++
			j++
		}
	}
	n := len(units)
	cmpn.UnitsPaired = n
	p := &paired{st: st, ca: ca, cb: cb, n: n, w: w, sa: make([]float64, w), sb: make([]float64, w)}

	// Observed: sums over the paired units in unit order.
	sa, sb := p.sa, p.sb
	for i := range n {
		addInto(sa, ca[i*w:(i+1)*w])
		addInto(sb, cb[i*w:(i+1)*w])
	}
	cmpn.Stats = make([]StatComparison, len(st))
	d := make([]float64, len(st))
	dOK := make([]bool, len(st))
	for i := range st {
		sc := &cmpn.Stats[i]
		sc.Name, sc.Group, sc.LowerIsBetter = st[i].Name, st[i].Group, st[i].LowerIsBetter
		va, okA := st[i].value(sa)
		vb, okB := st[i].value(sb)
		if okA {
			sc.A = ptr(va)
		}
		if okB {
			sc.B = ptr(vb)
		}
		if okA && okB {
			d[i], dOK[i] = vb-va, true
			sc.Delta = ptr(d[i])
		}
		var m int
		sc.sd, m, sc.UnitsDiffer = pairedSpread(&st[i], ca, cb, n, w)
		sc.spread = m >= 2
		sc.MinP = MinP(sc.UnitsDiffer)
		if mde, ok := mdeOf(sc.sd, m, o.Alpha); ok {
			sc.MDE = ptr(mde)
		}
	}
	cmpn.FewUnits = o.Replicates > 0 && n < FewUnits

	// Interval of d: B replicates of n paired draws.
	if o.Replicates > 0 {
		g := Stream(o.Seed, "boot:"+a.ID+"|"+b.ID)
		if size := sequences(n, o.Replicates); enumerate && size > 0 {
			for i, f := range p.bootstrapEnumerated(g, o.Replicates, size) {
				sc := &cmpn.Stats[i]
				sc.Kept.Bootstrap, sc.CI = weightedInterval(f, n, o.Replicates, o.Level)
			}
		} else {
			values, err := p.bootstrap(g, o.Replicates, &o)
			if err != nil {
				return nil, err
			}
			for i, v := range values {
				cmpn.Stats[i].Kept.Bootstrap = len(v)
				cmpn.Stats[i].CI = percentileInterval(v, n, o.Replicates, o.Level)
			}
		}
	}

	// p-values: R rounds of per-unit coin flips swapping the sides.
	if o.Permutations > 0 {
		g := Stream(o.Seed, "perm:"+a.ID+"|"+b.ID)
		kept, count := make([]int, len(st)), make([]int, len(st))
		if enumerate && n <= maxPatternUnits && 1<<n <= o.Permutations {
			p.permuteEnumerated(g, o.Permutations, d, kept, count)
		} else {
			if err := p.permute(g, o.Permutations, d, kept, count, &o); err != nil {
				return nil, err
			}
		}
		for i := range st {
			cmpn.Stats[i].Kept.Permutations = kept[i]
			if dOK[i] {
				cmpn.Stats[i].P = ptr(float64(count[i]+1) / float64(kept[i]+1))
			}
		}
	}

	cmpn.Movement = movement(&st[s.Movement], units, ca, cb, w)
	return cmpn, nil
}

// paired is a comparison's paired units: their A and B contributions
// (n vectors of w components each, in unit order) and two vectors of w
// sums to draw into.
type paired struct {
	st     []Stat
	ca, cb []float64
	n, w   int
	sa, sb []float64
}

// bootstrap draws the replicates of the interval of d from g, each
// summed on its own, and returns each statistic's defined differences in
// replicate order.
func (p *paired) bootstrap(g *SplitMix64, replicates int, o *Options) ([][]float64, error) {
	values := make([][]float64, len(p.st))
	for i := range values {
		values[i] = make([]float64, 0, replicates)
	}
	for r := range replicates {
		if err := o.stopped(r); err != nil {
			return nil, err
		}
		drawSum2(g, p.ca, p.cb, p.n, p.w, p.sa, p.sb)
		for i := range p.st {
			if dv, ok := diff(&p.st[i], p.sa, p.sb); ok {
				values[i] = append(values[i], dv)
			}
		}
	}
	return values, nil
}

// permute plays the randomization rounds from g, each summed on its own:
// kept[i] counts the rounds on which statistic i's difference is defined,
// count[i] those among them at least as far from 0 as d[i].
func (p *paired) permute(g *SplitMix64, rounds int, d []float64, kept, count []int, o *Options) error {
	for r := range rounds {
		if err := o.stopped(r); err != nil {
			return err
		}
		swapSum(g, p.ca, p.cb, p.n, p.w, p.sa, p.sb)
		p.tally(d, kept, count, 1)
	}
	return nil
}

// tally adds weight rounds of the differences on p's sums to kept and
// count.
func (p *paired) tally(d []float64, kept, count []int, weight int) {
	for i := range p.st {
		if dr, ok := diff(&p.st[i], p.sa, p.sb); ok {
			kept[i] += weight
			if math.Abs(dr) >= math.Abs(d[i])-pTolerance {
				count[i] += weight
			}
		}
	}
}

// diff is stat(B) − stat(A) on one draw's sums, undefined when either is.
func diff(s *Stat, sa, sb []float64) (float64, bool) {
	va, okA := s.value(sa)
	vb, okB := s.value(sb)
	return vb - va, okA && okB
}

// drawSum2 is one paired replicate: n indices drawn in turn, each adding
// its unit's A and B contributions. It allocates nothing.
func drawSum2(g *SplitMix64, ca, cb []float64, n, w int, sa, sb []float64) {
	clear(sa)
	clear(sb)
	for range n {
		j := g.Index(n) * w
		addInto(sa, ca[j:j+w])
		addInto(sb, cb[j:j+w])
	}
}

// swapSum is one randomization round: for each paired unit in order, a
// coin of 1 swaps its A and B contributions. It allocates nothing.
func swapSum(g *SplitMix64, ca, cb []float64, n, w int, sa, sb []float64) {
	clear(sa)
	clear(sb)
	for i := range n {
		x, y := ca[i*w:(i+1)*w], cb[i*w:(i+1)*w]
		if g.Coin() {
			x, y = y, x
		}
		addInto(sa, x)
		addInto(sb, y)
	}
}

func movement(s *Stat, units []string, ca, cb []float64, w int) Movement {
	type moved struct {
		id     string
		change float64
	}
	var rose, fell []moved
	m := Movement{Rose: []string{}, Fell: []string{}}
	for i, id := range units {
		va, okA := s.value(ca[i*w : (i+1)*w])
		vb, okB := s.value(cb[i*w : (i+1)*w])
		switch {
		case !okA || !okB:
		case vb > va:
			rose = append(rose, moved{id, vb - va})
		case vb < va:
			fell = append(fell, moved{id, va - vb})
		default:
			m.Same++
		}
	}
	// Ids are distinct, so the order is total and any sort gives it;
	// sort.Slice is already in the page's docscore.wasm, a generic
	// instance of slices.SortFunc added 20 KB of code.
	order := func(l []moved) func(i, j int) bool {
		return func(i, j int) bool {
			if l[i].change != l[j].change {
				return l[i].change > l[j].change
			}
			return l[i].id < l[j].id
		}
	}
	sort.Slice(rose, order(rose))
	sort.Slice(fell, order(fell))
	for _, r := range rose {
		m.Rose = append(m.Rose, r.id)
	}
	for _, f := range fell {
		m.Fell = append(m.Fell, f.id)
	}
	return m
}

func ptr[T any](v T) *T { return &v }
