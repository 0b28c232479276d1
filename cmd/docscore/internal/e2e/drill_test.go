//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/docscore/docscore/sample"
)

// sampleReport is what the drill-down tests read of the command line's
// JSON report of the tabular sample.
type sampleReport struct {
	Images []struct {
		Line   int    `json:"line"`
		Model  string `json:"model"`
		Phase  string `json:"phase"`
		Page   string `json:"page"`
		Status string `json:"status"`
		Pairs  []struct {
			GT     string              `json:"gt"`
			Edits  int                 `json:"name_cer_edits"`
			Fields map[string]*float64 `json:"fields"`
		} `json:"pairs"`
	} `json:"images"`
}

func readSampleReport(t *testing.T) sampleReport {
	t.Helper()
	var rep sampleReport
	if err := json.Unmarshal(cliRun(t, "", "score", "tabular", "--sample", "--format", "json"), &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

// drillState is what a drill-down test reads of the page after each step.
type drillState struct {
	Hidden    bool
	Line      string
	HeadTop   float64 // the heading's top, relative to the viewport
	HeadBot   float64
	ViewH     float64
	Focus     string // the focused element: "heading", "row:INDEX", its id or tag
	Current   []string
	CurrentBg string // the marked row's first cell's ::before content
}

const readDrill = `JSON.stringify((() => {
	const d = document.getElementById('detail'), h = document.getElementById('detail-h');
	const r = h.getBoundingClientRect(), a = document.activeElement;
	const cur = [...document.querySelectorAll('#images tr[aria-current="true"]')];
	return {hidden: d.hidden, line: d.dataset.line || '', headTop: r.top, headBot: r.bottom, viewH: innerHeight,
		focus: a === h ? 'heading' : a && a.matches('#images tr') ? 'row:' + a.dataset.index : a && d.contains(a) ? 'detail:' + (a.id || a.tagName) : (a && (a.id || a.tagName)) || '',
		current: cur.map(tr => tr.dataset.index + (tr.classList.contains('current') ? ' marked' : '')),
		currentBg: cur.length ? getComputedStyle(cur[0].cells[0], '::before').content : ''};
})())`

func (s drillState) headingInView() bool {
	return !s.Hidden && s.HeadTop >= 0 && s.HeadBot <= s.ViewH
}

// waitLine waits until the image drill-down shows the image at line.
func waitLine(t *testing.T, ctx context.Context, line int) drillState {
	t.Helper()
	expr := fmt.Sprintf(`!document.getElementById('detail').hidden && document.getElementById('detail').dataset.line === "%d"`, line)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("waiting for the drill-down of line %d: %v", line, err)
	}
	var s drillState
	evalJSON(t, ctx, readDrill, &s)
	return s
}

// TestDrillDownByKeyboard opens an image row by keyboard, then steps
// through the images table with j, Alt+↓, Alt+↑ and k: each step shows the
// next image in the table's order with the detail's heading in the
// viewport and the image's row marked; Esc closes the drill-down and
// focus returns to the last image's row. "Only mismatches" is on: only
// the pairs with a field below 1 or a name read with edits show, and
// switching it off shows every pair.
func TestDrillDownByKeyboard(t *testing.T) {
	rep := readSampleReport(t)
	ctx, _ := newTab(t, 2*time.Minute)
	act(t, ctx, chromedp.Click(chromedp.ID("load-sample")))
	// Sorted by F1 (lowest first), as a user after the worst image would.
	if err := chromedp.Do(ctx, chromedp.Click(`#images th[data-key="f1"] button`)); err != nil {
		t.Fatal(err)
	}
	var order []int // the table's order: image index per position
	evalJSON(t, ctx, `JSON.stringify([...document.querySelectorAll('#images tbody tr[data-pos]')].slice(0, 6).map(tr => +tr.dataset.index))`, &order)
	if len(order) < 6 {
		t.Fatalf("table order %v", order)
	}
	lineAt := func(pos int) int { return rep.Images[order[pos]].Line }
	if err := chromedp.Do(ctx,
		chromedp.Focus(`#images tr[data-pos="0"]`),
		chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.Enter),
	); err != nil {
		t.Fatal(err)
	}
	check := func(pos int, what string) {
		t.Helper()
		s := waitLine(t, ctx, lineAt(pos))
		want := fmt.Sprintf("%d marked", order[pos])
		if !s.headingInView() || !reflect.DeepEqual(s.Current, []string{want}) || !strings.Contains(s.CurrentBg, "▸") {
			t.Fatalf("%s: line %d: heading %.0f–%.0f of %.0f px, marked rows %q (mark %q), want %q", what, lineAt(pos), s.HeadTop, s.HeadBot, s.ViewH, s.Current, s.CurrentBg, want)
		}
		if s.Focus != "heading" && !strings.HasPrefix(s.Focus, "detail:") {
			t.Fatalf("%s: focus on %q, want the drill-down", what, s.Focus)
		}
	}
	check(2, "Enter on the third row")
	checkMismatches(t, ctx, rep, lineAt(2))
	keys := []struct {
		key  string
		mods []chromedp.KeyOption
		pos  int
	}{
		{"j", nil, 3},
		{kb.ArrowDown, []chromedp.KeyOption{chromedp.KeyModifiers(chromedp.ModifierAlt)}, 4},
		{kb.ArrowUp, []chromedp.KeyOption{chromedp.KeyModifiers(chromedp.ModifierAlt)}, 3},
		{"k", nil, 2},
		{"k", nil, 1},
	}
	for _, k := range keys {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(k.key, k.mods...)); err != nil {
			t.Fatal(err)
		}
		check(k.pos, fmt.Sprintf("key %q", k.key))
	}
	// The buttons step too, and say where they are.
	if err := chromedp.Do(ctx, chromedp.Click(`#detail-nav .drill-next`)); err != nil {
		t.Fatal(err)
	}
	check(2, "the Next button")
	if where, _ := chromedp.Run(ctx, chromedp.Text(`#detail-nav .drill-where`)); !strings.HasPrefix(where, "3 of ") {
		t.Fatalf("position %q, want 3 of …", where)
	}
	if keysLine, _ := chromedp.Run(ctx, chromedp.Text(`#detail-nav .drill-keys`)); !strings.Contains(keysLine, "Esc") || !strings.Contains(keysLine, "j") {
		t.Fatalf("keys line %q", keysLine)
	}
	// Esc: closed, focus on the row of the image last shown.
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.ID("detail-h")), chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	var s drillState
	evalJSON(t, ctx, readDrill, &s)
	if !s.Hidden || s.Focus != fmt.Sprintf("row:%d", order[2]) || len(s.Current) != 0 {
		t.Fatalf("after Esc: hidden %v, focus %q (want row:%d), marked %q", s.Hidden, s.Focus, order[2], s.Current)
	}
	// Enter on the focused row opens it again.
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	check(2, "Enter after Esc")
}

// checkMismatches checks "Only mismatches": on by default, the pairs shown
// are those the report has with a field below 1 or name edits, every
// exact field hidden; off, every pair shows.
func checkMismatches(t *testing.T, ctx context.Context, rep sampleReport, line int) {
	t.Helper()
	var im = rep.Images[line-1]
	var want []string
	for _, p := range im.Pairs {
		bad := p.Edits > 0
		for _, s := range p.Fields {
			if s != nil && *s < 1 {
				bad = true
			}
		}
		if bad {
			want = append(want, p.GT)
		}
	}
	read := func() (bool, []string, int) {
		var got struct {
			On      bool
			Visible []string
			Exact   int
		}
		evalJSON(t, ctx, `JSON.stringify({on: document.getElementById('detail-only').checked,
			visible: [...document.querySelectorAll('#detail table.pair')].filter(t => t.offsetParent !== null).map(t => t.dataset.gt),
			exact: [...document.querySelectorAll('#detail table.pair tr.exact')].filter(tr => tr.offsetParent !== null).length})`, &got)
		return got.On, got.Visible, got.Exact
	}
	on, visible, exact := read()
	if !on || !reflect.DeepEqual(nonNil(visible), nonNil(want)) || exact != 0 || len(want) == len(im.Pairs) {
		t.Fatalf("line %d, only mismatches %v: pairs shown %q, want %q of %d; %d exact fields shown", line, on, visible, want, len(im.Pairs), exact)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("detail-only"))); err != nil {
		t.Fatal(err)
	}
	if on, visible, exact = read(); on || len(visible) != len(im.Pairs) || exact == 0 {
		t.Fatalf("line %d, only mismatches off: %d pairs shown of %d, %d exact fields", line, len(visible), len(im.Pairs), exact)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("detail-only"))); err != nil {
		t.Fatal(err)
	}
	if on, visible, _ = read(); !on || len(visible) != len(want) {
		t.Fatalf("line %d, only mismatches on again: %d pairs shown", line, len(visible))
	}
}

// TestFailedLineShowsRawResponse opens the sample's failed image (line
// 17: a response cut short, no JSON array in it): the drill-down shows
// the reason and, open, the model's raw response exactly as the runs file
// gives it.
func TestFailedLineShowsRawResponse(t *testing.T) {
	data, err := fs.ReadFile(sample.Tabular, "tabular/runs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var line17 struct {
		Response string `json:"response"`
	}
	if err := json.Unmarshal([]byte(strings.Split(string(data), "\n")[16]), &line17); err != nil || len(line17.Response) < 100 {
		t.Fatalf("line 17 of the sample: %v", err)
	}
	ctx, _ := newTab(t, 2*time.Minute)
	act(t, ctx, chromedp.Click(chromedp.ID("load-sample")))
	if err := chromedp.Do(ctx, openImageRow(16)); err != nil {
		t.Fatal(err)
	}
	s := waitLine(t, ctx, 17)
	if !s.headingInView() {
		t.Fatalf("heading at %.0f–%.0f of %.0f px", s.HeadTop, s.HeadBot, s.ViewH)
	}
	var got struct {
		Summary, Raw, RawSummary string
		Open, Visible            bool
	}
	evalJSON(t, ctx, `JSON.stringify((() => { const d = document.querySelector('#detail details.raw-response');
		return {summary: document.getElementById('detail-summary').textContent, open: d.open, rawSummary: d.querySelector('summary').textContent,
			raw: d.querySelector('pre').textContent, visible: d.querySelector('pre').offsetParent !== null}; })())`, &got)
	if !strings.Contains(got.Summary, "Failed (no JSON array of objects in response)") || !got.Open || !got.Visible ||
		!strings.Contains(got.RawSummary, "failed: no JSON array of objects in response") || got.Raw != line17.Response {
		t.Fatalf("failed line 17: summary %q, raw response open %v visible %v, %q, %d characters (the line's: %d)",
			got.Summary, got.Open, got.Visible, got.RawSummary, len(got.Raw), len(line17.Response))
	}
	// An image scored ok keeps its raw answer collapsed.
	if err := chromedp.Do(ctx, chromedp.KeyEvent("j")); err != nil {
		t.Fatal(err)
	}
	waitLine(t, ctx, 18)
	var open bool
	evalJSON(t, ctx, `document.querySelector('#detail details.raw-response').open`, &open)
	if open {
		t.Fatal("line 18's raw response is open")
	}
}

// TestPageAcrossCells selects a per-page F1: the page's view shows every
// cell with the F1 of the per-page table and the cell's images of that
// page (the report's lines); an image opens its drill-down, and Esc comes
// back to the image's button; j moves to the next page.
func TestPageAcrossCells(t *testing.T) {
	rep := readSampleReport(t)
	ctx, _ := newTab(t, 2*time.Minute)
	act(t, ctx, chromedp.Click(chromedp.ID("load-sample")))
	var table [][]string
	table = tableRows(t, ctx, "#pages")
	var cells []string
	evalJSON(t, ctx, `JSON.stringify([...document.querySelectorAll('#pages thead th')].slice(1).map(th => th.textContent))`, &cells)
	page := table[1][0]
	if err := chromedp.Do(ctx, chromedp.Click(fmt.Sprintf(`#pages button[data-page=%q][data-cell="1"]`, page))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`!document.getElementById('page-view').hidden && document.getElementById('page-view').dataset.page === `+jsString(page), chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatal(err)
	}
	var view struct {
		Head      string
		Top, View float64
		Focused   bool
		Cells     []struct {
			Label, F1 string
			Lines     []string
		}
	}
	readView := func() {
		t.Helper()
		evalJSON(t, ctx, `JSON.stringify({head: document.getElementById('page-view-h').textContent,
			top: document.getElementById('page-view-h').getBoundingClientRect().top, view: innerHeight,
			focused: document.activeElement === document.getElementById('page-view-h'),
			cells: [...document.querySelectorAll('#page-view .page-cell')].map(c => ({label: c.dataset.cell, f1: c.querySelector('.page-f1 strong').textContent,
				lines: [...c.querySelectorAll('button[data-line]')].map(b => b.dataset.line)}))})`, &view)
	}
	readView()
	if view.Head != "Page "+page+" across the cells" || view.Top < 0 || view.Top > view.View || !view.Focused || len(view.Cells) != len(cells) {
		t.Fatalf("page view: %+v", view)
	}
	for i, c := range view.Cells {
		var lines []string
		for _, im := range rep.Images {
			if im.Page == page && im.Model+" / "+im.Phase == c.Label {
				lines = append(lines, fmt.Sprint(im.Line))
			}
		}
		if c.Label != cells[i] || c.F1 != table[1][i+1] || !reflect.DeepEqual(nonNil(c.Lines), nonNil(lines)) {
			t.Errorf("cell %d: %q F1 %s lines %q; the per-page table: %q %s, the report's lines %q", i, c.Label, c.F1, c.Lines, cells[i], table[1][i+1], lines)
		}
	}
	screenshot(t, ctx, "#page-view", "site-page-across.png")
	// An image of the page: its drill-down; Esc comes back to its button.
	first := view.Cells[1].Lines[0]
	if err := chromedp.Do(ctx, chromedp.Click(`#page-view button[data-line="`+first+`"]`)); err != nil {
		t.Fatal(err)
	}
	var line int
	fmt.Sscan(first, &line)
	if s := waitLine(t, ctx, line); !s.headingInView() {
		t.Fatalf("image %d from the page view: heading at %.0f", line, s.HeadTop)
	}
	var focus string
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	evalJSON(t, ctx, `JSON.stringify(document.activeElement.dataset.line || document.activeElement.tagName)`, &focus)
	if focus != first {
		t.Fatalf("after Esc focus on %q, want the button of line %s", focus, first)
	}
	// j in the page view: the next page of the per-page table.
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.ID("page-view-h")), chromedp.KeyEvent("j")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById('page-view').dataset.page === `+jsString(table[2][0]), chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	// Closed: focus on the F1 of the page last shown, in the cell chosen.
	var after []any
	evalJSON(t, ctx, `JSON.stringify([document.getElementById('page-view').hidden, document.activeElement.dataset.page || '', document.activeElement.dataset.cell || ''])`, &after)
	if !reflect.DeepEqual(after, []any{true, table[2][0], "1"}) {
		t.Fatalf("after Esc in the page view: [hidden, focused page, cell] %v, want page %s cell 1", after, table[2][0])
	}
}

// TestReceiptPageDiff opens a receipt page from the pages table: its
// prediction against its reference, the tokens marked as the common
// subsequence as many as the report's LCS on each side and the numbers
// marked missing the report's missing numbers; Esc returns to the page's
// button. The refusal of an incomplete run names no command-line flag.
func TestReceiptPageDiff(t *testing.T) {
	dir := t.TempDir()
	paths := receiptsDir(t, dir)
	ctx, _ := newTab(t, 2*time.Minute)
	act(t, ctx, drop(paths...))
	var rep struct {
		Pages []struct {
			Phase          string   `json:"phase"`
			SampleID       string   `json:"sample_id"`
			LCS            int      `json:"lcs"`
			MissingNumbers []string `json:"missing_numbers"`
			ScoredText     bool     `json:"scored_text"`
		} `json:"pages"`
	}
	if err := json.Unmarshal(cliRun(t, dir, "score", "receipts", "--refs", "refs", "--run", "run.jsonl", "--format", "json"), &rep); err != nil {
		t.Fatal(err)
	}
	// A page with text scored and numbers missing.
	k := -1
	for i, p := range rep.Pages {
		if p.ScoredText && len(p.MissingNumbers) > 0 && p.LCS > 0 {
			k = i
			break
		}
	}
	if k < 0 {
		t.Fatal("no receipt page with missing numbers")
	}
	pg := rep.Pages[k]
	key := pg.Phase + "/" + pg.SampleID
	if err := chromedp.Do(ctx, chromedp.Click(`#receipt-pages th[data-page="`+key+`"] ~ td button.page-open`)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`!document.getElementById('receipt-page').hidden && document.getElementById('receipt-page').dataset.page === `+jsString(key), chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Top, Bottom, View    float64
		PredLCS, RefLCS      []string
		Missing              []string
		Marked               []string
		Focused              bool
		Background, Stripped string
	}
	evalJSON(t, ctx, `JSON.stringify((() => { const h = document.getElementById('receipt-page-h').getBoundingClientRect();
		const m = document.querySelector('#receipt-page .ref mark.lcs');
		return {top: h.top, bottom: h.bottom, view: innerHeight, focused: document.activeElement.id === 'receipt-page-h',
		predLCS: [...document.querySelectorAll('#receipt-page .pred mark.lcs')].map(e => e.textContent),
		refLCS: [...document.querySelectorAll('#receipt-page .ref mark.lcs')].map(e => e.textContent),
		missing: [...document.querySelectorAll('#receipt-page .ref mark.missing')].map(e => e.textContent),
		marked: [...document.querySelectorAll('#receipt-pages tr[aria-current="true"] th')].map(th => th.dataset.page),
		background: m ? getComputedStyle(m).backgroundColor : '',
		stripped: getComputedStyle(document.querySelector('#receipt-page .ref mark.missing')).textDecorationLine}; })())`, &got)
	if got.Top < 0 || got.Bottom > got.View || !got.Focused {
		t.Fatalf("receipt page heading at %.0f–%.0f of %.0f px, focused %v", got.Top, got.Bottom, got.View, got.Focused)
	}
	if len(got.PredLCS) != pg.LCS || !reflect.DeepEqual(got.PredLCS, got.RefLCS) || got.Background == "" || got.Background == "rgba(0, 0, 0, 0)" {
		t.Fatalf("%s: %d and %d tokens highlighted (background %q), LCS %d", key, len(got.PredLCS), len(got.RefLCS), got.Background, pg.LCS)
	}
	if !reflect.DeepEqual(got.Missing, pg.MissingNumbers) || got.Stripped != "line-through" || !reflect.DeepEqual(got.Marked, []string{key}) {
		t.Fatalf("%s: missing marked %q (%s), report %q; marked rows %q", key, got.Missing, got.Stripped, pg.MissingNumbers, got.Marked)
	}
	screenshot(t, ctx, "#receipt-page", "site-receipt-page.png")
	var focus string
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	evalJSON(t, ctx, `JSON.stringify((document.activeElement.closest('tr') && document.activeElement.closest('tr').querySelector('th').dataset.page) || document.activeElement.tagName)`, &focus)
	if focus != key {
		t.Fatalf("after Esc focus on %q, want the button of %s", focus, key)
	}

	// The interrupted run: the refusal says what to tick, no flag.
	act(t, ctx, drop(filepath.Join(dir, "interrupted", "run.jsonl")))
	var text string
	evalJSON(t, ctx, `JSON.stringify(document.getElementById('receipts-banner').textContent + ' | ' +
		[...document.querySelectorAll('#files .file-error, #error')].map(e => e.textContent).join(' | ') + ' | ' + document.getElementById('status').textContent)`, &text)
	if !strings.Contains(text, "Allow an incomplete run") || strings.Contains(text, "--") {
		t.Fatalf("refusal of the interrupted run: %q", text)
	}
}
