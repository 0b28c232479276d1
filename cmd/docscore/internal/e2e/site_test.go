//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestDroppedSampleFilesEqualTheCLI drops the sample's five files with
// real drop events and checks the roles the page gave them, then that
// every download is byte for byte the command line's report.
func TestDroppedSampleFilesEqualTheCLI(t *testing.T) {
	dir := t.TempDir()
	paths := sampleFiles(t, dir)
	ctx, _ := newTab(t, 2*time.Minute)
	act(t, ctx, drop(paths...))
	want := map[string]string{"gt_page_27.csv": "gt", "gt_page_28.csv": "gt", "gt_page_29.csv": "gt", "runs.jsonl": "runs", "EQUIVALENCES.md": "rules"}
	if got := fileRoles(t, ctx); !reflect.DeepEqual(got, want) {
		t.Fatalf("roles %v, want %v", got, want)
	}
	args := []string{"score", "tabular", "--gt", "gt_page_27.csv", "gt_page_28.csv", "gt_page_29.csv", "--runs", "runs.jsonl", "--rules", "EQUIVALENCES.md"}
	for _, format := range []string{"json", "csv", "md"} {
		got := download(t, ctx, format)
		cliOut := cliRun(t, dir, append(args, "--format", format)...)
		if !bytes.Equal(got, cliOut) {
			t.Errorf("downloaded %s (%d bytes) differs from docscore %s --format %s (%d bytes)", format, len(got), strings.Join(args, " "), format, len(cliOut))
		}
	}
	// What the page shows is the report: the cells table matches the
	// command line's Markdown cells table.
	md := cliRun(t, dir, append(args, "--format", "md")...)
	cells := mdTable(t, md, "## Cells")
	shown := tableRows(t, ctx, "#cells")
	if len(shown) != len(cells)-1 {
		t.Fatalf("%d cells shown, the report has %d", len(shown), len(cells)-1)
	}
	for i, row := range shown {
		if !reflect.DeepEqual(row, cells[i+1]) {
			t.Errorf("cells row %d: %q, report %q", i, row, cells[i+1])
		}
	}
	if got, want := tableRows(t, ctx, "#pages"), mdTable(t, md, "## Per-page F1")[1:]; !reflect.DeepEqual(got, want) {
		t.Errorf("per-page F1 %q, report %q", got, want)
	}
	screenshot(t, ctx, "#results", "site-results.png")
}

// TestPickerFolderAndSampleEqualTheCLI uses the file picker, a dropped
// folder and the "Load sample" button.
func TestPickerFolderAndSampleEqualTheCLI(t *testing.T) {
	dir := t.TempDir()
	paths := sampleFiles(t, filepath.Join(dir))
	ctx, _ := newTab(t, 2*time.Minute)

	act(t, ctx, chromedp.SetUploadFiles(chromedp.ID("file-input"), paths))
	want := cliRun(t, dir, "score", "tabular", "--gt", "gt_page_27.csv", "gt_page_28.csv", "gt_page_29.csv", "--runs", "runs.jsonl", "--rules", "EQUIVALENCES.md", "--format", "json")
	if got := download(t, ctx, "json"); !bytes.Equal(got, want) {
		t.Errorf("picked files: downloaded JSON differs from the command line's")
	}

	// A dropped folder: files are named by their path in it, so the
	// repository's sample folder gives the names of --sample.
	act(t, ctx, chromedp.Click(chromedp.ID("clear")), chromedp.WaitNotVisible(chromedp.ID("files")))
	tree := sampleTree(t, t.TempDir())
	act(t, ctx, drop(tree))
	roles := fileRoles(t, ctx)
	if roles["sample/tabular/README.md"] != "ignore" || roles["sample/tabular/gt/gt_page_28.csv"] != "gt" || roles["sample/tabular/runs.jsonl"] != "runs" || len(roles) != 6 {
		t.Fatalf("folder roles %v", roles)
	}
	sampleJSON := cliRun(t, "", "score", "tabular", "--sample", "--format", "json")
	if got := download(t, ctx, "json"); !bytes.Equal(got, sampleJSON) {
		t.Errorf("dropped folder: downloaded JSON differs from docscore score tabular --sample")
	}

	loadSampleOver(t, ctx, "load-sample", false)
	if got := download(t, ctx, "json"); !bytes.Equal(got, sampleJSON) {
		t.Errorf("Load sample: downloaded JSON differs from docscore score tabular --sample")
	}
}

// TestPreviewDeltasEqualTheCLI switches one OPEN row on, then all, and
// compares the deltas shown with docscore score tabular --preview.
func TestPreviewDeltasEqualTheCLI(t *testing.T) {
	ctx, _ := newTab(t, 2*time.Minute)
	act(t, ctx, chromedp.Click(chromedp.ID("load-sample")))
	var open []int
	evalJSON(t, ctx, `JSON.stringify([...document.querySelectorAll('#rules-table input[type=checkbox]')].map(c => Number(c.dataset.line)))`, &open)
	if !reflect.DeepEqual(open, []int{32, 33, 51, 52}) {
		t.Fatalf("OPEN rows with a checkbox: %v, want the sample's 32, 33, 51, 52", open)
	}
	check := func(preview string) {
		t.Helper()
		md := cliRun(t, "", "score", "tabular", "--sample", "--preview", preview, "--format", "md")
		want := mdTable(t, md, "## Preview")
		var header []string
		evalJSON(t, ctx, `JSON.stringify([...document.querySelectorAll('#preview-table thead th')].map(th => th.textContent))`, &header)
		if !reflect.DeepEqual(header, want[0]) {
			t.Fatalf("preview %s: header %q, report %q", preview, header, want[0])
		}
		// The deltas, without what a report's preview comparison adds to
		// them (intervals, Holm p, the pages that moved: SPEC F.6).
		var got [][]string
		evalJSON(t, ctx, `JSON.stringify([...document.querySelectorAll('#preview-table tbody tr')].map(tr => [...tr.cells].map(c => {
			const d = c.cloneNode(true); d.querySelectorAll('.preview-stat, details').forEach(x => x.remove()); return d.textContent; })))`, &got)
		if !reflect.DeepEqual(got, want[1:]) {
			t.Fatalf("preview %s: deltas shown\n%q\nreport\n%q", preview, got, want[1:])
		}
		// Every delta that is not zero is highlighted, and nothing else.
		moved := 0
		for _, row := range want[1:] {
			for _, c := range row[2:] {
				if strings.Contains(c, "(") {
					moved++
				}
			}
		}
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#preview-table td.moved').length`))
		if err != nil || n != moved {
			t.Fatalf("preview %s: %d cells highlighted, %d moved (%v)", preview, n, moved, err)
		}
		jsonWant := cliRun(t, "", "score", "tabular", "--sample", "--preview", preview, "--format", "json")
		if got := download(t, ctx, "json"); !bytes.Equal(got, jsonWant) {
			t.Fatalf("preview %s: downloaded JSON differs from the command line's", preview)
		}
		// The preview's comparison, when the report has one, is shown
		// beside the deltas; without it nothing is.
		var rep struct {
			Preview struct {
				Comparison *json.RawMessage `json:"comparison"`
			} `json:"preview"`
		}
		if err := json.Unmarshal(jsonWant, &rep); err != nil {
			t.Fatal(err)
		}
		var notes int
		evalJSON(t, ctx, `document.querySelectorAll('#preview-table .preview-stat, #preview-table details').length`, &notes)
		if (rep.Preview.Comparison != nil) != (notes > 0) {
			t.Fatalf("preview %s: the report has a comparison: %v; %d notes shown beside the deltas", preview, rep.Preview.Comparison != nil, notes)
		}
	}
	act(t, ctx, chromedp.Click(`#rules-table input[data-line="51"]`))
	check("51")
	// Three pages cannot make a delta significant: the report says so
	// (SPEC F.7: can_be_significant false, min_p 0.25 or 0.5) and the
	// page says it beside the p-value.
	if limit := evalString(t, ctx, `[...document.querySelectorAll('#preview-table .preview-stat.limit')].map(e => e.textContent).join(' | ')`); !strings.Contains(limit, "cannot be significant with so few units (p ≥ 0.") {
		t.Errorf("preview 51: no word on what 3 pages can tell beside the p-values: %q", limit)
	}
	act(t, ctx, chromedp.Click(chromedp.ID("rules-all")))
	check("open")
	screenshot(t, ctx, "#preview", "site-preview.png")
	// Switching everything off again returns to the settled report.
	act(t, ctx, chromedp.Click(chromedp.ID("rules-all")))
	if hidden, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById('preview').hidden`)); !hidden {
		t.Fatal("the preview is still shown with no OPEN row on")
	}
}

// TestDrillDown opens images by click and by keyboard and checks the
// pairs, misses and extras against the command line's report.
func TestDrillDown(t *testing.T) {
	ctx, _ := newTab(t, 2*time.Minute)
	act(t, ctx, chromedp.Click(chromedp.ID("load-sample")))
	var rep struct {
		Images []struct {
			Line  int `json:"line"`
			Pairs []struct {
				GT         string  `json:"gt"`
				Model      string  `json:"model"`
				Similarity float64 `json:"similarity"`
				Fields     map[string]*float64
			} `json:"pairs"`
			UnmatchedModel []string `json:"unmatched_model"`
			UnmatchedGT    []string `json:"unmatched_gt"`
		} `json:"images"`
	}
	if err := json.Unmarshal(cliRun(t, "", "score", "tabular", "--sample", "--format", "json"), &rep); err != nil {
		t.Fatal(err)
	}
	// An image with misses and extras, far enough down the virtualized
	// table to need scrolling.
	target := -1
	for i := len(rep.Images) - 1; i >= 0; i-- {
		if len(rep.Images[i].UnmatchedGT) > 0 && len(rep.Images[i].UnmatchedModel) > 0 && len(rep.Images[i].Pairs) > 0 {
			target = i
			break
		}
	}
	if target < 0 {
		t.Fatal("the sample has no image with misses and extras")
	}
	checkDetail := func(i int) {
		t.Helper()
		im := rep.Images[i]
		expr := fmt.Sprintf(`document.getElementById('detail').dataset.line === "%d" && !document.getElementById('detail').hidden`, im.Line)
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(0))); err != nil {
			t.Fatal(err)
		}
		var shown struct {
			Pairs          [][3]string
			Misses, Extras []string
			Wrong          []string
		}
		evalJSON(t, ctx, `JSON.stringify({
			pairs: [...document.querySelectorAll('#detail table.pair')].map(t => [t.dataset.gt, t.dataset.model, t.dataset.similarity]),
			misses: [...document.querySelectorAll('#detail table.misses tbody tr')].map(tr => tr.dataset.key),
			extras: [...document.querySelectorAll('#detail table.extras tbody tr')].map(tr => tr.dataset.key),
			wrong: [...document.querySelectorAll('#detail table.pair')].flatMap(t => [...t.querySelectorAll('tr.wrong')].filter(tr => tr.querySelector('ins, del')).map(tr => t.dataset.gt + '/' + tr.dataset.field)),
		})`, &shown)
		if len(shown.Pairs) != len(im.Pairs) {
			t.Fatalf("line %d: %d pairs shown, report %d", im.Line, len(shown.Pairs), len(im.Pairs))
		}
		var wrong []string
		for k, p := range im.Pairs {
			sim, err := strconv.ParseFloat(shown.Pairs[k][2], 64)
			if shown.Pairs[k][0] != p.GT || shown.Pairs[k][1] != p.Model || err != nil || sim != p.Similarity {
				t.Errorf("line %d pair %d: shown %q, report %q ≈ %q %v", im.Line, k, shown.Pairs[k], p.GT, p.Model, p.Similarity)
			}
			for f, s := range p.Fields {
				if s != nil && *s < 1 {
					wrong = append(wrong, p.GT+"/"+f)
				}
			}
		}
		if !reflect.DeepEqual(nonNil(shown.Misses), nonNil(im.UnmatchedGT)) || !reflect.DeepEqual(nonNil(shown.Extras), nonNil(im.UnmatchedModel)) {
			t.Errorf("line %d: misses %q extras %q, report %q %q", im.Line, shown.Misses, shown.Extras, im.UnmatchedGT, im.UnmatchedModel)
		}
		// every field scored below 1 is marked, with its differences
		if len(shown.Wrong) != len(wrong) {
			t.Errorf("line %d: %d fields marked wrong with a diff, report has %d below 1: %q vs %q", im.Line, len(shown.Wrong), len(wrong), shown.Wrong, wrong)
		}
	}
	// Scroll the row into view, then click it.
	if err := chromedp.Do(ctx, openImageRow(target)); err != nil {
		t.Fatal(err)
	}
	checkDetail(target)
	screenshot(t, ctx, "#detail", "site-detail.png")

	// The keyboard: first row, two rows down, Enter.
	if err := chromedp.Do(ctx,
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#images .vbox').scrollTop = 0`),
		chromedp.Focus(`#images tr[data-pos="0"]`),
		chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.Enter),
	); err != nil {
		t.Fatal(err)
	}
	checkDetail(2)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// TestBadInputShowsTheLine drops a malformed CSV, then a malformed runs
// file: each error names its line beside its file, and the page keeps
// working once the file is removed or replaced.
func TestBadInputShowsTheLine(t *testing.T) {
	dir := t.TempDir()
	paths := sampleFiles(t, dir)
	bad := filepath.Join(dir, "gt_page_30.csv")
	header := "name,title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count\n"
	if err := os.WriteFile(bad, []byte(header+"Anzola Benetti,,,,,,,,\nZuane \"Rizzo,,,,,,,,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, _ := newTab(t, 2*time.Minute)
	// The errors themselves: "Score what is valid" (on by default:
	// leftout_test.go) switched off.
	act(t, ctx, chromedp.Click(chromedp.ID("skip-bad-inputs")))
	act(t, ctx, drop(append(paths, bad)...))
	fileError := func(name string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll('#files tr[data-file=`+jsString(name)+`] .file-error')].map(e => e.textContent).join(' | ')`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	resultsHidden := func() bool {
		h, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById('results').hidden`))
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	if got := fileError("gt_page_30.csv"); !strings.Contains(got, "line 3") || !strings.Contains(got, `bare "`) {
		t.Fatalf("error beside the CSV: %q", got)
	}
	if alert, _ := chromedp.Run(ctx, chromedp.Text(chromedp.ID("error"))); !strings.Contains(alert, "gt_page_30.csv:3") {
		t.Fatalf("alert %q", alert)
	}
	if !resultsHidden() {
		t.Fatal("results of the failed scoring are shown")
	}
	act(t, ctx, chromedp.Click(`#files tr[data-file="gt_page_30.csv"] button.remove`))
	if resultsHidden() || fileError("runs.jsonl") != "" {
		t.Fatal("removing the bad CSV did not bring the results back")
	}

	// A runs file whose fifth line is cut short, dropped over the good one.
	runs, err := os.ReadFile(filepath.Join(dir, "runs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(runs), "\n")
	lines[4] = lines[4][:40] + "\n"
	badDir := t.TempDir()
	badRuns := filepath.Join(badDir, "runs.jsonl")
	if err := os.WriteFile(badRuns, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	act(t, ctx, drop(badRuns))
	if got := fileError("runs.jsonl"); !strings.Contains(got, "line 5") || !strings.Contains(got, "expected a JSON object (one image per line)") {
		t.Fatalf("error beside the runs file: %q", got)
	}
	if !resultsHidden() {
		t.Fatal("results of the failed scoring are shown")
	}
	act(t, ctx, drop(filepath.Join(dir, "runs.jsonl")))
	if resultsHidden() || fileError("runs.jsonl") != "" {
		t.Fatal("dropping the good runs file again did not bring the results back")
	}

	// A rule file with two bad rows, one that does not parse (line 7) and
	// one that parses but names an unknown field (line 8): both errors are
	// beside the file and in the rules panel, with their lines, and the
	// row that parsed is listed.
	badRules := filepath.Join(badDir, "EQUIVALENCES.md")
	if err := os.WriteFile(badRules, []byte("# Rules\n\n## 1. Ignore rules\n\n| field | token | position | side | status | witness |\n|---|---|---|---|---|---|\n| name | conte | middle | model | settled | p27 |\n| nome | il | leading | model | settled | p28 |\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	act(t, ctx, drop(badRules))
	if got := fileError("EQUIVALENCES.md"); !strings.HasPrefix(got, `line 7: unknown position "middle"`) ||
		!strings.Contains(got, ` | line 8: unknown field "nome"`) ||
		strings.Count(got, `unknown position "middle"`) != 1 || strings.Count(got, `unknown field "nome"`) != 1 {
		t.Fatalf("errors beside the rule file, each once: %q", got)
	}
	panel, _ := chromedp.Run(ctx, chromedp.Text(chromedp.ID("rules-problems")))
	if !strings.Contains(panel, `error: line 7:18: unknown position "middle"`) || !strings.Contains(panel, `error: line 8:3: unknown field "nome"`) {
		t.Fatalf("rules panel: %q", panel)
	}
	// Each error shows its row with a caret under the cell at fault, as
	// the command line does.
	if !strings.Contains(panel, "    7 | | name | conte | middle | model | settled | p27 |\n      |                  ^") ||
		!strings.Contains(panel, "    8 | | nome | il | leading | model | settled | p28 |\n      |   ^") {
		t.Fatalf("rules panel without the rows and their carets: %q", panel)
	}
	if rows, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll('#rules-table tbody tr')].map(r => r.cells[0].textContent).join(',')`)); rows != "8" {
		t.Fatalf("rows of the rules panel: %q, want the row at line 8", rows)
	}
	act(t, ctx, drop(filepath.Join(dir, "EQUIVALENCES.md")))
	if resultsHidden() || fileError("EQUIVALENCES.md") != "" {
		t.Fatal("dropping the good rule file again did not bring the results back")
	}
}

// TestNetworkStaysOnTheOrigin goes through every feature with the
// request recorder of newTab on (which fails the test for any request
// beyond the origin) and checks the recorder sees the worker's requests
// and that the page's policy refuses a request elsewhere.
func TestNetworkStaysOnTheOrigin(t *testing.T) {
	ctx, reqs := newTab(t, 2*time.Minute)
	act(t, ctx, chromedp.Click(chromedp.ID("load-sample")))
	act(t, ctx, chromedp.Click(chromedp.ID("rules-all")))
	if err := chromedp.Do(ctx, chromedp.Click(`#images tr[data-index="0"]`), chromedp.WaitVisible(chromedp.ID("detail"))); err != nil {
		t.Fatal(err)
	}
	download(t, ctx, "csv")
	var sawWasm, sawSample bool
	for _, u := range reqs.list() {
		sawWasm = sawWasm || strings.HasSuffix(u, ".wasm")
		sawSample = sawSample || strings.Contains(u, "/assets/sample.")
	}
	if !sawWasm || !sawSample {
		t.Fatalf("the recorder missed the worker's requests: %q", reqs.list())
	}
	// A tabular session fetches the page, its modules, the core and the
	// sample (and comparison.js, for the preview's movement; pool.js,
	// stream.js, streamview.js and wasmload.js, which the worker imports
	// for a large runs file's streamed scoring): neither the receipt
	// scorer nor the harness, nor their views.
	want := []string{"chart.js", "client.js", "comparison.js", "docscore.wasm", "drilldown.js", "format.js", "icon.svg", "index.html", "layout.js", "main.js", "parts.js",
		"persist.js", "pool.js", "roles.js", "sample.json", "stream.js", "streamview.js", "style.css", "view.js", "warmup.js", "wasm_exec.js", "wasmload.js", "worker.js"}
	if got := assetsFetched(reqs.list()); !reflect.DeepEqual(got, want) {
		t.Fatalf("a tabular session fetched %q, want exactly %q", got, want)
	}
	blocked, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`new Promise(resolve => {
		const seen = [];
		document.addEventListener('securitypolicyviolation', e => seen.push(e.blockedURI));
		fetch('http://127.0.0.2:9/probe').catch(() => {}).finally(() => setTimeout(() => resolve(seen), 100));
	})`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if len(blocked) == 0 || !strings.HasPrefix(blocked[0], "http://127.0.0.2:9") {
		t.Fatalf("the Content-Security-Policy did not refuse a request to another origin: %q", blocked)
	}
}

// TestReceiptFilesAreRecognised drops a pilot run and a CORD annotation
// under names that say nothing: their roles come from their content, they
// are scored, and a role changed by hand takes the file out.
func TestReceiptFilesAreRecognised(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "pilot-run.jsonl")
	cord := filepath.Join(dir, "cord-test-0000.json")
	os.WriteFile(run, []byte(`{"type": "run", "run_id": "r1", "planned": {"phases": ["c1"], "sample_ids": ["cord-test-0000"]}}`+"\n"+
		`{"type": "request", "phase": "c1", "sample_id": "cord-test-0000", "status": "ok", "finish_reason": "stop", "output": "TOTAL 12.000"}`+"\n"), 0o644)
	os.WriteFile(cord, []byte(`{"valid_line": [{"words": [{"text": "TOTAL"}, {"text": "12.000"}]}]}`), 0o644)
	ctx, _ := newTab(t, time.Minute)
	act(t, ctx, drop(run, cord))
	roles := fileRoles(t, ctx)
	if roles["pilot-run.jsonl"] != "receipt-run" || roles["cord-test-0000.json"] != "receipt-ref" {
		t.Fatalf("roles %v", roles)
	}
	if rows := tableRows(t, ctx, "#receipt-pages"); len(rows) != 1 || rows[0][1] != "cord-test-0000" || rows[0][8] != "1.0000" {
		t.Fatalf("pages %q", rows)
	}
	// A role can be corrected by hand.
	act(t, ctx, chromedp.SetValue(`#files tr[data-file="pilot-run.jsonl"] select`, "ignore"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#files tr[data-file="pilot-run.jsonl"] select').dispatchEvent(new Event('change'))`))
	if got := fileRoles(t, ctx)["pilot-run.jsonl"]; got != "ignore" {
		t.Fatalf("role after the change: %q", got)
	}
	msg, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("receipts-summary")))
	if err != nil || !strings.Contains(msg, "To score receipts, add a pilot run") {
		t.Fatalf("receipts summary %q (%v)", msg, err)
	}
}

// TestAccessibleAndBothSchemes checks that every control has a name a
// screen reader can read, that the cells table sorts from the keyboard
// with aria-sort kept up to date, and that the dark scheme applies.
func TestAccessibleAndBothSchemes(t *testing.T) {
	ctx, _ := newTab(t, time.Minute)
	act(t, ctx, chromedp.Click(chromedp.ID("load-sample")))
	var unnamed []string
	evalJSON(t, ctx, `[...document.querySelectorAll('button, select, input:not([type=file])')].filter(el => {
		if (el.closest('[hidden]')) return false;
		const label = el.getAttribute('aria-label') || el.textContent.trim() || (el.id && document.querySelector('label[for="' + el.id + '"]')) || el.closest('label');
		return !label;
	}).map(el => el.outerHTML.slice(0, 80))`, &unnamed)
	if len(unnamed) > 0 {
		t.Errorf("controls without an accessible name: %q", unnamed)
	}
	// Sort the cells by F1 from the keyboard: ascending, then descending
	// (each cell is the score, then its interval).
	f1 := func() []string {
		var v []string
		evalJSON(t, ctx, `[...document.querySelectorAll('#cells tbody tr')].map(tr => tr.cells[4].textContent.split(' ')[0])`, &v)
		return v
	}
	for _, want := range []struct {
		sort  string
		order []string
	}{
		{"ascending", []string{"0.9663", "0.9781", "0.9805", "0.9902"}},
		{"descending", []string{"0.9902", "0.9805", "0.9781", "0.9663"}},
	} {
		if err := chromedp.Do(ctx, chromedp.Focus(`#cells th[data-key="f1"] button`), chromedp.KeyEvent(kb.Enter)); err != nil {
			t.Fatal(err)
		}
		sortAttr, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#cells th[data-key="f1"]').getAttribute('aria-sort')`))
		if err != nil || sortAttr != want.sort || !reflect.DeepEqual(f1(), want.order) {
			t.Fatalf("after sorting: aria-sort %q, F1 column %q; want %s %q", sortAttr, f1(), want.sort, want.order)
		}
	}
	background := func() string {
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.body).backgroundColor`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	light := background()
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}}); err != nil {
		t.Fatal(err)
	}
	if dark := background(); light != "rgb(255, 255, 255)" || dark != "rgb(20, 23, 28)" {
		t.Fatalf("background light %s, dark %s", light, dark)
	}
}
