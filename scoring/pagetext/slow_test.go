//go:build race || js

package pagetext

// slowBuild is set under the race detector and WebAssembly, where
// TestStreamRunsFlatMemory runs a quarter of its size.
const slowBuild = true
