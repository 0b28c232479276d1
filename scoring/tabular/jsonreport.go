package tabular

import (
	"io"

	"github.com/docscore/docscore/scoring/internal/jsonout"
)

// WriteJSON writes the report as indented JSON with a final newline. The
// bytes depend only on the report: keys keep their declared order and
// floats use Go's shortest round-trip formatting. They are the bytes
// encoding/json's Encoder writes for the report (escaping no HTML, two
// spaces of indentation); the images, the bulk of a report, are written
// without reflection, which the browser feels most.
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
	jw.Open('{')
	jw.Key("kind")
	jw.String(r.Kind)
	jw.Key("gate")
	jw.Float(r.Gate)
	jw.Key("key")
	jw.String(r.Key)
	jw.Key("fields")
	jw.Value(r.Fields)
	jw.Key("rules")
	jw.Value(r.Rules)
	jw.Key("warnings")
	jw.Value(r.Warnings)
	jw.Key("cells")
	jw.Value(r.Cells)
	jw.Key("images")
	if r.Images == nil {
		jw.Null()
	} else {
		jw.Open('[')
		for _, im := range r.Images {
			jw.Elem()
			writeImage(jw, im, summary)
		}
		jw.Close(']')
	}
	if r.Preview != nil {
		jw.Key("preview")
		jw.Value(r.Preview)
	}
	jw.Close('}')
	return jw.Bytes()
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

// writeImage writes one image's scores; a summary stops after its f1.
func writeImage(jw *jsonout.Writer, im *ImageScore, summary bool) {
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
	jw.Key("matched")
	jw.Int(im.Matched)
	jw.Key("n_model")
	jw.Int(im.NModel)
	jw.Key("n_gt")
	jw.Int(im.NGT)
	jw.Key("precision")
	jw.Float(im.Precision)
	jw.Key("recall")
	jw.Float(im.Recall)
	jw.Key("f1")
	jw.Float(im.F1)
	if summary {
		jw.Close('}')
		return
	}
	jw.Key("name_cer_edits")
	jw.Int(im.NameEdits)
	jw.Key("name_ref_chars")
	jw.Int(im.NameRefChars)
	jw.Key("fields") // an object even when nil, as FieldSums.MarshalJSON writes
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
	jw.Key("fields") // an object even when nil, as PairFields.MarshalJSON writes
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
