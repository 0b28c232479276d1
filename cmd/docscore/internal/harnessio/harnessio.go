// Package harnessio holds the native-only parts of the evaluation harness:
// reading reference files from disk and the atomic file checkpoint store.
// Everything else lives in the pure packages scoring/harness and
// scoring/evalcase (the checkpoint store contract).
package harnessio

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/docscore/docscore/cmd/docscore/internal/atomicfile"
	"github.com/docscore/docscore/cmd/docscore/internal/inputfile"
	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/harness/casefile"
)

// ArtifactFromPath reads a reference file and builds its artifact: the
// kind and media type from the extension, the SHA-256 of the bytes, the
// content (text or decoded JSON, or bytes for images, PDFs and other
// files). The artifact id defaults to the file's base name.
func ArtifactFromPath(path string, opts evalcase.ArtifactOptions) (evalcase.ReferenceArtifact, error) {
	return ReadArtifact(inputfile.Reader{}, path, opts)
}

// ReadArtifact is ArtifactFromPath reading the file with rd: under its
// size limit, stopped by its context.
func ReadArtifact(rd inputfile.Reader, path string, opts evalcase.ArtifactOptions) (evalcase.ReferenceArtifact, error) {
	data, err := rd.ReadFile(path)
	if err != nil {
		return evalcase.ReferenceArtifact{}, err
	}
	return evalcase.ArtifactFromBytes(path, data, opts)
}

// AllowOutsideFlag is the command-line flag that lets a cases file name
// files outside its folder; refusals name it.
const AllowOutsideFlag = "--allow-outside-paths"

// DirLoader returns a harness.Loader that reads the paths a cases file
// names relative to dir, the cases file's folder. A path that leaves dir
// is refused unless allowOutside is set: an absolute path, a path that
// climbs out with "..", or one that a symbolic link (of dir's own files or
// folders) leads out of. A cases file is data, often someone else's, and
// what it names is read, hashed and may be sent to a judge: without the
// refusal a case path such as ../../../../etc/passwd would be.
//
// The files are read with rd (its size limit and context), and only
// regular files are read: a FIFO, a device or a socket named by a case
// would wait, or never end.
func DirLoader(dir string, allowOutside bool, rd inputfile.Reader) casefile.Loader {
	return func(p string) ([]byte, error) {
		full := filepath.FromSlash(p)
		if !filepath.IsAbs(full) {
			full = filepath.Join(dir, full)
		} else if !allowOutside {
			return nil, fmt.Errorf("an absolute path; a cases file names files relative to its folder (give %s to read others)", AllowOutsideFlag)
		}
		if !allowOutside {
			if err := inside(dir, full); err != nil {
				return nil, err
			}
		}
		if err := inputfile.Regular(full); err != nil {
			return nil, err
		}
		return rd.ReadFile(full)
	}
}

// inside checks that full (dir joined with a cases file's path) stays in
// dir, first as written and then with symbolic links resolved. Its errors
// follow the path in the caller's message.
func inside(dir, full string) error {
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	absFull, err := filepath.Abs(full)
	if err != nil {
		return err
	}
	if !within(absDir, absFull) {
		return fmt.Errorf("it leaves the cases file's folder %s (give %s to read it)", absDir, AllowOutsideFlag)
	}
	realDir, err := filepath.EvalSymlinks(absDir)
	if err != nil {
		return err
	}
	realFull, err := filepath.EvalSymlinks(absFull)
	if err != nil {
		return nil // missing: the read reports it
	}
	if !within(realDir, realFull) {
		return fmt.Errorf("a symbolic link leads out of the cases file's folder %s, to %s (give %s to read it)", absDir, realFull, AllowOutsideFlag)
	}
	return nil
}

// within reports whether path is dir or lies under it (both absolute and
// clean).
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// FileCheckpointStore keeps checkpoints as JSON files in a directory, one
// per stage. Save is atomic and durable: the bytes go to a temporary file
// in the same directory, which is fsynced, renamed over the checkpoint and
// followed by an fsync of the directory. A crash at any point leaves the
// previous checkpoint or the new one, and at worst a stray temporary file
// that Load never reads.
type FileCheckpointStore struct {
	dir string
	// beforeRename, when set (tests), runs after the temporary file is
	// written and synced and before it is renamed into place.
	beforeRename func(tmp string) error
}

// NewFileCheckpointStore returns a store in dir, creating it when missing.
func NewFileCheckpointStore(dir string) (*FileCheckpointStore, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &FileCheckpointStore{dir: dir}, nil
}

// Dir returns the store's directory.
func (s *FileCheckpointStore) Dir() string { return s.dir }

// fileName maps a checkpoint key to a file name: the key's safe characters
// for readability, and a hash of the whole key for uniqueness.
func fileName(key string) string {
	var b strings.Builder
	for _, r := range key {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
		if b.Len() >= 80 {
			break
		}
	}
	sum := sha256.Sum256([]byte(key))
	return strings.TrimLeft(b.String(), ".") + "-" + hex.EncodeToString(sum[:6]) + ".json"
}

// Path returns the file that holds key's checkpoint.
func (s *FileCheckpointStore) Path(key string) string {
	return filepath.Join(s.dir, fileName(key))
}

// Load reads key's checkpoint; a missing file is not an error.
func (s *FileCheckpointStore) Load(key string) ([]byte, bool, error) {
	data, err := os.ReadFile(s.Path(key))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return data, true, nil
}

// Save writes key's checkpoint atomically (package atomicfile).
func (s *FileCheckpointStore) Save(key string, data []byte) error {
	return atomicfile.Options{BeforeRename: s.beforeRename}.WriteFile(s.Path(key), data)
}
