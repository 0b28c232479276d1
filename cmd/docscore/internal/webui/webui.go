// Package webui serves the built static site (see package sitebuild):
// the copy embedded into the binary by "make build", stored compressed
// (gzip.go), or a folder. The handler sends a compressed file as it is
// to a client that accepts gzip, and adds what the page relies on: a Content-Security-Policy that
// keeps every request on the page's own origin, permanent caching for the
// content-hashed assets, and revalidation for index.html.
package webui

import (
	"bytes"
	"embed"
	"errors"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
)

//go:embed built
var built embed.FS

// ErrNotBuilt is returned by Embedded when the binary was compiled
// without a built site: "go install …@latest", or go build on a fresh
// clone (only this folder's README is committed; docs/install.md says why).
var ErrNotBuilt = errors.New("this docscore binary was built without the site (as 'go install' builds it; every other command works): " +
	"download a release archive, whose binary embeds it, or in a clone run 'make build' (it runs 'make site' first), or serve a built folder with --dir dist/site")

// Embedded returns the site embedded at build time: its files stored as
// NAME.gz, read through a GzipFS.
func Embedded() (fs.FS, error) {
	sub, err := fs.Sub(built, "built")
	if err != nil {
		return nil, err
	}
	site := NewGzipFS(sub)
	if _, err := fs.Stat(site, "index.html"); err != nil {
		return nil, ErrNotBuilt
	}
	return site, nil
}

// CSP is the Content-Security-Policy of the page, also set in its
// index.html for hosts that cannot send headers: everything from the
// page's own origin, WebAssembly allowed to compile, nothing inline.
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' blob:; " +
	"connect-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Handler serves a built site rooted at "/"; mount it under a prefix with
// http.StripPrefix, the page uses relative URLs only. A file a GzipFS
// stores compressed goes as it is, with Content-Encoding: gzip, to a
// client whose Accept-Encoding takes gzip, and decompressed to others.
func Handler(site fs.FS) http.Handler {
	files := http.FileServerFS(site)
	gz, _ := site.(*GzipFS)
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
		if gz != nil {
			h.Add("Vary", "Accept-Encoding")
			if serveCompressed(w, r, gz) {
				return
			}
		}
		files.ServeHTTP(w, r)
	})
}

// serveCompressed sends the stored gzip bytes of the file r asks for,
// when it is stored compressed and the client takes gzip; false leaves
// the request to the file server (a folder, a redirect, a missing file).
func serveCompressed(w http.ResponseWriter, r *http.Request, gz *GzipFS) bool {
	if !acceptsGzip(r.Header.Get("Accept-Encoding")) {
		return false
	}
	name := strings.TrimPrefix(r.URL.Path, "/")
	if name == "" || strings.HasSuffix(name, "/") {
		name += "index.html"
	} else if path.Base(name) == "index.html" {
		return false // the file server redirects it to its folder
	}
	if path.Clean("/"+name) != "/"+name {
		return false
	}
	data, mod, ok := gz.Compressed(name)
	if !ok {
		return false
	}
	ctype := mime.TypeByExtension(path.Ext(name))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Content-Encoding", "gzip")
	http.ServeContent(w, r, name, mod, bytes.NewReader(data))
	return true
}

// acceptsGzip reports whether an Accept-Encoding value takes gzip: by
// name (gzip or x-gzip) or else as "*", with a weight other than 0.
func acceptsGzip(header string) bool {
	named, star := -1.0, -1.0
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(p), "q="); ok {
				if f, err := strconv.ParseFloat(v, 64); err == nil {
					q = f
				}
			}
		}
		switch coding {
		case "gzip", "x-gzip":
			named = max(named, q)
		case "*":
			star = max(star, q)
		}
	}
	if named >= 0 {
		return named > 0
	}
	return star > 0
}
