package stats

// Tables component indices (SPEC H.4): each of a table's four scores is
// the pair (score, 1), or (0, 0) when it is null (a pair over the work
// cap), so that a draw's mean over its non-null tables is a ratio of
// sums.
const (
	TblTEDSSum = iota
	TblTEDSCount
	TblTEDSSSum
	TblTEDSSCount
	TblGriTSTopSum
	TblGriTSTopCount
	TblGriTSConSum
	TblGriTSConCount
	tblWidth
)

// TablesSchema returns the schema of a tables cell: the means of teds,
// teds_s, grits_top and grits_con over its tables, the table being the
// unit (SPEC H.4).
func TablesSchema() *Schema {
	return &Schema{
		Family: "tables",
		Unit:   "table",
		Width:  tblWidth,
		Components: []string{"teds_sum", "teds_count", "teds_s_sum", "teds_s_count",
			"grits_top_sum", "grits_top_count", "grits_con_sum", "grits_con_count"},
		Stats: []Stat{
			{Name: "teds", Kind: Ratio, Num: TblTEDSSum, Den: TblTEDSCount},
			{Name: "teds_s", Kind: Ratio, Num: TblTEDSSSum, Den: TblTEDSSCount},
			{Name: "grits_top", Kind: Ratio, Num: TblGriTSTopSum, Den: TblGriTSTopCount},
			{Name: "grits_con", Kind: Ratio, Num: TblGriTSConSum, Den: TblGriTSConCount},
		},
		Movement: 0,
	}
}

// TablesID returns the id of a tables cell: tables/<model>/<phase>.
func TablesID(model, phase string) string { return "tables/" + model + "/" + phase }

// TablesRow is one table row of a tables report as its cell's units
// read it: the table's key and its teds, teds_s, grits_top and grits_con
// (nil when null).
type TablesRow struct {
	Table  string
	Scores [4]*float64
}

// TablesCell builds a tables cell: one unit per table, each score the
// pair (score, 1) per row, (0, 0) when null, a table's rows (its runs)
// added. The scoring and docscore compare build it from the same rows.
func TablesCell(model, phase string, rows []TablesRow) *Cell {
	schema := TablesSchema()
	b := NewBuilder(TablesID(model, phase), schema)
	v := make([]float64, schema.Width)
	for _, r := range rows {
		clear(v)
		for j, s := range r.Scores {
			if s != nil {
				v[2*j], v[2*j+1] = *s, 1
			}
		}
		if err := b.Add(r.Table, v); err != nil {
			b.Unit(r.Table)
		}
	}
	return b.Build()
}
