package webui

import (
	"bytes"
	"compress/gzip"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// site is a small built site: a page, a script and 200 kB of wasm-like
// bytes (half random, half repeated).
func site() fstest.MapFS {
	r := rand.New(rand.NewPCG(1, 2))
	wasm := make([]byte, 200_000)
	for i := range wasm[:100_000] {
		wasm[i] = byte(r.Uint32())
	}
	copy(wasm[100_000:], bytes.Repeat([]byte("\x00asm docscore "), 8000))
	return fstest.MapFS{
		"index.html":             {Data: []byte("<!doctype html><title>docscore</title><script src=assets/app.1.js></script>")},
		"assets/app.1.js":        {Data: []byte(strings.Repeat("export const x = 1;\n", 500))},
		"assets/docscore.2.wasm": {Data: wasm},
	}
}

// compressedSite writes site() as "make site" does and returns its folder.
func compressedSite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("kept"), 0o644)
	os.MkdirAll(filepath.Join(dir, "assets"), 0o755)
	os.WriteFile(filepath.Join(dir, "assets", "stale.js.gz"), []byte("old"), 0o644)
	if err := WriteCompressed(site(), dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestWriteCompressed(t *testing.T) {
	dir := compressedSite(t)
	for name, f := range site() {
		gz, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)+".gz"))
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			t.Fatal(err)
		}
		plain, _ := io.ReadAll(zr)
		if !bytes.Equal(plain, f.Data) || zr.Name != "" || !zr.ModTime.IsZero() {
			t.Errorf("%s: decodes to %d bytes (want %d), header name %q time %v", name, len(plain), len(f.Data), zr.Name, zr.ModTime)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "assets", "stale.js.gz")); err == nil {
		t.Error("an earlier site's asset was kept")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "README.md")); string(b) != "kept" {
		t.Error("the folder's README was removed")
	}
	// One site, the same bytes.
	again := compressedSite(t)
	for name := range site() {
		a, _ := os.ReadFile(filepath.Join(dir, name+".gz"))
		b, _ := os.ReadFile(filepath.Join(again, name+".gz"))
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two writes differ", name)
		}
	}
}

// TestGzipFS: the standard file-system checks, files read decompressed.
func TestGzipFS(t *testing.T) {
	g := NewGzipFS(os.DirFS(compressedSite(t)))
	if err := fstest.TestFS(g, "index.html", "assets/app.1.js", "assets/docscore.2.wasm", "README.md"); err != nil {
		t.Fatal(err)
	}
	for name, f := range site() {
		got, err := fsReadFile(g, name)
		if err != nil || !bytes.Equal(got, f.Data) {
			t.Errorf("%s: %d bytes, %v", name, len(got), err)
		}
	}
}

func fsReadFile(g *GzipFS, name string) ([]byte, error) {
	f, err := g.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// TestServedCompressedAndPlain: a client that accepts gzip gets the
// stored bytes with Content-Encoding gzip, which decode to the file; one
// that does not gets the file itself.
func TestServedCompressedAndPlain(t *testing.T) {
	dir := compressedSite(t)
	srv := httptest.NewServer(Handler(NewGzipFS(os.DirFS(dir))))
	defer srv.Close()
	// A transport that neither asks for nor decodes gzip by itself.
	client := &http.Client{Transport: &http.Transport{DisableCompression: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(path, accept string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		if accept != "" {
			req.Header.Set("Accept-Encoding", accept)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	files := site()
	for _, c := range []struct{ path, file, ctype string }{
		{"/", "index.html", "text/html; charset=utf-8"},
		{"/assets/app.1.js", "assets/app.1.js", "text/javascript; charset=utf-8"},
		{"/assets/docscore.2.wasm", "assets/docscore.2.wasm", "application/wasm"},
	} {
		want := files[c.file].Data
		stored, _ := os.ReadFile(filepath.Join(dir, c.file+".gz"))
		for _, accept := range []string{"gzip, deflate, br", "br;q=1.0, gzip;q=0.8", "*"} {
			resp, body := get(c.path, accept)
			if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(body, stored) {
				t.Errorf("%s, Accept-Encoding %q: %d, encoding %q, %d bytes (stored %d)", c.path, accept, resp.StatusCode, resp.Header.Get("Content-Encoding"), len(body), len(stored))
				continue
			}
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			if plain, _ := io.ReadAll(zr); !bytes.Equal(plain, want) {
				t.Errorf("%s: the gzip body decodes to %d bytes, want the file's %d", c.path, len(plain), len(want))
			}
			if resp.Header.Get("Content-Type") != c.ctype || resp.Header.Get("Vary") != "Accept-Encoding" || resp.Header.Get("Content-Security-Policy") != CSP {
				t.Errorf("%s: headers %v", c.path, resp.Header)
			}
		}
		for _, accept := range []string{"", "identity", "gzip;q=0", "br", "gzip;q=0, *"} {
			resp, body := get(c.path, accept)
			if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, want) || resp.Header.Get("Content-Type") != c.ctype {
				t.Errorf("%s, Accept-Encoding %q: %d, encoding %q, type %q, %d bytes (want %d)", c.path, accept, resp.StatusCode, resp.Header.Get("Content-Encoding"), resp.Header.Get("Content-Type"), len(body), len(want))
			}
		}
	}
	if resp, _ := get("/index.html", "gzip"); resp.StatusCode != http.StatusMovedPermanently {
		t.Errorf("/index.html: %d, want the file server's redirect", resp.StatusCode)
	}
	for _, p := range []string{"/assets/missing.js", "/assets/app.1.js.gz/x"} {
		if resp, _ := get(p, "gzip"); resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d", p, resp.StatusCode)
		}
	}
}

func TestAcceptsGzip(t *testing.T) {
	for h, want := range map[string]bool{
		"": false, "gzip": true, "GZIP": true, "x-gzip": true, "deflate, gzip;q=0.5": true, "gzip;q=0": false,
		"gzip; q=0.0": false, "*": true, "*;q=0": false, "gzip;q=0, *": false, "*, gzip;q=0": false, "br, identity": false,
	} {
		if got := acceptsGzip(h); got != want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", h, got, want)
		}
	}
}
