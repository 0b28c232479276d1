package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/docscore/docscore/cmd/docscore/internal/webui"
	"github.com/docscore/docscore/httpapi"
)

func init() { register("", "serve", newServe) }

// serveOptions are what the serve command's mux is built from.
type serveOptions struct {
	site fs.FS // the built static site; nil serves the API alone
}

// newServeMux routes the HTTP API (/healthz, /v1/…) and, when there is a
// site, the site at every other path: one server gives the page and the
// API, as one Worker deploy does.
func newServeMux(opts serveOptions) *http.ServeMux {
	build := currentBuild()
	apiOpts := httpapi.Options{Version: build.Version, Commit: build.Commit, Date: build.Date}
	if opts.site != nil {
		apiOpts.Fallback = webui.Handler(opts.site)
	}
	mux := http.NewServeMux()
	mux.Handle("/", httpapi.New(apiOpts))
	return mux
}

func newServe(env *Env) *cobra.Command {
	var addr, dir string
	var open, apiOnly bool
	c := &cobra.Command{
		Use:   "serve [--addr 127.0.0.1:8080] [--open] [--api]",
		Short: "Serve the browser site and the HTTP API locally",
		Long: `Serve the static site and the HTTP API on a local address.

The page scores files in the browser, with the same WebAssembly core as every
other host: nothing is uploaded, and the page makes no request beyond this
server. "Load sample" scores the bundled sample without any file.

The HTTP API is the Cloudflare Worker's, for use without Workers:

  GET  /healthz, GET /v1/version
` + routeList() + `
Requests are JSON (files as {"name", "text"}) or multipart/form-data (one
part per file); bad requests get a 4xx with {"error": {...}}.

Limits: a request is read within 30 s (408 after), its work stops after
30 s (503) and a tabular scoring after 2,000,000 name pairs compared (422
too_much_work); a client that goes away stops its work. Bigger jobs belong
to the command line ('docscore score …'), which has no cap.

The site is the copy embedded into this binary by 'make build' (which runs
'make site' first); --dir serves a built folder instead, such as the
dist/site that 'make site' writes. --api serves the API alone (no site
needed). Stop with Ctrl-C.`,
		Example: `  docscore serve
  docscore serve --addr 127.0.0.1:9000 --open
  docscore serve --dir dist/site
  docscore serve --api
  curl -F gt=@gt/gt_page_27.csv -F runs=@runs.jsonl http://127.0.0.1:8080/v1/score/tabular`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if apiOnly && (dir != "" || open) {
				return usageError("--api serves the API alone; leave out --dir and --open")
			}
			// The address first: a bad one is the user's first mistake to
			// hear about, before a missing site.
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return usageError("--addr %s: %v (expected HOST:PORT, such as 127.0.0.1:8080)", addr, err)
			}
			var opts serveOptions
			if !apiOnly {
				site, err := siteFS(dir)
				if err != nil {
					ln.Close()
					return err
				}
				opts.site = site
			}
			ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			url := "http://" + ln.Addr().String() + "/"
			if apiOnly {
				fmt.Fprintf(env.Stdout, "docscore: serving the API at %s (Ctrl-C to stop)\n", url)
			} else {
				fmt.Fprintf(env.Stdout, "docscore: serving the site at %s (Ctrl-C to stop)\n", url)
			}
			if open {
				if err := openBrowser(url); err != nil {
					fmt.Fprintf(env.Stderr, "docscore: could not open a browser (%v): open %s yourself\n", err, url)
				}
			}
			return serveUntilDone(ctx, ln, newServeMux(opts))
		},
	}
	c.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "the address to listen on (port 0 picks a free port)")
	c.Flags().BoolVar(&open, "open", false, "open the page in the default browser")
	c.Flags().StringVar(&dir, "dir", "", "serve this built site folder instead of the embedded copy")
	c.Flags().BoolVar(&apiOnly, "api", false, "serve the HTTP API alone, without the site")
	return c
}

// The time limits of "docscore serve". The API handler adds its own:
// each request's work stops after api.DefaultDeadline, and a tabular
// scoring after api.DefaultMaxPairs name pairs.
const (
	// serveReadHeaderTimeout bounds the wait for a request's headers.
	serveReadHeaderTimeout = 10 * time.Second
	// serveReadTimeout bounds the reading of a whole request, body
	// included: a 2 MiB body must arrive at 70 KB/s or faster. A body
	// trickled more slowly is answered 408 "timeout".
	serveReadTimeout = 30 * time.Second
	// serveIdleTimeout closes keep-alive connections left idle.
	serveIdleTimeout = 2 * time.Minute
)

// newServer returns the server of "docscore serve" for h, reading each
// request within readTimeout.
func newServer(h http.Handler, readTimeout time.Duration) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: min(serveReadHeaderTimeout, readTimeout),
		ReadTimeout: readTimeout, IdleTimeout: serveIdleTimeout}
}

// serveUntilDone serves h on ln until ctx is done, then shuts down
// gracefully.
func serveUntilDone(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := newServer(h, serveReadTimeout)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(jsonErrorListener{ln}) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return err
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// siteFS returns the site to serve: a built folder, or the embedded copy.
func siteFS(dir string) (fs.FS, error) {
	if dir == "" {
		site, err := webui.Embedded()
		if errors.Is(err, webui.ErrNotBuilt) {
			return nil, &ExitError{Code: ExitFailure, Err: fmt.Errorf("%w (or serve the API alone with --api)", err)}
		}
		return site, err
	}
	site := os.DirFS(dir)
	if _, err := fs.Stat(site, "index.html"); err != nil {
		return nil, usageError("--dir %s: no index.html (expected a folder written by 'make site')", dir)
	}
	return site, nil
}

// openBrowser asks the desktop to open url.
func openBrowser(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}

// routeList lists the API's operation routes, one per line, from the
// operation lists: the help never misses a route.
func routeList() string {
	var b strings.Builder
	for _, o := range httpapi.Operations() {
		fmt.Fprintf(&b, "  POST %-22s %s\n", o.Route, o.Doc)
	}
	return b.String()
}
