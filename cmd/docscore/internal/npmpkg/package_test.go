//go:build e2e

package npmpkg

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/docscore/docscore/cmd/docscore/internal/cli"
	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/api/textapi"
)

// TestInstalledPackage packs @docscore/core, installs the tarball into an
// empty project (npm install needs no registry: the package has no
// dependencies) and runs there, against the command line's bytes:
// npm/test-project's Node test, tsc --noEmit on its browser example, and
// the example bundled by esbuild and loaded in Chromium, on the page and
// in a Web Worker. TypeScript and esbuild come from npm/test-project
// (npm ci: scripts/deps.sh). Nothing skips: a missing tool fails.
func TestInstalledPackage(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	tools := filepath.Join(root, "npm", "test-project")
	for _, tool := range []string{"tsc", "esbuild"} {
		if _, err := os.Stat(filepath.Join(tools, "node_modules", ".bin", tool)); err != nil {
			t.Fatalf("%s is not installed in npm/test-project: run scripts/deps.sh (npm ci there): %v", tool, err)
		}
	}
	chromium := findChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()

	tmp := t.TempDir()
	start := time.Now()
	r, err := Pack(ctx, Options{Root: root, Out: filepath.Join(tmp, "out")})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("packed %s: %d bytes in %.0f s", filepath.Base(r.Tarball), r.Size, time.Since(start).Seconds())
	for _, f := range []string{"dist/node.js", "dist/browser.js", "dist/index.d.ts", "dist/wasm_exec.js", "dist/docscore.wasm", "dist/receipts.wasm", "dist/tables.wasm", "dist/text.wasm", "dist/harness.wasm", "README.md", "LICENSE"} {
		if r.Files[f] == 0 {
			t.Errorf("the tarball lacks %s (it holds %v)", f, r.Files)
		}
	}

	project := filepath.Join(tmp, "project")
	write(t, filepath.Join(project, "package.json"), []byte(`{"name": "docscore-core-consumer", "private": true, "type": "module"}`+"\n"))
	for _, f := range []string{"node.test.mjs", "example.ts", "worker.ts", "index.html", "tsconfig.json"} {
		b, err := os.ReadFile(filepath.Join(tools, f))
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(project, f), b)
	}
	run(t, ctx, project, nil, "npm", "install", "--offline", "--no-audit", "--no-fund", r.Tarball)

	expected := filepath.Join(tmp, "expected")
	cliReports(t, root, expected)

	t.Run("node", func(t *testing.T) {
		run(t, ctx, project, []string{"DOCSCORE_REPO=" + root, "DOCSCORE_EXPECTED=" + expected}, "node", "--test", "node.test.mjs")
	})
	t.Run("readme", func(t *testing.T) {
		// The README's first example, run in the tabular sample's folder.
		readme, err := os.ReadFile(filepath.Join(root, "npm", "README.md"))
		if err != nil {
			t.Fatal(err)
		}
		_, example, ok := strings.Cut(string(readme), "```js\n")
		example, _, _ = strings.Cut(example, "```")
		if !ok || strings.Count(example, "\n") != 5 {
			t.Fatalf("npm/README.md: its first js block is %q, want the five-line use", example)
		}
		write(t, filepath.Join(project, "readme.mjs"), []byte(example))
		cmd := exec.CommandContext(ctx, "node", filepath.Join(project, "readme.mjs"))
		cmd.Dir = filepath.Join(root, "sample", "tabular")
		out, err := cmd.CombinedOutput()
		if err != nil || !regexp.MustCompile(`(?m)^claude-3-5-sonnet-20241022 G (0\.\d+|1)$`).Match(out) {
			t.Fatalf("the README's example: %v\n%s", err, out)
		}
		t.Logf("the README's example printed:\n%s", out)
	})
	t.Run("tsc", func(t *testing.T) {
		run(t, ctx, project, nil, filepath.Join(tools, "node_modules", ".bin", "tsc"), "--noEmit", "-p", "tsconfig.json")
	})
	t.Run("chromium", func(t *testing.T) {
		web := filepath.Join(tmp, "web")
		run(t, ctx, project, nil, filepath.Join(tools, "node_modules", ".bin", "esbuild"), "example.ts", "worker.ts",
			"--bundle", "--format=esm", "--loader:.wasm=file", "--outdir="+web)
		// The worker finds the files next to its bundle, the package's
		// default: they are copied there, as its README says.
		for _, w := range Wasm {
			b, err := os.ReadFile(filepath.Join(project, "node_modules", "@docscore", "core", "dist", w.Name))
			if err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(web, w.Name), b)
		}
		html, err := os.ReadFile(filepath.Join(project, "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(web, "index.html"), html)
		checkBrowser(t, ctx, chromium, web, root, expected)
	})
}

// cliReports writes the command line's reports into dir: the tabular
// sample (--sample) in every format, its rule file's check, the receipts
// sample, the pipeline example's evaluation, the tabular report compared
// within itself and with its preview (--preview open), and a page-text
// drill-down (textPage).
func cliReports(t *testing.T, root, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	out := func(name string, args ...string) {
		write(t, filepath.Join(dir, name), cliRun(t, args...))
	}
	t.Chdir(root)
	for _, f := range []string{"json", "csv", "md"} {
		out("tabular."+f, "score", "tabular", "--sample", "--format", f)
		out("receipts."+f, "score", "receipts", "--refs", "sample/receipts/refs", "--run", "sample/receipts/run.jsonl", "--format", f)
	}
	out("rules.json", "rules", "check", "--rules", "sample/tabular/EQUIVALENCES.md", "--format", "json")
	t.Chdir(filepath.Join(root, "examples", "harness", "pipeline"))
	cliRun(t, "eval", "--cases", "cases.json", "--judge", "none", "--output", filepath.Join(dir, "eval.json"), "--markdown", filepath.Join(dir, "eval.md"))
	t.Chdir(dir)
	t.Chdir(root)
	out("tabular-preview.json", "score", "tabular", "--sample", "--preview", "open")
	t.Chdir(dir)
	for _, f := range []string{"json", "md"} {
		out("compare."+f, "compare", "--within", "tabular.json", "--format", f)
		out("compare-preview."+f, "compare", "--preview", "tabular.json", "tabular-preview.json", "--format", f)
	}
	// A page's drill-down, an operation only the HTTP API and the page
	// serve: the core's answer, as the HTTP API writes it.
	res, err := textapi.TextPageOperation().Run(api.NoCancel, &textapi.TextPageRequest{
		GT:  api.File{Name: "0001.gt.txt", Text: "Zu Venedig, im Jahre 1769.\n"},
		OCR: &api.File{Name: "0001.ocr.txt", Text: "Zu Venedlg, im Jahre 1769\n"},
	})
	if err != nil {
		t.Fatal(err)
	}
	b, err := api.MarshalJSON(res.Value)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "textpage.json"), b)
}

// cliRun runs the command line in-process and returns its standard
// output; a non-zero exit fails the test.
func cliRun(t *testing.T, args ...string) []byte {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := cli.Main(args, cli.Env{Stdout: &stdout, Stderr: &stderr}); code != 0 {
		t.Fatalf("docscore %s: exit %d\n%s", strings.Join(args, " "), code, stderr.String())
	}
	return stdout.Bytes()
}

// checkBrowser serves the bundle (and the repository's sample under
// /sample/) and reads what the example page writes: its reports must be
// the command line's bytes.
func checkBrowser(t *testing.T, ctx context.Context, chromium, web, root, expected string) {
	mux := http.NewServeMux()
	mux.Handle("/sample/", http.FileServer(http.Dir(root)))
	mux.Handle("/", http.FileServer(http.Dir(web)))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(chromium), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.UserDataDir(filepath.Join(t.TempDir(), "profile")))
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(alloc)
	defer cancelBrowser()
	bctx, cancelTimeout := context.WithTimeout(bctx, 3*time.Minute)
	defer cancelTimeout()
	if err := chromedp.Do(bctx,
		chromedp.Navigate(srv.URL+"/index.html"),
		chromedp.WaitVisible(`body[data-done="true"]`),
	); err != nil {
		t.Fatalf("loading the example in Chromium: %v", err)
	}
	text, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.getElementById('out').textContent`))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Failed  string
		Kind    string
		JSON    string
		MD      string
		Compare string
		Error   *struct {
			Code string
			File string
			Line int
		}
		Worker struct {
			MD    string
			Error string
		}
	}
	if err := json.Unmarshal([]byte(text), &got); err != nil {
		t.Fatalf("the page wrote %.300q: %v", text, err)
	}
	if got.Failed != "" || got.Worker.Error != "" {
		t.Fatalf("the example failed: page %q, worker %q", got.Failed, got.Worker.Error)
	}
	for _, c := range []struct{ what, b64, file string }{
		{"page: JSON report", got.JSON, "tabular.json"},
		{"page: Markdown report", got.MD, "tabular.md"},
		{"page: comparison within", got.Compare, "compare.md"},
		{"worker: Markdown report", got.Worker.MD, "tabular.md"},
	} {
		b, err := base64.StdEncoding.DecodeString(c.b64)
		if err != nil {
			t.Fatalf("%s: %v", c.what, err)
		}
		want, err := os.ReadFile(filepath.Join(expected, c.file))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, want) {
			t.Errorf("%s: %d bytes, differs from the command line's %s (%d bytes)", c.what, len(b), c.file, len(want))
		}
	}
	if got.Kind != "tabular" {
		t.Errorf("parsed report's kind %q, want tabular", got.Kind)
	}
	if got.Error == nil || got.Error.Code != "input" || got.Error.File != "runs.jsonl" || got.Error.Line != 1 {
		t.Errorf("a bad runs line: error %+v, want code input, file runs.jsonl, line 1", got.Error)
	}
}

// findChromium returns $CHROMIUM, or chromium on PATH; its absence fails
// the test (scripts/deps.sh installs it).
func findChromium(t *testing.T) string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("Chromium not found ($CHROMIUM, chromium, chromium-browser, google-chrome): install it with scripts/deps.sh")
	return ""
}

func run(t *testing.T, ctx context.Context, dir string, env []string, name string, args ...string) {
	t.Helper()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
	}
	t.Logf("%s %s:\n%s", filepath.Base(name), strings.Join(args, " "), lastLines(string(out), 15))
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func write(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
