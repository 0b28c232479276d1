//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/docscore/docscore/sample"
)

// TestTablesViewEqualsTheCLI opens the tables view from the main page's
// link, loads the tables sample and checks that the report is the bytes
// of "docscore score tables" on the same files, that the cells show the
// report's means, and that the worst table's two grids are drawn with at
// least one cell marked as differing and a real span.
func TestTablesViewEqualsTheCLI(t *testing.T) {
	ctx, _ := newTab(t, 90*time.Second)
	root, err := filepath.Abs(filepath.Join("..", "..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	want := cliRun(t, root, "score", "tables", "--gt", "sample/tables/gt.html", "--runs", "sample/tables/runs.jsonl")
	if err := chromedp.Do(ctx,
		chromedp.Navigate(siteURL),
		chromedp.Click("#tables-link"),
		chromedp.WaitVisible("#tables-load-sample"),
		chromedp.Click("#tables-load-sample"),
	); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`Number(document.body.dataset.tablesDetail || 0) > 0`,
		chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("waiting for the tables view: %v", err)
	}
	got := evalString(t, ctx, `globalThis.docscoreTablesReport || document.getElementById('tables-status').textContent`)
	if got != string(want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		t.Fatalf("the page's report differs from the CLI's at byte %d:\npage: %.200q\ncli:  %.200q", i, got[i:], want[i:])
	}
	var rep struct {
		Cells []map[string]json.RawMessage
	}
	dec := json.NewDecoder(bytes.NewReader(want))
	dec.UseNumber()
	if err := dec.Decode(&rep); err != nil {
		t.Fatal(err)
	}
	var shown [][]string
	evalJSON(t, ctx, `JSON.stringify([...document.querySelectorAll('#tables-cells tbody tr')].map((tr) =>
		[...tr.querySelectorAll('td[data-stat]')].map((td) => td.dataset.stat + '=' + td.dataset.value)))`, &shown)
	if len(shown) != len(rep.Cells) {
		t.Fatalf("%d cells shown, the report has %d", len(shown), len(rep.Cells))
	}
	for i, c := range rep.Cells {
		for j, k := range []string{"teds", "teds_s", "grits_top", "grits_con"} {
			if w := k + "=" + string(c[k]); shown[i][j] != w {
				t.Errorf("cell %d: shown %s, report %s", i, shown[i][j], w)
			}
		}
	}
	var grids struct {
		GT, Pred, Differs, Spans int
	}
	evalJSON(t, ctx, `JSON.stringify({
		GT: document.querySelectorAll('#tables-gt table.grid td, #tables-gt table.grid th').length,
		Pred: document.querySelectorAll('#tables-pred table.grid td, #tables-pred table.grid th').length,
		Differs: document.querySelectorAll('#tables-detail-s .grid .differs').length,
		Spans: [...document.querySelectorAll('#tables-detail-s .grid td, #tables-detail-s .grid th')].filter((c) => c.rowSpan > 1 || c.colSpan > 1).length,
	})`, &grids)
	if grids.GT == 0 || grids.Pred == 0 || grids.Differs == 0 {
		t.Errorf("grids: %+v; want both drawn and at least one differing cell", grids)
	}
	// The second table of model-b merges two cells: a colspan of 2.
	idx := -1
	evalJSON(t, ctx, `JSON.stringify(JSON.parse(globalThis.docscoreTablesReport).tables.findIndex((r) => r.model === 'model-b' && r.table === '#2'))`, &idx)
	n := generationOf(t, ctx, "tablesDetail")
	if err := chromedp.Do(ctx, chromedp.Click(`#tables-list button[data-index="`+itoa(idx)+`"]`)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`Number(document.body.dataset.tablesDetail || 0) > `+itoa(n),
		chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatal(err)
	}
	var spans int
	evalJSON(t, ctx, `JSON.stringify([...document.querySelectorAll('#tables-pred .grid .differs')].filter((c) => c.colSpan === 2).length)`, &spans)
	if spans == 0 {
		t.Errorf("model-b's table #2: no merged cell drawn with colspan 2 and marked")
	}
	screenshot(t, ctx, "#tables-detail-h", "site-tables.png")
}

func generationOf(t *testing.T, ctx context.Context, key string) int {
	t.Helper()
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`Number(document.body.dataset.`+key+` || 0)`))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestTablesViewDroppedFiles drops a ground-truth file and one model's
// predicted file on the tables view: the report is the command line's on
// the same two files, and the worst table's grids are drawn.
func TestTablesViewDroppedFiles(t *testing.T) {
	ctx, _ := newTab(t, 90*time.Second)
	dir := t.TempDir()
	var paths []string
	for _, name := range []string{"gt.html", "model-b.html"} {
		b, err := fs.ReadFile(sample.Tables, "tables/"+name)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	want := cliRun(t, dir, "score", "tables", "--gt", "gt.html", "--pred", "model-b.html")
	if err := chromedp.Do(ctx, chromedp.Click("#tables-link"), chromedp.WaitVisible("#tables-load-sample"), drop(paths...)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`Number(document.body.dataset.tablesDetail || 0) > 0`,
		chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("waiting for the tables view: %v (status %q)", err, evalString(t, ctx, `document.getElementById('tables-status').textContent`))
	}
	if got := evalString(t, ctx, `globalThis.docscoreTablesReport || ''`); got != string(want) {
		t.Fatalf("the page's report of the dropped files differs from the CLI's:\npage:\n%.400s\ncli:\n%.400s", got, want)
	}
	var differs int
	evalJSON(t, ctx, `JSON.stringify(document.querySelectorAll('#tables-detail-s .grid .differs').length)`, &differs)
	if differs == 0 {
		t.Errorf("the worst table of the dropped files: no differing cell marked")
	}
}
