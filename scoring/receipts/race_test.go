//go:build race || js

package receipts_test

// slowBuild is set under the race detector and WebAssembly, where
// TestStreamFlatMemory runs a tenth of its size.
const slowBuild = true
