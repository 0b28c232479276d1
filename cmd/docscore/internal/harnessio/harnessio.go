// Package harnessio holds the native-only parts of the evaluation harness:
// reading reference files from disk and the atomic file checkpoint store.
// Everything else lives in the pure package scoring/harness.
package harnessio

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/docscore/docscore/cmd/docscore/internal/atomicfile"
	"github.com/docscore/docscore/scoring/harness"
)

// ArtifactFromPath reads a reference file and builds its artifact: the
// kind and media type from the extension, the SHA-256 of the bytes, the
// content (text or decoded JSON, or bytes for images, PDFs and other
// files). The artifact id defaults to the file's base name.
func ArtifactFromPath(path string, opts harness.ArtifactOptions) (harness.ReferenceArtifact, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return harness.ReferenceArtifact{}, err
	}
	return harness.ArtifactFromBytes(path, data, opts)
}

// DirLoader returns a harness.Loader that reads the paths a cases file
// names relative to dir (absolute paths as they are).
func DirLoader(dir string) harness.Loader {
	return func(p string) ([]byte, error) {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, filepath.FromSlash(p))
		}
		return os.ReadFile(p)
	}
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
