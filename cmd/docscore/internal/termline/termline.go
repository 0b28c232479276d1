// Package termline draws the progress lines docscore redraws in place on
// a terminal: the scorings' and the pilot's.
package termline

import "strings"

// Erase returns the cursor to the start of the line and clears the line.
const Erase = "\r\033[K"

// Bar is a progress bar of width cells, frac of them (0 to 1) filled:
// "[####......]".
func Bar(frac float64, width int) string {
	n := min(max(int(frac*float64(width)), 0), width)
	return "[" + strings.Repeat("#", n) + strings.Repeat(".", width-n) + "]"
}
