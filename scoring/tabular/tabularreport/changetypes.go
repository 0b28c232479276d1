package tabularreport

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// MaxAttributedRows is the most previewed rows whose changes are
// attributed row by row: each row is scored alone (on the images the
// preview changed) to tell which row makes which change. A preview of
// more rows lists its changes with no rows named.
const MaxAttributedRows = 20

// PairingField is the Field of a Change in which a ground-truth row is
// paired with another model record, or paired or unpaired.
const PairingField = "pairing"

// Change is one thing a preview changed on one ground-truth row of one
// image (SPEC F.5): a scored field's score, the name's CER (Field is the
// key column), or the pairing (Field is PairingField).
type Change struct {
	Line   int             `json:"line"` // the image's line in the runs file
	Model  string          `json:"model"`
	Phase  string          `json:"phase"`
	Run    json.RawMessage `json:"run"`
	Page   string          `json:"page"`
	GT     string          `json:"gt"` // the ground-truth row's name, as written
	GTLine int             `json:"gt_line"`
	Field  string          `json:"field"`
	// Before and After are the field's score, the name's CER, or for a
	// pairing the name similarity of the pair (nil: unscorable, or no
	// pair).
	Before *float64 `json:"before"`
	After  *float64 `json:"after"`
	// RecordBefore and RecordAfter are the name of the model record paired
	// with the row ("" when none).
	RecordBefore string `json:"record_before"`
	RecordAfter  string `json:"record_after"`
	// Rows are the lines of the previewed rows that, switched on alone,
	// make this same change; empty when only the rows together make it,
	// or when more than MaxAttributedRows rows are previewed.
	Rows []int `json:"rows"`
}

// ChangeTally counts changes: field scores that rose or fell, names whose
// CER changed, pairings that changed.
type ChangeTally struct {
	Rose     int `json:"rose"`
	Fell     int `json:"fell"`
	Names    int `json:"names"`
	Pairings int `json:"pairings"`
}

// ChangeCount is the tally of the changes one previewed row makes.
type ChangeCount struct {
	Line int `json:"line"`
	ChangeTally
}

// Add counts c, a change of a report whose key column is key.
func (t *ChangeTally) Add(c *Change, key string) {
	switch {
	case c.Field == PairingField:
		t.Pairings++
	case c.Field == key:
		t.Names++
	case c.Before != nil && c.After != nil && *c.After > *c.Before:
		t.Rose++
	case c.Before != nil && c.After != nil && *c.After < *c.Before:
		t.Fell++
	}
}

// writePreviewChanges writes the Markdown section "What the preview
// changed": the tally of each previewed row (and of all together), then
// every change.
func writePreviewChanges(b *bytes.Buffer, p *Preview, key string) {
	b.WriteString("\n## What the preview changed\n\nEach pair and field whose score or pairing the preview changed, with the previewed rows that change it alone.\n\n")
	for _, c := range p.ChangeCounts {
		b.WriteString("- line " + strconv.Itoa(c.Line) + ": " + c.ChangeTally.String() + "\n")
	}
	if len(p.ChangeCounts) != 1 {
		b.WriteString("- all rows together: " + p.ChangeTotal.String() + "\n")
	}
	if len(p.Changes) == 0 {
		return
	}
	b.WriteString("\n")
	writeRow(b, []string{"image line", "model", "phase", "run", "page", "GT row", "field", "before → after", "rows"})
	writeRule(b, 9)
	for i := range p.Changes {
		c := &p.Changes[i]
		rows := "together"
		if len(p.Rows) > MaxAttributedRows {
			rows = "not attributed"
		} else if len(c.Rows) > 0 {
			ls := make([]string, len(c.Rows))
			for k, l := range c.Rows {
				ls[k] = strconv.Itoa(l)
			}
			rows = strings.Join(ls, ", ")
		}
		writeRow(b, []string{strconv.Itoa(c.Line), c.Model, c.Phase, runText(c.Run), c.Page,
			c.GT + " (line " + strconv.Itoa(c.GTLine) + ")", c.Field, c.beforeAfter(key), rows})
	}
}

// String is the tally in words: "14 fields rose, 0 fell", then the names
// and pairings that changed, when any did.
func (t ChangeTally) String() string {
	s := strconv.Itoa(t.Rose) + " field"
	if t.Rose != 1 {
		s += "s"
	}
	s += " rose, " + strconv.Itoa(t.Fell) + " fell"
	if t.Names > 0 {
		s += ", " + strconv.Itoa(t.Names) + " name CER"
		if t.Names != 1 {
			s += "s"
		}
		s += " changed"
	}
	if t.Pairings > 0 {
		s += ", " + strconv.Itoa(t.Pairings) + " pairing"
		if t.Pairings != 1 {
			s += "s"
		}
		s += " changed"
	}
	return s
}

// beforeAfter is the change in words: "0.9600 → 1.0000", "CER 0.5500 →
// 0.0000", or for a pairing the records paired, with their similarity.
func (c *Change) beforeAfter(key string) string {
	switch c.Field {
	case PairingField:
		side := func(rec string, sim *float64) string {
			if sim == nil {
				return "none"
			}
			return rec + " (" + fmt4(*sim) + ")"
		}
		return side(c.RecordBefore, c.Before) + " → " + side(c.RecordAfter, c.After)
	case key:
		return "CER " + fmtOpt4(c.Before) + " → " + fmtOpt4(c.After)
	}
	return fmtOpt4(c.Before) + " → " + fmtOpt4(c.After)
}
