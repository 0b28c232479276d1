package webui

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// The embedded site is stored gzip-compressed: "make site" writes each
// file of the built site as NAME.gz (WriteCompressed), the binary embeds
// those, and GzipFS reads them. The three WebAssembly files of the page
// are about 20 MB as they are and 5 MB compressed; the binary carries
// the 5 MB, the handler sends the compressed bytes as they are to a
// client that accepts gzip, and decompresses a file (once, on its first
// request) for one that does not.

// gzSuffix marks a compressed file.
const gzSuffix = ".gz"

// WriteCompressed writes every regular file of src into dir as NAME.gz,
// gzip level 9 with no name and no time in the header, so that one site
// gives the same bytes; folders are made as needed. It replaces what
// dir held of an earlier site (index.html*, assets/) and leaves the rest
// (the folder's README.md).
func WriteCompressed(src fs.FS, dir string) error {
	old, _ := filepath.Glob(filepath.Join(dir, "index.html*"))
	for _, p := range append(old, filepath.Join(dir, "assets")) {
		if err := os.RemoveAll(p); err != nil {
			return err
		}
	}
	return fs.WalkDir(src, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := fs.ReadFile(src, name)
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(data)
		if err := zw.Close(); err != nil {
			return err
		}
		out := filepath.Join(dir, filepath.FromSlash(name)+gzSuffix)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, buf.Bytes(), 0o644)
	})
}

// GzipFS is a file system whose files are stored as NAME.gz in fsys:
// Open("assets/x.wasm") reads assets/x.wasm.gz and decompresses it on
// first use (kept for the next request); a file stored as it is, and
// every folder, are read from fsys (a folder lists its files under their
// names, without .gz).
type GzipFS struct {
	fsys fs.FS
	mu   sync.Mutex
	// compressed and plain hold each file's bytes once read.
	compressed map[string][]byte
	plain      map[string][]byte
}

// NewGzipFS returns the file system of fsys's compressed files.
func NewGzipFS(fsys fs.FS) *GzipFS {
	return &GzipFS{fsys: fsys, compressed: map[string][]byte{}, plain: map[string][]byte{}}
}

// Compressed returns the gzip bytes of name and the time of its stored
// file, when it is stored compressed.
func (g *GzipFS) Compressed(name string) ([]byte, time.Time, bool) {
	if !fs.ValidPath(name) {
		return nil, time.Time{}, false
	}
	info, err := fs.Stat(g.fsys, name+gzSuffix)
	if err != nil || !info.Mode().IsRegular() {
		return nil, time.Time{}, false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	data, ok := g.compressed[name]
	if !ok {
		if data, err = fs.ReadFile(g.fsys, name+gzSuffix); err != nil {
			return nil, time.Time{}, false
		}
		g.compressed[name] = data
	}
	return data, info.ModTime(), true
}

// Open opens name: a compressed file decompressed, anything else as fsys
// has it.
func (g *GzipFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	gz, mod, ok := g.Compressed(name)
	if !ok {
		f, err := g.fsys.Open(name)
		if err != nil {
			return nil, err
		}
		if st, err := f.Stat(); err == nil && st.IsDir() {
			return &gzipDir{File: f, g: g, name: name}, nil
		}
		return f, nil
	}
	g.mu.Lock()
	data, ok := g.plain[name]
	g.mu.Unlock()
	if !ok {
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		if data, err = io.ReadAll(zr); err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		g.mu.Lock()
		g.plain[name] = data
		g.mu.Unlock()
	}
	return &memFile{Reader: bytes.NewReader(data), info: memInfo{name: path.Base(name), size: int64(len(data)), mod: mod}}, nil
}

// ReadDir lists a folder, compressed files under their own names.
func (g *GzipFS) ReadDir(name string) ([]fs.DirEntry, error) {
	list, err := fs.ReadDir(g.fsys, name)
	if err != nil {
		return nil, err
	}
	out := make([]fs.DirEntry, len(list))
	for i, e := range list {
		out[i] = e
		if n, ok := strings.CutSuffix(e.Name(), gzSuffix); ok && e.Type().IsRegular() {
			out[i] = gzipEntry{DirEntry: e, g: g, name: n, path: path.Join(name, n)}
		}
	}
	return out, nil
}

// gzipDir is a folder of GzipFS, listed through its ReadDir.
type gzipDir struct {
	fs.File
	g     *GzipFS
	name  string
	list  []fs.DirEntry
	read  int
	begun bool
}

func (d *gzipDir) ReadDir(n int) ([]fs.DirEntry, error) {
	if !d.begun {
		list, err := d.g.ReadDir(d.name)
		if err != nil {
			return nil, err
		}
		d.list, d.begun = list, true
	}
	rest := d.list[d.read:]
	if n <= 0 {
		d.read = len(d.list)
		return rest, nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(rest))
	d.read += n
	return rest[:n], nil
}

// gzipEntry is a compressed file's entry under its own name.
type gzipEntry struct {
	fs.DirEntry
	g          *GzipFS
	name, path string
}

func (e gzipEntry) Name() string { return e.name }

// Info is the file's as Open gives it: the size the gzip trailer
// records, without decompressing.
func (e gzipEntry) Info() (fs.FileInfo, error) {
	data, mod, ok := e.g.Compressed(e.path)
	if !ok || len(data) < 4 {
		return nil, &fs.PathError{Op: "stat", Path: e.path, Err: fs.ErrNotExist}
	}
	return memInfo{name: e.name, size: int64(binary.LittleEndian.Uint32(data[len(data)-4:])), mod: mod}, nil
}

// memFile is a decompressed file.
type memFile struct {
	*bytes.Reader
	info memInfo
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Close() error               { return nil }

type memInfo struct {
	name string
	size int64
	mod  time.Time
}

func (i memInfo) Name() string       { return i.name }
func (i memInfo) Size() int64        { return i.size }
func (i memInfo) Mode() fs.FileMode  { return 0o444 }
func (i memInfo) ModTime() time.Time { return i.mod }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }
