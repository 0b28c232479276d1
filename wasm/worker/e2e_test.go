//go:build e2e && !(js && wasm)

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/docscore/docscore/httpapi"
	"github.com/docscore/docscore/internal/adversarial"
	"github.com/docscore/docscore/sample"
	core "github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/api/compareapi"
	"github.com/docscore/docscore/scoring/api/evalapi"
	"github.com/docscore/docscore/scoring/api/receiptsapi"
	"github.com/docscore/docscore/scoring/api/tablesapi"
	"github.com/docscore/docscore/scoring/api/textapi"
)

// TestWorkerEndToEnd builds the Worker (make worker), runs it in the real
// Workers runtime (workerd, through "wrangler dev", offline) and checks
// that it answers like the native handler: the bundled sample byte for
// byte as the command line, the same 4xx bodies for bad requests, and no
// error under 200 requests 16 at a time. It fails, never skips, when the
// runtime cannot start.
func TestWorkerEndToEnd(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	workerDir := filepath.Join(root, "worker")
	if _, err := os.Stat(filepath.Join(workerDir, "node_modules", ".bin", "wrangler")); err != nil {
		t.Fatalf("wrangler is not installed in worker/ (run 'make deps' or 'cd worker && npm ci'): %v", err)
	}
	build := exec.Command("make", "--no-print-directory", "worker")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("make worker: %v\n%s", err, out)
	}

	t.Run("upload under 3 MB compressed", func(t *testing.T) {
		// Cloudflare refuses a Worker over 3 MB compressed on a free
		// account; wrangler's dry run reports the gzip size it would upload.
		cmd := exec.Command("npx", "--no", "wrangler", "deploy", "--dry-run", "--outdir", t.TempDir())
		cmd.Dir = workerDir
		cmd.Env = append(os.Environ(), offlineEnv(t)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("wrangler deploy --dry-run: %v\n%s", err, out)
		}
		m := regexp.MustCompile(`Total Upload: ([0-9.]+) KiB / gzip: ([0-9.]+) KiB`).FindSubmatch(out)
		if m == nil {
			t.Fatalf("no upload size in the dry run's output:\n%s", out)
		}
		gz, _ := strconv.ParseFloat(string(m[2]), 64)
		t.Logf("upload: %s KiB, %s KiB compressed", m[1], m[2])
		if gz*1024 >= 3e6 {
			t.Fatalf("the Worker is %.0f KiB compressed: over Cloudflare's 3 MB limit", gz)
		}
	})

	wd := startWrangler(t, workerDir)
	native := httpapi.New(httpapi.Options{})

	t.Run("sample is the CLI's report", func(t *testing.T) {
		want, err := os.ReadFile(filepath.Join(root, "scoring", "tabular", "testdata", "golden", "sample.json"))
		if err != nil {
			t.Fatal(err)
		}
		status, _, got := wd.post(t, "/v1/score/tabular", "application/json", sampleJSON(t))
		if status != 200 || !bytes.Equal(got, want) {
			t.Fatalf("status %d; the Worker's report differs from golden sample.json (the CLI's --sample --format json):\n%.400s", status, got)
		}
	})

	t.Run("the site from the same Worker", func(t *testing.T) {
		status, header, page := wd.do(t, "GET", "/", "", nil)
		if status != 200 || !bytes.Contains(page, []byte("<title>docscore")) || !strings.HasPrefix(header.Get("Content-Type"), "text/html") {
			t.Fatalf("GET /: status %d, %s, %.200s", status, header.Get("Content-Type"), page)
		}
		// Every built asset is served as built.
		assets, err := os.ReadDir(filepath.Join(workerDir, "build", "site", "assets"))
		if err != nil || len(assets) == 0 {
			t.Fatalf("built assets: %v", err)
		}
		for _, a := range assets {
			want, _ := os.ReadFile(filepath.Join(workerDir, "build", "site", "assets", a.Name()))
			status, header, got := wd.do(t, "GET", "/assets/"+a.Name(), "", nil)
			if status != 200 || !bytes.Equal(got, want) {
				t.Fatalf("GET /assets/%s: status %d, %d bytes (want %d)", a.Name(), status, len(got), len(want))
			}
			if strings.HasSuffix(a.Name(), ".wasm") && header.Get("Content-Type") != "application/wasm" {
				t.Errorf("%s served as %q", a.Name(), header.Get("Content-Type"))
			}
		}
		if status, _, body := wd.do(t, "GET", "/healthz", "", nil); status != 200 || !bytes.Contains(body, []byte(`"ok"`)) {
			t.Fatalf("the API beside the site: %d %s", status, body)
		}
	})

	t.Run("receipts and harness routes", func(t *testing.T) {
		refs, err := filepath.Glob(filepath.Join(root, "sample", "receipts", "refs", "*.json"))
		if err != nil || len(refs) == 0 {
			t.Fatalf("sample refs: %v", err)
		}
		var req receiptsapi.ReceiptsRequest
		for _, p := range refs {
			b, _ := os.ReadFile(p)
			// Named as the page's sample names them: the golden
			// report's provenance.
			req.Refs = append(req.Refs, core.File{Name: "sample/receipts/refs/" + filepath.Base(p), Text: string(b)})
		}
		run, _ := os.ReadFile(filepath.Join(root, "sample", "receipts", "run.jsonl"))
		req.Run = core.File{Name: "sample/receipts/run.jsonl", Text: string(run)}
		body, _ := json.Marshal(req)
		want, _ := os.ReadFile(filepath.Join(root, "scoring", "receipts", "testdata", "golden", "receipts.json"))
		if status, _, got := wd.post(t, "/v1/score/receipts", "application/json", body); status != 200 || !bytes.Equal(got, want) {
			t.Fatalf("receipts: status %d; differs from the receipts golden report:\n%.400s", status, got)
		}
		cases := `{"case_id": "total", "prediction": {"total": 12}, "references": [{"artifact_id": "gt", "authority": "ground_truth", "kind": "json", "value": {"total": 12}}]}`
		body, _ = json.Marshal(evalapi.EvalRequest{Cases: core.File{Name: "cases.json", Text: cases}})
		if status, _, got := wd.post(t, "/v1/eval", "application/json", body); status != 200 || !bytes.Contains(got, []byte(`"verdict": "pass"`)) {
			t.Fatalf("eval: status %d: %.400s", status, got)
		}
		// The Worker build leaves the expression engine out, and says so.
		cases = `{"case_id": "total", "prediction": 1, "metrics": [{"name": "m", "expression": "prediction == 1"}]}`
		body, _ = json.Marshal(evalapi.EvalRequest{Cases: core.File{Name: "cases.json", Text: cases}})
		if status, _, got := wd.post(t, "/v1/eval", "application/json", body); status != 422 || !bytes.Contains(got, []byte("expression metrics are not in this build")) {
			t.Fatalf("eval with an expression: status %d: %.400s", status, got)
		}
	})

	t.Run("tables routes", func(t *testing.T) {
		read := func(name string) core.File {
			b, err := os.ReadFile(filepath.Join(root, "sample", "tables", name))
			if err != nil {
				t.Fatal(err)
			}
			return core.File{Name: name, Text: string(b)}
		}
		// The command line's request: its interval defaults, each given.
		boot, level, seed := 2000, 0.95, uint64(0)
		body, _ := json.Marshal(tablesapi.TablesRequest{GT: []core.File{read("gt.html")}, Runs: read("runs.jsonl"),
			IntervalOptions: core.IntervalOptions{Bootstrap: &boot, CILevel: &level, Seed: &seed}})
		want, _ := os.ReadFile(filepath.Join(root, "scoring", "api", "tablesapi", "testdata", "sample_runs.json"))
		if status, _, got := wd.post(t, "/v1/score/tables", "application/json", body); status != 200 || !bytes.Equal(got, want) {
			t.Fatalf("tables: status %d; differs from the CLI's report of the sample:\n%.400s", status, got)
		}
		body, _ = json.Marshal(tablesapi.DetailRequest{GT: read("gt.html"), Pred: read("model-b.html"), Table: "#2"})
		status, _, got := wd.post(t, "/v1/tables/detail", "application/json", body)
		rec := httptest.NewRecorder()
		nreq := httptest.NewRequest("POST", "/v1/tables/detail", bytes.NewReader(body))
		nreq.Header.Set("Content-Type", "application/json")
		native.ServeHTTP(rec, nreq)
		if status != 200 || !bytes.Equal(got, rec.Body.Bytes()) {
			t.Fatalf("tables detail: status %d, differs from the native handler's:\n%.400s", status, got)
		}
		// Markdown tables are read as natively (the reader is the core's own).
		body, _ = json.Marshal(tablesapi.TablesRequest{GT: []core.File{{Name: "gt.md", Text: "| a | b |\n|---|---|\n| **1** | 2 |\n"}}, Pred: []core.File{read("model-a.html")}})
		status, _, got = wd.post(t, "/v1/score/tables", "application/json", body)
		rec = httptest.NewRecorder()
		nreq = httptest.NewRequest("POST", "/v1/score/tables", bytes.NewReader(body))
		nreq.Header.Set("Content-Type", "application/json")
		native.ServeHTTP(rec, nreq)
		if status != 200 || rec.Code != 200 || !bytes.Equal(got, rec.Body.Bytes()) || !bytes.Contains(got, []byte(`"teds"`)) {
			t.Fatalf("tables from Markdown: status %d (native %d), differs from the native handler's:\n%.400s", status, rec.Code, got)
		}
	})

	// The command line, built from this tree once, for the subtests that
	// compare the Worker's bytes with its.
	var (
		cliOnce sync.Once
		cliErr  error
	)
	bin := filepath.Join(t.TempDir(), "docscore")
	docscore := func(t *testing.T) string {
		t.Helper()
		cliOnce.Do(func() {
			build := exec.Command("go", "build", "-o", bin, "./cmd/docscore")
			build.Dir = root
			if out, err := build.CombinedOutput(); err != nil {
				cliErr = fmt.Errorf("go build ./cmd/docscore: %v\n%s", err, out)
			}
		})
		if cliErr != nil {
			t.Fatal(cliErr)
		}
		return bin
	}

	t.Run("page text is the CLI's", func(t *testing.T) {
		// docscore score text on dinglehopper's pages (PAGE-XML and
		// Tesseract's ALTO) as two folders, and as a runs file; the
		// Worker answers the same request, its files in the folders'
		// name order, with the same bytes.
		bin := docscore(t)
		dh := filepath.Join(root, "scoring", "pagetext", "testdata", "dinglehopper")
		dir := t.TempDir()
		var req textapi.TextRequest
		for _, f := range []struct{ from, to string }{
			{"test-gt.page2018.xml", "gt/hartkopf.gt.xml"},
			{"", "gt/lonely.gt.txt"},
			{"lorem-ipsum/lorem-ipsum-scan-bad.gt.page.xml", "gt/lorem.gt.page.xml"},
			{"test-fake-ocr.page2018.xml", "ocr/hartkopf.fake.xml"},
			{"lorem-ipsum/lorem-ipsum-scan-bad.ocr.tesseract.alto.xml", "ocr/lorem.tesseract.alto.xml"},
			{"", "ocr/stray.txt"},
		} {
			data := []byte("a page with no partner\n")
			if f.from != "" {
				var err error
				if data, err = os.ReadFile(filepath.Join(dh, f.from)); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(f.to)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, f.to), data, 0o644); err != nil {
				t.Fatal(err)
			}
			file := core.File{Name: f.to, Text: string(data)}
			if strings.HasPrefix(f.to, "gt/") {
				req.GT = append(req.GT, file)
			} else {
				req.OCR = append(req.OCR, file)
			}
		}
		runs := `{"model":"a","phase":"c1","run":1,"page":"hartkopf","text":"Hartkopf, der Frau Amtmännin das ander"}` + "\n" +
			`{"model":"b","phase":"c1","run":1,"page":"lorem","text":"Lorem ipsum dolor sit amet"}` + "\n"
		if err := os.WriteFile(filepath.Join(dir, "runs.jsonl"), []byte(runs), 0o644); err != nil {
			t.Fatal(err)
		}
		cli := func(args ...string) []byte {
			t.Helper()
			cmd := exec.Command(bin, append([]string{"score", "text"}, args...)...)
			cmd.Dir = dir
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("docscore score text %s: %v", strings.Join(args, " "), err)
			}
			return out
		}
		for _, format := range []string{"json", "csv", "md"} {
			req := req
			req.Format = format
			status, _, got := wd.post(t, "/v1/score/text", "application/json", mustJSON(t, req))
			if want := cli("--gt", "gt", "--ocr", "ocr", "--format", format); status != 200 || !bytes.Equal(got, want) {
				t.Fatalf("folders, %s: status %d; the Worker's %d bytes differ from docscore score text's %d: %s", format, status, len(got), len(want), firstDiff(got, want))
			}
		}
		runsReq := textapi.TextRequest{GT: req.GT, Runs: &core.File{Name: "runs.jsonl", Text: runs}}
		status, _, got := wd.post(t, "/v1/score/text", "application/json", mustJSON(t, runsReq))
		if want := cli("--gt", "gt", "--runs", "runs.jsonl"); status != 200 || !bytes.Equal(got, want) {
			t.Fatalf("runs: status %d; the Worker's %d bytes differ from docscore score text's %d: %s", status, len(got), len(want), firstDiff(got, want))
		}
		// One page's alignment, as the native handler gives it.
		page := mustJSON(t, textapi.TextPageRequest{GT: req.GT[2], OCR: &req.OCR[1]})
		status, _, got = wd.post(t, "/v1/text/page", "application/json", page)
		w := httptest.NewRecorder()
		r := httptest.NewRequest("POST", "/v1/text/page", bytes.NewReader(page))
		r.Header.Set("Content-Type", "application/json")
		native.ServeHTTP(w, r)
		if status != 200 || w.Code != 200 || !bytes.Equal(got, w.Body.Bytes()) {
			t.Fatalf("text page: status %d (native %d); the Worker's answer differs from the native handler's:\n%.400s", status, w.Code, got)
		}
		// An hOCR page (the Worker reads hOCR too), against its PAGE-XML
		// ground truth, as the command line reads the two folders.
		hocrPage := "<html><body><div class=\"ocr_page\"><span class=\"ocr_line\"><span class=\"ocrx_word\">Hartkopf,</span> <span class='ocrx_word'>der&#x20;Frau</span> <b class=ocrx_word>Amtm&auml;nnin</b></span></div></body></html>"
		hocr := textapi.TextRequest{GT: []core.File{{Name: "gt1/hartkopf.gt.xml", Text: req.GT[0].Text}}, OCR: []core.File{{Name: "hocr/hartkopf.hocr", Text: hocrPage}}}
		for _, f := range append(hocr.GT, hocr.OCR...) {
			if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(f.Name)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, f.Name), []byte(f.Text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		status, _, got = wd.post(t, "/v1/score/text", "application/json", mustJSON(t, hocr))
		if want := cli("--gt", "gt1", "--ocr", "hocr"); status != 200 || !bytes.Equal(got, want) || !bytes.Contains(got, []byte(`"bow_matched": 4,`)) {
			t.Fatalf("hOCR: status %d; the Worker's %d bytes differ from docscore score text's %d: %s\n%.600s", status, len(got), len(want), firstDiff(got, want), got)
		}
	})

	t.Run("compare is the CLI's", func(t *testing.T) {
		// docscore compare, built from this tree, on the golden reports of
		// the sample (docscore score tabular --sample [--preview open]).
		bin := docscore(t)
		golden := filepath.Join(root, "scoring", "tabular", "testdata", "golden")
		settled, err := os.ReadFile(filepath.Join(golden, "sample.json"))
		if err != nil {
			t.Fatal(err)
		}
		preview, err := os.ReadFile(filepath.Join(golden, "sample_preview_open.json"))
		if err != nil {
			t.Fatal(err)
		}
		cli := func(args ...string) []byte {
			t.Helper()
			cmd := exec.Command(bin, append([]string{"compare"}, args...)...)
			cmd.Dir = golden
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("docscore compare %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
			}
			return out
		}
		// One report within itself, as JSON.
		within := mustJSON(t, compareapi.CompareRequest{Base: core.File{Name: "sample.json", Text: string(settled)}, Within: true})
		for _, format := range []string{"json", "md"} {
			status, _, got := wd.post(t, "/v1/compare?format="+format, "application/json", within)
			if want := cli("--within", "sample.json", "--format", format); status != 200 || !bytes.Equal(got, want) {
				t.Fatalf("within, %s: status %d; the Worker's %d bytes differ from docscore compare --within's %d:\n%.400s", format, status, len(got), len(want), got)
			}
		}
		// Two reports, as multipart (their texts unescaped: the request
		// stays under the 2 MiB body limit).
		var mp bytes.Buffer
		mw := multipart.NewWriter(&mp)
		for _, f := range []struct {
			field, name string
			data        []byte
		}{{"base", "sample.json", settled}, {"new", "sample_preview_open.json", preview}} {
			w, _ := mw.CreateFormFile(f.field, f.name)
			w.Write(f.data)
		}
		mw.Close()
		for _, format := range []string{"json", "csv", "junit"} {
			status, _, got := wd.post(t, "/v1/compare?format="+format, mw.FormDataContentType(), mp.Bytes())
			if want := cli("sample.json", "sample_preview_open.json", "--format", format); status != 200 || !bytes.Equal(got, want) {
				t.Fatalf("two reports, %s: status %d; the Worker's %d bytes differ from docscore compare's %d:\n%.400s", format, status, len(got), len(want), got)
			}
		}
	})

	t.Run("same answers as the native handler", func(t *testing.T) {
		for _, c := range requestCases(t) {
			t.Run(c.name, func(t *testing.T) {
				status, header, got := wd.do(t, c.method, c.target, c.contentType, c.body)
				r := httptest.NewRequest(c.method, c.target, bytes.NewReader(c.body))
				if c.contentType != "" {
					r.Header.Set("Content-Type", c.contentType)
				}
				w := httptest.NewRecorder()
				native.ServeHTTP(w, r)
				if status != c.status || w.Code != c.status {
					t.Fatalf("status %d in the Worker, %d natively, want %d: %s", status, w.Code, c.status, got)
				}
				if c.name == "version" {
					sameVersion(t, got, w.Body.Bytes())
					return
				}
				if !bytes.Equal(got, w.Body.Bytes()) {
					t.Fatalf("the Worker answered\n%s\nthe native handler\n%s", got, w.Body)
				}
				if c.status >= 400 {
					var e httpapi.ErrorBody
					if err := json.Unmarshal(got, &e); err != nil || e.Error.Code != c.code {
						t.Fatalf("error body %s: code %q, want %q (%v)", got, e.Error.Code, c.code, err)
					}
					if ct := header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
						t.Errorf("Content-Type %q", ct)
					}
				}
			})
		}
	})

	t.Run("body over the limit", func(t *testing.T) {
		big := bytes.Repeat([]byte(" "), httpapi.DefaultMaxBodyBytes+1)
		status, _, got := wd.post(t, "/v1/score/tabular", "application/json", big)
		var e httpapi.ErrorBody
		if status != 413 || json.Unmarshal(got, &e) != nil || e.Error.Code != "too_large" ||
			!strings.Contains(e.Error.Message, "large jobs belong to the command line") {
			t.Fatalf("status %d: %s", status, got)
		}
	})

	t.Run("adversarial corpus", func(t *testing.T) {
		// The hostile requests of httpapi/testdata/adversarial (issue
		// 28), answered in workerd as the native handler answers them:
		// the same status and error code, a bounded answer.
		cases, err := adversarial.Load(filepath.Join(root, "httpapi", "testdata", "adversarial"))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			t.Run(c.Name, func(t *testing.T) {
				method, ct, body, err := c.Request()
				if err != nil {
					t.Fatal(err)
				}
				status, _, got := wd.do(t, method, c.Target, ct, body)
				if err := c.Check(status, got); err != nil {
					t.Fatalf("%s (issue %s): %v\nwrangler output:\n%s", c.Doc, c.Issue, err, wd.log.String())
				}
			})
		}
	})

	t.Run("200 requests, 16 at a time", func(t *testing.T) {
		body := smallJSON(t)
		_, _, want := wd.post(t, "/v1/score/tabular", "application/json", body)
		var mu sync.Mutex
		var failures []string
		sem := make(chan struct{}, 16)
		var wg sync.WaitGroup
		for i := 0; i < 200; i++ {
			wg.Add(1)
			sem <- struct{}{}
			go func(i int) {
				defer wg.Done()
				defer func() { <-sem }()
				status, _, got, err := wd.try("POST", "/v1/score/tabular", "application/json", body)
				if err == nil && (status != 200 || !bytes.Equal(got, want)) {
					err = fmt.Errorf("status %d, %d bytes: %.200s", status, len(got), got)
				}
				if err != nil {
					mu.Lock()
					failures = append(failures, fmt.Sprintf("request %d: %v", i, err))
					mu.Unlock()
				}
			}(i)
		}
		wg.Wait()
		if len(failures) > 0 {
			t.Fatalf("%d of 200 requests failed; first: %s\nwrangler output:\n%s", len(failures), failures[0], wd.log.String())
		}
	})

	t.Run("no request touched another's I/O", func(t *testing.T) {
		// workerd's words when a promise or stream of one request is used
		// from another's context: the one-runtime-per-isolate entry
		// (worker/src/worker.mjs) must never cause them.
		out := wd.log.all()
		for _, bad := range []string{"different request", "Cannot perform I/O", "Go program has already exited"} {
			if strings.Contains(out, bad) {
				t.Fatalf("wrangler output holds %q:\n%s", bad, wd.log.String())
			}
		}
	})

	t.Run("CPU time per request", func(t *testing.T) {
		// Not a speed test: it logs the CPU time the runtime's processes
		// spend per request, the number docs/readme-worker.md reports.
		sampleBody := sampleJSON(t)
		for _, m := range []struct {
			name, method, target string
			body                 []byte
			n                    int
		}{
			{"GET /healthz", "GET", "/healthz", nil, 20},
			{"POST /v1/score/tabular (one page)", "POST", "/v1/score/tabular", smallJSON(t), 20},
			{"POST /v1/rules/check (the sample's rules and GT)", "POST", "/v1/rules/check", rulesCheckJSON(t), 20},
			{"POST /v1/score/tabular (bundled sample)", "POST", "/v1/score/tabular", sampleBody, 5},
		} {
			before, err := wd.cpu()
			if err != nil {
				t.Fatalf("reading workerd's CPU time: %v", err)
			}
			start := time.Now()
			for i := 0; i < m.n; i++ {
				if status, _, got := wd.do(t, m.method, m.target, "application/json", m.body); status != 200 {
					t.Fatalf("%s: status %d: %s", m.name, status, got)
				}
			}
			elapsed := time.Since(start)
			after, _ := wd.cpu()
			t.Logf("%s: %.1f ms CPU (workerd processes), %.1f ms wall per request, over %d requests",
				m.name, float64(after-before)/float64(m.n)/float64(time.Millisecond), float64(elapsed)/float64(m.n)/float64(time.Millisecond), m.n)
		}
	})
}

// wrangler is a running "wrangler dev".
type wrangler struct {
	base   string
	cmd    *exec.Cmd
	log    *syncBuffer
	client *http.Client
}

// startWrangler runs "npx wrangler dev" in dir on free loopback ports,
// offline, and waits until the Worker answers. The server and every
// process it started are stopped when the test ends.
func startWrangler(t *testing.T, dir string) *wrangler {
	t.Helper()
	port, inspector := freePort(t), freePort(t)
	cmd := exec.Command("npx", "--no", "wrangler", "dev",
		"--ip", "127.0.0.1", "--port", port, "--inspector-port", inspector,
		"--show-interactive-dev-session=false", "--log-level", "warn")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), offlineEnv(t)...)
	log := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // one group: npx, node, workerd
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting npx wrangler dev: %v", err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
		// Anything left in the group (a workerd that outlived wrangler).
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	})
	wd := &wrangler{base: "http://127.0.0.1:" + port, cmd: cmd, log: log, client: &http.Client{Timeout: 2 * time.Minute}}
	deadline := time.Now().Add(3 * time.Minute)
	for {
		select {
		case <-exited:
			t.Fatalf("wrangler dev exited before the Worker answered:\n%s", log.String())
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		req, _ := http.NewRequestWithContext(ctx, "GET", wd.base+"/healthz", nil)
		res, err := http.DefaultClient.Do(req)
		if err == nil {
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
		}
		cancel()
		if err == nil && res.StatusCode == 200 {
			return wd
		}
		if time.Now().After(deadline) {
			t.Fatalf("the Worker did not answer GET /healthz within 3 minutes (last: %v):\n%s", err, log.String())
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// offlineEnv keeps wrangler from reaching out: checked with strace, these
// leave it connecting to loopback addresses only.
func offlineEnv(t *testing.T) []string {
	return []string{
		"WRANGLER_SEND_METRICS=false",       // no usage metrics
		"WRANGLER_SEND_ERROR_REPORTS=false", // no crash reports
		"CLOUDFLARE_CF_FETCH_ENABLED=false", // no download of request.cf data
		"WRANGLER_HIDE_BANNER=true",         // the banner is what checks the registry for updates
		"CI=true",                           // no prompts
		"XDG_CONFIG_HOME=" + t.TempDir(),    // no login or settings of the machine's user
	}
}

func (wd *wrangler) try(method, target, contentType string, body []byte) (int, http.Header, []byte, error) {
	req, err := http.NewRequest(method, wd.base+target, bytes.NewReader(body))
	if err != nil {
		return 0, nil, nil, err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := wd.client.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, b, err
}

func (wd *wrangler) do(t *testing.T, method, target, contentType string, body []byte) (int, http.Header, []byte) {
	t.Helper()
	status, header, b, err := wd.try(method, target, contentType, body)
	if err != nil {
		t.Fatalf("%s %s: %v\nwrangler output:\n%s", method, target, err, wd.log.String())
	}
	return status, header, b
}

func (wd *wrangler) post(t *testing.T, target, contentType string, body []byte) (int, http.Header, []byte) {
	t.Helper()
	return wd.do(t, "POST", target, contentType, body)
}

// cpu is the CPU time (user and system) the workerd processes of the
// server's process group have used so far.
func (wd *wrangler) cpu() (time.Duration, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, err
	}
	var ticks int64
	found := false
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp … utime(14) stime(15)
		open, close := bytes.IndexByte(stat, '('), bytes.LastIndexByte(stat, ')')
		if open < 0 || close < open {
			continue
		}
		f := strings.Fields(string(stat[close+1:]))
		if len(f) < 13 || string(stat[open+1:close]) != "workerd" || f[2] != strconv.Itoa(wd.cmd.Process.Pid) {
			continue
		}
		u, _ := strconv.ParseInt(f[11], 10, 64)
		s, _ := strconv.ParseInt(f[12], 10, 64)
		ticks += u + s
		found = true
	}
	if !found {
		return 0, errors.New("no workerd process in the server's process group")
	}
	return time.Duration(ticks) * time.Second / 100, nil // USER_HZ is 100 on Linux
}

func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// syncBuffer collects the server's output from two streams.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) all() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	// The last 60 lines are enough to see why it failed.
	lines := []string{}
	sc := bufio.NewScanner(bytes.NewReader(s.b.Bytes()))
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) > 60 {
		lines = lines[len(lines)-60:]
	}
	return strings.Join(lines, "\n")
}

// sampleJSON is the bundled sample as a JSON request, its files named
// sample/tabular/… as "docscore score tabular --sample" names them.
func sampleJSON(t *testing.T) []byte {
	t.Helper()
	r, err := sample.TabularRequest(true)
	if err != nil {
		t.Fatal(err)
	}
	req := core.TabularRequest{Runs: core.File{Name: r.Runs.Name, Text: string(r.Runs.Data)},
		Rules: &core.File{Name: r.Rules.Name, Text: string(r.Rules.Data)}}
	for _, f := range r.GT {
		req.GT = append(req.GT, core.File{Name: f.Name, Text: string(f.Data)})
	}
	return mustJSON(t, req)
}

// rulesCheckJSON checks the sample's rule file against its ground truth.
func rulesCheckJSON(t *testing.T) []byte {
	t.Helper()
	r, err := sample.TabularRequest(true)
	if err != nil {
		t.Fatal(err)
	}
	req := core.RulesCheckRequest{Rules: core.File{Name: r.Rules.Name, Text: string(r.Rules.Data)}}
	for _, f := range r.GT {
		req.GT = append(req.GT, core.File{Name: f.Name, Text: string(f.Data)})
	}
	return mustJSON(t, req)
}

// smallJSON is a one-page scoring request: cheap enough to send 200 times.
func smallJSON(t *testing.T) []byte {
	t.Helper()
	return mustJSON(t, smallRequest())
}

func smallRequest() core.TabularRequest {
	return core.TabularRequest{
		GT: []core.File{{Name: "gt_page_27.csv", Text: "name,title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count\n" +
			"Karl Müller,,February 9 1769,March 13 1769,San Giovanni Grisostomo,Lubiana?,N,N,4\n" +
			"Nicolò Valier,Conte,February 2 1769,March 1 1769,Locanda del Cappello Nero,,N,N,2\n"}},
		Runs: core.File{Name: "runs.jsonl", Text: `{"model": "m", "phase": "G", "run": 1, "page": "27", "records": [{"name": "Karl Muller", "arrival_date": "February 09 1769", "with_spouse": false}]}` + "\n" +
			`{"model": "m", "phase": "G", "run": 2, "page": 27, "response": "[{\"name\": \"Co. Nicolo Valier\", \"title\": \"Conte\"}]"}` + "\n"},
		Rules: &core.File{Name: "EQUIVALENCES.md", Text: "## Ignore\n\n| field | token | position | side | status | witness |\n|---|---|---|---|---|---|\n" +
			"| name | co. | leading | model | settled | p27 |\n| name | da venezia | trailing | model | OPEN | |\n"},
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// requestCase is a request whose answer the Worker and the native handler
// must agree on, byte for byte.
type requestCase struct {
	name, method, target, contentType string
	body                              []byte
	status                            int
	code                              string // of an error
}

func requestCases(t *testing.T) []requestCase {
	small := smallRequest()
	badRuns := small
	badRuns.Runs.Text += "{oops\n"
	var mp bytes.Buffer
	mw := multipart.NewWriter(&mp)
	for _, f := range []struct{ field, name, text string }{
		{"gt", "gt_page_27.csv", small.GT[0].Text}, {"runs", "runs.jsonl", small.Runs.Text}, {"format", "", "md"},
	} {
		var w io.Writer
		if f.name != "" {
			w, _ = mw.CreateFormFile(f.field, f.name)
		} else {
			w, _ = mw.CreateFormField(f.field)
		}
		io.WriteString(w, f.text)
	}
	mw.Close()
	rules := mustJSON(t, core.RulesCheckRequest{Rules: core.File{Name: "bad.md",
		Text: "## Ignore\n\n| field | token | position | side | status |\n|---|---|---|---|---|\n| name | x | up | model | settled |\n"}})
	return []requestCase{
		{name: "healthz", method: "GET", target: "/healthz", status: 200},
		{name: "version", method: "GET", target: "/v1/version", status: 200},
		{name: "multipart, markdown", method: "POST", target: "/v1/score/tabular", contentType: mw.FormDataContentType(), body: mp.Bytes(), status: 200},
		{name: "preview in the query", method: "POST", target: "/v1/score/tabular?preview=open&format=csv", contentType: "application/json", body: smallJSON(t), status: 200},
		{name: "rules check with an error", method: "POST", target: "/v1/rules/check", contentType: "application/json", body: rules, status: 200},
		{name: "wrong method", method: "GET", target: "/v1/score/tabular", status: 405, code: "method_not_allowed"},
		{name: "unknown route", method: "GET", target: "/v1/nothing", status: 404, code: "not_found"},
		{name: "wrong content type", method: "POST", target: "/v1/score/tabular", contentType: "text/plain", body: smallJSON(t), status: 415, code: "unsupported_media_type"},
		{name: "not JSON", method: "POST", target: "/v1/score/tabular", contentType: "application/json", body: []byte("{\n\"gt\": oops}"), status: 400, code: "bad_request"},
		{name: "missing field", method: "POST", target: "/v1/score/tabular", contentType: "application/json", body: []byte(`{"gt": []}`), status: 400, code: "bad_request"},
		{name: "bad gate", method: "POST", target: "/v1/score/tabular?gate=2", contentType: "application/json", body: smallJSON(t), status: 400, code: "bad_request"},
		{name: "malformed multipart", method: "POST", target: "/v1/rules/check", contentType: "multipart/form-data; boundary=zz", body: []byte("--zz\r\nbroken"), status: 400, code: "bad_request"},
		{name: "malformed runs line", method: "POST", target: "/v1/score/tabular", contentType: "application/json", body: mustJSON(t, badRuns), status: 422, code: "input"},
	}
}

// firstDiff shows the first line where got and want differ.
func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(g) && i < len(w); i++ {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d:\n  got  %.300s\n  want %.300s", i+1, g[i], w[i])
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(g), len(w))
}

// sameVersion compares the Worker's /v1/version with the native one's:
// the build's own stamps (version, commit, date, Go) differ between the
// two builds by nature; the API and its routes are the same.
func sameVersion(t *testing.T, worker, native []byte) {
	t.Helper()
	type version struct {
		API    string   `json:"api"`
		Routes []string `json:"routes"`
	}
	var wv, nv version
	if err := json.Unmarshal(worker, &wv); err != nil {
		t.Fatalf("the Worker's version %s: %v", worker, err)
	}
	if err := json.Unmarshal(native, &nv); err != nil {
		t.Fatalf("the native version %s: %v", native, err)
	}
	if wv.API != nv.API || strings.Join(wv.Routes, "\n") != strings.Join(nv.Routes, "\n") {
		t.Fatalf("the Worker's version\n%s\ndiffers from the native one\n%s", worker, native)
	}
}
