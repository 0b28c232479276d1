package tables

// GridCell is one cell of a table laid out on its grid, as GriTS reads
// it: its first row and column, its spans, its text, and whether the
// other table lacks a cell at the same place with the same spans and text.
type GridCell struct {
	Row     int    `json:"row"`
	Col     int    `json:"col"`
	Rowspan int    `json:"rowspan"`
	Colspan int    `json:"colspan"`
	Header  bool   `json:"header"`
	Text    string `json:"text"`
	Differs bool   `json:"differs"`
}

// Grid is a table's cells and the size of its grid.
type Grid struct {
	Rows  int        `json:"rows"`
	Cols  int        `json:"cols"`
	Cells []GridCell `json:"cells"`
}

// TableDetail is one table's drill-down: its scores and both tables as
// grids, side by side on the page.
type TableDetail struct {
	Table string     `json:"table"`
	Score TableScore `json:"score"`
	GT    Grid       `json:"gt"`
	Pred  *Grid      `json:"pred"` // null when the prediction has no such table
}

func gridOf(root *Node) Grid {
	cs := cells(root, 1000)
	g := Grid{Cells: make([]GridCell, 0, len(cs))}
	for _, c := range cs {
		g.Rows, g.Cols = max(g.Rows, c.rows[1]), max(g.Cols, c.cols[1])
		g.Cells = append(g.Cells, GridCell{Row: c.rows[0], Col: c.cols[0], Rowspan: c.rows[1] - c.rows[0],
			Colspan: c.cols[1] - c.cols[0], Header: c.header, Text: c.text})
	}
	return g
}

type place struct{ r, c, rs, cs int }

// mark sets Differs on each cell of a that b has no twin of.
func mark(a, b *Grid) {
	have := map[place][]string{}
	for _, c := range b.Cells {
		p := place{c.Row, c.Col, c.Rowspan, c.Colspan}
		have[p] = append(have[p], c.Text)
	}
	for i := range a.Cells {
		c := &a.Cells[i]
		c.Differs = true
		for _, t := range have[place{c.Row, c.Col, c.Rowspan, c.Colspan}] {
			if t == c.Text {
				c.Differs = false
				break
			}
		}
	}
}

// Detail scores one table and lays out both sides for the page.
func Detail(key string, pred, gt *Node, o Options) (*TableDetail, error) {
	var s Scorer
	ts, err := s.scoreTable(pred, gt, o)
	if err != nil {
		return nil, err
	}
	ts.Table = key
	d := &TableDetail{Table: key, Score: ts, GT: gridOf(gt)}
	if pred != nil {
		p := gridOf(pred)
		mark(&d.GT, &p)
		mark(&p, &d.GT)
		d.Pred = &p
	} else {
		for i := range d.GT.Cells {
			d.GT.Cells[i].Differs = true
		}
	}
	return d, nil
}
