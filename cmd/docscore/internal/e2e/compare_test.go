//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// compareFormats are the formats of docscore compare, each a download of
// the page's Compare section.
var compareFormats = []string{"json", "csv", "md", "junit"}

// compareCount reads how many comparisons the page has answered.
func compareCount(t *testing.T, ctx context.Context) int {
	t.Helper()
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`Number(document.getElementById('compare').dataset.count || 0)`))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// compareAct runs actions that ask for a comparison and waits for the
// answer: "done" or "error", which it returns.
func compareAct(t *testing.T, ctx context.Context, actions ...chromedp.Action[chromedp.Void]) string {
	t.Helper()
	n := compareCount(t, ctx)
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatal(err)
	}
	expr := fmt.Sprintf(`Number(document.getElementById('compare').dataset.count || 0) > %d`, n)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("waiting for the comparison: %v", err)
	}
	state, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('compare').dataset.state`))
	if err != nil {
		t.Fatal(err)
	}
	return state
}

// compareError is the error the Compare section shows ("" when hidden).
func compareError(t *testing.T, ctx context.Context) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const e = document.getElementById('compare-error'); return e.hidden ? '' : e.textContent; })()`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// checkCompareDownloads checks every download of the comparison shown
// against docscore compare args --format F, run in dir.
func checkCompareDownloads(t *testing.T, ctx context.Context, dir string, args ...string) {
	t.Helper()
	for _, format := range compareFormats {
		got := download(t, ctx, "compare-"+format)
		want := cliRun(t, dir, append(append([]string{"compare"}, args...), "--format", format)...)
		if !bytes.Equal(got, want) {
			t.Errorf("downloaded comparison %s (%d bytes) differs from docscore compare %s --format %s (%d bytes):\n%.300s",
				format, len(got), strings.Join(args, " "), format, len(want), got)
		}
	}
}

// comparisonJSON is the part of a comparison report the tests read.
type comparisonJSON struct {
	Comparisons []struct {
		Movement struct {
			Rose []string `json:"rose"`
			Fell []string `json:"fell"`
		} `json:"movement"`
	} `json:"comparisons"`
}

// TestCompareTwoCellsEqualsTheCLI loads the sample, checks the chart's
// error bars against the report's intervals, compares two of its cells
// (then all, from the keyboard) in the Compare section and checks every
// download against docscore compare --within [--pairs], the table shown
// against the Markdown report, and that a page that moved opens its
// drill-down. The section fits a 390 px wide screen.
func TestCompareTwoCellsEqualsTheCLI(t *testing.T) {
	dir := t.TempDir()
	report := cliRun(t, "", "score", "tabular", "--sample", "--format", "json")
	// Named as the page names the report it compares within: the
	// comparison's provenance (SPEC F.8) records the name.
	if err := os.WriteFile(filepath.Join(dir, "docscore-tabular.json"), report, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, reqs := newTab(t, 3*time.Minute)
	act(t, ctx, chromedp.Click(chromedp.ID("load-sample")))
	// One core: the comparison is docscore.wasm's (there is no
	// compare.wasm); its view is fetched when first asked for.
	if fetched := assetsFetched(reqs.list()); contains(fetched, "compare.wasm") || contains(fetched, "compareview.js") || !contains(fetched, "docscore.wasm") {
		t.Fatalf("before a comparison was asked for: fetched %q (want docscore.wasm, no compare.wasm, no compareview.js)", fetched)
	}

	// One error bar per cell with an F1 interval, from lo to hi.
	var rep struct {
		Cells []struct {
			CI *struct {
				F1 *[2]float64 `json:"f1"`
			} `json:"ci"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(report, &rep); err != nil {
		t.Fatal(err)
	}
	var want [][2]float64
	for _, c := range rep.Cells {
		if c.CI != nil && c.CI.F1 != nil {
			want = append(want, *c.CI.F1)
		}
	}
	var bars [][2]float64
	evalJSON(t, ctx, `JSON.stringify([...document.querySelectorAll('#chart svg.wide .errorbar')].map(g => [Number(g.dataset.lo), Number(g.dataset.hi)]))`, &bars)
	if len(want) == 0 || !reflect.DeepEqual(bars, want) {
		t.Fatalf("error bars %v, the report's F1 intervals %v", bars, want)
	}

	// Two cells: claude/G as A, gpt-4o/G as B.
	const a, b = "claude-3-5-sonnet-20241022", "gpt-4o-2024-08-06"
	pairs := a + "/G:" + b + "/G"
	state := compareAct(t, ctx,
		chromedp.SetValue(chromedp.ID("compare-a"), "tabular\u0000"+a+" / G"),
		chromedp.SetValue(chromedp.ID("compare-b"), "tabular\u0000"+b+" / G"),
		chromedp.Click(chromedp.ID("compare-run")))
	if state != "done" {
		t.Fatalf("comparison state %q: %s", state, compareError(t, ctx))
	}
	checkCompareDownloads(t, ctx, dir, "--within", "docscore-tabular.json", "--pairs", pairs)

	// The table shown is the Markdown report's: A, B, and delta with its
	// interval, statistic by statistic.
	md := mdTable(t, cliRun(t, dir, "compare", "--within", "docscore-tabular.json", "--pairs", pairs, "--format", "md"), "# Comparison")
	shown := tableRows(t, ctx, "#compare-body table.compare-stats")
	if len(shown) != len(md)-1 {
		t.Fatalf("%d statistics shown, the report has %d", len(shown), len(md)-1)
	}
	for i, row := range shown {
		m := md[i+1]
		delta := row[3]
		if row[4] != "–" {
			delta += " " + row[4]
		}
		// The report marks an interval from under 10 pages † (SPEC F.7);
		// the page says so above the table.
		if !strings.HasPrefix(row[0], m[1]) || row[1] != m[2] || row[2] != m[3] || delta != strings.TrimSuffix(m[4], " †") || row[5]+" ("+row[6]+")" != m[5] ||
			row[8] != m[7] || !strings.HasPrefix(row[9], m[6]) {
			t.Errorf("statistic %d shown %q, report %q", i, row, m)
		}
	}

	// The pages that rose or fell, each opening its drill-down: the
	// first image of B's cell on that page.
	var cmp comparisonJSON
	if err := json.Unmarshal(cliRun(t, dir, "compare", "--within", "docscore-tabular.json", "--pairs", pairs), &cmp); err != nil {
		t.Fatal(err)
	}
	mv := cmp.Comparisons[0].Movement
	var pages []string
	evalJSON(t, ctx, `JSON.stringify([...document.querySelectorAll('#compare-body .page-list button.page-link')].map(b => b.dataset.page))`, &pages)
	if wantPages := append(append([]string{}, mv.Rose...), mv.Fell...); len(wantPages) == 0 || !reflect.DeepEqual(pages, wantPages) {
		t.Fatalf("page buttons %q, movement %q", pages, wantPages)
	}
	if err := chromedp.Do(ctx,
		chromedp.Click(`#compare-body details.movement-pages summary`),
		chromedp.Click(`#compare-body button.page-link`),
		chromedp.WaitVisible(chromedp.ID("detail"))); err != nil {
		t.Fatal(err)
	}
	if h, _ := chromedp.Run(ctx, chromedp.Text(chromedp.ID("detail-h"))); !strings.Contains(h, b+" / G") || !strings.HasSuffix(h, "page "+pages[0]) {
		t.Fatalf("the page button opened %q, want an image of %s / G on page %s", h, b, pages[0])
	}

	// Every comparison, from the keyboard.
	state = compareAct(t, ctx, chromedp.Focus(chromedp.ID("compare-all")), chromedp.KeyEvent(kb.Enter))
	if state != "done" {
		t.Fatalf("compare all: state %q: %s", state, compareError(t, ctx))
	}
	if got, want := download(t, ctx, "compare-json"), cliRun(t, dir, "compare", "--within", "docscore-tabular.json"); !bytes.Equal(got, want) {
		t.Errorf("compare all: the download differs from docscore compare --within docscore-tabular.json")
	}
	screenshot(t, ctx, "#compare", "site-compare.png")

	// At 390 px the section wraps rather than widening the document:
	// nothing in it reaches past the screen's edge but inside a
	// scrolling box. (The file list above it is wider already.)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	var wide []string
	evalJSON(t, ctx, `JSON.stringify([document.getElementById('compare'), ...document.querySelectorAll('#compare *')].filter(e =>
		e.getBoundingClientRect().right > 390 && !e.closest('.scroll')).map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)))`, &wide)
	if len(wide) > 0 {
		t.Errorf("at 390 px these reach past the screen: %q", wide)
	}
}

// TestCompareReceiptPhasesEqualsTheCLI compares two phases of the receipts
// sample: the downloads are docscore compare --within --pairs c1:c4.
func TestCompareReceiptPhasesEqualsTheCLI(t *testing.T) {
	dir := t.TempDir()
	paths := receiptsDir(t, dir)
	report := cliRun(t, dir, "score", "receipts", "--refs", "refs", "--run", "run.jsonl", "--format", "json")
	if err := os.WriteFile(filepath.Join(dir, "docscore-receipts.json"), report, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, _ := newTab(t, 3*time.Minute)
	act(t, ctx, drop(paths...))
	state := compareAct(t, ctx,
		chromedp.SetValue(chromedp.ID("compare-a"), "receipts\u0000receipts: c1"),
		chromedp.SetValue(chromedp.ID("compare-b"), "receipts\u0000receipts: c4"),
		chromedp.Click(chromedp.ID("compare-run")))
	if state != "done" {
		t.Fatalf("comparison state %q: %s", state, compareError(t, ctx))
	}
	checkCompareDownloads(t, ctx, dir, "--within", "docscore-receipts.json", "--pairs", "c1:c4")
	// A sample that moved opens its row of the pages table.
	if err := chromedp.Do(ctx, chromedp.Click(`#compare-body details.movement-pages summary`), chromedp.Click(`#compare-body button.page-link`)); err != nil {
		t.Fatal(err)
	}
	var opened []string
	evalJSON(t, ctx, `JSON.stringify([...document.querySelectorAll('#receipt-pages tr.opened th')].map(th => th.dataset.page))`, &opened)
	var first string
	evalJSON(t, ctx, `JSON.stringify(document.querySelector('#compare-body button.page-link').dataset.page)`, &first)
	if !reflect.DeepEqual(opened, []string{"c4/" + first}) {
		t.Fatalf("opened rows %q, want c4/%s", opened, first)
	}
}

// TestCompareDroppedReportsEqualTheCLI drops two reports of docscore score
// and compares them: every download is docscore compare A B. Reports of
// two families, and reports with no cell in common, show the core's
// error in the section and nothing else breaks.
func TestCompareDroppedReportsEqualTheCLI(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	settled := cliRun(t, "", "score", "tabular", "--sample", "--format", "json")
	a := write("settled.json", settled)
	b := write("preview.json", cliRun(t, "", "score", "tabular", "--sample", "--preview", "open", "--format", "json"))
	ctx, _ := newTab(t, 3*time.Minute)
	act(t, ctx, drop(a, b))
	if roles := fileRoles(t, ctx); roles["settled.json"] != "score-report" || roles["preview.json"] != "score-report" {
		t.Fatalf("roles %v", roles)
	}
	if checked, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById('compare-src-reports').checked`)); !checked {
		t.Fatal("two dropped reports: the Compare section does not offer them")
	}
	if state := compareAct(t, ctx, chromedp.Click(chromedp.ID("compare-run"))); state != "done" {
		t.Fatalf("comparison state %q: %s", state, compareError(t, ctx))
	}
	checkCompareDownloads(t, ctx, dir, "settled.json", "preview.json")

	// A tabular and a receipts report: the core's error, in the section.
	rdir := t.TempDir()
	receiptsDir(t, rdir)
	r := write("receipts.json", cliRun(t, rdir, "score", "receipts", "--refs", "refs", "--run", "run.jsonl", "--format", "json"))
	// No cell in common: the sample's models renamed.
	other := strings.NewReplacer("claude-3-5-sonnet-20241022", "model-x", "gpt-4o-2024-08-06", "model-y").Replace(string(settled))
	c := write("renamed.json", []byte(other))
	for _, bad := range []struct {
		drop []string
		want string
	}{
		{[]string{a, r}, "receipts.json: is a receipts report and settled.json a tabular report: compare two reports of one family"},
		{[]string{a, c}, "renamed.json: has no cell in common with settled.json"},
	} {
		act(t, ctx, chromedp.Click(chromedp.ID("clear")), chromedp.WaitNotVisible(chromedp.ID("files")))
		act(t, ctx, drop(bad.drop...))
		if state := compareAct(t, ctx, chromedp.Click(chromedp.ID("compare-run"))); state != "error" {
			t.Fatalf("%s: state %q", bad.want, state)
		}
		if msg := compareError(t, ctx); !strings.Contains(msg, bad.want) {
			t.Fatalf("the page shows %q, want the core's %q", msg, bad.want)
		}
		var page struct {
			Fatal  string
			Result bool
		}
		evalJSON(t, ctx, `JSON.stringify({fatal: document.getElementById('error').hidden ? '' : document.getElementById('error').textContent, result: !document.getElementById('compare-result').hidden})`, &page)
		if page.Fatal != "" || page.Result {
			t.Fatalf("after the error: page error %q, a result shown %v", page.Fatal, page.Result)
		}
	}
	// The page still compares.
	act(t, ctx, chromedp.Click(chromedp.ID("clear")), chromedp.WaitNotVisible(chromedp.ID("files")))
	act(t, ctx, drop(a, b))
	if state := compareAct(t, ctx, chromedp.Click(chromedp.ID("compare-run"))); state != "done" {
		t.Fatalf("after the errors: state %q: %s", state, compareError(t, ctx))
	}
}

// TestCompareSecondRunsFileEqualsTheCLI drops the sample, then a second
// runs file (testdata/runs_compare.jsonl: the sample's runs with five
// records changed): it becomes the run to compare, is scored like the
// first, and the comparison's downloads are docscore compare of the two
// reports. A page of B opens the compared runs file's image.
func TestCompareSecondRunsFileEqualsTheCLI(t *testing.T) {
	dir := t.TempDir()
	paths := sampleFiles(t, dir)
	second, err := os.ReadFile(filepath.Join("testdata", "runs_compare.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	runs2 := filepath.Join(dir, "runs_compare.jsonl")
	if err := os.WriteFile(runs2, second, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, _ := newTab(t, 3*time.Minute)
	act(t, ctx, drop(paths...))
	act(t, ctx, drop(runs2))
	if roles := fileRoles(t, ctx); roles["runs.jsonl"] != "runs" || roles["runs_compare.jsonl"] != "runs-compare" {
		t.Fatalf("roles %v", roles)
	}
	if state := compareAct(t, ctx, chromedp.Click(chromedp.ID("compare-run"))); state != "done" {
		t.Fatalf("comparison state %q: %s", state, compareError(t, ctx))
	}
	score := []string{"score", "tabular", "--gt", "gt_page_27.csv", "gt_page_28.csv", "gt_page_29.csv", "--rules", "EQUIVALENCES.md", "--format", "json", "--runs"}
	// Named as the page names the two reports it compares (SPEC F.8).
	for _, r := range []struct{ runs, out string }{{"runs.jsonl", "runs.json"}, {"runs_compare.jsonl", "runs_compare.json"}} {
		if err := os.WriteFile(filepath.Join(dir, r.out), cliRun(t, dir, append(score, r.runs)...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	checkCompareDownloads(t, ctx, dir, "runs.json", "runs_compare.json")
	// A B image of a page that moved: from the compared runs file.
	sel := `#compare-body .page-list button.image-link[data-side="b"]`
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('#compare-body details').forEach(d => d.open = true)`),
		chromedp.Click(sel), chromedp.WaitVisible(chromedp.ID("detail"))); err != nil {
		t.Fatal(err)
	}
	var detail struct{ Compared, Line, Want string }
	evalJSON(t, ctx, `JSON.stringify({compared: document.getElementById('detail').dataset.compared, line: document.getElementById('detail').dataset.line,
		want: document.querySelector(`+jsString(sel)+`).dataset.line})`, &detail)
	if detail.Compared != "true" || detail.Line != detail.Want {
		t.Fatalf("the B image opened %+v", detail)
	}
}
