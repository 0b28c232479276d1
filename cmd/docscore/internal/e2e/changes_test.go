//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// focusedBox is the preview checkbox that has the keyboard focus: its
// line, or what has the focus instead.
const focusedBox = `JSON.stringify((() => {
	const a = document.activeElement;
	return a && a.matches('#rules-table input[type=checkbox]') ? 'box:' + a.dataset.line + (a.checked ? ' on' : ' off') : (a && (a.id || a.tagName)) || '';
})())`

// TestPreviewChangesEqualTheCLI ticks the sample's line-51 rule by
// keyboard: the focus stays on its checkbox through the scoring, and the
// page lists, for line 51, exactly the pairs and fields "score tabular
// --preview 51" reports as changed (JSON) and as the Markdown report
// words them; a change opens its image, and Esc returns to it.
func TestPreviewChangesEqualTheCLI(t *testing.T) {
	ctx, _ := newTab(t, 2*time.Minute)
	act(t, ctx, chromedp.Click(chromedp.ID("load-sample")))
	box := `#rules-table input[data-line="51"]`
	act(t, ctx, chromedp.Focus(box), chromedp.KeyEvent(" "))
	var focus string
	evalJSON(t, ctx, focusedBox, &focus)
	if focus != "box:51 on" {
		t.Fatalf("after ticking line 51 by keyboard the focus is on %q, want its checkbox, ticked", focus)
	}

	var rep struct {
		Preview struct {
			Changes []struct {
				Line   int    `json:"line"`
				GTLine int    `json:"gt_line"`
				Field  string `json:"field"`
				Rows   []int  `json:"rows"`
			} `json:"changes"`
		} `json:"preview"`
	}
	if err := json.Unmarshal(cliRun(t, "", "score", "tabular", "--sample", "--preview", "51", "--format", "json"), &rep); err != nil {
		t.Fatal(err)
	}
	md := mdTable(t, cliRun(t, "", "score", "tabular", "--sample", "--preview", "51", "--format", "md"), "## What the preview changed")
	if len(rep.Preview.Changes) == 0 || len(md) != len(rep.Preview.Changes)+1 {
		t.Fatalf("the report lists %d changes, its Markdown %d rows", len(rep.Preview.Changes), len(md)-1)
	}
	var want [][]string
	for i, c := range rep.Preview.Changes {
		if !reflect.DeepEqual(c.Rows, []int{51}) {
			t.Fatalf("change %d names rows %v, want [51]", i, c.Rows)
		}
		r := md[i+1]
		want = append(want, []string{fmt.Sprint(c.Line), fmt.Sprint(c.GTLine), c.Field,
			fmt.Sprintf("image %s · %s / %s run %s · page %s · %s · %s: %s", r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7])})
	}

	var summary string
	evalJSON(t, ctx, `JSON.stringify([...document.querySelectorAll('#preview-changes details')].map(d => d.dataset.row + '|' + d.querySelector('summary').textContent).join('\n'))`, &summary)
	if summary != "51|line 51: 20 fields rose, 6 fell" {
		t.Fatalf("groups shown: %q", summary)
	}
	if err := chromedp.Do(ctx, chromedp.Click(`#preview-changes details[data-row="51"] summary`)); err != nil {
		t.Fatal(err)
	}
	var got [][]string
	readList := `JSON.stringify([...document.querySelectorAll('#preview-changes details[data-row="51"] button.change-link')].map(b => [b.dataset.line, b.dataset.gtLine, b.dataset.field, b.textContent]))`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelectorAll('#preview-changes details[data-row="51"] button.change-link').length > 0`,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the list for line 51 did not appear: %v", err)
	}
	evalJSON(t, ctx, readList, &got)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the page lists for line 51\n%q\nthe command line\n%q", got, want)
	}
	screenshot(t, ctx, "#preview-changes", "site-preview-changes.png")

	// A change opens its image's drill-down; Esc comes back to it.
	third := `#preview-changes details[data-row="51"] li:nth-child(3) button`
	if err := chromedp.Do(ctx, chromedp.Focus(third), chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`!document.getElementById('detail').hidden && document.getElementById('detail').dataset.line === %q`, want[2][0]),
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the change did not open image %s: %v", want[2][0], err)
	}
	// It opens on the change's pair: marked, in view, the field's row
	// marked, before → after in its caption.
	var pair struct {
		GTLine, Note, Field string
		InView              bool
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`!!document.querySelector('#detail table.pair.focused-pair')`,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the image did not open on the change's pair: %v", err)
	}
	evalJSON(t, ctx, `(() => { const p = document.querySelector('#detail table.pair.focused-pair'); const r = p.getBoundingClientRect();
		const f = p.querySelector('tr.changed-field th');
		return JSON.stringify({gtLine: p.dataset.gtLine, note: p.querySelector('.change-note').textContent, field: f ? f.textContent : '',
			inView: r.top < innerHeight && r.bottom > 0}); })()`, &pair)
	if pair.GTLine != want[2][1] || !pair.InView || !strings.Contains(pair.Note, "→") || pair.Field == "" {
		t.Fatalf("the pair opened: %+v, want GT line %s in view, its field %s marked, before → after", pair, want[2][1], want[2][2])
	}
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.ID("detail-h")), chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	var back []string
	evalJSON(t, ctx, `JSON.stringify([document.getElementById('detail').hidden ? 'closed' : 'open', document.activeElement.dataset.line || document.activeElement.tagName])`, &back)
	if !reflect.DeepEqual(back, []string{"closed", want[2][0]}) {
		t.Fatalf("after Esc: %q, want the drill-down closed and the focus on a change of image %s", back, want[2][0])
	}

	// Unticking keeps the focus too.
	act(t, ctx, chromedp.Focus(box), chromedp.KeyEvent(" "))
	evalJSON(t, ctx, focusedBox, &focus)
	if focus != "box:51 off" {
		t.Fatalf("after unticking line 51 the focus is on %q, want its checkbox", focus)
	}
}
