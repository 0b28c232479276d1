//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/docscore/docscore/cmd/docscore/internal/cli"
	"github.com/docscore/docscore/sample"
)

// cliRun runs the docscore command line in-process in dir and returns
// its standard output; a non-zero exit fails the test.
func cliRun(t *testing.T, dir string, args ...string) []byte {
	t.Helper()
	if dir != "" {
		t.Chdir(dir)
	}
	var out, errOut bytes.Buffer
	if code := cli.Main(args, cli.Env{Stdout: &out, Stderr: &errOut}); code != 0 {
		t.Fatalf("docscore %s: exit %d\n%s", strings.Join(args, " "), code, errOut.String())
	}
	return out.Bytes()
}

// sampleFiles writes the bundled sample into dir, every file at the top
// level under its own name, and returns the paths: three GT CSVs, the
// runs file and the rule file.
func sampleFiles(t *testing.T, dir string) []string {
	t.Helper()
	var paths []string
	err := fs.WalkDir(sample.Tabular, "tabular", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Base(p) == "README.md" {
			return err
		}
		b, err := fs.ReadFile(sample.Tabular, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, path.Base(p))
		paths = append(paths, dst)
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

// sampleTree writes the bundled sample into dir as the repository holds
// it (sample/tabular/gt/…, with its README) and returns dir/sample.
func sampleTree(t *testing.T, dir string) string {
	t.Helper()
	err := fs.WalkDir(sample.Tabular, "tabular", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, "sample", filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := fs.ReadFile(sample.Tabular, p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "sample")
}

// generation reads how many scorings the page has finished.
func generation(t *testing.T, ctx context.Context) int {
	t.Helper()
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`Number(document.body.dataset.generation || 0)`))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// waitScored waits until the page finishes a scoring after generation g.
func waitScored(t *testing.T, ctx context.Context, g int) {
	t.Helper()
	expr := fmt.Sprintf(`Number(document.body.dataset.generation || 0) > %d`, g)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("waiting for the page to score: %v", err)
	}
}

// act runs an action that makes the page score and waits for the result.
func act(t *testing.T, ctx context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	g := generation(t, ctx)
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatal(err)
	}
	waitScored(t, ctx, g)
}

// openImageRow scrolls the images table to the row of image index and,
// once the scroll's redraw is done (two animation frames), clicks that
// row in the same task that finds it: a click sent through the protocol
// after the row was looked up could land on a row a redraw had just
// replaced ("Could not find node with given id"). The keyboard test
// (TestDrillDown) drives the table with real input events.
func openImageRow(index int) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`new Promise((resolve, reject) => {
		document.querySelector('#images .vbox').scrollTop = %[1]d * 30;
		requestAnimationFrame(() => requestAnimationFrame(() => {
			const row = document.querySelector('#images tr[data-index="%[1]d"]');
			if (!row) {
				reject(new Error('no row of image %[1]d in the images table'));
				return;
			}
			row.click();
			resolve();
		}));
	})`, index), chromedp.EvalAwaitPromise)
}

// drop drops files (or folders) on the page with real drag events:
// dragEnter, dragOver and drop carrying the paths, as a person would.
func drop(paths ...string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		data := &input.DragData{Items: []*input.DragDataItem{}, Files: paths, DragOperationsMask: 1}
		for _, typ := range []input.DispatchDragEventType{input.DispatchDragEventTypeDragEnter, input.DispatchDragEventTypeDragOver, input.DispatchDragEventTypeDrop} {
			if _, err := chromedp.Call(ctx, input.DispatchDragEvent, input.DispatchDragEventParams{Type: typ, X: 400, Y: 300, Data: data}); err != nil {
				return chromedp.Void{}, fmt.Errorf("%s: %w", typ, err)
			}
		}
		return chromedp.Void{}, nil
	}
}

// evalJSON evaluates a JavaScript expression and decodes its JSON value.
func evalJSON(t *testing.T, ctx context.Context, expr string, v any) {
	t.Helper()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	var text string
	if json.Unmarshal(raw, &text) == nil {
		raw = []byte(text) // the expression gave JSON text
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v (%s)", expr, err, raw)
	}
}

// download clicks a download button and returns the bytes the browser
// saved, checking that the progress shown meanwhile is gone.
func download(t *testing.T, ctx context.Context, format string) []byte {
	t.Helper()
	b := saveDownload(t, ctx, format)
	if hidden, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById('progress').hidden`)); err != nil || !hidden {
		t.Errorf("after the %s download the progress bar still shows (%v)", format, err)
	}
	return b
}

// saveDownload clicks the button [data-download=format] and returns the
// bytes the browser saved.
func saveDownload(t *testing.T, ctx context.Context, format string) []byte {
	t.Helper()
	dir := t.TempDir()
	if _, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: ptr(true)}); err != nil {
		t.Fatal(err)
	}
	progress := chromedp.BrowserEvents(ctx, browser.DownloadProgress)
	if err := chromedp.Do(ctx, chromedp.Click(`[data-download="`+format+`"]`)); err != nil {
		t.Fatal(err)
	}
	for ev, err := range progress {
		if err != nil {
			t.Fatalf("waiting for the %s download: %v", format, err)
		}
		switch ev.State {
		case browser.DownloadProgressStateCompleted:
			b, err := os.ReadFile(filepath.Join(dir, ev.GUID))
			if err != nil {
				t.Fatal(err)
			}
			return b
		case browser.DownloadProgressStateCanceled:
			t.Fatalf("the %s download was cancelled", format)
		}
	}
	t.Fatal("no download")
	return nil
}

// fileRoles returns the file list as name → role.
func fileRoles(t *testing.T, ctx context.Context) map[string]string {
	t.Helper()
	var roles map[string]string
	evalJSON(t, ctx, `JSON.stringify(Object.fromEntries([...document.querySelectorAll('#files tbody tr')].map(tr => [tr.dataset.file, tr.querySelector('select').value])))`, &roles)
	return roles
}

// tableRows returns the text of a table's body cells, row by row.
func tableRows(t *testing.T, ctx context.Context, sel string) [][]string {
	t.Helper()
	var rows [][]string
	evalJSON(t, ctx, `JSON.stringify([...document.querySelectorAll(`+jsString(sel+" tbody tr")+`)].map(tr => [...tr.cells].map(c => c.textContent)))`, &rows)
	return rows
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// mdTable returns the rows of the first Markdown table after the heading
// that starts with title: header first, the rule line left out, cells
// trimmed.
func mdTable(t *testing.T, md []byte, title string) [][]string {
	t.Helper()
	lines := strings.Split(string(md), "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, title) {
			start = i
			break
		}
	}
	if start < 0 {
		t.Fatalf("no %q in the Markdown report", title)
	}
	var rows [][]string
	for _, l := range lines[start+1:] {
		if !strings.HasPrefix(l, "|") {
			if len(rows) > 0 {
				break
			}
			continue
		}
		if strings.HasPrefix(l, "|---") {
			continue
		}
		cells := strings.Split(strings.Trim(l, "|"), " | ")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows = append(rows, cells)
	}
	return rows
}

// screenshot writes a PNG of the viewport scrolled to sel: into docs/
// with -update, else into a temporary folder (it must still be a PNG).
func screenshot(t *testing.T, ctx context.Context, sel, name string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.querySelector(`+jsString(sel)+`).scrollIntoView()`)); err != nil {
		t.Fatal(err)
	}
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(buf, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("screenshot %s is not a PNG", name)
	}
	dir := t.TempDir()
	if *update {
		dir = docsDir
	}
	if err := os.WriteFile(filepath.Join(dir, name), buf, 0o644); err != nil {
		t.Fatal(err)
	}
}
