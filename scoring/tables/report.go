package tables

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/docscore/docscore/scoring/internal/workpool"
	"github.com/docscore/docscore/scoring/stats"
)

// Key is a table's key: its file's id, "#", its number in the file
// ("0001#1"; "#2" for the second table of a single file).
type Key = string

// Side is one side's tables by key, in the order read.
type Side struct {
	Keys   []Key
	Tables map[Key]*Node
}

// Add adds a file's tables under id: keys id#1, id#2, …; a key given
// twice is an error.
func (s *Side) Add(id string, ts []Table) error {
	if s.Tables == nil {
		s.Tables = map[Key]*Node{}
	}
	for _, t := range ts {
		k := id + t.ID
		if _, dup := s.Tables[k]; dup {
			return fmt.Errorf("table %s given twice", k)
		}
		s.Tables[k] = t.Root
		s.Keys = append(s.Keys, k)
	}
	return nil
}

// Run is one model's predictions in one phase and run.
type Run struct {
	Model, Phase, Run string
	Pred              Side
}

// Options choose what a scoring computes and bound its work.
type Options struct {
	// THAsTD reads th as td in TEDS (docling-eval's reading).
	THAsTD bool
	// MaxTEDCells and MaxGridPairs cap one table's work (TEDSOptions,
	// GriTSOptions); 0 for the defaults.
	MaxTEDCells, MaxGridPairs int
	// Jobs is the number of goroutines scoring tables; 0 or 1 for one.
	Jobs int
	// Bootstrap, CILevel and Seed set the cells' intervals (SPEC F);
	// Bootstrap 0 leaves them out.
	Bootstrap int
	CILevel   float64
	Seed      uint64
	// Err, when set, is polled between tables: a non-nil answer stops the
	// scoring with that error.
	Err func() error
}

// TableScore is one table of one run scored: null scores for a pair over
// the work cap (Status "too_large"); a missing prediction scores 0
// (Status "missing"), as PubTabNet scores an absent one.
type TableScore struct {
	Model        string   `json:"model"`
	Phase        string   `json:"phase"`
	Run          string   `json:"run"`
	Table        string   `json:"table"`
	Status       string   `json:"status"`
	TEDS         *float64 `json:"teds"`
	TEDSS        *float64 `json:"teds_s"`
	GriTSTop     *float64 `json:"grits_top"`
	GriTSCon     *float64 `json:"grits_con"`
	GTElements   int      `json:"gt_elements"`
	PredElements int      `json:"pred_elements"`
}

// Cell is one (model, phase): the means of its tables' scores over the
// non-null ones, and their intervals.
type Cell struct {
	Model    string    `json:"model"`
	Phase    string    `json:"phase"`
	Tables   int       `json:"tables"`
	Runs     int       `json:"runs"`
	Missing  int       `json:"missing"`
	TooLarge int       `json:"too_large"`
	TEDS     *float64  `json:"teds"`
	TEDSS    *float64  `json:"teds_s"`
	GriTSTop *float64  `json:"grits_top"`
	GriTSCon *float64  `json:"grits_con"`
	CI       *stats.CI `json:"ci,omitempty"`
}

// Report is a tables scoring (SPEC H.4): its cells, then every table
// scored, each cell's worst tables first (lowest TEDS, then GriTS-Con),
// and the predicted tables no ground truth has.
type Report struct {
	Kind      string       `json:"kind"`
	THAsTD    bool         `json:"th_as_td"`
	Cells     []Cell       `json:"cells"`
	Tables    []TableScore `json:"tables"`
	Unmatched []Unmatched  `json:"unmatched"`
}

// Unmatched is a predicted table without a ground-truth table of its key.
type Unmatched struct {
	Model string `json:"model"`
	Phase string `json:"phase"`
	Run   string `json:"run"`
	Table string `json:"table"`
}

func f64(v float64) *float64 { return &v }

// Score scores every run against the ground truth.
func Score(gt Side, runs []Run, o Options) (*Report, error) {
	rep := &Report{Kind: "tables", THAsTD: o.THAsTD, Tables: []TableScore{}, Unmatched: []Unmatched{}}
	type job struct {
		run *Run
		key Key
	}
	var jobs []job
	for i := range runs {
		r := &runs[i]
		for _, k := range gt.Keys {
			jobs = append(jobs, job{r, k})
		}
		for _, k := range r.Pred.Keys {
			if _, ok := gt.Tables[k]; !ok {
				rep.Unmatched = append(rep.Unmatched, Unmatched{r.Model, r.Phase, r.Run, k})
			}
		}
	}
	scores := make([]TableScore, len(jobs))
	workers := max(o.Jobs, 1)
	scorers := make(chan *Scorer, workers)
	for range workers {
		scorers <- new(Scorer)
	}
	err := workpool.Run(len(jobs), workers, func(k int) error {
		if o.Err != nil {
			if err := o.Err(); err != nil {
				return err
			}
		}
		s := <-scorers
		defer func() { scorers <- s }()
		j := jobs[k]
		ts, err := s.scoreTable(j.run.Pred.Tables[j.key], gt.Tables[j.key], o)
		if err != nil {
			return fmt.Errorf("table %s (model %q, phase %q, run %q): %w", j.key, j.run.Model, j.run.Phase, j.run.Run, err)
		}
		ts.Model, ts.Phase, ts.Run, ts.Table = j.run.Model, j.run.Phase, j.run.Run, j.key
		scores[k] = ts
		return nil
	})
	if err != nil {
		return nil, err
	}
	type mp struct{ model, phase string }
	index := map[mp]int{}
	var rows [][]TableScore
	for _, ts := range scores {
		k := mp{ts.Model, ts.Phase}
		i, ok := index[k]
		if !ok {
			i = len(rep.Cells)
			index[k] = i
			rep.Cells = append(rep.Cells, Cell{Model: ts.Model, Phase: ts.Phase})
			rows = append(rows, nil)
		}
		rows[i] = append(rows[i], ts)
	}
	var ciOpts stats.Options
	if o.Bootstrap > 0 {
		if ciOpts, err = stats.IntervalOptions(o.Bootstrap, o.CILevel, o.Seed); err != nil {
			return nil, err
		}
	}
	for i := range rep.Cells {
		c := &rep.Cells[i]
		rs := rows[i]
		fillCell(c, rs)
		sort.SliceStable(rs, func(a, b int) bool { return worse(&rs[a], &rs[b]) })
		rep.Tables = append(rep.Tables, rs...)
		if o.Bootstrap > 0 {
			if c.CI, err = stats.Interval(CellStats(c.Model, c.Phase, rs), ciOpts); err != nil {
				return nil, err
			}
		}
	}
	if rep.Cells == nil {
		rep.Cells = []Cell{}
	}
	return rep, nil
}

// scoreTable computes the four scores of one pair.
func (s *Scorer) scoreTable(pred, gt *Node, o Options) (TableScore, error) {
	ts := TableScore{Status: "ok", GTElements: countElements(gt) - 1}
	if pred == nil {
		ts.Status = "missing"
	} else {
		ts.PredElements = countElements(pred) - 1
	}
	to := TEDSOptions{THAsTD: o.THAsTD, MaxCells: o.MaxTEDCells}
	t, err := s.TEDS(pred, gt, to)
	if err == ErrTooLarge {
		ts.Status = "too_large"
		return ts, nil
	}
	if err != nil {
		return ts, err
	}
	to.StructureOnly = true
	ts2, err := s.TEDS(pred, gt, to)
	if err != nil {
		return ts, err
	}
	g, err := GriTS(pred, gt, GriTSOptions{MaxGridPairs: o.MaxGridPairs})
	if err == ErrTooLarge {
		ts.Status = "too_large"
		return ts, nil
	}
	if err != nil {
		return ts, err
	}
	ts.TEDS, ts.TEDSS, ts.GriTSTop, ts.GriTSCon = f64(t), f64(ts2), f64(g.Top), f64(g.Con)
	return ts, nil
}

// worse orders a cell's rows worst first: by TEDS, then GriTS-Con, null
// scores last, then by table and run.
func worse(a, b *TableScore) bool {
	if c := cmpScore(a.TEDS, b.TEDS); c != 0 {
		return c < 0
	}
	if c := cmpScore(a.GriTSCon, b.GriTSCon); c != 0 {
		return c < 0
	}
	if a.Table != b.Table {
		return a.Table < b.Table
	}
	return a.Run < b.Run
}

func cmpScore(a, b *float64) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return 1
	case b == nil:
		return -1
	case *a < *b:
		return -1
	case *a > *b:
		return 1
	}
	return 0
}

func fillCell(c *Cell, rs []TableScore) {
	var sum [4]float64
	var n [4]int
	tables := map[string]bool{}
	runs := map[string]bool{}
	for i := range rs {
		r := &rs[i]
		tables[r.Table], runs[r.Run] = true, true
		switch r.Status {
		case "missing":
			c.Missing++
		case "too_large":
			c.TooLarge++
		}
		for j, v := range []*float64{r.TEDS, r.TEDSS, r.GriTSTop, r.GriTSCon} {
			if v != nil {
				sum[j] += *v
				n[j]++
			}
		}
	}
	c.Tables, c.Runs = len(tables), len(runs)
	out := []**float64{&c.TEDS, &c.TEDSS, &c.GriTSTop, &c.GriTSCon}
	for j := range out {
		if n[j] > 0 {
			*out[j] = f64(sum[j] / float64(n[j]))
		}
	}
}

// CellStats builds a cell's units for SPEC F (stats.TablesCell): one
// unit per table, its runs' scores added.
func CellStats(model, phase string, rs []TableScore) *stats.Cell {
	rows := make([]stats.TablesRow, len(rs))
	for i := range rs {
		r := &rs[i]
		rows[i] = stats.TablesRow{Table: r.Table, Scores: [4]*float64{r.TEDS, r.TEDSS, r.GriTSTop, r.GriTSCon}}
	}
	return stats.TablesCell(model, phase, rows)
}

// WriteJSON is the report as JSON, two-space indented.
func (r *Report) WriteJSON() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func num(v *float64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(*v, 'g', -1, 64)
}

// WriteCSV is one row per table scored, in the report's order.
func (r *Report) WriteCSV() ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"model", "phase", "run", "table", "status", "teds", "teds_s", "grits_top", "grits_con", "gt_elements", "pred_elements"})
	for _, t := range r.Tables {
		w.Write([]string{t.Model, t.Phase, t.Run, t.Table, t.Status, num(t.TEDS), num(t.TEDSS), num(t.GriTSTop), num(t.GriTSCon),
			strconv.Itoa(t.GTElements), strconv.Itoa(t.PredElements)})
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}

func f4(v *float64) string {
	if v == nil {
		return "–"
	}
	return fmt.Sprintf("%.4f", *v)
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// withCI is a mean with its interval, "0.9116 [0.8070, 0.9978]", marked †
// when the interval comes from fewer than stats.FewUnits tables.
func withCI(v *float64, ci *stats.CI, name string) string {
	s := f4(v)
	if ci == nil || v == nil {
		return s
	}
	si, ok := ci.Get(name)
	if !ok || si.Interval == nil {
		return s
	}
	s += fmt.Sprintf(" [%.4f, %.4f]", si.Interval[0], si.Interval[1])
	if ci.FewUnits {
		s += " †"
	}
	return s
}

// cellName names a cell in a heading: "model phase", or "all tables" for
// the one unnamed cell of a --gt/--pred scoring.
func cellName(c Cell) string {
	if c.Model == "" && c.Phase == "" {
		return "all tables"
	}
	return strings.TrimSpace(mdEscape(c.Model) + " " + mdEscape(c.Phase))
}

// WriteMarkdown is the cells' means, then each cell's ten worst tables.
func (r *Report) WriteMarkdown() ([]byte, error) {
	var b strings.Builder
	b.WriteString("# Tables\n\n| model | phase | tables | TEDS | TEDS-S | GriTS-Top | GriTS-Con |\n|---|---|---:|---:|---:|---:|---:|\n")
	few := false
	for _, c := range r.Cells {
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %s | %s | %s |\n", mdEscape(c.Model), mdEscape(c.Phase), c.Tables,
			withCI(c.TEDS, c.CI, "teds"), withCI(c.TEDSS, c.CI, "teds_s"), withCI(c.GriTSTop, c.CI, "grits_top"), withCI(c.GriTSCon, c.CI, "grits_con"))
		few = few || (c.CI != nil && c.CI.FewUnits)
	}
	if few {
		b.WriteString("\n" + stats.FewUnitsNote("table") + "\n")
	}
	for _, c := range r.Cells {
		fmt.Fprintf(&b, "\n## Worst tables: %s\n\n| table | run | status | TEDS | TEDS-S | GriTS-Top | GriTS-Con |\n|---|---|---|---:|---:|---:|---:|\n", cellName(c))
		n := 0
		for _, t := range r.Tables {
			if t.Model != c.Model || t.Phase != c.Phase {
				continue
			}
			if n == 10 {
				break
			}
			n++
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", mdEscape(t.Table), mdEscape(t.Run), t.Status,
				f4(t.TEDS), f4(t.TEDSS), f4(t.GriTSTop), f4(t.GriTSCon))
		}
	}
	if len(r.Unmatched) > 0 {
		fmt.Fprintf(&b, "\n%d predicted tables have no ground truth (listed in the JSON report).\n", len(r.Unmatched))
	}
	return []byte(b.String()), nil
}
