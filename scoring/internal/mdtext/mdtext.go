// Package mdtext formats user text and numbers for the Markdown reports
// of the harness and of generated ground truth, so both write a cell, a
// score and an undefined coefficient the same way.
package mdtext

import (
	"strconv"
	"strings"
)

// Line keeps user text on one Markdown line.
func Line(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// Cell escapes user text for a table cell.
func Cell(s string) string {
	return strings.ReplaceAll(Line(s), "|", "\\|")
}

// Score prints at most four decimals, without trailing zeros.
func Score(f float64) string {
	s := strconv.FormatFloat(f, 'f', 4, 64)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// Coefficient prints an agreement coefficient with Score, or
// "undefined (reason)" when there is none.
func Coefficient(v *float64, reason string) string {
	if v == nil {
		return "undefined (" + reason + ")"
	}
	return Score(*v)
}
