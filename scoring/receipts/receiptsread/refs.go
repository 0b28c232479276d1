package receiptsread

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
)

// Reference is the reference of one sample: the text predictions are
// compared with and, for CORD annotations, the structured parse.
type Reference struct {
	SampleID string
	Text     string
	// GTParse is the annotation's gt_parse object (Donut's target), or nil.
	GTParse json.RawMessage
	// ImageSHA256 is the hex SHA-256 of the sample image when the loader
	// saw the image (parquet rows); a run record for the same sample with
	// another image hash is an input error.
	ImageSHA256 string
	// Source says where the reference came from, for error messages:
	// "refs/cord-test-0003.json", "refs.jsonl:4", "test.parquet row 7".
	Source string
}

// References is every reference given for a scoring run.
type References []Reference

// Order is how the reference text of a CORD annotation is laid out.
type Order int

const (
	// AnnotationOrder is SPEC B.1: the text of every word of every
	// valid_line, in annotation order. It is the default and the protocol
	// the expected numbers use.
	AnnotationOrder Order = iota
	// ReadingOrder is a different protocol: words grouped into rows by
	// row_id, rows sorted by the top of their quads, words in a row sorted
	// by the left edge of their quads. Scores under it are not comparable
	// with scores under AnnotationOrder.
	ReadingOrder
)

// String names the order as reports do.
func (o Order) String() string {
	if o == ReadingOrder {
		return "reading_order"
	}
	return "annotation_order"
}

// ParseOptions tune the reference parsers.
type ParseOptions struct {
	Order Order
}

// ParseReferences parses one reference file's bytes, choosing the format
// by name: ".jsonl" is a JSONL of {"sample_id", "reference"} objects and
// ".json" a CORD annotation (see [ParseCORD]). name is also what errors
// report. Parquet files are read by the native loader, which hands each
// row's ground_truth to [ParseGroundTruth].
func ParseReferences(name string, data []byte, opts ParseOptions) (References, error) {
	lower := strings.ToLower(name)
	switch {
	case strings.HasSuffix(lower, ".jsonl"):
		if opts.Order == ReadingOrder {
			return nil, inputerr.New(name, 0, "reading order needs CORD annotations with word quads; a JSONL reference holds plain text")
		}
		return ParseJSONL(name, bytes.NewReader(data))
	case strings.HasSuffix(lower, ".json"):
		ref, err := ParseCORD(name, data, opts)
		if err != nil {
			return nil, err
		}
		return References{ref}, nil
	}
	return nil, inputerr.New(name, 0, "unknown reference file type: expected a .json CORD annotation, a .jsonl of {\"sample_id\", \"reference\"} or a .parquet file of naver-clova-ix/cord-v2")
}

// FileStem returns the file name of a path without its directory and its
// last extension: the sample id of a CORD file without a sample_id.
func FileStem(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		name = name[:i]
	}
	return name
}

// ParseCORD parses a CORD annotation file: the dataset's ground_truth
// object itself, or an object with a "ground_truth" member holding it as
// an object or as a JSON string (as the Hugging Face parquet files do).
// The sample id is a top-level "sample_id" string, or else the file stem.
func ParseCORD(name string, data []byte, opts ParseOptions) (Reference, error) {
	// The rules of every input file (ingest.Open): a UTF-8 byte order
	// mark is skipped, a byte that is not UTF-8 is an error at its line
	// and column.
	src, err := ingest.Open(name, data)
	if err != nil {
		return Reference{}, err
	}
	if ref, ok := parseCORDFast(name, src.Bytes(), opts); ok {
		return ref, nil
	}
	return parseCORDCareful(src, opts)
}

// parseCORDCareful is the authoritative parse: it validates the file step
// by step and positions the first problem it finds.
func parseCORDCareful(src *ingest.Source, opts ParseOptions) (Reference, error) {
	name, data := src.Name(), src.Bytes()
	doc := cordDoc{name: name, outer: data, src: src}
	// Members are matched as encoding/json matches struct fields (exactly,
	// else ignoring case), like the one-pass decoding.
	var top struct {
		SampleID    json.RawMessage `json:"sample_id"`
		GroundTruth json.RawMessage `json:"ground_truth"`
	}
	if err := json.Unmarshal(data, &top); err != nil {
		return Reference{}, doc.syntax(data, err, "a JSON object holding a CORD annotation")
	}
	ref := Reference{SampleID: FileStem(name), Source: name}
	if raw := top.SampleID; raw != nil {
		var id string
		if err := json.Unmarshal(raw, &id); err != nil || strings.TrimSpace(id) == "" {
			return Reference{}, doc.at(jsonPath{"sample_id"}, "expected a non-empty string")
		}
		ref.SampleID = id
	}
	gt := data
	if top.GroundTruth != nil {
		raw := bytes.TrimSpace(top.GroundTruth)
		switch {
		case len(raw) > 0 && raw[0] == '"':
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return Reference{}, doc.at(jsonPath{"ground_truth"}, "expected a JSON string or object")
			}
			doc.inner = []byte(s)
			gt = doc.inner
		case len(raw) > 0 && raw[0] == '{':
			doc.prefix = jsonPath{"ground_truth"}
			gt = raw
		default:
			return Reference{}, doc.at(jsonPath{"ground_truth"}, "expected the CORD ground truth as an object or a JSON string")
		}
	}
	text, parse, err := doc.groundTruth(gt, opts)
	if err != nil {
		return Reference{}, err
	}
	ref.Text, ref.GTParse = text, parse
	return ref, nil
}

// ParseGroundTruth parses the ground_truth JSON of one CORD sample: the
// string column of row row (0-based) of the Hugging Face parquet file
// file. Errors name the file and the row.
func ParseGroundTruth(file string, row int, sampleID string, gt []byte, opts ParseOptions) (Reference, error) {
	source := fmt.Sprintf("%s row %d", file, row)
	if text, parse, ok := decodeGT(gt, opts); ok {
		return Reference{SampleID: sampleID, Text: text, GTParse: parse, Source: source}, nil
	}
	label := fmt.Sprintf("row %d: ground_truth", row)
	doc := cordDoc{name: file, inner: gt, innerLabel: label}
	text, parse, err := doc.groundTruth(gt, opts)
	if err != nil {
		return Reference{}, err
	}
	return Reference{SampleID: sampleID, Text: text, GTParse: parse, Source: source}, nil
}

// cordDoc positions errors inside a CORD file: the ground truth is the
// whole document, a member of it (prefix), or a JSON string inside it
// (inner).
type cordDoc struct {
	name       string
	src        *ingest.Source // the file, for its lines; nil for a parquet row
	outer      []byte
	prefix     jsonPath
	inner      []byte
	innerLabel string // how errors name the inner document
}

func (d *cordDoc) label() string {
	if d.innerLabel != "" {
		return d.innerLabel
	}
	return "ground_truth JSON string"
}

// at returns an input error for the value at path (relative to the
// ground truth, or to the document for top-level members).
func (d *cordDoc) at(path jsonPath, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if d.inner != nil && !(len(path) == 1 && (path[0] == "ground_truth" || path[0] == "sample_id")) {
		e := d.atGroundTruth()
		where := ""
		if line, col, ok := ingest.Locate(d.inner, path...); ok {
			where = fmt.Sprintf(" (line %d, column %d of the string)", line, col)
		}
		e.Msg = fmt.Sprintf("%s%s: %s: %s", d.label(), where, pathOrRoot(path), msg)
		return e
	}
	full := append(append(jsonPath{}, d.prefix...), path...)
	e := inputerr.New(d.name, 0, "%s: %s", pathOrRoot(full), msg)
	if line, col, ok := ingest.Locate(d.outer, full...); ok {
		e.Line, e.Column = line, col
	}
	return d.attach(e)
}

// atGroundTruth is an error without a message at the file's
// "ground_truth" string, when the file has one.
func (d *cordDoc) atGroundTruth() *inputerr.Error {
	e := inputerr.New(d.name, 0, "")
	if line, col, ok := ingest.Locate(d.outer, "ground_truth"); ok && d.outer != nil {
		e.Line, e.Column = line, col
	}
	return d.attach(e)
}

// attach gives e the source line of the file it names.
func (d *cordDoc) attach(e *inputerr.Error) *inputerr.Error {
	if d.src != nil {
		d.src.Attach(e)
	}
	return e
}

func pathOrRoot(p jsonPath) string {
	if len(p) == 0 {
		return "the top level"
	}
	return p.String()
}

// syntax turns a decoding error of data into a positioned input error.
func (d *cordDoc) syntax(data []byte, err error, what string) error {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		line, col := ingest.Position(data, int(syn.Offset)-1)
		if d.inner != nil && bytes.Equal(data, d.inner) {
			e := d.atGroundTruth()
			e.Msg = fmt.Sprintf("%s (line %d, column %d of the string): invalid JSON: %s", d.label(), line, col, syn.Error())
			return e
		}
		e := inputerr.New(d.name, line, "invalid JSON: %s: expected %s", syn.Error(), what)
		e.Column = col
		return d.attach(e)
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		return d.at(nil, "expected %s, got %s", what, typ.Value)
	}
	return inputerr.New(d.name, 0, "expected %s: %v", what, err)
}

// cordWord is one word of a valid_line.
type cordWord struct {
	Text  *string      `json:"text"`
	RowID *json.Number `json:"row_id"`
	Quad  *struct {
		X1, Y1, X2, Y2, X3, Y3, X4, Y4 *float64
	} `json:"quad"`
}

// groundTruth extracts the reference text and gt_parse of a CORD ground
// truth object.
func (d *cordDoc) groundTruth(gt []byte, opts ParseOptions) (string, json.RawMessage, error) {
	var members struct {
		ValidLine json.RawMessage `json:"valid_line"`
		GTParse   json.RawMessage `json:"gt_parse"`
	}
	if err := json.Unmarshal(gt, &members); err != nil {
		return "", nil, d.syntax(gt, err, "a CORD ground truth object")
	}
	var parse json.RawMessage
	if raw := members.GTParse; raw != nil && !bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		parse = raw
	}
	rawLines := members.ValidLine
	if rawLines == nil {
		return "", nil, d.at(nil, "expected a CORD annotation with a \"valid_line\" array (or an object with a \"ground_truth\" member)")
	}
	var lines []json.RawMessage
	if err := json.Unmarshal(rawLines, &lines); err != nil {
		return "", nil, d.at(jsonPath{"valid_line"}, "expected an array of lines")
	}
	var words []placedWord
	for i, rawLine := range lines {
		var line struct {
			Words *[]json.RawMessage `json:"words"`
		}
		if err := json.Unmarshal(rawLine, &line); err != nil {
			var typ *json.UnmarshalTypeError
			if errors.As(err, &typ) && typ.Field != "" {
				return "", nil, d.at(jsonPath{"valid_line", i, "words"}, "expected an array of words, got %s", typ.Value)
			}
			return "", nil, d.at(jsonPath{"valid_line", i}, "expected a line object with a \"words\" array")
		}
		if line.Words == nil {
			return "", nil, d.at(jsonPath{"valid_line", i}, "expected a \"words\" array")
		}
		for j, rawWord := range *line.Words {
			path := jsonPath{"valid_line", i, "words", j}
			// Annotation order reads only the text; reading order also
			// needs (and checks) the geometry.
			var w cordWord
			var target any = &w
			var tw textWord
			if opts.Order != ReadingOrder {
				target = &tw
			}
			err := json.Unmarshal(rawWord, target)
			if opts.Order != ReadingOrder {
				w.Text = tw.Text
			}
			if err != nil {
				var typ *json.UnmarshalTypeError
				if errors.As(err, &typ) && typ.Field != "" {
					p := append(path[:len(path):len(path)], splitField(typ.Field)...)
					return "", nil, d.at(p, "expected %s, got %s", kindOf(typ.Field), typ.Value)
				}
				return "", nil, d.at(path, "expected a word object with a \"text\" string")
			}
			if w.Text == nil {
				return "", nil, d.at(path, "expected a \"text\" string")
			}
			p := placedWord{text: *w.Text, annotation: len(words)}
			if opts.Order == ReadingOrder {
				q := w.Quad
				if q == nil || q.X1 == nil || q.X2 == nil || q.X3 == nil || q.X4 == nil ||
					q.Y1 == nil || q.Y2 == nil || q.Y3 == nil || q.Y4 == nil {
					return "", nil, d.at(path, "reading order needs a \"quad\" with x1…x4 and y1…y4")
				}
				if w.RowID == nil {
					return "", nil, d.at(path, "reading order needs a \"row_id\"")
				}
				row, err := strconv.ParseFloat(string(*w.RowID), 64)
				if err != nil {
					return "", nil, d.at(append(path, "row_id"), "expected a number")
				}
				p.row = row
				p.top = min(*q.Y1, *q.Y2, *q.Y3, *q.Y4)
				p.left = min(*q.X1, *q.X2, *q.X3, *q.X4)
			}
			words = append(words, p)
		}
	}
	return joinWords(words, opts.Order), parse, nil
}

// placedWord is one word of a CORD annotation with what reading order
// needs: its row, the top and left edges of its quad, and its annotation
// position.
type placedWord struct {
	text       string
	row        float64
	top, left  float64
	annotation int
}

// joinWords returns the reference text: the words in annotation order, or
// in reading order (rows by the top of their highest word, words by their
// left edge, ties in annotation order), joined by single spaces.
func joinWords(words []placedWord, order Order) string {
	if order == ReadingOrder {
		rowTop := map[float64]float64{}
		rowFirst := map[float64]int{}
		for _, w := range words {
			if t, ok := rowTop[w.row]; !ok || w.top < t {
				rowTop[w.row] = w.top
			}
			if _, ok := rowFirst[w.row]; !ok {
				rowFirst[w.row] = w.annotation
			}
		}
		slices.SortStableFunc(words, func(a, b placedWord) int {
			if a.row != b.row {
				if ta, tb := rowTop[a.row], rowTop[b.row]; ta != tb {
					return cmpFloat(ta, tb)
				}
				return rowFirst[a.row] - rowFirst[b.row]
			}
			if a.left != b.left {
				return cmpFloat(a.left, b.left)
			}
			return a.annotation - b.annotation
		})
	}
	texts := make([]string, len(words))
	for i, w := range words {
		texts[i] = w.text
	}
	return strings.Join(texts, " ")
}

// fastGT is a CORD ground truth decoded in one pass. Any doubt (a null, a
// missing member, a wrong type) sends the parser down the careful path,
// which is authoritative and positions the error. W is cordWord for
// reading order, textWord (which skips the geometry) otherwise.
type fastGT[W any] struct {
	ValidLine *[]*struct {
		Words *[]*W `json:"words"`
	} `json:"valid_line"`
	GTParse json.RawMessage `json:"gt_parse"`
}

// textWord is a word without its geometry, for annotation order.
type textWord struct {
	Text *string `json:"text"`
}

// wordOf views either word type as a cordWord.
func wordOf(w any) *cordWord {
	switch x := w.(type) {
	case *cordWord:
		return x
	case *textWord:
		if x == nil {
			return nil
		}
		return &cordWord{Text: x.Text}
	}
	return nil
}

// decodeGT decodes a ground truth in one pass and extracts its reference.
func decodeGT(data []byte, opts ParseOptions) (text string, parse json.RawMessage, ok bool) {
	if opts.Order == ReadingOrder {
		var g fastGT[cordWord]
		if json.Unmarshal(data, &g) != nil {
			return "", nil, false
		}
		return g.reference(opts)
	}
	var g fastGT[textWord]
	if json.Unmarshal(data, &g) != nil {
		return "", nil, false
	}
	return g.reference(opts)
}

// reference returns the text and gt_parse, or ok false when anything is
// not as expected.
func (g *fastGT[W]) reference(opts ParseOptions) (text string, parse json.RawMessage, ok bool) {
	if g.ValidLine == nil {
		return "", nil, false
	}
	var words []placedWord
	for _, line := range *g.ValidLine {
		if line == nil || line.Words == nil {
			return "", nil, false
		}
		for _, wp := range *line.Words {
			w := wordOf(wp)
			if w == nil || w.Text == nil {
				return "", nil, false
			}
			p := placedWord{text: *w.Text, annotation: len(words)}
			if opts.Order == ReadingOrder {
				q := w.Quad
				if q == nil || q.X1 == nil || q.X2 == nil || q.X3 == nil || q.X4 == nil ||
					q.Y1 == nil || q.Y2 == nil || q.Y3 == nil || q.Y4 == nil || w.RowID == nil {
					return "", nil, false
				}
				row, err := strconv.ParseFloat(string(*w.RowID), 64)
				if err != nil {
					return "", nil, false
				}
				p.row = row
				p.top = min(*q.Y1, *q.Y2, *q.Y3, *q.Y4)
				p.left = min(*q.X1, *q.X2, *q.X3, *q.X4)
			}
			words = append(words, p)
		}
	}
	if len(g.GTParse) > 0 && !bytes.Equal(bytes.TrimSpace(g.GTParse), []byte("null")) {
		parse = g.GTParse
	}
	return joinWords(words, opts.Order), parse, true
}

// parseCORDFast is ParseCORD's one-pass decoding of a well-formed file;
// ok is false when the careful path must decide.
func parseCORDFast(name string, data []byte, opts ParseOptions) (Reference, bool) {
	if opts.Order == ReadingOrder {
		return parseCORDFastAs[cordWord](name, data, opts)
	}
	return parseCORDFastAs[textWord](name, data, opts)
}

func parseCORDFastAs[W any](name string, data []byte, opts ParseOptions) (Reference, bool) {
	// One decoding reads the top level and, for a file that is the
	// ground truth itself, the annotation too.
	var top struct {
		SampleID    json.RawMessage `json:"sample_id"`
		GroundTruth json.RawMessage `json:"ground_truth"`
		fastGT[W]
	}
	if json.Unmarshal(data, &top) != nil {
		return Reference{}, false
	}
	ref := Reference{SampleID: FileStem(name), Source: name}
	if top.SampleID != nil {
		var id string
		if json.Unmarshal(top.SampleID, &id) != nil || strings.TrimSpace(id) == "" {
			return Reference{}, false
		}
		ref.SampleID = id
	}
	var text string
	var parse json.RawMessage
	var ok bool
	if top.GroundTruth == nil {
		text, parse, ok = top.fastGT.reference(opts)
	} else {
		raw := bytes.TrimSpace(top.GroundTruth)
		switch {
		case len(raw) > 0 && raw[0] == '"':
			var s string
			if json.Unmarshal(raw, &s) != nil {
				return Reference{}, false
			}
			text, parse, ok = decodeGT([]byte(s), opts)
		case len(raw) > 0 && raw[0] == '{':
			text, parse, ok = decodeGT(raw, opts)
		}
	}
	if !ok {
		return Reference{}, false
	}
	ref.Text, ref.GTParse = text, parse
	return ref, true
}

func cmpFloat(a, b float64) int {
	if a < b {
		return -1
	}
	return 1
}

// splitField turns encoding/json's dotted field path into path elements.
func splitField(field string) jsonPath {
	var p jsonPath
	for _, f := range strings.Split(field, ".") {
		p = append(p, strings.ToLower(f))
	}
	return p
}

// kindOf names what a word member must be.
func kindOf(field string) string {
	switch {
	case field == "text":
		return "a string"
	case field == "quad":
		return "an object of x1…x4, y1…y4 numbers"
	default:
		return "a number"
	}
}

// ParseJSONL reads references from a JSONL of
// {"sample_id": "…", "reference": "…"} objects, one per line; name is
// used in errors. Blank lines are ignored; a sample id given twice is an
// error.
func ParseJSONL(name string, r io.Reader) (References, error) {
	const want = `a JSON object {"sample_id": "…", "reference": "…"}`
	var refs References
	seen := map[string]int{}
	lines := ingest.NewReaderLines(name, r)
	for lines.Next() {
		if e := lines.BadLine(); e != nil {
			return nil, e
		}
		if e := lines.NotObject(want); e != nil {
			return nil, e
		}
		var rec struct {
			SampleID  *string `json:"sample_id"`
			Reference *string `json:"reference"`
		}
		if err := json.Unmarshal(lines.Line().Text, &rec); err != nil {
			return nil, lines.JSONError(err, want+" on one line")
		}
		switch {
		case rec.SampleID == nil || strings.TrimSpace(*rec.SampleID) == "":
			return nil, lines.Errorf("expected a non-empty \"sample_id\" string")
		case rec.Reference == nil:
			return nil, lines.Errorf("expected a \"reference\" string")
		}
		lineNo := lines.Line().No
		if prev, dup := seen[*rec.SampleID]; dup {
			return nil, lines.Errorf("sample_id %q is given twice (first on line %d): expected one reference per sample", *rec.SampleID, prev)
		}
		seen[*rec.SampleID] = lineNo
		refs = append(refs, Reference{
			SampleID: *rec.SampleID, Text: *rec.Reference,
			Source: fmt.Sprintf("%s:%d", name, lineNo),
		})
	}
	return refs, lines.Err()
}

// jsonPath is a path into a JSON document: string elements are object
// keys, int elements array indexes.
type jsonPath []any

// String renders the path as valid_line[2].words[0].text.
func (p jsonPath) String() string {
	var b strings.Builder
	for _, e := range p {
		switch x := e.(type) {
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(x)
		case int:
			fmt.Fprintf(&b, "[%d]", x)
		}
	}
	return b.String()
}
