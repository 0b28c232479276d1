// Package webui serves the built static site (see package sitebuild):
// the copy embedded into the binary by "make build", or a folder. The
// handler adds what the page relies on: a Content-Security-Policy that
// keeps every request on the page's own origin, permanent caching for the
// content-hashed assets, and revalidation for index.html.
package webui

import (
	"embed"
	"errors"
	"io/fs"
	"net/http"
	"strings"
)

//go:embed built
var built embed.FS

// ErrNotBuilt is returned by Embedded when the binary was compiled
// without a built site: "go install …@latest", or go build on a fresh
// clone (only this folder's README is committed; docs/install.md says why).
var ErrNotBuilt = errors.New("this docscore binary was built without the site (as 'go install' builds it; every other command works): " +
	"download a release archive, whose binary embeds it, or in a clone run 'make build' (it runs 'make site' first), or serve a built folder with --dir dist/site")

// Embedded returns the site embedded at build time.
func Embedded() (fs.FS, error) {
	sub, err := fs.Sub(built, "built")
	if err != nil {
		return nil, err
	}
	if _, err := fs.Stat(sub, "index.html"); err != nil {
		return nil, ErrNotBuilt
	}
	return sub, nil
}

// CSP is the Content-Security-Policy of the page, also set in its
// index.html for hosts that cannot send headers: everything from the
// page's own origin, WebAssembly allowed to compile, nothing inline.
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' blob:; " +
	"connect-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Handler serves a built site rooted at "/"; mount it under a prefix with
// http.StripPrefix, the page uses relative URLs only.
func Handler(site fs.FS) http.Handler {
	files := http.FileServerFS(site)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", CSP)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		if strings.HasPrefix(r.URL.Path, "/assets/") {
			h.Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			h.Set("Cache-Control", "no-cache")
		}
		files.ServeHTTP(w, r)
	})
}
