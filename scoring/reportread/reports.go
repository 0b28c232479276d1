package reportread

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/stats"
)

// Report is a score report read back for comparison: its family, the
// schema of its cells and each cell's units, in report order.
type Report struct {
	File   string
	Family string // "tabular" or "receipts"
	Schema *stats.Schema
	Fields []string // tabular: the scored fields, in order
	Cells  []*Cell
	// pages maps a tabular page's number, leading zeros dropped, to the
	// spelling the report's image rows give it.
	Pages map[string]string
}

// Cell is one cell of a report (receipts: one phase), its units built
// under the unprefixed id.
type Cell struct {
	Model *string // nil for receipts
	Phase string
	Stats *stats.Cell
}

// Key is how --pairs and the matching of two reports name the cell:
// model/phase, or the phase for receipts.
func (c *Cell) Key() string {
	if c.Model == nil {
		return c.Phase
	}
	return *c.Model + "/" + c.Phase
}

// Named returns the cell as one side of a comparison.
func (c *Cell) Named() stats.Named {
	return stats.Named{Cell: c.Stats, Model: c.Model, Phase: c.Phase}
}

// Read reads a report of either family from its JSON, after a
// byte order mark (ingest.Open).
func Read(f api.File) (*Report, error) {
	// The scan reads the text itself: f.Bytes would copy all 8 MB of the
	// benchmark corpus's report first.
	if f.Base64 == "" {
		if text := ingest.StripBOMString(f.Text); utf8.ValidString(text) {
			if r, ok := scanTabular(text); ok {
				return decodedTabular(f.Name, &r)
			}
		}
	}
	data, err := f.Bytes()
	if err != nil {
		return nil, err
	}
	src, err := ingest.Open(f.Name, data)
	if err != nil {
		return nil, err
	}
	data = src.Bytes()
	if f.Base64 != "" {
		if r, ok := scanTabular(string(data)); ok {
			return decodedTabular(f.Name, &r)
		}
	}
	var head struct {
		Kind *string `json:"kind"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, jsonError(src, err)
	}
	kind := ""
	if head.Kind != nil {
		kind = *head.Kind
	}
	switch kind {
	case "tabular":
		return readTabular(src)
	case "receipts":
		return readReceipts(src)
	case "tables":
		return readTables(src)
	case "text":
		return readText(src)
	case "comparison":
		return nil, inputerr.New(f.Name, 0, "is a comparison report: expected the JSON report of docscore score tabular or score receipts")
	}
	return nil, inputerr.New(f.Name, 0, "kind %q: expected the JSON report of docscore score tabular (\"tabular\"), score receipts (\"receipts\"), score tables (\"tables\") or score text (\"text\")", kind)
}

// jsonError names the file, line and column of a JSON syntax or type
// error, with the source line.
func jsonError(src *ingest.Source, err error) error {
	return src.JSONError(err, "a docscore JSON report")
}

// missing is the error of a report member a comparison needs.
func missing(file, where, member, what string) error {
	return inputerr.New(file, 0, "%sno %q member: compare needs %s (the full JSON report of docscore score, not a summary; an older report version lacks it)", where, member, what)
}

type tabularJSON struct {
	Fields *[]string `json:"fields"`
	Cells  *[]struct {
		Model *string `json:"model"`
		Phase *string `json:"phase"`
	} `json:"cells"`
	Images *[]tabularImage `json:"images"`
}

type tabularImage struct {
	Model        *string                     `json:"model"`
	Phase        *string                     `json:"phase"`
	Page         *string                     `json:"page"`
	Status       *string                     `json:"status"`
	Line         int                         `json:"line"`
	Matched      *float64                    `json:"matched"`
	NModel       *float64                    `json:"n_model"`
	NGT          *float64                    `json:"n_gt"`
	NameEdits    *float64                    `json:"name_cer_edits"`
	NameRefChars *float64                    `json:"name_ref_chars"`
	Fields       map[string]*tabularFieldSum `json:"fields"`
}

type tabularFieldSum struct {
	Sum    *float64 `json:"sum"`
	Scored *float64 `json:"scored"`
}

// readTabular rebuilds a tabular report's cells from its image rows (SPEC
// F.1, stats' package doc): a page sums its images' counts, a failed
// image keeps its page as a unit contributing nothing.
func readTabular(src *ingest.Source) (*Report, error) {
	var r tabularJSON
	if err := json.Unmarshal(src.Bytes(), &r); err != nil {
		return nil, jsonError(src, err)
	}
	return decodedTabular(src.Name(), &r)
}

// decodedTabular is readTabular's report from the decoded members.
func decodedTabular(file string, r *tabularJSON) (*Report, error) {
	switch {
	case r.Fields == nil:
		return nil, missing(file, "", "fields", "the scored fields")
	case r.Cells == nil:
		return nil, missing(file, "", "cells", "the report's cells")
	case r.Images == nil:
		return nil, missing(file, "", "images", "the per-image rows")
	}
	rep := &Report{File: file, Family: "tabular", Fields: *r.Fields, Schema: stats.TabularSchema(*r.Fields), Pages: map[string]string{}}
	type modelPhase struct{ model, phase string }
	builders := map[modelPhase]*stats.Builder{}
	var order []modelPhase
	for i, c := range *r.Cells {
		if c.Model == nil || c.Phase == nil {
			return nil, inputerr.New(file, 0, "cells[%d]: expected its \"model\" and \"phase\"", i)
		}
		key := modelPhase{*c.Model, *c.Phase}
		if builders[key] != nil {
			return nil, inputerr.New(file, 0, "cells[%d]: model %q phase %q given twice", i, *c.Model, *c.Phase)
		}
		builders[key] = stats.NewBuilder(stats.TabularID(*c.Model, *c.Phase), rep.Schema)
		order = append(order, key)
		model := *c.Model
		rep.Cells = append(rep.Cells, &Cell{Model: &model, Phase: *c.Phase})
	}
	if len(*r.Images) == 0 && len(rep.Cells) > 0 {
		return nil, inputerr.New(file, 0, "\"images\" is empty: compare needs the per-image rows of the full JSON report of docscore score tabular")
	}
	v := make([]float64, rep.Schema.Width) // each image's contributions
	lines := map[imageKey]int{}            // the image rows seen, by run line
	for i := range *r.Images {
		im := &(*r.Images)[i]
		if im.Model == nil || im.Phase == nil || im.Page == nil || im.Status == nil {
			return nil, inputerr.New(file, 0, "images[%d]: expected its \"model\", \"phase\", \"page\" and \"status\"", i)
		}
		// where names the image in an error (built only then: a Sprintf
		// per image was a tenth of reading the benchmark's report).
		where := func() string {
			return fmt.Sprintf("images[%d] (model %q, phase %q, page %q, run line %d): ", i, *im.Model, *im.Phase, *im.Page, im.Line)
		}
		b := builders[modelPhase{*im.Model, *im.Phase}]
		if b == nil {
			return nil, inputerr.New(file, 0, "%sno such cell in \"cells\"", where())
		}
		if seen, ok := rep.notePage(*im.Page); !ok {
			return nil, inputerr.New(file, 0, "%spage %q and page %q name one ground-truth page: compare needs one spelling of a page", where(), *im.Page, seen)
		}
		switch *im.Status {
		case "failed":
			b.Unit(*im.Page)
			continue
		case "ok":
		default:
			return nil, inputerr.New(file, 0, "%sstatus %q: expected \"ok\" or \"failed\"", where(), *im.Status)
		}
		clear(v)
		for _, m := range [...]struct {
			name string
			v    *float64
			at   int
		}{
			{"matched", im.Matched, stats.TabMatched}, {"n_model", im.NModel, stats.TabNModel},
			{"n_gt", im.NGT, stats.TabNGT}, {"name_cer_edits", im.NameEdits, stats.TabNameEdits},
			{"name_ref_chars", im.NameRefChars, stats.TabNameRefChars},
		} {
			if m.v == nil {
				return nil, missing(file, where(), m.name, "the per-image counts")
			}
			v[m.at] = *m.v
		}
		for j, name := range rep.Fields {
			fs := im.Fields[name]
			if fs == nil || fs.Sum == nil || fs.Scored == nil {
				return nil, missing(file, where(), "fields."+name, "each field's sum and scored count")
			}
			v[stats.TabFields+2*j], v[stats.TabFields+2*j+1] = *fs.Sum, *fs.Scored
		}
		if msg := checkTabularImage(rep.Fields, v); msg != "" {
			return nil, inputerr.New(file, 0, "%s%s", where(), msg)
		}
		if im.Line > 0 {
			key := imageKey{*im.Model, *im.Phase, im.Line}
			if first, dup := lines[key]; dup {
				return nil, inputerr.New(file, 0, "%sthe same run line as images[%d]: expected each image row once", where(), first)
			}
			lines[key] = i
		}
		if err := b.Add(*im.Page, v); err != nil {
			return nil, inputerr.New(file, 0, "%s%s", where(), strings.TrimPrefix(err.Error(), "stats: "))
		}
	}
	for i, key := range order {
		rep.Cells[i].Stats = builders[key].Build()
	}
	return rep, nil
}

// imageKey names an image row of a tabular report: its cell and its run
// line.
type imageKey struct {
	model, phase string
	line         int
}

// maxCount bounds the counts of a report: whole numbers up to 2^53, where
// float64 still counts exactly, so that no sum over units overflows.
const maxCount = 1 << 53

// countProblem says what is wrong with a count, "" when nothing is.
func countProblem(name string, v float64) string {
	if !(v >= 0 && v <= maxCount) || v != math.Trunc(v) {
		return fmt.Sprintf("%s is %v: expected a whole number from 0 to 2^53", name, v)
	}
	return ""
}

// checkTabularImage checks an ok image's contributions (v, as readTabular
// fills them) the way docscore score writes them: counts are whole
// numbers, matched pairs are no more than the names on either side, and a
// field's summed score is no more than the fields it scored (each score is
// in [0, 1]). It says what is wrong, "" when nothing is: a hand-edited
// report with a sum of 1e308 made the statistics NaN.
func checkTabularImage(fields []string, v []float64) string {
	for _, c := range [...]struct {
		name string
		at   int
	}{{"matched", stats.TabMatched}, {"n_model", stats.TabNModel}, {"n_gt", stats.TabNGT}, {"name_cer_edits", stats.TabNameEdits}, {"name_ref_chars", stats.TabNameRefChars}} {
		if msg := countProblem(c.name, v[c.at]); msg != "" {
			return msg
		}
	}
	if m := v[stats.TabMatched]; m > v[stats.TabNModel] || m > v[stats.TabNGT] {
		return fmt.Sprintf("matched is %v: expected no more than n_model (%v) and n_gt (%v)", m, v[stats.TabNModel], v[stats.TabNGT])
	}
	for j, name := range fields {
		sum, scored := v[stats.TabFields+2*j], v[stats.TabFields+2*j+1]
		if msg := countProblem("fields."+name+".scored", scored); msg != "" {
			return msg
		}
		if !(sum >= 0 && sum <= scored) {
			return fmt.Sprintf("fields.%s.sum is %v: expected a number from 0 to its scored count (%v)", name, sum, scored)
		}
	}
	return ""
}

// checkReceiptsPage checks a page's contributions (v, as readReceipts
// fills them): scores in [0, 1], counts whole numbers, matched numbers and
// fields no more than those they are matched among. It says what is
// wrong, "" when nothing is.
func checkReceiptsPage(v []float64, structured bool) string {
	if f1 := v[stats.RecF1Sum]; !(f1 >= 0 && f1 <= 1) {
		return fmt.Sprintf("f1 is %v: expected a number from 0 to 1, or null", f1)
	}
	for _, c := range [...]struct {
		name string
		at   int
	}{{"numeric_matched", stats.RecNumericMatched}, {"numeric_ref", stats.RecNumericRef}} {
		if msg := countProblem(c.name, v[c.at]); msg != "" {
			return msg
		}
	}
	if m, r := v[stats.RecNumericMatched], v[stats.RecNumericRef]; m > r {
		return fmt.Sprintf("numeric_matched is %v: expected no more than numeric_ref (%v)", m, r)
	}
	if !structured {
		return ""
	}
	if ted := v[stats.RecTEDSum]; !(ted >= 0 && ted <= 1) {
		return fmt.Sprintf("structured.ted_accuracy is %v: expected a number from 0 to 1, or null", ted)
	}
	for _, c := range [...]struct {
		name string
		at   int
	}{{"structured.fields_matched", stats.RecFieldsMatched}, {"structured.fields_pred", stats.RecFieldsPred}, {"structured.fields_ref", stats.RecFieldsRef}} {
		if msg := countProblem(c.name, v[c.at]); msg != "" {
			return msg
		}
	}
	if m := v[stats.RecFieldsMatched]; m > v[stats.RecFieldsPred] || m > v[stats.RecFieldsRef] {
		return fmt.Sprintf("structured.fields_matched is %v: expected no more than fields_pred (%v) and fields_ref (%v)", m, v[stats.RecFieldsPred], v[stats.RecFieldsRef])
	}
	return ""
}

// notePage refuses two spellings of one page number ("7" and "07"): A.6
// matches both to one ground-truth page, which SPEC F.1 makes one unit.
// ok is false, with the spelling seen first, for a second spelling.
func (r *Report) notePage(page string) (seen string, ok bool) {
	n := pageNumber(page)
	if seen, dup := r.Pages[n]; dup && seen != page {
		return seen, false
	}
	r.Pages[n] = page
	return "", true
}

// pageNumber is a page's digits without leading zeros, or the page itself
// when it is not a number.
func pageNumber(page string) string {
	if page == "" || strings.Trim(page, "0123456789") != "" {
		return page
	}
	if n := strings.TrimLeft(page, "0"); n != "" {
		return n
	}
	return "0"
}

type receiptsJSON struct {
	Phases *[]struct {
		Phase      *string         `json:"phase"`
		Structured json.RawMessage `json:"structured"`
	} `json:"phases"`
	Pages *[]receiptsPage `json:"pages"`
}

type receiptsPage struct {
	Phase          *string         `json:"phase"`
	SampleID       *string         `json:"sample_id"`
	F1             json.RawMessage `json:"f1"`
	NumericMatched *float64        `json:"numeric_matched"`
	NumericRef     *float64        `json:"numeric_ref"`
	Structured     *struct {
		TEDAccuracy   json.RawMessage `json:"ted_accuracy"`
		FieldsMatched *float64        `json:"fields_matched"`
		FieldsPred    *float64        `json:"fields_pred"`
		FieldsRef     *float64        `json:"fields_ref"`
	} `json:"structured"`
}

// optNumber reads a member that is a number or null; present is false
// when the member is absent.
func optNumber(raw json.RawMessage) (v float64, isNull, present bool, err error) {
	if len(raw) == 0 {
		return 0, false, false, nil
	}
	if string(raw) == "null" {
		return 0, true, true, nil
	}
	err = json.Unmarshal(raw, &v)
	return v, false, true, err
}

// readReceipts rebuilds a receipts report's phases from its page rows:
// one unit per sample (SPEC F.1, stats' package doc).
func readReceipts(src *ingest.Source) (*Report, error) {
	file := src.Name()
	var r receiptsJSON
	if err := json.Unmarshal(src.Bytes(), &r); err != nil {
		return nil, jsonError(src, err)
	}
	switch {
	case r.Phases == nil:
		return nil, missing(file, "", "phases", "the report's phases")
	case r.Pages == nil:
		return nil, missing(file, "", "pages", "the per-page rows")
	}
	structured := false
	for _, p := range *r.Phases {
		structured = structured || len(p.Structured) > 0 && string(p.Structured) != "null"
	}
	rep := &Report{File: file, Family: "receipts", Schema: stats.ReceiptsSchema(structured)}
	builders := map[string]*stats.Builder{}
	var order []string
	for i, p := range *r.Phases {
		if p.Phase == nil {
			return nil, inputerr.New(file, 0, "phases[%d]: expected its \"phase\"", i)
		}
		id := stats.ReceiptsID(*p.Phase)
		if builders[id] != nil {
			return nil, inputerr.New(file, 0, "phases[%d]: phase %q given twice", i, *p.Phase)
		}
		builders[id] = stats.NewBuilder(id, rep.Schema)
		order = append(order, id)
		rep.Cells = append(rep.Cells, &Cell{Phase: *p.Phase})
	}
	if len(*r.Pages) == 0 && len(rep.Cells) > 0 {
		return nil, inputerr.New(file, 0, "\"pages\" is empty: compare needs the per-page rows of the JSON report of docscore score receipts")
	}
	pairs := map[[2]string]int{} // the pages seen, by phase and sample
	for i, p := range *r.Pages {
		where := fmt.Sprintf("pages[%d]: ", i)
		if p.Phase == nil || p.SampleID == nil {
			return nil, inputerr.New(file, 0, "%sexpected its \"phase\" and \"sample_id\"", where)
		}
		where = fmt.Sprintf("pages[%d] (phase %q, sample %q): ", i, *p.Phase, *p.SampleID)
		b := builders[stats.ReceiptsID(*p.Phase)]
		if b == nil {
			return nil, inputerr.New(file, 0, "%sno such phase in \"phases\"", where)
		}
		v := make([]float64, rep.Schema.Width)
		f1, null, present, err := optNumber(p.F1)
		switch {
		case err != nil:
			return nil, inputerr.New(file, 0, "%sf1: expected a number or null", where)
		case !present:
			return nil, missing(file, where, "f1", "each page's ROUGE-L F1")
		case !null:
			v[stats.RecF1Sum], v[stats.RecF1Count] = f1, 1
		}
		if p.NumericMatched == nil || p.NumericRef == nil {
			return nil, missing(file, where, "numeric_matched", "each page's numeric_matched and numeric_ref")
		}
		v[stats.RecNumericMatched], v[stats.RecNumericRef] = *p.NumericMatched, *p.NumericRef
		if s := p.Structured; structured && s != nil {
			ted, null, present, err := optNumber(s.TEDAccuracy)
			switch {
			case err != nil:
				return nil, inputerr.New(file, 0, "%sstructured.ted_accuracy: expected a number or null", where)
			case !present:
				return nil, missing(file, where, "structured.ted_accuracy", "each structured page's TED accuracy")
			case !null:
				v[stats.RecTEDSum], v[stats.RecTEDCount] = ted, 1
			}
			if s.FieldsMatched == nil || s.FieldsPred == nil || s.FieldsRef == nil {
				return nil, missing(file, where, "structured.fields_matched", "each structured page's field counts")
			}
			v[stats.RecFieldsMatched], v[stats.RecFieldsPred], v[stats.RecFieldsRef] = *s.FieldsMatched, *s.FieldsPred, *s.FieldsRef
		}
		if msg := checkReceiptsPage(v, structured && p.Structured != nil); msg != "" {
			return nil, inputerr.New(file, 0, "%s%s", where, msg)
		}
		key := [2]string{*p.Phase, *p.SampleID}
		if first, dup := pairs[key]; dup {
			return nil, inputerr.New(file, 0, "%sthe same phase and sample as pages[%d]: expected each pair once", where, first)
		}
		pairs[key] = i
		if err := b.Add(*p.SampleID, v); err != nil {
			return nil, inputerr.New(file, 0, "%s%s", where, strings.TrimPrefix(err.Error(), "stats: "))
		}
	}
	for i, id := range order {
		rep.Cells[i].Stats = builders[id].Build()
	}
	return rep, nil
}

type textJSON struct {
	Cells *[]struct {
		Model *string `json:"model"`
		Phase *string `json:"phase"`
	} `json:"cells"`
	Pages *[]textPage `json:"pages"`
}

type textPage struct {
	Model      *string         `json:"model"`
	Phase      *string         `json:"phase"`
	Page       *string         `json:"page"`
	Run        json.RawMessage `json:"run"`
	CER        json.RawMessage `json:"cer"`
	WER        json.RawMessage `json:"wer"`
	CharEdits  *float64        `json:"char_edits"`
	GTChars    *float64        `json:"gt_chars"`
	WordEdits  *float64        `json:"word_edits"`
	GTWords    *float64        `json:"gt_words"`
	OCRWords   *float64        `json:"ocr_words"`
	BowMatched *float64        `json:"bow_matched"`
}

// readText rebuilds a page-text report's cells from its page rows: one
// unit per page, summing its runs (SPEC G.3, F.1).
func readText(src *ingest.Source) (*Report, error) {
	file := src.Name()
	var r textJSON
	if err := json.Unmarshal(src.Bytes(), &r); err != nil {
		return nil, jsonError(src, err)
	}
	switch {
	case r.Cells == nil:
		return nil, missing(file, "", "cells", "the report's cells")
	case r.Pages == nil:
		return nil, missing(file, "", "pages", "the per-page rows")
	}
	rep := &Report{File: file, Family: "text", Schema: stats.TextSchema()}
	builders := map[string]*stats.Builder{}
	var order []string
	for i, c := range *r.Cells {
		if c.Model == nil || c.Phase == nil {
			return nil, inputerr.New(file, 0, "cells[%d]: expected its \"model\" and \"phase\"", i)
		}
		id := stats.TextID(*c.Model, *c.Phase)
		if builders[id] != nil {
			return nil, inputerr.New(file, 0, "cells[%d]: model %q phase %q given twice", i, *c.Model, *c.Phase)
		}
		builders[id] = stats.NewBuilder(id, rep.Schema)
		order = append(order, id)
		model := *c.Model
		rep.Cells = append(rep.Cells, &Cell{Model: &model, Phase: *c.Phase})
	}
	v := make([]float64, rep.Schema.Width)
	rows := map[string]int{} // model, phase, run and page of the rows seen
	for i, p := range *r.Pages {
		if p.Model == nil || p.Phase == nil || p.Page == nil {
			return nil, inputerr.New(file, 0, "pages[%d]: expected its \"model\", \"phase\" and \"page\"", i)
		}
		where := fmt.Sprintf("pages[%d] (model %q, phase %q, page %q): ", i, *p.Model, *p.Phase, *p.Page)
		b := builders[stats.TextID(*p.Model, *p.Phase)]
		if b == nil {
			return nil, inputerr.New(file, 0, "%sno such cell in \"cells\"", where)
		}
		clear(v)
		for _, m := range [...]struct {
			name string
			v    *float64
			at   int
		}{
			{"char_edits", p.CharEdits, stats.TxtCharEdits}, {"gt_chars", p.GTChars, stats.TxtGTChars},
			{"word_edits", p.WordEdits, stats.TxtWordEdits}, {"gt_words", p.GTWords, stats.TxtGTWords},
			{"bow_matched", p.BowMatched, stats.TxtBowMatched}, {"ocr_words", p.OCRWords, stats.TxtBowOCR},
			{"gt_words", p.GTWords, stats.TxtBowGT},
		} {
			if m.v == nil {
				return nil, missing(file, where, m.name, "the per-page counts")
			}
			v[m.at] = *m.v
		}
		for _, r := range [...]struct {
			name     string
			raw      json.RawMessage
			sum, cnt int
		}{{"cer", p.CER, stats.TxtCERSum, stats.TxtCERCount}, {"wer", p.WER, stats.TxtWERSum, stats.TxtWERCount}} {
			x, null, present, err := optNumber(r.raw)
			switch {
			case err != nil:
				return nil, inputerr.New(file, 0, "%s%s: expected a number or null", where, r.name)
			case !present:
				return nil, missing(file, where, r.name, "each page's "+r.name)
			case !null && !(x >= 0 && x <= maxCount):
				return nil, inputerr.New(file, 0, "%s%s is %v: expected a rate from 0 to 2^53 or null", where, r.name, x)
			case !null:
				v[r.sum], v[r.cnt] = x, 1
			}
		}
		if msg := checkTextPage(v); msg != "" {
			return nil, inputerr.New(file, 0, "%s%s", where, msg)
		}
		key := *p.Model + "\x00" + *p.Phase + "\x00" + string(p.Run) + "\x00" + *p.Page
		if first, dup := rows[key]; dup {
			return nil, inputerr.New(file, 0, "%sthe same run and page as pages[%d]: expected each page row once", where, first)
		}
		rows[key] = i
		if err := b.Add(*p.Page, v); err != nil {
			return nil, inputerr.New(file, 0, "%s%s", where, strings.TrimPrefix(err.Error(), "stats: "))
		}
	}
	for i, id := range order {
		rep.Cells[i].Stats = builders[id].Build()
	}
	return rep, nil
}

// checkTextPage checks a text page row's contributions against what
// docscore score text writes: whole counts from 0 to 2^53, matched words
// no more than either side's words. It says what is wrong, "" when
// nothing is.
func checkTextPage(v []float64) string {
	for _, c := range [...]struct {
		name string
		at   int
	}{{"char_edits", stats.TxtCharEdits}, {"gt_chars", stats.TxtGTChars}, {"word_edits", stats.TxtWordEdits},
		{"gt_words", stats.TxtGTWords}, {"bow_matched", stats.TxtBowMatched}, {"ocr_words", stats.TxtBowOCR}} {
		if msg := countProblem(c.name, v[c.at]); msg != "" {
			return msg
		}
	}
	if m := v[stats.TxtBowMatched]; m > v[stats.TxtBowOCR] || m > v[stats.TxtBowGT] {
		return fmt.Sprintf("bow_matched is %v: expected no more than gt_words (%v) and ocr_words (%v)", m, v[stats.TxtBowGT], v[stats.TxtBowOCR])
	}
	return ""
}
