// Package docs holds the tests that keep README.md and docs/*.md true: run
// "go test ./cmd/docscore/internal/doccheck/docs". The forms of the blocks
// they read are described in package doccheck.
package docs
