//go:build e2e

package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// breakFile rewrites line n (1-based) of the file at p with f's answer.
func breakFile(t *testing.T, p string, n int, f func(string) string) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	lines[n-1] = f(lines[n-1])
	if err := os.WriteFile(p, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// leftOutText is the banner of what was left out, "" when hidden.
const leftOutText = `document.getElementById('left-out').hidden ? '' : document.getElementById('left-out').textContent`

// TestLeftOutBrokenGT: the sample with gt_page_28.csv's quote never
// closed (line 3) scores pages 27 and 29 by default; the banner at the
// top names gt_page_28.csv with its line, and Open shows that line.
func TestLeftOutBrokenGT(t *testing.T) {
	dir := t.TempDir()
	paths := sampleFiles(t, dir)
	breakFile(t, filepath.Join(dir, "gt_page_28.csv"), 3, func(l string) string { return `"` + l })
	ctx, _ := newTab(t, 2*time.Minute)
	act(t, ctx, drop(paths...))
	if rows := tableRows(t, ctx, "#cells"); len(rows) == 0 {
		t.Fatal("no cells: one bad ground-truth file hid every score")
	}
	banner := evalString(t, ctx, leftOutText)
	if !strings.Contains(banner, "gt_page_28.csv:3") {
		t.Fatalf("banner %q: want gt_page_28.csv:3", banner)
	}
	if !strings.Contains(banner, "page 28 has no ground truth: gt_page_28.csv was left out") {
		t.Errorf("banner %q: want the runs lines of page 28 left out because of its file", banner)
	}
	if alert := evalString(t, ctx, `document.getElementById('error').hidden ? '' : document.getElementById('error').textContent`); alert != "" {
		t.Errorf("an error is shown beside the results: %q", alert)
	}
	// Open shows the file's lines, line 3 marked.
	if err := chromedp.Do(ctx, chromedp.Click(`#left-out-list li[data-file="gt_page_28.csv"] button.open`),
		chromedp.WaitVisible(`#left-out-list li[data-file="gt_page_28.csv"] .line.bad[data-line="3"]`)); err != nil {
		t.Fatalf("Open: %v", err)
	}
	// The page's numbers are the command line's with --skip-bad-inputs.
	want := cliRun(t, dir, "score", "tabular", "--gt", "gt_page_27.csv", "gt_page_28.csv", "gt_page_29.csv", "--runs", "runs.jsonl", "--rules", "EQUIVALENCES.md", "--skip-bad-inputs", "--format", "json")
	if got := download(t, ctx, "json"); !bytes.Equal(got, want) {
		t.Errorf("downloaded JSON differs from docscore score tabular --skip-bad-inputs")
	}
	if !bytes.Contains(want, []byte(`"page": "27"`)) || !bytes.Contains(want, []byte(`"page": "29"`)) {
		t.Errorf("pages 27 and 29 were not scored")
	}
}

// TestLeftOutRuleRow: one rule row with an unknown status is left out,
// the other rows apply: the cells show, the banner names the row's line,
// and the same files through docscore score tabular --skip-bad-inputs
// give the same JSON bytes.
func TestLeftOutRuleRow(t *testing.T) {
	dir := t.TempDir()
	paths := sampleFiles(t, dir)
	rules := filepath.Join(dir, "EQUIVALENCES.md")
	b, err := os.ReadFile(rules)
	if err != nil {
		t.Fatal(err)
	}
	line := 0
	for i, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "| name | conte") {
			line = i + 1
		}
	}
	if line == 0 {
		t.Fatal("the sample's rule row is not there")
	}
	breakFile(t, rules, line, func(l string) string { return strings.Replace(l, "| settled |", "| maybe |", 1) })
	ctx, _ := newTab(t, 2*time.Minute)
	act(t, ctx, drop(paths...))
	if rows := tableRows(t, ctx, "#cells"); len(rows) == 0 {
		t.Fatal("no cells: one bad rule row hid every score")
	}
	banner := evalString(t, ctx, leftOutText)
	if !strings.Contains(banner, "EQUIVALENCES.md:"+strconv.Itoa(line)) || !strings.Contains(banner, `unknown status "maybe"`) {
		t.Fatalf("banner %q: want EQUIVALENCES.md:%d and its status", banner, line)
	}
	want := cliRun(t, dir, "score", "tabular", "--gt", "gt_page_27.csv", "gt_page_28.csv", "gt_page_29.csv", "--runs", "runs.jsonl", "--rules", "EQUIVALENCES.md", "--skip-bad-inputs", "--format", "json")
	if got := download(t, ctx, "json"); !bytes.Equal(got, want) {
		t.Errorf("downloaded JSON differs from docscore score tabular --skip-bad-inputs")
	}
}

// TestNotUTF8OnItsFile: a ground-truth CSV in Latin-1 says on itself that
// it is not UTF-8 (with the first bad byte's line), keeps its role, and
// is never reported as a missing file of the runs.
func TestNotUTF8OnItsFile(t *testing.T) {
	dir := t.TempDir()
	paths := sampleFiles(t, dir)
	breakFile(t, filepath.Join(dir, "gt_page_29.csv"), 2, func(l string) string { return "Mois\xe8" + l })
	ctx, _ := newTab(t, 2*time.Minute)
	act(t, ctx, drop(paths...))
	note := evalString(t, ctx, `[...document.querySelectorAll('#files tr[data-file="gt_page_29.csv"] .file-error')].map(e => e.textContent).join(' | ')`)
	if !strings.Contains(note, "not UTF-8: re-save as UTF-8") || !strings.Contains(note, "line 2, column 5") {
		t.Fatalf("the note on gt_page_29.csv is %q: want not UTF-8, line 2, column 5", note)
	}
	if roles := fileRoles(t, ctx); roles["gt_page_29.csv"] != "gt" {
		t.Errorf("gt_page_29.csv has the role %q, want gt", roles["gt_page_29.csv"])
	}
	runsNote := evalString(t, ctx, `[...document.querySelectorAll('#files tr[data-file="runs.jsonl"] .file-error')].map(e => e.textContent).join(' | ')`)
	alert := evalString(t, ctx, `document.getElementById('error').hidden ? '' : document.getElementById('error').textContent`)
	banner := evalString(t, ctx, leftOutText)
	for _, s := range []string{alert, banner, runsNote} {
		if strings.Contains(s, "has no ground-truth file") {
			t.Errorf("page 29 is reported as a missing file: %q", s)
		}
	}
	if !strings.Contains(banner, "gt_page_29.csv:2:5") || !strings.Contains(banner, "UTF-8") {
		t.Errorf("banner %q: want gt_page_29.csv:2:5, not UTF-8", banner)
	}
	if rows := tableRows(t, ctx, "#cells"); len(rows) == 0 {
		t.Error("pages 27 and 28 were not scored")
	}
}

// TestCancelTwiceNoUncaught: Cancel a streamed scoring, start it again
// and Cancel again: no rejection is left uncaught (pool.js), and Cancel
// is said in the status, not shown as an error.
func TestCancelTwiceNoUncaught(t *testing.T) {
	dir := t.TempDir()
	genPaths, _ := genCorpus(t, dir, 8000, nil)
	ctx := streamTab(t, 4*time.Minute, 2)
	scoring := `!document.getElementById('progress-cancel').hidden && /[1-9][0-9,]* images/.test(document.getElementById('progress-label').textContent)`
	cancel := func(start chromedp.Action[chromedp.Void]) {
		t.Helper()
		g := generation(t, ctx)
		if err := chromedp.Do(ctx, start); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](scoring, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil {
			t.Fatal(err)
		}
		if s := evalString(t, ctx, `document.getElementById('status').textContent`); !strings.HasPrefix(s, "Scoring runs.jsonl") {
			t.Errorf("while scoring the status reads %q", s)
		}
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("progress-cancel"))); err != nil {
			t.Fatal(err)
		}
		waitScored(t, ctx, g)
	}
	cancel(drop(genPaths...))
	cancel(chromedp.Click(chromedp.ID("skip-bad-inputs")))
	// Rejections are counted as they come: give the workers' last
	// messages time to arrive.
	time.Sleep(500 * time.Millisecond)
	if n := evalString(t, ctx, `(document.body.dataset.uncaught || '') + ' ' + (document.body.dataset.uncaughtLast || '')`); strings.TrimSpace(n) != "" {
		t.Errorf("uncaught rejections: %s", n)
	}
	if alert := evalString(t, ctx, `document.getElementById('error').hidden ? '' : document.getElementById('error').textContent`); alert != "" {
		t.Errorf("Cancel shown as an error: %q", alert)
	}
	if s := evalString(t, ctx, `document.getElementById('status').textContent`); !strings.Contains(s, "Scoring cancelled") {
		t.Errorf("status after Cancel %q", s)
	}
}

// TestReloadNamesNotKept: a drop with a file of 8 MiB or more keeps the
// others; the page names the file not kept before the reload and after.
func TestReloadNamesNotKept(t *testing.T) {
	dir := t.TempDir()
	paths := sampleFiles(t, dir)
	big := filepath.Join(dir, "scans-notes.txt")
	if err := os.WriteFile(big, bytes.Repeat([]byte("a note that is not scored\n"), (9<<20)/26), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, _ := newTab(t, 2*time.Minute)
	act(t, ctx, drop(append(paths, big)...))
	if err := chromedp.Do(ctx, chromedp.WaitVisible(`body[data-kept="6"]`)); err != nil {
		t.Fatal(err)
	}
	before := evalString(t, ctx, `document.getElementById('kept').hidden ? '' : document.getElementById('kept-text').textContent`)
	if !strings.Contains(before, "Not kept: scans-notes.txt") || !strings.Contains(before, "8 MiB") {
		t.Fatalf("before the reload the page says %q: want scans-notes.txt named as not kept", before)
	}
	if err := chromedp.Do(ctx, chromedp.Reload(), chromedp.WaitVisible(`body[data-ready="true"]`)); err != nil {
		t.Fatal(err)
	}
	if roles := fileRoles(t, ctx); len(roles) != 5 {
		t.Fatalf("restored files %v, want the 5 of the sample", roles)
	}
	status := evalString(t, ctx, `document.getElementById('status').textContent`)
	after := evalString(t, ctx, `document.getElementById('kept-text').textContent`)
	if !strings.Contains(status, "not kept") || !strings.Contains(status, "scans-notes.txt") || !strings.Contains(after, "scans-notes.txt") {
		t.Fatalf("after the reload: status %q, kept %q: want scans-notes.txt named", status, after)
	}
}

// TestQuickKeysKeepFocus: sixteen j pressed without waiting step through
// the images, and Esc then still closes the drill-down, the focus back on
// the row of the image last shown.
func TestQuickKeysKeepFocus(t *testing.T) {
	ctx, _ := newTab(t, 2*time.Minute)
	act(t, ctx, chromedp.Click(chromedp.ID("load-sample")))
	if err := chromedp.Do(ctx, chromedp.Focus(`#images tr[data-pos="0"]`), chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(chromedp.ID("detail"))); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 16; i++ {
		if err := chromedp.Do(ctx, chromedp.KeyEvent("j")); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector('#detail-nav .drill-where').textContent.startsWith('17 of')`,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		t.Fatalf("16 j did not reach the 17th image: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById('detail').hidden && !!document.activeElement.closest('#images tr[data-pos]')`,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("Esc after 16 quick j: drill-down open %v, focus on %q", !evalBool(t, ctx, `document.getElementById('detail').hidden`),
			evalString(t, ctx, `document.activeElement.tagName + '#' + document.activeElement.id`))
	}
}

// TestChartFollowsTableAndOneHeader: the chart's bars follow the cells
// table's sort, the phase column stays beside the model's, and an
// image's pairs show one header, not one each.
func TestChartFollowsTableAndOneHeader(t *testing.T) {
	ctx, _ := newTab(t, 2*time.Minute)
	act(t, ctx, chromedp.Click(chromedp.ID("load-sample")))
	if err := chromedp.Do(ctx, chromedp.Click(`#cells th[data-key="f1"] button`)); err != nil {
		t.Fatal(err)
	}
	var got struct{ Table, Chart []string }
	evalJSON(t, ctx, `JSON.stringify({table: [...document.querySelectorAll('#cells tbody tr')].map(tr => tr.cells[0].textContent + ' / ' + tr.cells[1].textContent),
		chart: [...document.querySelectorAll('#chart svg.wide .bar-row text.label title')].map(t => t.textContent)})`, &got)
	if len(got.Table) == 0 || strings.Join(got.Table, "|") != strings.Join(got.Chart, "|") {
		t.Fatalf("sorted by F1: table %q, chart %q", got.Table, got.Chart)
	}
	if !evalBool(t, ctx, `(() => { const td = document.querySelector('#cells tbody tr td.sticky2'); return !!td && getComputedStyle(td).position === 'sticky' && parseFloat(td.style.left) > 0; })()`) {
		t.Error("the phase column is not sticky beside the model's")
	}
	if err := chromedp.Do(ctx, chromedp.Focus(`#images tr[data-pos="0"]`), chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(chromedp.ID("detail"))); err != nil {
		t.Fatal(err)
	}
	if n := evalString(t, ctx, `String([...document.querySelectorAll('#detail table.pair')].filter(t => t.offsetParent !== null && t.tHead.offsetHeight > 2).length)`); n != "1" {
		t.Errorf("%s pair tables show a header, want 1", n)
	}
}
