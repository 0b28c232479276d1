//go:build e2e

package e2e

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/docscore/docscore/cmd/docscore/internal/sitebuild"
	"github.com/docscore/docscore/cmd/docscore/internal/webui"
)

var update = flag.Bool("update", false, "write the screenshots into docs/")

// prefix is where the test server mounts the site: the page must work
// under any path.
const prefix = "/some/prefix/docscore/"

// pagesPrefix is where it mounts the site as GitHub Pages serves a
// project's site: under /<repository>/, by a plain file server (no
// headers of docscore's; the page's own meta Content-Security-Policy).
const pagesPrefix = "/docscore/"

// baselinePrefix is where it mounts $DOCSCORE_E2E_BASELINE_SITE, when set.
const baselinePrefix = "/baseline/docscore/"

var (
	siteURL    string // the page's URL
	origin     string // scheme://host:port of the test server
	built      *sitebuild.Result
	siteDir    string // where the site was built
	docsDir    string // the repository's docs/, for -update
	browserCtx context.Context
	chromium   string
)

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(runMain(m))
}

// profileDir is the test browser's profile: its processes are those
// under the one started with it (stream_large_test.go sums their memory).
var profileDir string

func runMain(m *testing.M) int {
	var err error
	if docsDir, err = filepath.Abs(filepath.Join("..", "..", "..", "..", "docs")); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	if chromium, err = findChromium(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	tmp, err := os.MkdirTemp("", "docscore-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir := filepath.Join(tmp, "site")
	siteDir = dir
	if built, err = sitebuild.Build(ctx, sitebuild.Options{Out: dir}); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: building the site:", err)
		return 1
	}
	mux := http.NewServeMux()
	mux.Handle(prefix, http.StripPrefix(strings.TrimSuffix(prefix, "/"), webui.Handler(os.DirFS(dir))))
	mux.Handle(pagesPrefix, http.StripPrefix(strings.TrimSuffix(pagesPrefix, "/"), http.FileServerFS(os.DirFS(dir))))
	// A site built elsewhere (another commit's, for A/B timings beside
	// this build's: TestInteractionsInTheBrowser), on the same origin.
	if other := os.Getenv("DOCSCORE_E2E_BASELINE_SITE"); other != "" {
		mux.Handle(baselinePrefix, http.StripPrefix(strings.TrimSuffix(baselinePrefix, "/"), webui.Handler(os.DirFS(other))))
	}
	srv := httptest.NewServer(mux)
	defer srv.Close()
	origin = srv.URL
	siteURL = srv.URL + prefix

	profileDir = filepath.Join(tmp, "profile")
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromium),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profileDir),
	)
	defer cancelAlloc()
	var cancelBrowser context.CancelFunc
	browserCtx, cancelBrowser = chromedp.NewContext(alloc)
	defer cancelBrowser()
	if err := chromedp.Do(browserCtx); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: starting Chromium:", err)
		return 1
	}
	return m.Run()
}

// findChromium returns the browser to drive: $CHROMIUM, or chromium on
// PATH. Its absence is a failure: scripts/deps.sh installs it.
func findChromium() (string, error) {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("Chromium not found (looked for $CHROMIUM, chromium, chromium-browser, google-chrome): install it with scripts/deps.sh (apt-get install chromium); the browser tests do not skip")
}

// requests records the URL of every request a tab and its workers make.
type requests struct {
	mu   sync.Mutex
	urls []string
}

func (r *requests) add(u string) {
	r.mu.Lock()
	r.urls = append(r.urls, u)
	r.mu.Unlock()
}

func (r *requests) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.urls...)
}

// newTab opens a tab on the page with the request recorder on, and checks
// when the test ends that every request stayed on the page's origin.
func newTab(t *testing.T, timeout time.Duration) (context.Context, *requests) {
	t.Helper()
	return newTabAt(t, timeout, siteURL)
}

// newTabAt is newTab on the page at url.
func newTabAt(t *testing.T, timeout time.Duration, url string) (context.Context, *requests) {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browserCtx)
	ctx, cancelTimeout := context.WithTimeout(ctx, timeout)
	t.Cleanup(func() { cancelTimeout(); cancel() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	reqs := &requests{}
	watch := func(ctx context.Context) {
		sent := chromedp.Events(ctx, network.RequestWillBeSent)
		go func() {
			for ev, err := range sent {
				if err != nil {
					return
				}
				reqs.add(ev.Request.URL)
			}
		}()
	}
	watch(ctx)
	// Workers start paused, so that their requests are recorded from the
	// first: attach, subscribe, then let them run. A worker's own
	// workers (the streamed scoring's pool) are attached the same way.
	var autoAttach func(ctx context.Context) error
	autoAttach = func(ctx context.Context) error {
		attached := chromedp.Events(ctx, target.AttachedToTarget)
		if _, err := chromedp.Call(ctx, target.SetAutoAttach, target.SetAutoAttachParams{
			AutoAttach: true, WaitForDebuggerOnStart: true, Flatten: ptr(true)}); err != nil {
			return err
		}
		go func() {
			for ev, err := range attached {
				if err != nil {
					return
				}
				if !strings.Contains(ev.TargetInfo.Type, "worker") {
					continue
				}
				wctx, _ := chromedp.NewContext(ctx, chromedp.WithTargetID(ev.TargetInfo.TargetID))
				if err := chromedp.Do(wctx); err != nil {
					// As below: a page left while its worker is attached
					// (a link followed) takes the worker with it.
					if strings.Contains(err.Error(), "target detached") {
						t.Logf("attaching to the worker: %v", err)
					} else {
						t.Errorf("attaching to the worker: %v", err)
					}
					continue
				}
				watch(wctx)
				if err := autoAttach(wctx); err != nil {
					t.Logf("auto-attaching the worker's workers: %v", err)
				}
				if ev.WaitingForDebugger {
					if _, err := chromedp.Call(wctx, runtime.RunIfWaitingForDebugger, cdp.Empty{}); err != nil {
						// A page left (a link followed) while its worker was
						// being attached takes the worker with it: nothing to
						// start, and no failure of the page.
						if strings.Contains(err.Error(), "target detached") {
							t.Logf("starting the worker: %v", err)
						} else {
							t.Errorf("starting the worker: %v", err)
						}
					}
				}
			}
		}()
		return nil
	}
	if err := autoAttach(ctx); err != nil {
		t.Fatal(err)
	}
	// Every tab starts without the drop an earlier test kept in the
	// browser (persist.js: IndexedDB, on the test server's origin).
	if _, err := chromedp.Call(ctx, storage.ClearDataForOrigin, storage.ClearDataForOriginParams{Origin: origin, StorageTypes: "indexeddb"}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(url),
		chromedp.WaitVisible(`body[data-ready="true"]`),
	); err != nil {
		t.Fatalf("opening %s: %v", url, err)
	}
	t.Cleanup(func() { checkSameOrigin(t, reqs.list()) })
	return ctx, reqs
}

// checkSameOrigin fails the test for any request off the page's origin.
func checkSameOrigin(t *testing.T, urls []string) {
	t.Helper()
	if len(urls) == 0 {
		t.Errorf("no request recorded: the recorder is not working")
	}
	for _, u := range urls {
		if !strings.HasPrefix(u, origin+"/") && !strings.HasPrefix(u, "blob:"+origin+"/") {
			t.Errorf("request beyond the page's origin %s: %s", origin, u)
		}
	}
}

func ptr[T any](v T) *T { return &v }
