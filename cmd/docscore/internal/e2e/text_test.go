//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// waitText waits until the page-text view's counter key has passed n.
func waitText(t *testing.T, ctx context.Context, key string, n int) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`Number(document.body.dataset.`+key+` || 0) > `+itoa(n),
		chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("waiting for the page-text view (%s): %v (status %q)", key, err, evalString(t, ctx, `document.getElementById('text-status').textContent`))
	}
}

// openTextView opens the main page, reads its link to the page-text view
// and opens the view in a tab of its own (following the link in the same
// tab would take the main page's worker away while the harness attaches
// to it).
func openTextView(t *testing.T, timeout time.Duration) context.Context {
	t.Helper()
	main, _ := newTab(t, timeout)
	href := evalString(t, main, `document.getElementById('text-link').href`)
	if !strings.HasPrefix(href, origin+"/") || !strings.HasSuffix(href, ".html") {
		t.Fatalf("the main page's link to the page-text view is %q", href)
	}
	ctx, _ := newTabAt(t, timeout, href)
	if err := chromedp.Do(ctx, chromedp.WaitVisible("#text-load-sample")); err != nil {
		t.Fatal(err)
	}
	return ctx
}

func sameBytes(t *testing.T, what string, got, want []byte) {
	t.Helper()
	if string(got) == string(want) {
		return
	}
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	t.Errorf("%s differs from the CLI's at byte %d:\npage: %.200q\ncli:  %.200q", what, i, got[i:], want[i:])
}

// TestTextViewEqualsTheCLI opens the page-text view from the main page's
// link and loads the sample (two real scans read by Tesseract): the
// report and each download are the bytes of "docscore score text" on the
// same files, the cells show the report's values, the confusions are the
// report's, and the worst page's two texts are drawn aligned with
// substitutions, deletions and insertions marked.
func TestTextViewEqualsTheCLI(t *testing.T) {
	ctx := openTextView(t, 120*time.Second)
	root, err := filepath.Abs(filepath.Join("..", "..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"score", "text", "--gt", "sample/text/gt", "--runs", "sample/text/runs.jsonl"}
	want := cliRun(t, root, args...)
	if err := chromedp.Do(ctx, chromedp.Click("#text-load-sample")); err != nil {
		t.Fatal(err)
	}
	waitText(t, ctx, "textDetail", 0)
	sameBytes(t, "the page's report", []byte(evalString(t, ctx, `globalThis.docscoreTextReport || ''`)), want)
	for _, format := range []string{"json", "csv", "md"} {
		sameBytes(t, "the "+format+" download", saveDownload(t, ctx, format), cliRun(t, root, append(args, "--format", format)...))
	}

	var rep struct {
		Cells []struct {
			CER, CERMacro, WER, WERMacro, BowF1 json.Number
			CharConfusions                      []struct{ GT, OCR string } `json:"char_confusions"`
			WordConfusions                      []struct{ GT, OCR string } `json:"word_confusions"`
		}
	}
	if err := json.Unmarshal(want, &rep); err != nil {
		t.Fatal(err)
	}
	var cells [][]string
	evalJSON(t, ctx, `JSON.stringify([...document.querySelectorAll('#text-cells tbody tr')].map((tr) =>
		[...tr.querySelectorAll('td[data-stat]')].map((td) => td.dataset.value)))`, &cells)
	var raw struct{ Cells []map[string]json.RawMessage }
	if err := json.Unmarshal(want, &raw); err != nil {
		t.Fatal(err)
	}
	if len(cells) != len(raw.Cells) || len(cells) != 2 {
		t.Fatalf("%d cells shown, the report has %d", len(cells), len(raw.Cells))
	}
	for i, c := range raw.Cells {
		for j, k := range []string{"cer", "cer_macro", "wer", "wer_macro", "bow_f1"} {
			if cells[i][j] != string(c[k]) {
				t.Errorf("cell %d %s: shown %s, report %s", i, k, cells[i][j], c[k])
			}
		}
	}
	var conf struct{ Chars, Words int }
	evalJSON(t, ctx, `JSON.stringify({Chars: document.querySelectorAll('#text-char-confusions tbody tr').length,
		Words: document.querySelectorAll('#text-word-confusions tbody tr').length})`, &conf)
	if conf.Chars != len(rep.Cells[0].CharConfusions) || conf.Words != len(rep.Cells[0].WordConfusions) || conf.Chars == 0 {
		t.Errorf("confusions shown %+v; the first cell has %d and %d", conf, len(rep.Cells[0].CharConfusions), len(rep.Cells[0].WordConfusions))
	}
	if first := evalString(t, ctx, `document.querySelector('#text-char-confusions tbody td').textContent`); first != strings.ReplaceAll(rep.Cells[0].CharConfusions[0].GT, " ", "␣") {
		t.Errorf("first character confusion's GT shown %q, report %q", first, rep.Cells[0].CharConfusions[0].GT)
	}

	// The worst page (00000119, Fraktur read by an English model) is
	// shown: every kind of step is marked, the first line of the ground
	// truth is in the first rows.
	var marks struct{ Sub, Del, Ins, Rows, Total int }
	evalJSON(t, ctx, `JSON.stringify({Sub: document.querySelectorAll('#text-align-rows .sub').length,
		Del: document.querySelectorAll('#text-align-rows .del').length,
		Ins: document.querySelectorAll('#text-align-rows .ins').length,
		Rows: document.querySelectorAll('#text-align-rows .text-row').length,
		Total: Number(document.body.dataset.textRows)})`, &marks)
	if marks.Sub == 0 || marks.Del == 0 || marks.Ins == 0 || marks.Rows == 0 || marks.Rows > marks.Total {
		t.Errorf("the aligned page: %+v; want every kind marked", marks)
	}
	if h := evalString(t, ctx, `document.getElementById('text-detail-h').textContent`); !strings.Contains(h, "00000119") {
		t.Errorf("the page shown first is %q, want the worst, 00000119", h)
	}
	gtText := evalString(t, ctx, `[...document.querySelectorAll('#text-align-rows .cell.gt')].map((c) => c.textContent).join('\n')`)
	if !strings.Contains(gtText, "Hartkopf, der Frau Amtm") {
		t.Errorf("the ground truth's text is not shown readably:\n%.300s", gtText)
	}
	// Every control shown has an accessible name.
	var unnamed []string
	evalJSON(t, ctx, `[...document.querySelectorAll('button, select, input')].filter(el => {
		if (el.closest('[hidden]')) return false;
		const label = el.getAttribute('aria-label') || el.textContent.trim() || el.closest('label');
		return !label;
	}).map(el => el.outerHTML.slice(0, 80))`, &unnamed)
	if len(unnamed) > 0 {
		t.Errorf("controls without an accessible name: %q", unnamed)
	}
	screenshot(t, ctx, "#text-detail-h", "site-text.png")
}

// TestTextViewLongPageVirtualized drops a ground-truth folder and an OCR
// folder holding one long page (2,000 lines) and a short one: the report
// is the command line's on the same folders, and the long page's aligned
// view keeps only the rows in view in the DOM, scrolling to its end.
func TestTextViewLongPageVirtualized(t *testing.T) {
	ctx := openTextView(t, 120*time.Second)
	dir := t.TempDir()
	var gt, ocr strings.Builder
	for i := range 2000 {
		line := fmt.Sprintf("Zeile %d: Die Sorgen wegen deſſelben vergaß Hartkopf.", i+1)
		gt.WriteString(line + "\n")
		switch i % 20 { // 1,100 edits in 110,892 characters
		case 0:
			line = strings.Replace(line, "ſ", "f", 1) // a substitution
		case 7:
			line = strings.Replace(line, "wegen ", "wegen wegen ", 1) // an insertion
		case 13:
			line = strings.Replace(line, "Die ", "", 1) // a deletion
		}
		ocr.WriteString(line + "\n")
	}
	for _, f := range []struct{ name, text string }{
		{"gt/long.gt.txt", gt.String()}, {"gt/short.gt.txt", "Dies ist eine Tst!\n"},
		{"ocr/long.tesseract.txt", ocr.String()}, {"ocr/short.tesseract.txt", "Dies ist ein Test.\n"},
	} {
		p := filepath.Join(dir, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f.text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := cliRun(t, dir, "score", "text", "--gt", "gt", "--ocr", "ocr")
	if err := chromedp.Do(ctx, drop(filepath.Join(dir, "gt"), filepath.Join(dir, "ocr"))); err != nil {
		t.Fatal(err)
	}
	waitText(t, ctx, "textDetail", 0)
	sameBytes(t, "the report of the dropped folders", []byte(evalString(t, ctx, `globalThis.docscoreTextReport || ''`)), want)
	// The short page is the worst; open the long one.
	n := generationOf(t, ctx, "textDetail")
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`[...document.querySelectorAll('#text-pages button')].find((b) => b.textContent === 'long').click()`)); err != nil {
		t.Fatal(err)
	}
	waitText(t, ctx, "textDetail", n)

	var v struct{ Rows, Total, Last int }
	look := func() {
		evalJSON(t, ctx, `JSON.stringify({Rows: document.querySelectorAll('#text-align-rows .text-row').length,
			Total: Number(document.body.dataset.textRows),
			Last: Math.max(...[...document.querySelectorAll('#text-align-rows .text-row')].map((r) => Number(r.dataset.row)))})`, &v)
	}
	look()
	if v.Total < 2000 || v.Rows == 0 || v.Rows > 100 {
		t.Fatalf("the long page: %d rows in the DOM of %d; want at most 100 of 2,000 or more", v.Rows, v.Total)
	}
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`(() => { const a = document.getElementById('text-align'); a.scrollTop = a.scrollHeight; a.dispatchEvent(new Event('scroll')); })()`)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`[...document.querySelectorAll('#text-align-rows .text-row')].some((r) => Number(r.dataset.row) === Number(document.body.dataset.textRows) - 1)`,
		chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		look()
		t.Fatalf("scrolled to the end, the last row is not drawn: %+v", v)
	}
	look()
	if v.Rows > 100 {
		t.Errorf("scrolled to the end: %d rows in the DOM; want at most 100", v.Rows)
	}
	if last := evalString(t, ctx, `document.querySelector('#text-align-rows .text-row:last-child .cell.gt').textContent`); !strings.Contains(last, "Zeile 2000:") {
		t.Errorf("the last row drawn reads %q, want line 2000", last)
	}
}
