//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// loadSampleOver clicks a "Load … sample" button while files are
// dropped: the page asks first, and add says which answer to give
// (beside them, or instead of them). It waits for the scoring.
func loadSampleOver(t *testing.T, ctx context.Context, id string, add bool) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID(id)), chromedp.WaitVisible(chromedp.ID("sample-ask"))); err != nil {
		t.Fatalf("%s: the page did not ask before loading the sample over the dropped files: %v", id, err)
	}
	answer := "sample-replace"
	if add {
		answer = "sample-add"
	}
	act(t, ctx, chromedp.Click(chromedp.ID(answer)))
}

// evalString evaluates a JavaScript expression that gives a string.
func evalString(t *testing.T, ctx context.Context, expr string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return s
}

// evalBool evaluates a JavaScript expression that gives a boolean.
func evalBool(t *testing.T, ctx context.Context, expr string) bool {
	t.Helper()
	b, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return b
}

// TestSchemaAdviceForOtherColumns drops a table of its own (other columns
// than the bundled register's): the page says a schema file is needed and
// shows a minimal one for the columns it found; that schema, saved and
// dropped beside the CSV, makes it score, as the command line does with
// --schema.
func TestSchemaAdviceForOtherColumns(t *testing.T) {
	dir := t.TempDir()
	gt := filepath.Join(dir, "gt_page_01.csv")
	runs := filepath.Join(dir, "inventory.jsonl")
	os.WriteFile(gt, []byte("item,description,quantity,paid\nA-12,hex bolts,3,Y\nB-7,washers,12,N\nC-3,wing nuts,,Y\n"), 0o644)
	os.WriteFile(runs, []byte(`{"model": "m1", "phase": "p", "run": 1, "page": "01", "records": [{"item": "A-12", "description": "hex bolt", "quantity": "3", "paid": "Y"}, {"item": "B-7", "description": "washers", "quantity": "21", "paid": "N"}]}`+"\n"+
		`{"model": "m1", "phase": "p", "run": 2, "page": "01", "records": [{"item": "A-12", "description": "hex bolts", "quantity": "3", "paid": "Y"}, {"item": "C-3", "description": "wing nuts", "quantity": "", "paid": "Y"}]}`+"\n"), 0o644)
	ctx, _ := newTab(t, 2*time.Minute)
	act(t, ctx, drop(gt, runs))
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("schema-advice"))); err != nil {
		t.Fatal(err)
	}
	advice := evalString(t, ctx, `document.getElementById('schema-advice-text').textContent`)
	if !strings.Contains(advice, "gt_page_01.csv has the columns item, description, quantity, paid") || !strings.Contains(advice, "schema file") {
		t.Fatalf("advice %q", advice)
	}
	if evalBool(t, ctx, `!document.getElementById('results').hidden`) {
		t.Fatal("results shown for a table without its schema")
	}
	link := evalString(t, ctx, `document.getElementById('schema-link').href`)
	if !strings.HasPrefix(link, origin+"/") || !strings.HasSuffix(link, "#schema-file-other-tables") {
		t.Fatalf("schema format link %q: want the formats page served with the site", link)
	}
	text := evalString(t, ctx, `document.getElementById('schema-text').textContent`)
	var schema struct {
		Key     string `json:"key"`
		Columns []struct{ Name, Kind string }
	}
	if err := json.Unmarshal([]byte(text), &schema); err != nil {
		t.Fatalf("suggested schema %q: %v", text, err)
	}
	if schema.Key != "item" || len(schema.Columns) != 3 || schema.Columns[1].Name != "quantity" || schema.Columns[1].Kind != "integer" || schema.Columns[2].Kind != "yesno" {
		t.Fatalf("suggested schema %+v", schema)
	}
	// The schema, saved as the page shows it and dropped beside the CSV.
	schemaPath := filepath.Join(dir, "schema.json")
	os.WriteFile(schemaPath, []byte(text), 0o644)
	act(t, ctx, drop(schemaPath))
	if !evalBool(t, ctx, `document.getElementById('schema-advice').hidden && !document.getElementById('results').hidden && document.getElementById('error').hidden`) {
		t.Fatalf("with the schema dropped the table did not score: status %q", evalString(t, ctx, `document.getElementById('status').textContent`))
	}
	want := cliRun(t, dir, "score", "tabular", "--gt", "gt_page_01.csv", "--runs", "inventory.jsonl", "--schema", "schema.json", "--format", "json")
	if got := download(t, ctx, "json"); !bytes.Equal(got, want) {
		t.Errorf("downloaded JSON differs from docscore score tabular --schema schema.json")
	}
	// The formats page is served with the site and has the schema section.
	if err := chromedp.Do(ctx, chromedp.Navigate(link), chromedp.WaitVisible(`#schema-file-other-tables`)); err != nil {
		t.Fatalf("the formats page: %v", err)
	}
}

// TestNarrowLayout390 loads the sample at 390 px wide (a phone): the
// document is no wider than the viewport, the cells table scrolls inside
// its box with its first column fixed, the chart's text keeps a readable
// size on an axis that fits the data, and the summary at the top links
// the results.
func TestNarrowLayout390(t *testing.T) {
	ctx, _ := newTab(t, 2*time.Minute)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile), chromedp.Reload(), chromedp.WaitVisible(`body[data-ready="true"]`)); err != nil {
		t.Fatal(err)
	}
	act(t, ctx, chromedp.Click(chromedp.ID("load-sample")))
	var m struct {
		Width, Viewport, CellsScroll, CellsClient int
		Sticky, Overflow, Axis, SkipHref          string
		MinFont                                   float64
		OverviewLinks                             []string
	}
	evalJSON(t, ctx, `(() => {
		const box = document.getElementById('cells-box');
		const fonts = [...document.querySelectorAll('#chart svg text')].map(t => t.getBoundingClientRect().height).filter(h => h > 0);
		return JSON.stringify({
			width: document.documentElement.scrollWidth, viewport: innerWidth,
			cellsScroll: box.scrollWidth, cellsClient: box.clientWidth,
			sticky: getComputedStyle(document.querySelector('#cells tbody th')).position,
			overflow: getComputedStyle(box).overflowX,
			axis: document.getElementById('chart').dataset.axis,
			skipHref: document.getElementById('skip').getAttribute('href'),
			minFont: Math.min(...fonts),
			overviewLinks: [...document.querySelectorAll('#overview a')].map(a => a.getAttribute('href')),
		});
	})()`, &m)
	if m.Viewport != 390 || m.Width > 390 {
		t.Errorf("document %d px wide at a %d px viewport", m.Width, m.Viewport)
	}
	if m.CellsScroll <= m.CellsClient || m.Overflow != "auto" || m.Sticky != "sticky" {
		t.Errorf("cells table: scrollWidth %d, clientWidth %d, overflow-x %s, first column %s: want it scrolling in its box with a sticky first column",
			m.CellsScroll, m.CellsClient, m.Overflow, m.Sticky)
	}
	if m.Axis != "axis 0.94–1.00" {
		t.Errorf("chart axis %q, want axis 0.94–1.00 (the sample's F1 and its intervals, the lowest 0.9434)", m.Axis)
	}
	if m.MinFont < 11 {
		t.Errorf("chart text %.1f px high at 390 px: unreadable", m.MinFont)
	}
	if m.SkipHref != "#overview" || len(m.OverviewLinks) == 0 || m.OverviewLinks[0] != "#results" {
		t.Errorf("skip link %q, summary links %q", m.SkipHref, m.OverviewLinks)
	}
	// The cells table scrolls, the page does not.
	if !evalBool(t, ctx, `(() => { const b = document.getElementById('cells-box'); b.scrollLeft = 200; return b.scrollLeft > 0 && document.documentElement.scrollLeft === 0 && window.scrollX === 0; })()`) {
		t.Error("the cells box did not scroll on its own")
	}
	if !evalBool(t, ctx, `document.querySelectorAll('#chart svg.narrow .spread-mark').length === 4 && document.querySelectorAll('#chart svg.narrow .errorbar').length === 4 && getComputedStyle(document.querySelector('#chart svg.wide')).display === 'none'`) {
		t.Error("the chart lacks a run-to-run spread mark or an error bar per cell")
	}
	screenshot(t, ctx, "#cells-h", "site-narrow.png")
}

// TestSkipBadLines drops a runs file with two malformed lines: by
// default ("Score what is valid") the other lines are scored, as docscore
// score tabular --skip-bad-inputs scores them, and the banner at the top
// names the lines left out; with the switch off every bad line is listed
// at once and nothing is scored.
func TestSkipBadLines(t *testing.T) {
	dir := t.TempDir()
	paths := sampleFiles(t, dir)
	runsPath := filepath.Join(dir, "runs.jsonl")
	b, err := os.ReadFile(runsPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	lines[4] = lines[4][:40] + "\n"
	lines[8] = "[1, 2]\n"
	os.WriteFile(runsPath, []byte(strings.Join(lines, "")), 0o644)
	ctx, _ := newTab(t, 2*time.Minute)
	act(t, ctx, drop(paths...))
	banner := evalString(t, ctx, `document.getElementById('left-out').textContent`)
	if !strings.Contains(banner, "runs.jsonl:5:") || !strings.Contains(banner, "runs.jsonl:9:") || evalBool(t, ctx, `document.getElementById('results').hidden`) {
		t.Fatalf("banner %q: want lines 5 and 9 left out, the rest scored", banner)
	}
	status := evalString(t, ctx, `document.getElementById('status').textContent`)
	if !strings.Contains(status, "Left out 2 inputs") {
		t.Fatalf("status %q", status)
	}
	want := cliRun(t, dir, "score", "tabular", "--gt", "gt_page_27.csv", "gt_page_28.csv", "gt_page_29.csv", "--runs", "runs.jsonl", "--rules", "EQUIVALENCES.md", "--skip-bad-inputs", "--format", "json")
	if got := download(t, ctx, "json"); !bytes.Equal(got, want) {
		t.Errorf("downloaded JSON differs from docscore score tabular --skip-bad-inputs")
	}
	act(t, ctx, chromedp.Click(chromedp.ID("skip-bad-inputs")))
	alert := evalString(t, ctx, `document.getElementById('error').textContent`)
	if !strings.Contains(alert, "runs.jsonl has 2 malformed lines: line 5, line 9") {
		t.Fatalf("alert %q: want both bad lines", alert)
	}
	notes := evalString(t, ctx, `[...document.querySelectorAll('#files tr[data-file="runs.jsonl"] .file-error')].map(e => e.textContent).join(' | ')`)
	if !strings.Contains(notes, "line 5") || !strings.Contains(notes, "line 9") {
		t.Fatalf("notes beside the runs file %q", notes)
	}
}

// TestReloadRestoresAndForget scores the sample with a preview on, reloads
// the page: the same results come back from the browser's own storage;
// "Forget" clears them, and a reload then shows nothing.
func TestReloadRestoresAndForget(t *testing.T) {
	ctx, _ := newTab(t, 2*time.Minute)
	act(t, ctx, chromedp.Click(chromedp.ID("load-sample")))
	act(t, ctx, chromedp.Click(`#rules-table input[data-line="51"]`))
	if err := chromedp.Do(ctx, chromedp.WaitVisible(`body[data-kept="5"]`)); err != nil {
		t.Fatal(err)
	}
	before := tableRows(t, ctx, "#cells")
	preview := tableRows(t, ctx, "#preview-table")
	if err := chromedp.Do(ctx, chromedp.Reload(), chromedp.WaitVisible(`body[data-ready="true"]`)); err != nil {
		t.Fatal(err)
	}
	if evalBool(t, ctx, `document.getElementById('results').hidden`) {
		t.Fatal("the reload did not restore the results")
	}
	after := tableRows(t, ctx, "#cells")
	if !equalRows(before, after) || !equalRows(preview, tableRows(t, ctx, "#preview-table")) {
		t.Fatalf("restored cells %q\nwant %q", after, before)
	}
	if roles := fileRoles(t, ctx); len(roles) != 5 || roles["sample/tabular/runs.jsonl"] != "runs" {
		t.Fatalf("restored files %v", roles)
	}
	if s := evalString(t, ctx, `document.getElementById('status').textContent`); !strings.HasPrefix(s, "Restored the last drop") {
		t.Fatalf("status %q", s)
	}
	act(t, ctx, chromedp.Click(chromedp.ID("forget")))
	if !evalBool(t, ctx, `document.getElementById('results').hidden && document.querySelectorAll('#files tbody tr').length === 0`) {
		t.Fatal("Forget left results or files on the page")
	}
	if err := chromedp.Do(ctx, chromedp.Reload(), chromedp.WaitVisible(`body[data-ready="true"]`)); err != nil {
		t.Fatal(err)
	}
	if !evalBool(t, ctx, `document.getElementById('results').hidden && document.querySelectorAll('#files tbody tr').length === 0`) {
		t.Fatal("after Forget a reload still restored the drop")
	}
}

func equalRows(a, b [][]string) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	for i := range a {
		if strings.Join(a[i], "\x00") != strings.Join(b[i], "\x00") {
			return false
		}
	}
	return true
}

// TestGateRefusesOutOfRange types a gate of 2, then 0, into the box: the
// page says what is wrong beside it and scores nothing (it never scores
// them as the default 0.7); a gate in range scores again. Loading the
// sample over dropped files asks first, and adding keeps them.
func TestGateRefusesOutOfRange(t *testing.T) {
	ctx, _ := newTab(t, 2*time.Minute)
	act(t, ctx, chromedp.Click(chromedp.ID("load-sample")))
	setGate := func(v string) {
		act(t, ctx, chromedp.SetValue(chromedp.ID("gate"), v),
			chromedp.Evaluate[chromedp.Void](`document.getElementById('gate').dispatchEvent(new Event('change'))`))
	}
	for _, bad := range []string{"2", "0"} {
		setGate(bad)
		if !evalBool(t, ctx, `!document.getElementById('gate-error').hidden && document.getElementById('gate').getAttribute('aria-invalid') === 'true' && document.getElementById('results').hidden`) {
			t.Fatalf("gate %s: no error beside the box, or results shown", bad)
		}
		if msg := evalString(t, ctx, `document.getElementById('gate-error').textContent`); !strings.Contains(msg, "got "+bad) {
			t.Fatalf("gate %s: error %q", bad, msg)
		}
		if s := evalString(t, ctx, `document.getElementById('status').textContent`); !strings.HasPrefix(s, "Not scored") || strings.Contains(s, "above") {
			t.Fatalf("gate %s: status %q", bad, s)
		}
	}
	setGate("0.8")
	if s := evalString(t, ctx, `document.getElementById('summary').textContent`); !strings.Contains(s, "Gate 0.8 ") || evalBool(t, ctx, `document.getElementById('results').hidden`) {
		t.Fatalf("gate 0.8: summary %q", s)
	}
	// The receipts sample over the tabular one: asked, then added beside.
	loadSampleOver(t, ctx, "load-receipts-sample", true)
	roles := fileRoles(t, ctx)
	if roles["sample/tabular/runs.jsonl"] != "runs" || roles["sample/receipts/run.jsonl"] != "receipt-run" {
		t.Fatalf("roles after adding the receipts sample %v", roles)
	}
	if !evalBool(t, ctx, `!document.getElementById('results').hidden && !document.getElementById('receipts').hidden && document.getElementById('files-box').open === false`) {
		t.Fatal("both families should show, with the long file list folded")
	}
	links := evalString(t, ctx, `[...document.querySelectorAll('#overview a')].map(a => a.getAttribute('href')).join(' ')`)
	if links != "#results #receipts #compare" {
		t.Fatalf("summary links %q", links)
	}
}
