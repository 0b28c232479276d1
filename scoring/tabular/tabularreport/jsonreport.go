package tabularreport

import (
	"io"
	"slices"
	"strconv"

	"github.com/docscore/docscore/scoring/internal/jsonout"
	"github.com/docscore/docscore/scoring/stats"
)

// WriteJSON writes the report as indented JSON with a final newline. It
// is the report's one encoder: the command line, the browser and the
// Worker all send its bytes. The bytes depend only on the report: keys
// keep their declared order and floats use Go's shortest round-trip
// formatting. They are the bytes encoding/json's Encoder writes for the
// report from its struct tags (escaping no HTML, two spaces of
// indentation), which the tests hold it to; it writes them without
// reflection, which the browser feels most.
func (r *Report) WriteJSON(w io.Writer) error {
	b, err := r.JSON()
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// JSON returns the bytes WriteJSON writes, without copying them into a
// writer: a report of the benchmark corpus is megabytes.
func (r *Report) JSON() ([]byte, error) {
	return r.jsonBytes(false)
}

// SummaryJSON returns the report's summary: the JSON of WriteJSON, key
// for key, except that each image stops after its f1 (no name-CER counts,
// field sums, pairs or unmatched names). It is what a view of the cells
// and the images reads, a small fraction of the report's bytes; a page
// shows it and keeps the report itself, unread, for download.
func (r *Report) SummaryJSON() ([]byte, error) {
	return r.jsonBytes(true)
}

func (r *Report) jsonBytes(summary bool) ([]byte, error) {
	jw := jsonout.NewWriter(r.jsonSize(summary))
	err := r.WriteJSONAround(jw, func(jw *jsonout.Writer) error {
		if r.Images == nil {
			jw.Null()
			return nil
		}
		jw.Open('[')
		for _, im := range r.Images {
			jw.Elem()
			WriteImage(jw, im, summary)
		}
		jw.Close(']')
		return nil
	})
	if err != nil {
		return nil, err
	}
	return jw.Bytes()
}

// WriteJSONAround writes the report's members in their order; images writes
// the value of "images" (the images a report holds, or those a streamed
// scoring wrote aside).
func (r *Report) WriteJSONAround(jw *jsonout.Writer, images func(*jsonout.Writer) error) error {
	jw.Open('{')
	jw.Key("kind")
	jw.String(r.Kind)
	jw.Key("gate")
	jw.Float(r.Gate)
	jw.Key("key")
	jw.String(r.Key)
	jw.Key("fields")
	writeStrings(jw, r.Fields)
	jw.Key("rules")
	writeRules(jw, &r.Rules)
	jw.Key("warnings")
	writeStrings(jw, r.Warnings)
	if len(r.LeftOut) > 0 {
		jw.Key("left_out")
		writeLeftOut(jw, r.LeftOut)
	}
	jw.Key("cells")
	if r.Cells == nil {
		jw.Null()
	} else {
		jw.Open('[')
		for _, c := range r.Cells {
			jw.Elem()
			writeCell(jw, c)
		}
		jw.Close(']')
	}
	jw.Key("images")
	if err := images(jw); err != nil {
		return err
	}
	if r.Preview != nil {
		jw.Key("preview")
		writePreview(jw, r.Preview)
	}
	jw.Close('}')
	return nil
}

// jsonSize is a generous estimate of the JSON's length, so that the
// buffer is allocated once: the copies of a growing buffer cost more than
// the writing.
func (r *Report) jsonSize(summary bool) int {
	n := 4096 + 1024*len(r.Cells)
	if summary {
		return n + 400*len(r.Images)
	}
	for _, im := range r.Images {
		if im != nil {
			n += 800 + 40*len(im.Fields) + (400+40*len(r.Fields))*len(im.Pairs)
		}
	}
	return n
}

func writeLeftOut(jw *jsonout.Writer, l []LeftOut) {
	jw.Open('[')
	for _, x := range l {
		jw.Elem()
		jw.Open('{')
		jw.Key("file")
		jw.String(x.File)
		jw.Key("line")
		jw.Int(x.Line)
		jw.Key("column")
		jw.Int(x.Column)
		jw.Key("what")
		jw.String(x.What)
		jw.Key("why")
		jw.String(x.Why)
		jw.Close('}')
	}
	jw.Close(']')
}

func writeRules(jw *jsonout.Writer, rs *RulesSummary) {
	jw.Open('{')
	jw.Key("file")
	jw.String(rs.File)
	jw.Key("settled")
	jw.Int(rs.Settled)
	jw.Key("open")
	jw.Int(rs.Open)
	jw.Key("sha256")
	jw.OptString(rs.SHA256)
	jw.Key("preview")
	jw.Bool(rs.Preview)
	jw.Close('}')
}

func writeCell(jw *jsonout.Writer, c *Cell) {
	if c == nil {
		jw.Null()
		return
	}
	jw.Open('{')
	jw.Key("model")
	jw.String(c.Model)
	jw.Key("phase")
	jw.String(c.Phase)
	jw.Key("images_ok")
	jw.Int(c.ImagesOK)
	jw.Key("images_failed")
	jw.Int(c.ImagesFailed)
	writeMatching(jw, c.Matched, c.NModel, c.NGT, c.Precision, c.Recall, c.F1)
	jw.Key("name_cer")
	jw.OptFloat(c.NameCER)
	jw.Key("name_cer_edits")
	jw.Int(c.NameEdits)
	jw.Key("name_ref_chars")
	jw.Int(c.NameRefChars)
	jw.Key("fields") // an object keyed by field name, even when nil
	jw.Open('{')
	for _, f := range c.Fields {
		jw.Key(f.Name)
		jw.Open('{')
		jw.Key("accuracy")
		jw.OptFloat(f.Accuracy)
		jw.Key("scored")
		jw.Int(f.Scored)
		jw.Key("sum")
		jw.Float(f.Sum)
		jw.Close('}')
	}
	jw.Close('}')
	if c.CI != nil {
		jw.Key("ci")
		jw.Raw(ciJSON(c.CI))
	}
	jw.Close('}')
}

// writeMatching writes the counts and scores of a matching, an image's or
// a cell's.
func writeMatching(jw *jsonout.Writer, matched, nModel, nGT int, precision, recall, f1 float64) {
	jw.Key("matched")
	jw.Int(matched)
	jw.Key("n_model")
	jw.Int(nModel)
	jw.Key("n_gt")
	jw.Int(nGT)
	jw.Key("precision")
	jw.Float(precision)
	jw.Key("recall")
	jw.Float(recall)
	jw.Key("f1")
	jw.Float(f1)
}

func writePreview(jw *jsonout.Writer, p *Preview) {
	jw.Open('{')
	jw.Key("rows")
	jw.Value(p.Rows) // the rule file's rows, in rules.Row's own JSON
	jw.Key("cells")
	if p.Cells == nil {
		jw.Null()
	} else {
		jw.Open('[')
		for _, c := range p.Cells {
			jw.Elem()
			writePreviewCell(jw, c)
		}
		jw.Close(']')
	}
	if p.Comparison != nil {
		jw.Key("comparison")
		p.Comparison.WriteJSON(jw)
	}
	jw.Key("changes")
	writeChanges(jw, p.Changes)
	jw.Key("change_counts")
	if p.ChangeCounts == nil {
		jw.Null()
	} else {
		jw.Open('[')
		for i := range p.ChangeCounts {
			jw.Elem()
			jw.Open('{')
			jw.Key("line")
			jw.Int(p.ChangeCounts[i].Line)
			writeTally(jw, &p.ChangeCounts[i].ChangeTally)
			jw.Close('}')
		}
		jw.Close(']')
	}
	jw.Key("change_total")
	jw.Open('{')
	writeTally(jw, &p.ChangeTotal)
	jw.Close('}')
	jw.Close('}')
}

func writeChanges(jw *jsonout.Writer, changes []Change) {
	if changes == nil {
		jw.Null()
		return
	}
	jw.Open('[')
	for i := range changes {
		c := &changes[i]
		jw.Elem()
		jw.Open('{')
		jw.Key("line")
		jw.Int(c.Line)
		jw.Key("model")
		jw.String(c.Model)
		jw.Key("phase")
		jw.String(c.Phase)
		jw.Key("run")
		jw.Raw(c.Run)
		jw.Key("page")
		jw.String(c.Page)
		jw.Key("gt")
		jw.String(c.GT)
		jw.Key("gt_line")
		jw.Int(c.GTLine)
		jw.Key("field")
		jw.String(c.Field)
		jw.Key("before")
		jw.OptFloat(c.Before)
		jw.Key("after")
		jw.OptFloat(c.After)
		jw.Key("record_before")
		jw.String(c.RecordBefore)
		jw.Key("record_after")
		jw.String(c.RecordAfter)
		jw.Key("rows")
		if c.Rows == nil {
			jw.Null()
		} else {
			jw.Open('[')
			for _, l := range c.Rows {
				jw.Elem()
				jw.Int(l)
			}
			jw.Close(']')
		}
		jw.Close('}')
	}
	jw.Close(']')
}

// writeTally writes a tally's members into an open object.
func writeTally(jw *jsonout.Writer, t *ChangeTally) {
	jw.Key("rose")
	jw.Int(t.Rose)
	jw.Key("fell")
	jw.Int(t.Fell)
	jw.Key("names")
	jw.Int(t.Names)
	jw.Key("pairings")
	jw.Int(t.Pairings)
}

func writePreviewCell(jw *jsonout.Writer, c *PreviewCell) {
	if c == nil {
		jw.Null()
		return
	}
	jw.Open('{')
	jw.Key("model")
	jw.String(c.Model)
	jw.Key("phase")
	jw.String(c.Phase)
	jw.Key("precision")
	writeDelta(jw, &c.Precision)
	jw.Key("recall")
	writeDelta(jw, &c.Recall)
	jw.Key("f1")
	writeDelta(jw, &c.F1)
	jw.Key("name_cer")
	writeDelta(jw, &c.NameCER)
	jw.Key("fields") // an object keyed by field name, even when nil
	jw.Open('{')
	for i := range c.Fields {
		jw.Key(c.Fields[i].Name)
		writeDelta(jw, &c.Fields[i].Delta)
	}
	jw.Close('}')
	jw.Close('}')
}

func writeDelta(jw *jsonout.Writer, d *Delta) {
	jw.Open('{')
	jw.Key("settled")
	jw.OptFloat(d.Settled)
	jw.Key("preview")
	jw.OptFloat(d.Preview)
	jw.Key("delta")
	jw.OptFloat(d.Delta)
	jw.Close('}')
}

// WriteImage writes one image's scores; a summary stops after its f1.
func WriteImage(jw *jsonout.Writer, im *ImageScore, summary bool) {
	if im == nil {
		jw.Null()
		return
	}
	jw.Open('{')
	jw.Key("model")
	jw.String(im.Model)
	jw.Key("phase")
	jw.String(im.Phase)
	jw.Key("run")
	jw.Raw(im.Run)
	jw.Key("page")
	jw.String(im.Page)
	jw.Key("status")
	jw.String(im.Status)
	jw.Key("line")
	jw.Int(im.Line)
	if im.Failure != "" {
		jw.Key("failure")
		jw.String(im.Failure)
	}
	writeMatching(jw, im.Matched, im.NModel, im.NGT, im.Precision, im.Recall, im.F1)
	if summary {
		jw.Close('}')
		return
	}
	jw.Key("name_cer_edits")
	jw.Int(im.NameEdits)
	jw.Key("name_ref_chars")
	jw.Int(im.NameRefChars)
	jw.Key("fields") // an object keyed by field name, even when nil
	jw.Open('{')
	for _, f := range im.Fields {
		jw.Key(f.Name)
		jw.Open('{')
		jw.Key("sum")
		jw.Float(f.Sum)
		jw.Key("scored")
		jw.Int(f.Scored)
		jw.Close('}')
	}
	jw.Close('}')
	jw.Key("pairs")
	if im.Pairs == nil {
		jw.Null()
	} else {
		jw.Open('[')
		for _, p := range im.Pairs {
			jw.Elem()
			writePair(jw, p)
		}
		jw.Close(']')
	}
	jw.Key("unmatched_model")
	writeStrings(jw, im.UnmatchedModel)
	jw.Key("unmatched_gt")
	writeStrings(jw, im.UnmatchedGT)
	jw.Close('}')
}

func writePair(jw *jsonout.Writer, p *Pair) {
	if p == nil {
		jw.Null()
		return
	}
	jw.Open('{')
	jw.Key("gt")
	jw.String(p.GT)
	jw.Key("model")
	jw.String(p.Model)
	jw.Key("gt_index")
	jw.Int(p.GTIndex)
	jw.Key("model_index")
	jw.Int(p.ModelIndex)
	jw.Key("gt_line")
	jw.Int(p.GTLine)
	jw.Key("similarity")
	jw.Float(p.Similarity)
	jw.Key("similarity_gt")
	jw.String(p.SimilarityGT)
	jw.Key("gt_resolved")
	jw.String(p.GTResolved)
	jw.Key("model_reading")
	jw.String(p.ModelReading)
	jw.Key("name_cer_edits")
	jw.Int(p.NameEdits)
	jw.Key("name_ref_chars")
	jw.Int(p.NameRefChars)
	jw.Key("fields") // an object keyed by field name, even when nil
	jw.Open('{')
	for _, f := range p.Fields {
		jw.Key(f.Name)
		jw.OptFloat(f.Score)
	}
	jw.Close('}')
	if len(p.Extra) > 0 {
		jw.Key("extra")
		jw.Open('{')
		for _, f := range p.Extra {
			jw.Key(f.Key)
			jw.Raw(f.Value)
		}
		jw.Close('}')
	}
	jw.Close('}')
}

func writeStrings(jw *jsonout.Writer, list []string) {
	if list == nil {
		jw.Null()
		return
	}
	jw.Open('[')
	for _, s := range list {
		jw.Elem()
		jw.String(s)
	}
	jw.Close(']')
}

// ciJSON is a cell's intervals as stats.CI's MarshalJSON writes them
// (SPEC F.4), compact (jsonout.Writer.Raw indents it): the settings, each
// statistic's interval under its name (the fields inside "fields"), then
// the kept counts in the same shape. It is written here, not through
// encoding/json, so that docscore.wasm keeps no report type for
// reflection, and with appends rather than the Writer's methods, which
// the compiler inlines: a few kilobytes of the page's size budget.
func ciJSON(ci *stats.CI) []byte {
	b := append(make([]byte, 0, 64+48*len(ci.Stats)), `{"level":`...)
	b = jsonout.AppendFloat(b, ci.Level)
	b = append(b, `,"replicates":`...)
	b = strconv.AppendInt(b, int64(ci.Replicates), 10)
	b = append(b, `,"seed":`...)
	b = strconv.AppendUint(b, ci.Seed, 10)
	b = append(b, `,"unit":`...)
	b = jsonout.AppendString(b, ci.Unit)
	b = append(b, `,"units":`...)
	b = strconv.AppendInt(b, int64(ci.Units), 10)
	if ci.FewUnits {
		b = append(b, `,"few_units":true`...)
	}
	b = appendCIStats(b, ci.Stats, false)
	b = append(b, `,"kept":{`...)
	b = appendCIStats(b, ci.Stats, true)
	return append(b, "}}"...)
}

// appendCIStats appends one member per statistic, its interval or its
// kept count, each after a comma (but the first of an object); a group's
// statistics go in one object named after the group, where its first
// statistic is.
func appendCIStats(b []byte, st []stats.StatInterval, kept bool) []byte {
	first := kept // the first member of "kept" has no comma before it
	for i := range st {
		g := st[i].Group
		if g != "" && slices.ContainsFunc(st[:i], func(s stats.StatInterval) bool { return s.Group == g }) {
			continue // written with the group's first statistic
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		if g != "" {
			b = append(jsonout.AppendString(b, g), ":{"...)
		}
		for j := i; j < len(st) && (j == i || g != ""); j++ {
			if st[j].Group != g {
				continue
			}
			if j > i {
				b = append(b, ',')
			}
			b = append(jsonout.AppendString(b, st[j].Name), ':')
			switch {
			case kept:
				b = strconv.AppendInt(b, int64(st[j].Kept), 10)
			case st[j].Interval == nil:
				b = append(b, "null"...)
			default:
				b = append(jsonout.AppendFloat(append(b, '['), st[j].Interval[0]), ',')
				b = append(jsonout.AppendFloat(b, st[j].Interval[1]), ']')
			}
		}
		if g != "" {
			b = append(b, '}')
		}
	}
	return b
}
