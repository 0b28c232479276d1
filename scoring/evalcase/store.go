package evalcase

import (
	"sync"
)

// CheckpointStore keeps the result of each completed stage so a rerun
// does not call its metrics (or judges) again. Save must be atomic: after
// a crash, Load returns either the previous bytes or the new ones, never a
// mixture. The native store in cmd/docscore/internal/harnessio writes a
// temporary file, fsyncs it, renames it into place and fsyncs the
// directory.
type CheckpointStore interface {
	// Load returns the bytes saved under key; ok is false when there are none.
	Load(key string) (data []byte, ok bool, err error)
	// Save replaces the bytes under key.
	Save(key string, data []byte) error
}

// MemoryCheckpointStore is a CheckpointStore in memory, for tests and for
// hosts without a file system. It is safe for concurrent use.
type MemoryCheckpointStore struct {
	mu sync.Mutex
	m  map[string][]byte
}

// NewMemoryCheckpointStore returns an empty store.
func NewMemoryCheckpointStore() *MemoryCheckpointStore {
	return &MemoryCheckpointStore{m: map[string][]byte{}}
}

// Load returns a copy of the bytes under key.
func (s *MemoryCheckpointStore) Load(key string) ([]byte, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.m[key]
	return append([]byte(nil), b...), ok, nil
}

// Save stores a copy of data under key.
func (s *MemoryCheckpointStore) Save(key string, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[key] = append([]byte(nil), data...)
	return nil
}
