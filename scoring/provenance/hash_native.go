//go:build !js

package provenance

import (
	"crypto/sha256"
	"hash"
)

// newSHA256 is the native running digest: crypto/sha256 uses the CPU's
// SHA instructions where there are some, for runs files of gigabytes.
func newSHA256() hash.Hash { return sha256.New() }
