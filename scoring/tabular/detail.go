package tabular

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/docscore/docscore/rules"
	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/internal/jsonscan"
	"github.com/docscore/docscore/scoring/schema"
	"github.com/docscore/docscore/scoring/tabular/tabularread"
	"github.com/docscore/docscore/scoring/text"
)

// ImageDetail is the drill-down of one image: every matched pair with the
// ground-truth and model values of each field side by side, the forms they
// were compared in and their character-level differences, and the rows
// left unmatched on either side. It carries what the report leaves out
// (field values); its scores are the report's, computed by the same code.
type ImageDetail struct {
	Line    int             `json:"line"`
	Model   string          `json:"model"`
	Phase   string          `json:"phase"`
	Run     json.RawMessage `json:"run"`
	Page    string          `json:"page"`
	GTFile  string          `json:"gt_file"`
	Status  string          `json:"status"` // "ok" or "failed"
	Failure string          `json:"failure,omitempty"`
	// Response is what the model answered, as the runs line gives it:
	// its "records" value as written (JSON text) or, without one, its
	// "response" string; "" when the line has neither. A failed image's
	// is the text its failure is about.
	Response  string          `json:"response"`
	Gate      float64         `json:"gate"`
	Preview   bool            `json:"preview"` // scored with previewed OPEN rows on
	Key       string          `json:"key"`
	Columns   []schema.Column `json:"columns"`
	Matched   int             `json:"matched"`
	NModel    int             `json:"n_model"`
	NGT       int             `json:"n_gt"`
	Precision float64         `json:"precision"`
	Recall    float64         `json:"recall"`
	F1        float64         `json:"f1"`
	Pairs     []DetailPair    `json:"pairs"`
	// Misses are the ground-truth rows no record was paired with; Extras
	// the model records paired with no ground-truth row.
	Misses []DetailRow `json:"misses"`
	Extras []DetailRow `json:"extras"`
}

// DetailPair is one matched pair of an ImageDetail, in ground-truth row
// order like the report's pairs.
type DetailPair struct {
	GTIndex      int           `json:"gt_index"`
	ModelIndex   int           `json:"model_index"`
	GTLine       int           `json:"gt_line"`
	Similarity   float64       `json:"similarity"`
	SimilarityGT string        `json:"similarity_gt"`
	Name         NameDetail    `json:"name"`
	Fields       []FieldDetail `json:"fields"`
}

// NameDetail is the key column of a pair: as written on both sides, the
// forms that were compared (the resolved GT name and the winning model
// reading) and their differences.
type NameDetail struct {
	GT           string `json:"gt"`
	Model        string `json:"model"`
	GTResolved   string `json:"gt_resolved"`
	ModelReading string `json:"model_reading"`
	Edits        int    `json:"edits"`
	RefChars     int    `json:"ref_chars"`
	Diff         []Span `json:"diff"`
}

// FieldDetail is one scored column of a pair: both values as given, the
// normalized forms that were compared, the score (nil when unscorable)
// and the differences between the compared forms.
type FieldDetail struct {
	Name          string   `json:"name"`
	GT            string   `json:"gt"`
	Model         string   `json:"model"`
	GTCompared    string   `json:"gt_compared"`
	ModelCompared string   `json:"model_compared"`
	Score         *float64 `json:"score"`
	Diff          []Span   `json:"diff"`
}

// DetailRow is an unmatched row: its index on its side, its line in the
// ground-truth file (0 for model records), its key and its values in
// schema order, as given.
type DetailRow struct {
	Index  int      `json:"index"`
	Line   int      `json:"line,omitempty"`
	Key    string   `json:"key"`
	Values []string `json:"values"`
}

// Span is one stretch of a character-level alignment: Op is "equal",
// "replace" (GT text read as Model text), "delete" (GT text the model
// left out) or "insert" (model text the GT does not have).
type Span struct {
	Op    string `json:"op"`
	GT    string `json:"gt,omitempty"`
	Model string `json:"model,omitempty"`
}

// Detail scores the image at the given line of req.Runs (1-based, as the
// report's images give it) and returns its drill-down. Only that line of
// the runs file is parsed; the ground truth, rule file, gate and preview
// selection of req apply as in ScoreRequest, so the pairs and scores are
// the ones the report holds for that image.
func Detail(req Request, line int) (*ImageDetail, error) {
	in := Input{Gate: req.Gate}
	if err := LoadGT(req, &in); err != nil {
		return nil, err
	}
	im, raw, err := detailImage(req.Runs, line, in.Schema)
	if err != nil {
		return nil, err
	}
	if err := LoadRules(req, &in); err != nil {
		return nil, err
	}
	return imageDetail(in, im, raw, req.Runs.Name, line)
}

// DetailLoaded is Detail over an input Load gave for the same ground
// truth, schema and rule file: its Schema, Pages and Rules are used as
// they are (in.Runs is not read), with in's Gate and Preview. Only the
// given line of runs is parsed. It answers what Detail answers for a
// request with those files and options.
func DetailLoaded(in Input, runs File, line int) (*ImageDetail, error) {
	if in.Schema == nil {
		in.Schema = schema.Default()
	}
	im, raw, err := detailImage(runs, line, in.Schema)
	if err != nil {
		return nil, err
	}
	return imageDetail(in, im, raw, runs.Name, line)
}

// detailImage parses the image at a line of a runs file and returns it
// with the model's answer on that line (rawResponse).
func detailImage(runs File, line int, s *schema.Schema) (*tabularread.Image, string, error) {
	l, ok, perr := runsLine(runs.Name, runs.Data, line)
	if perr != nil {
		return nil, "", perr
	}
	if !ok {
		return nil, "", inputerr.New(runs.Name, line, "expected an image on this line")
	}
	scan := &jsonscan.Nested{}
	im, perr := tabularread.ParseLine(runs.Name, l, s, scan)
	if perr != nil {
		return nil, "", perr
	}
	return im, rawResponse(tabularread.Object(scan.Members)), nil
}

// rawResponse is the model's answer on a parsed runs line, read as
// parseLine reads it: the "records" value as written unless it is
// missing or null, else the "response" string (a response that is not a
// string as written); "" when there is neither.
func rawResponse(obj tabularread.Object) string {
	if records, ok := obj.Get("records"); ok && records != "null" {
		return records
	}
	response, ok := obj.Get("response")
	if !ok || response == "null" {
		return ""
	}
	if s, isString := jsonscan.String(response); isString {
		return s
	}
	return response
}

// imageDetail scores one image of a loaded input and returns its
// drill-down.
func imageDetail(in Input, im *tabularread.Image, response, runsName string, line int) (*ImageDetail, error) {
	s := in.Schema
	gate, err := GateOf(in.Gate)
	if err != nil {
		return nil, err
	}
	var active []rules.Row
	if in.Rules != nil {
		if errs := rules.Check(in.Rules, s, nil); len(errs) > 0 {
			return nil, errs
		}
		if active, _, err = in.Rules.Active(in.Preview); err != nil {
			return nil, err
		}
	} else if !in.Preview.IsZero() {
		return nil, inputerr.New("", 0, "a preview needs a rule file with OPEN rows (--rules)")
	}
	pages, err := IndexPages(in.Pages)
	if err != nil {
		return nil, err
	}
	page := pages.Find(im.Page)
	if page == nil {
		return nil, inputerr.New(runsName, line, "page %s has no ground-truth file (expected gt_page_%s.csv or a row with page %s; pages given: %s)",
			im.Page, im.Page, im.Page, strings.Join(pages.IDs(), ", "))
	}
	sc := newScorer(s, rules.Compile(active, s), gate, pages, newBudget(nil, Limits{}))
	score := sc.scoreImage(im)
	d := &ImageDetail{
		Line: im.Line, Model: im.Model, Phase: im.Phase, Run: im.Run, Page: im.Page, GTFile: page.File,
		Status: score.Status, Failure: score.Failure, Response: response, Gate: gate, Preview: !in.Preview.IsZero(),
		Key: s.Key, Columns: s.Columns, Matched: score.Matched, NModel: score.NModel, NGT: score.NGT,
		Precision: score.Precision, Recall: score.Recall, F1: score.F1,
		Pairs: []DetailPair{}, Misses: []DetailRow{}, Extras: []DetailRow{},
	}
	if im.Failed() {
		return d, nil
	}
	pp := sc.prepare(page)
	gtTaken := make([]bool, len(page.Rows))
	modelTaken := make([]bool, len(im.Records))
	for _, p := range score.Pairs {
		gtTaken[p.GTIndex], modelTaken[p.ModelIndex] = true, true
		row, rec := &page.Rows[p.GTIndex], &im.Records[p.ModelIndex]
		dp := DetailPair{
			GTIndex: p.GTIndex, ModelIndex: p.ModelIndex, GTLine: p.GTLine,
			Similarity: p.Similarity, SimilarityGT: p.SimilarityGT,
			Name: NameDetail{GT: p.GT, Model: p.Model, GTResolved: p.GTResolved, ModelReading: p.ModelReading,
				Edits: p.NameEdits, RefChars: p.NameRefChars, Diff: Diff(p.GTResolved, p.ModelReading, true)},
			Fields: make([]FieldDetail, len(s.Columns)),
		}
		for j, col := range s.Columns {
			gtC, mC := sc.comparedForms(j, col, row.Values[j], pp.values[p.GTIndex][j], rec.Values[j])
			fd := FieldDetail{Name: col.Name, GT: row.Values[j], Model: rec.Values[j].Text,
				GTCompared: gtC, ModelCompared: mC, Score: p.Fields[j].Score, Diff: []Span{}}
			if fd.Score != nil {
				fd.Diff = Diff(gtC, mC, false)
			}
			dp.Fields[j] = fd
		}
		d.Pairs = append(d.Pairs, dp)
	}
	for i, taken := range gtTaken {
		if !taken {
			r := &page.Rows[i]
			d.Misses = append(d.Misses, DetailRow{Index: i, Line: r.Line, Key: r.Key, Values: r.Values})
		}
	}
	for i, taken := range modelTaken {
		if !taken {
			rec := &im.Records[i]
			vals := make([]string, len(rec.Values))
			for j, v := range rec.Values {
				vals[j] = v.Text
			}
			d.Extras = append(d.Extras, DetailRow{Index: i, Key: rec.Key.Text, Values: vals})
		}
	}
	return d, nil
}

// comparedForms returns the forms fieldScore compares for column j: the
// normalized text of text columns, the trimmed upper-cased answer of
// yes/no columns, the integer (or trimmed text) of integer columns. A blank
// value compares as "".
func (sc *scorer) comparedForms(j int, col schema.Column, gtRaw, gtNorm string, model tabularread.Value) (gt, m string) {
	switch {
	case col.Kind.IsText():
		if !model.Blank() {
			m = normalizeField(model.Text, col.Kind, sc.colRules[j], false, nil)
		}
		if !text.IsBlank(gtRaw) {
			gt = gtNorm
		}
		return gt, m
	case col.Kind == schema.YesNo:
		return strings.ToUpper(strings.TrimSpace(gtRaw)), strings.ToUpper(strings.TrimSpace(model.Text))
	default:
		if n, ok := tabularread.IntegerValue(tabularread.Value{Text: gtRaw}); ok {
			gt = strconv.FormatInt(n, 10)
			if mn, ok := tabularread.IntegerValue(model); ok {
				return gt, strconv.FormatInt(mn, 10)
			}
			return gt, strings.TrimSpace(model.Text)
		}
		return strings.TrimSpace(gtRaw), strings.TrimSpace(model.Text)
	}
}

// runsLine returns line n (1-based) of a runs file, read the way
// ReadRuns reads it; ok is false when there is no such line or it is
// blank. A line that is not UTF-8 is an error.
func runsLine(name string, data []byte, n int) (ingest.Line, bool, *inputerr.Error) {
	lines := ingest.NewLines(name, data)
	for lines.Next() {
		switch l := lines.Line(); {
		case l.No == n:
			return l, true, lines.BadLine()
		case l.No > n:
			return ingest.Line{}, false, nil
		}
	}
	return ingest.Line{}, false, nil
}

// maxDiffCells bounds the alignment table of Diff; longer pairs of strings
// are reported as one replacement.
const maxDiffCells = 1 << 22

// Diff aligns gt with model by edit distance over code points and returns
// the alignment as spans, adjacent spans of one kind merged. The backtrace
// prefers the diagonal (match or substitution), then deleting a GT
// character, then inserting a model character, like the name alignment
// of SPEC A.6. With wildcard, a '?' in gt matches any model character.
func Diff(gt, model string, wildcard bool) []Span {
	a, b := []rune(gt), []rune(model)
	if len(a) == 0 && len(b) == 0 {
		return []Span{}
	}
	if (len(a)+1)*(len(b)+1) > maxDiffCells {
		if gt == model {
			return []Span{{Op: "equal", GT: gt, Model: model}}
		}
		return []Span{{Op: "replace", GT: gt, Model: model}}
	}
	same := func(x, y rune) bool { return x == y || (wildcard && x == text.Wildcard) }
	cols := len(b) + 1
	d := make([]int32, (len(a)+1)*cols)
	for j := 0; j <= len(b); j++ {
		d[j] = int32(j)
	}
	for i := 1; i <= len(a); i++ {
		d[i*cols] = int32(i)
		for j := 1; j <= len(b); j++ {
			sub := d[(i-1)*cols+j-1]
			if !same(a[i-1], b[j-1]) {
				sub++
			}
			d[i*cols+j] = min(sub, d[(i-1)*cols+j]+1, d[i*cols+j-1]+1)
		}
	}
	// Backtrace from the end, collecting one op per step in reverse.
	type step struct {
		op   byte // '=', '~', '-', '+'
		g, m rune
	}
	var steps []step
	i, j := len(a), len(b)
	for i > 0 || j > 0 {
		cur := d[i*cols+j]
		if i > 0 && j > 0 {
			cost := int32(1)
			if same(a[i-1], b[j-1]) {
				cost = 0
			}
			if d[(i-1)*cols+j-1]+cost == cur {
				op := byte('~')
				if cost == 0 {
					op = '='
				}
				steps = append(steps, step{op, a[i-1], b[j-1]})
				i, j = i-1, j-1
				continue
			}
		}
		if i > 0 && d[(i-1)*cols+j]+1 == cur {
			steps = append(steps, step{'-', a[i-1], 0})
			i--
			continue
		}
		steps = append(steps, step{'+', 0, b[j-1]})
		j--
	}
	ops := map[byte]string{'=': "equal", '~': "replace", '-': "delete", '+': "insert"}
	var out []Span
	var g, m []rune
	var last byte
	flush := func() {
		if last != 0 {
			out = append(out, Span{Op: ops[last], GT: string(g), Model: string(m)})
		}
		g, m = g[:0], m[:0]
	}
	for k := len(steps) - 1; k >= 0; k-- {
		st := steps[k]
		if st.op != last {
			flush()
			last = st.op
		}
		if st.op != '+' {
			g = append(g, st.g)
		}
		if st.op != '-' {
			m = append(m, st.m)
		}
	}
	flush()
	return out
}
