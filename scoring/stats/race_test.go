//go:build race

package stats

// raceEnabled is true under the race detector, which slows the
// single-goroutine calibration simulations tenfold and has nothing to find
// in them.
const raceEnabled = true
