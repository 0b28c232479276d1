//go:build race || js

package tabular_test

// slowBuild is set under the race detector and WebAssembly, where
// TestStreamFlatMemory runs a tenth of its size and
// TestStreamGeneratedCorpus a third.
const slowBuild = true
