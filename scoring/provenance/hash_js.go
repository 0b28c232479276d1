//go:build js

package provenance

import (
	"hash"

	"github.com/docscore/docscore/internal/sha256sum"
)

// newSHA256 is the browser's running digest: crypto/sha256 would link
// Go's FIPS 140 module into every page wasm (46 KB of gzip).
func newSHA256() hash.Hash { return sha256sum.New() }
