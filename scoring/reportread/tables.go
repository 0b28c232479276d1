package reportread

import (
	"encoding/json"
	"fmt"

	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/stats"
)

// tableRow is the part of a tables report's row compare reads.
type tableRow struct {
	Model    string   `json:"model"`
	Phase    string   `json:"phase"`
	Table    string   `json:"table"`
	TEDS     *float64 `json:"teds"`
	TEDSS    *float64 `json:"teds_s"`
	GriTSTop *float64 `json:"grits_top"`
	GriTSCon *float64 `json:"grits_con"`
}

type tablesJSON struct {
	Cells *[]struct {
		Model *string `json:"model"`
		Phase *string `json:"phase"`
	} `json:"cells"`
	Tables *[]tableRow `json:"tables"`
}

// readTables rebuilds a tables report's cells from its table rows (SPEC
// H.4): one unit per table, its runs' scores added, as
// stats.TablesCell builds them when scoring.
func readTables(src *ingest.Source) (*Report, error) {
	file := src.Name()
	var r tablesJSON
	if err := json.Unmarshal(src.Bytes(), &r); err != nil {
		return nil, jsonError(src, err)
	}
	switch {
	case r.Cells == nil:
		return nil, missing(file, "", "cells", "the report's cells")
	case r.Tables == nil:
		return nil, missing(file, "", "tables", "the per-table rows")
	}
	rep := &Report{File: file, Family: "tables", Schema: stats.TablesSchema()}
	type mp struct{ model, phase string }
	rows := map[mp][]stats.TablesRow{}
	var order []mp
	for i, c := range *r.Cells {
		if c.Model == nil || c.Phase == nil {
			return nil, inputerr.New(file, 0, "cells[%d]: expected its \"model\" and \"phase\"", i)
		}
		k := mp{*c.Model, *c.Phase}
		if _, dup := rows[k]; dup {
			return nil, inputerr.New(file, 0, "cells[%d]: model %q phase %q given twice", i, *c.Model, *c.Phase)
		}
		rows[k] = []stats.TablesRow{}
		order = append(order, k)
	}
	for i, t := range *r.Tables {
		k := mp{t.Model, t.Phase}
		if _, ok := rows[k]; !ok {
			return nil, inputerr.New(file, 0, "tables[%d] (model %q, phase %q, table %q): no such cell in \"cells\"", i, t.Model, t.Phase, t.Table)
		}
		if t.Table == "" {
			return nil, inputerr.New(file, 0, "tables[%d]: expected its \"table\"", i)
		}
		rows[k] = append(rows[k], stats.TablesRow{Table: t.Table, Scores: [4]*float64{t.TEDS, t.TEDSS, t.GriTSTop, t.GriTSCon}})
	}
	for _, k := range order {
		model := k.model
		c := &Cell{Model: &model, Phase: k.phase, Stats: stats.TablesCell(k.model, k.phase, rows[k])}
		if len(c.Stats.Units()) == 0 {
			return nil, inputerr.New(file, 0, "%s", fmt.Sprintf("cell %s/%s has no table rows: compare needs the per-table rows of the JSON report of docscore score tables", k.model, k.phase))
		}
		rep.Cells = append(rep.Cells, c)
	}
	return rep, nil
}
