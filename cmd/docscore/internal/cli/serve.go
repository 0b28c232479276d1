package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/docscore/docscore/wasm/api"
)

func init() { register("", newServe) }

func newServe(env *Env) *cobra.Command {
	var (
		addr    string
		withAPI bool
	)
	c := &cobra.Command{
		Use:   "serve --api [--addr 127.0.0.1:8080]",
		Short: "Serve the HTTP API locally: the same handler as the Cloudflare Worker",
		Long: `Serve docscore's HTTP API (the Cloudflare Worker's routes) on a local
address, for use without Workers:

  GET  /healthz, GET /v1/version
  POST /v1/score/tabular   the JSON of "docscore score tabular --format json"
  POST /v1/rules/check     the checks of a rule file

Requests are JSON (files as {"name", "text"}) or multipart/form-data (one
part per file). Bad requests get a 4xx with {"error": {...}}. Stop with
Ctrl-C.`,
		Example: `  docscore serve --api
  curl -F gt=@gt/gt_page_27.csv -F runs=@runs.jsonl http://127.0.0.1:8080/v1/score/tabular`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if !withAPI {
				return usageError("expected --api (the HTTP API); see 'docscore serve --help'")
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return &ExitError{Code: ExitInput, Err: fmt.Errorf("--addr %s: %v", addr, err)}
			}
			ctx, stop := signal.NotifyContext(env.Context, os.Interrupt, syscall.SIGTERM)
			defer stop()
			return serveAPI(ctx, env, ln, api.New(api.Options{Version: Version}))
		},
	}
	c.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on (host:port; port 0 picks a free one)")
	c.Flags().BoolVar(&withAPI, "api", false, "serve the HTTP API")
	return c
}

// serveAPI serves h on ln until ctx is done, then shuts down gracefully.
func serveAPI(ctx context.Context, env *Env, ln net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(env.Stderr, "docscore: serving the API on http://%s (Ctrl-C stops)\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
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
