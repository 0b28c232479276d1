//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/docscore/docscore/sample"
)

// receiptsDir writes the receipts sample into dir as the command line
// reads it: refs/cord-test-NNNN.json, run.jsonl and, in dir/interrupted,
// the interrupted run under the same name (so that dropping it replaces
// the complete one). It returns the paths to drop: the references and the
// complete run.
func receiptsDir(t *testing.T, dir string) []string {
	t.Helper()
	var paths []string
	write := func(src, dst string) {
		b, err := fs.ReadFile(sample.Receipts, src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	refs, err := fs.Glob(sample.Receipts, "receipts/refs/*.json")
	if err != nil || len(refs) != 24 {
		t.Fatalf("sample refs %v (%v)", refs, err)
	}
	for _, r := range refs {
		dst := filepath.Join(dir, "refs", path.Base(r))
		write(r, dst)
		paths = append(paths, dst)
	}
	write("receipts/run.jsonl", filepath.Join(dir, "run.jsonl"))
	write("receipts/run_incomplete.jsonl", filepath.Join(dir, "interrupted", "run.jsonl"))
	return append(paths, filepath.Join(dir, "run.jsonl"))
}

// assetsFetched maps the recorded requests to the source names of the
// built assets they fetched ("docscore.wasm", "main.js"), sorted.
func assetsFetched(urls []string) []string {
	seen := map[string]bool{}
	for _, u := range urls {
		for _, a := range built.Assets {
			if strings.HasSuffix(u, "/"+a.Path) || (a.Source == "index.html" && strings.HasSuffix(u, prefix)) {
				seen[a.Source] = true
			}
		}
	}
	var out []string
	for s := range seen {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestReceiptsEqualTheCLI drops the receipts sample's references and pilot
// run: the downloads are the command line's reports byte for byte and the
// phases shown are its phases. The interrupted run dropped over it is
// refused with the pairs it lacks and repeats; "Allow an incomplete run"
// scores it with the label, as --allow-incomplete does. Only the receipts
// wasm is fetched beside the core.
func TestReceiptsEqualTheCLI(t *testing.T) {
	dir := t.TempDir()
	paths := receiptsDir(t, dir)
	ctx, reqs := newTab(t, 2*time.Minute)
	start := time.Now()
	act(t, ctx, drop(paths...))
	t.Logf("receipts sample (25 files) from the drop to the results, receipts.wasm fetched and started: %.1f s", time.Since(start).Seconds())
	roles := fileRoles(t, ctx)
	if len(roles) != 25 || roles["run.jsonl"] != "receipt-run" || roles["cord-test-0007.json"] != "receipt-ref" {
		t.Fatalf("roles %v", roles)
	}
	args := []string{"score", "receipts", "--refs", "refs", "--run", "run.jsonl"}
	for _, format := range []string{"json", "csv", "md"} {
		want := cliRun(t, dir, append(args, "--format", format)...)
		if got := download(t, ctx, "receipts-"+format); !bytes.Equal(got, want) {
			t.Errorf("downloaded receipts %s (%d bytes) differs from docscore %s --format %s (%d bytes)", format, len(got), strings.Join(args, " "), format, len(want))
		}
	}
	md := cliRun(t, dir, append(args, "--format", "md")...)
	phases := mdTable(t, md, "## Phases")
	shown := tableRows(t, ctx, "#receipt-phases")
	if len(shown) != len(phases)-1 {
		t.Fatalf("%d phases shown, the report has %d", len(shown), len(phases)-1)
	}
	for i, row := range shown {
		if !reflect.DeepEqual(row[:len(phases[0])], phases[i+1]) {
			t.Errorf("phase row %d: %q, report %q", i, row, phases[i+1])
		}
	}
	var pages struct {
		N     int
		Flags string
	}
	evalJSON(t, ctx, `JSON.stringify({n: document.querySelectorAll('#receipt-pages tbody tr').length,
		flags: document.querySelector('#receipt-pages th[data-page="c1/cord-test-0003"]').parentNode.cells[5].textContent})`, &pages)
	if pages.N != 48 || pages.Flags != "truncatednot_scored" {
		t.Fatalf("pages table: %+v", pages)
	}
	if banner, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById('receipts-banner').hidden`)); !banner {
		t.Fatal("a banner is shown for a complete run")
	}

	// The interrupted run, dropped over the complete one: refused.
	act(t, ctx, drop(filepath.Join(dir, "interrupted", "run.jsonl")))
	var refusal struct {
		State, Text string
		Hidden      bool
		FileError   string
	}
	readRefusal := func() {
		t.Helper()
		evalJSON(t, ctx, `JSON.stringify({state: document.getElementById('receipts-banner').dataset.state || '',
			text: document.getElementById('receipts-banner').textContent,
			hidden: document.getElementById('receipts-results').hidden,
			fileError: [...document.querySelectorAll('#files tr[data-file="run.jsonl"] .file-error')].map(e => e.textContent).join(' | ')})`, &refusal)
	}
	readRefusal()
	if refusal.State != "refused" || !refusal.Hidden || !strings.Contains(refusal.Text, "missing:    c4/cord-test-0007") ||
		!strings.Contains(refusal.Text, "duplicated: c1/cord-test-0005 recorded 2 times (lines 31, 32)") || !strings.Contains(refusal.FileError, "is incomplete") {
		t.Fatalf("refusal of the interrupted run: %+v", refusal)
	}

	// Allowed: the labelled report of --allow-incomplete.
	act(t, ctx, chromedp.Click(chromedp.ID("allow-incomplete")))
	readRefusal()
	if refusal.State != "incomplete" || refusal.Hidden || !strings.Contains(refusal.Text, "INCOMPLETE") ||
		!strings.Contains(refusal.Text, "missing: c4/cord-test-0007") || !strings.Contains(refusal.Text, "recorded 2 times: c1/cord-test-0005 (lines 31, 32; line 31 scored)") {
		t.Fatalf("incomplete report: %+v", refusal)
	}
	inc := []string{"score", "receipts", "--refs", "refs", "--run", filepath.Join("interrupted", "run.jsonl"), "--allow-incomplete"}
	for _, format := range []string{"json", "md"} {
		if got, want := download(t, ctx, "receipts-"+format), cliRun(t, dir, append(inc, "--format", format)...); !bytes.Equal(got, want) {
			t.Errorf("downloaded incomplete receipts %s differs from docscore %s --format %s", format, strings.Join(inc, " "), format)
		}
	}
	screenshot(t, ctx, "#receipts", "site-receipts.png")

	// The bundled sample: the complete run's report again.
	act(t, ctx, chromedp.Click(chromedp.ID("allow-incomplete")))
	loadSampleOver(t, ctx, "load-receipts-sample", false)
	roles = fileRoles(t, ctx)
	if roles["sample/receipts/run.jsonl"] != "receipt-run" || roles["sample/receipts/run_incomplete.jsonl"] != "ignore" || len(roles) != 26 {
		t.Fatalf("receipts sample roles %v", roles)
	}
	// The sample's files are named sample/receipts/…, as the command line
	// names them from the repository's root (the report's provenance).
	sampleArgs := []string{"score", "receipts", "--refs", "sample/receipts/refs", "--run", "sample/receipts/run.jsonl", "--format", "json"}
	if got, want := download(t, ctx, "receipts-json"), cliRun(t, filepath.Dir(docsDir), sampleArgs...); !bytes.Equal(got, want) {
		t.Errorf("Load receipts sample: downloaded JSON differs from the command line's")
	}
	fetched := assetsFetched(reqs.list())
	if !contains(fetched, "receipts.wasm") || contains(fetched, "harness.wasm") || contains(fetched, "pipelineview.js") {
		t.Fatalf("a receipts session fetched %q: want receipts.wasm, not the harness", fetched)
	}
}

// mdSections returns the "Rerun:" advice of each "### pipeline / stage"
// section of a harness Markdown report.
func mdRerun(md []byte) map[string]string {
	out := map[string]string{}
	var key string
	for _, l := range strings.Split(string(md), "\n") {
		if strings.HasPrefix(l, "### ") {
			key = strings.TrimPrefix(l, "### ")
			key = key[:strings.LastIndex(key, ":")]
		}
		if strings.HasPrefix(l, "Rerun: ") && key != "" {
			out[key] = strings.TrimPrefix(l, "Rerun: ")
		}
	}
	return out
}

// harnessReport is what the pipeline test reads of the command line's
// report.
type harnessReport struct {
	Pipelines []struct {
		PipelineID string `json:"pipeline_id"`
		Stages     []struct {
			StageID          string             `json:"stage_id"`
			Verdict          string             `json:"verdict"`
			FailureContext   *string            `json:"failure_context"`
			UpstreamVerdicts map[string]string  `json:"upstream_verdicts"`
			Scores           map[string]float64 `json:"scores"`
			DependsOn        []string           `json:"depends_on"`
			Metrics          []struct {
				Metric  string `json:"metric"`
				Verdict string `json:"verdict"`
			} `json:"metrics"`
		} `json:"stages"`
	} `json:"pipelines"`
}

// verdictFill is each verdict's node colour in the light scheme.
var verdictFill = map[string]string{
	"pass":           "rgb(198, 246, 213)",
	"fail":           "rgb(254, 215, 215)",
	"uncertain":      "rgb(254, 252, 191)",
	"not_applicable": "rgb(226, 232, 240)",
}

// shownStage is what the page shows of a stage: its node and, selected,
// its panel.
type shownStage struct {
	Verdict, Context, Fill string
	Heading, Rerun, Scores string
	Upstream               map[string]string
	Metrics                [][2]string
}

// TestPipelineGraphEqualsTheCLI drops the harness's pipeline example (the
// cases file and the image it names): each pipeline is drawn with one node
// per stage in its verdict's colour and an arrow per dependency, each
// stage shows its attribution, metrics and upstream verdicts as the
// command line reports them, and the downloads are "docscore eval
// --output … --markdown …" byte for byte. The command line's report,
// dropped alone, shows the same graph and gives the same downloads.
func TestPipelineGraphEqualsTheCLI(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(filepath.Dir(docsDir), "examples", "harness", "pipeline")
	var paths []string
	for _, name := range []string{"cases.json", "invoice.png"} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	out := t.TempDir()
	cliRun(t, dir, "eval", "--cases", "cases.json", "--judge", "none", "--output", filepath.Join(out, "report.json"), "--markdown", filepath.Join(out, "report.md"))
	wantJSON, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	wantMD, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	var rep harnessReport
	if err := json.Unmarshal(wantJSON, &rep); err != nil {
		t.Fatal(err)
	}
	rerun := mdRerun(wantMD)

	ctx, reqs := newTab(t, 2*time.Minute)
	// The cases file alone: the image it names is missing, and the page
	// says so beside it, with the harness's error and its line.
	start := time.Now()
	act(t, ctx, drop(paths[0]))
	t.Logf("cases file alone: evaluated (and refused) %.1f s after the drop, harness.wasm fetched and started", time.Since(start).Seconds())
	var missing struct{ Note, Alert string }
	evalJSON(t, ctx, `JSON.stringify({note: [...document.querySelectorAll('#files tr[data-file="cases.json"] .file-error')].map(e => e.textContent).join(' | '),
		alert: document.getElementById('error').textContent})`, &missing)
	if !strings.Contains(missing.Note, "names invoice.png: not among the dropped files") || !strings.Contains(missing.Note, "line 43") ||
		!strings.Contains(missing.Alert, `cases.json:43:23: pipelines[0].stages[0].references[0].path: cannot read "invoice.png"`) {
		t.Fatalf("cases file without its image: %+v", missing)
	}
	// The image, dropped next: the cases file names it, so it is a case file.
	start = time.Now()
	act(t, ctx, drop(paths[1]))
	t.Logf("pipeline example evaluated and drawn %.1f s after the drop (harness.wasm already started by the first drop)", time.Since(start).Seconds())
	if roles := fileRoles(t, ctx); roles["cases.json"] != "cases" || roles["invoice.png"] != "case-file" || len(roles) != 2 {
		t.Fatalf("roles %v", roles)
	}

	checkGraph := func(from string) {
		t.Helper()
		var nodes map[string]shownStage
		evalJSON(t, ctx, `JSON.stringify(Object.fromEntries([...document.querySelectorAll('#pipelines g.stage')].map(g => [
			g.dataset.pipeline + '/' + g.dataset.stage,
			{verdict: g.dataset.verdict, context: g.dataset.context, fill: getComputedStyle(g.querySelector('rect')).fill}])))`, &nodes)
		var edges []string
		evalJSON(t, ctx, `JSON.stringify([...document.querySelectorAll('#pipelines figure')].flatMap(f =>
			[...f.querySelectorAll('path.edge')].map(p => f.dataset.pipeline + ':' + p.dataset.from + '→' + p.dataset.to)))`, &edges)
		n := 0
		var wantEdges []string
		for _, p := range rep.Pipelines {
			for _, st := range p.Stages {
				n++
				key := p.PipelineID + "/" + st.StageID
				ctxWant := ""
				if st.FailureContext != nil {
					ctxWant = *st.FailureContext
				}
				got, ok := nodes[key]
				if !ok || got.Verdict != st.Verdict || got.Context != ctxWant || got.Fill != verdictFill[st.Verdict] {
					t.Errorf("%s: node %s shows %+v, report: verdict %s, context %q (fill %s)", from, key, got, st.Verdict, ctxWant, verdictFill[st.Verdict])
				}
				for _, d := range st.DependsOn {
					wantEdges = append(wantEdges, p.PipelineID+":"+d+"→"+st.StageID)
				}
			}
		}
		if len(nodes) != n || n != 10 {
			t.Errorf("%s: %d nodes drawn, the report has %d stages", from, len(nodes), n)
		}
		sort.Strings(edges)
		sort.Strings(wantEdges)
		if !reflect.DeepEqual(edges, wantEdges) || len(edges) != 5 {
			t.Errorf("%s: edges %q, want %q", from, edges, wantEdges)
		}
	}
	checkGraph("cases file")

	// Every stage, selected, shows its attribution, upstream verdicts,
	// scores and metrics as the report has them, and the Markdown's
	// advice on what to rerun.
	for _, p := range rep.Pipelines {
		for _, st := range p.Stages {
			sel := fmt.Sprintf(`#pipelines g.stage[data-pipeline=%q][data-stage=%q]`, p.PipelineID, st.StageID)
			if err := chromedp.Do(ctx, chromedp.Click(sel),
				chromedp.Poll[chromedp.Void](fmt.Sprintf(`document.getElementById('stage').dataset.pipeline === %q && document.getElementById('stage').dataset.stage === %q`, p.PipelineID, st.StageID),
					chromedp.WithPollingTimeout(0))); err != nil {
				t.Fatal(err)
			}
			var shown shownStage
			evalJSON(t, ctx, `JSON.stringify({heading: document.getElementById('stage-h').textContent,
				rerun: document.querySelector('#stage .stage-rerun').textContent,
				scores: document.querySelector('#stage .stage-scores').textContent,
				upstream: Object.fromEntries([...document.querySelectorAll('#stage button.upstream')].map(b => [b.dataset.stage, b.dataset.verdict])),
				metrics: [...document.querySelectorAll('#stage table.metrics tbody tr')].map(tr => [tr.dataset.metric, tr.dataset.verdict])})`, &shown)
			key := p.PipelineID + " / " + st.StageID
			wantHeading := key + ": " + st.Verdict
			if st.FailureContext != nil {
				wantHeading += " (" + *st.FailureContext + ")"
			}
			wantRerun := rerun[key]
			if wantRerun == "" {
				wantRerun = "nothing to rerun."
			}
			var metrics [][2]string
			for _, m := range st.Metrics {
				metrics = append(metrics, [2]string{m.Metric, m.Verdict})
			}
			if shown.Heading != wantHeading || shown.Rerun != wantRerun || !reflect.DeepEqual(shown.Metrics, metrics) ||
				!reflect.DeepEqual(nonNilMap(shown.Upstream), nonNilMap(st.UpstreamVerdicts)) {
				t.Errorf("stage %s shows %+v; report: heading %q, rerun %q, upstream %v, metrics %v", key, shown, wantHeading, wantRerun, st.UpstreamVerdicts, metrics)
			}
		}
	}
	// The keyboard: every stage is a labelled button; Enter selects it.
	var unlabelled int
	evalJSON(t, ctx, `[...document.querySelectorAll('#pipelines g.stage')].filter(g => g.getAttribute('tabindex') !== '0' || g.getAttribute('role') !== 'button' || !g.getAttribute('aria-label').startsWith('Stage ' + g.dataset.stage + ': ')).length`, &unlabelled)
	if unlabelled != 0 {
		t.Errorf("%d stage nodes are not labelled, focusable buttons", unlabelled)
	}
	if err := chromedp.Do(ctx, chromedp.Focus(`#pipelines g.stage[data-pipeline="wrong-extraction"][data-stage="calculate-total"]`), chromedp.KeyEvent(kb.Enter),
		chromedp.Poll[chromedp.Void](`document.getElementById('stage-h').textContent === 'wrong-extraction / calculate-total: pass (upstream)'`, chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("selecting a stage with the keyboard: %v", err)
	}
	if got, want := tableRows(t, ctx, "#review-queue"), mdTable(t, wantMD, "## Review queue")[1:]; len(got) != len(want) || got[0][0] != want[0][0] || got[0][2] != want[0][2] || got[0][4] != want[0][4] {
		t.Errorf("review queue %q, report %q", got, want)
	}
	if got := download(t, ctx, "harness-json"); !bytes.Equal(got, wantJSON) {
		t.Errorf("downloaded harness JSON (%d bytes) differs from docscore eval --output (%d bytes)", len(got), len(wantJSON))
	}
	if got := download(t, ctx, "harness-md"); !bytes.Equal(got, wantMD) {
		t.Errorf("downloaded harness Markdown differs from docscore eval --markdown:\n%s", got)
	}
	// The stage the screenshot shows: a failure blamed on both stages.
	if err := chromedp.Do(ctx, chromedp.Click(`#pipelines g.stage[data-pipeline="both-wrong"][data-stage="calculate-total"]`)); err != nil {
		t.Fatal(err)
	}
	screenshot(t, ctx, "#harness", "site-pipeline.png")

	// The command line's report, dropped alone: the same graph, the same
	// downloads (the Markdown rendered from the report by harness.wasm).
	act(t, ctx, chromedp.Click(chromedp.ID("clear")), chromedp.WaitNotVisible(chromedp.ID("files")))
	act(t, ctx, drop(filepath.Join(out, "report.json")))
	if roles := fileRoles(t, ctx); roles["report.json"] != "harness-report" {
		t.Fatalf("roles %v", roles)
	}
	checkGraph("report")
	if got := download(t, ctx, "harness-json"); !bytes.Equal(got, wantJSON) {
		t.Errorf("dropped report: downloaded JSON differs from the report")
	}
	if got := download(t, ctx, "harness-md"); !bytes.Equal(got, wantMD) {
		t.Errorf("dropped report: downloaded Markdown differs from docscore eval --markdown")
	}
	// A report the page cannot draw: the error is beside it.
	badDir := t.TempDir()
	bad := `{"kind": "harness", "report_version": 1, "summary": {}, "pipelines": [{"pipeline_id": "p", "stages": [{"stage_id": 3}]}], "cases": [], "review_queue": [], "warnings": []}`
	if err := os.WriteFile(filepath.Join(badDir, "report.json"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	act(t, ctx, drop(filepath.Join(badDir, "report.json")))
	note, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll('#files tr[data-file="report.json"] .file-error')].map(e => e.textContent).join(' | ')`))
	if err != nil || note != "pipelines[0].stages[0].case_id: expected a string" {
		t.Fatalf("error beside a malformed report: %q (%v)", note, err)
	}

	// The bundled example: the report of the command line run at the
	// repository's root, which names the cases file by that path.
	loadSampleOver(t, ctx, "load-pipeline-sample", false)
	root := filepath.Dir(docsDir) // the repository
	cliRun(t, root, "eval", "--cases", "examples/harness/pipeline/cases.json", "--output", filepath.Join(out, "example.json"))
	if want, err := os.ReadFile(filepath.Join(out, "example.json")); err != nil || !bytes.Equal(download(t, ctx, "harness-json"), want) {
		t.Errorf("Load pipeline example: downloaded JSON differs from docscore eval --cases examples/harness/pipeline/cases.json (%v)", err)
	}
	fetched := assetsFetched(reqs.list())
	if !contains(fetched, "harness.wasm") || contains(fetched, "receipts.wasm") || contains(fetched, "receiptsview.js") {
		t.Fatalf("a harness session fetched %q: want harness.wasm, not the receipt scorer", fetched)
	}
}

func nonNilMap(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}
