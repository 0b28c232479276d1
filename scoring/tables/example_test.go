package tables_test

import (
	"fmt"

	"github.com/docscore/docscore/scoring/tables"
)

func ExampleTEDS() {
	gt, _ := tables.ParseHTML(`<table><tr><td>Name</td><td>Score</td></tr><tr><td>Ada</td><td>12</td></tr></table>`)
	pred, _ := tables.ParseHTML(`<table><tr><td>Name</td><td>Score</td></tr><tr><td>Ada</td><td>13</td></tr></table>`)
	teds, _ := tables.TEDS(pred, gt, tables.TEDSOptions{})
	structure, _ := tables.TEDS(pred, gt, tables.TEDSOptions{StructureOnly: true})
	fmt.Printf("TEDS %.4f, TEDS-S %.4f\n", teds, structure)
	// Output: TEDS 0.9167, TEDS-S 1.0000
}

func ExampleGriTS() {
	gt, _ := tables.ParseHTML(`<table><tr><td colspan="2">Total</td></tr><tr><td>1</td><td>2</td></tr></table>`)
	pred, _ := tables.ParseHTML(`<table><tr><td>Total</td><td></td></tr><tr><td>1</td><td>2</td></tr></table>`)
	g, _ := tables.GriTS(pred, gt, tables.GriTSOptions{})
	fmt.Printf("GriTS-Top %.4f, GriTS-Con %.4f\n", g.Top, g.Con)
	// Output: GriTS-Top 0.7500, GriTS-Con 0.7500
}
