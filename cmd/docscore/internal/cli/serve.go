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
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"github.com/docscore/docscore/cmd/docscore/internal/webui"
)

func init() { register("", newServe) }

// serveOptions are what the serve command's mux is built from; a later
// mode (an HTTP API beside the site) adds its fields and routes here.
type serveOptions struct {
	site fs.FS // the built static site
}

// newServeMux routes the site at "/". Other routes are added beside it.
func newServeMux(opts serveOptions) *http.ServeMux {
	mux := http.NewServeMux()
	mux.Handle("/", webui.Handler(opts.site))
	return mux
}

func newServe(env *Env) *cobra.Command {
	var addr, dir string
	var open bool
	c := &cobra.Command{
		Use:   "serve [--addr 127.0.0.1:8080] [--open]",
		Short: "Serve the browser site locally: drop files, see scores, preview draft rules",
		Long: `Serve the static site on a local address. The page scores files in the
browser, with the same WebAssembly core as every other host: nothing is
uploaded, and the page makes no request beyond this server. "Load sample"
scores the bundled sample without any file.

The site is the copy embedded into this binary by 'make build' (which runs
'make site' first); --dir serves a built folder instead, such as the
dist/site that 'make site' writes.`,
		Example: `  docscore serve
  docscore serve --addr 127.0.0.1:9000 --open
  docscore serve --dir dist/site`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			site, err := siteFS(dir)
			if err != nil {
				return err
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return usageError("--addr %s: %v", addr, err)
			}
			url := "http://" + ln.Addr().String() + "/"
			srv := &http.Server{Handler: newServeMux(serveOptions{site: site}), ReadHeaderTimeout: 10 * time.Second}
			fmt.Fprintf(env.Stdout, "docscore: serving the site at %s (Ctrl-C to stop)\n", url)
			if open {
				if err := openBrowser(url); err != nil {
					fmt.Fprintf(env.Stderr, "docscore: could not open a browser (%v): open %s yourself\n", err, url)
				}
			}
			done := make(chan error, 1)
			go func() { done <- srv.Serve(ln) }()
			select {
			case err := <-done:
				return err
			case <-c.Context().Done():
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				return srv.Shutdown(ctx)
			}
		},
	}
	c.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "the address to listen on (port 0 picks a free port)")
	c.Flags().BoolVar(&open, "open", false, "open the page in the default browser")
	c.Flags().StringVar(&dir, "dir", "", "serve this built site folder instead of the embedded copy")
	return c
}

// siteFS returns the site to serve: a built folder, or the embedded copy.
func siteFS(dir string) (fs.FS, error) {
	if dir == "" {
		site, err := webui.Embedded()
		if errors.Is(err, webui.ErrNotBuilt) {
			return nil, &ExitError{Code: ExitFailure, Err: err}
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
