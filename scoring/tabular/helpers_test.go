package tabular

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/docscore/docscore/rules"
	"github.com/docscore/docscore/scoring/schema"
	"github.com/docscore/docscore/scoring/tabular/tabularreport"
)

const header = "name,title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count\n"

// gtRow is a ground-truth row in the default schema, by field.
type gtRow map[string]string

func (r gtRow) csv() string {
	cols := []string{"name", "title", "arrival_date", "departure_date", "place_of_stay", "place_of_origin", "with_spouse", "with_siblings", "children_count"}
	cells := make([]string, len(cols))
	for i, c := range cols {
		v := r[c]
		if strings.ContainsAny(v, ",\"\n") {
			v = `"` + strings.ReplaceAll(v, `"`, `""`) + `"`
		}
		cells[i] = v
	}
	return strings.Join(cells, ",") + "\n"
}

// scoreOne scores one image of records (a JSON array) against GT rows, with
// an optional rule file and preview selection.
func scoreOne(t *testing.T, gt []gtRow, records string, rulesMD string, preview string) *tabularreport.ImageScore {
	t.Helper()
	var sb strings.Builder
	sb.WriteString(header)
	for _, r := range gt {
		sb.WriteString(r.csv())
	}
	line, err := json.Marshal(map[string]any{"model": "m", "phase": "G", "run": 1, "page": "1", "records": json.RawMessage(records)})
	if err != nil {
		t.Fatalf("bad records JSON %s: %v", records, err)
	}
	req := Request{
		GT:      []File{{Name: "gt_page_1.csv", Data: []byte(sb.String())}},
		Runs:    File{Name: "runs.jsonl", Data: line},
		Preview: preview,
	}
	if rulesMD != "" {
		req.Rules = &File{Name: "EQUIVALENCES.md", Data: []byte(rulesMD)}
	}
	rep, err := ScoreRequest(req)
	if err != nil {
		t.Fatalf("ScoreRequest: %v", err)
	}
	if len(rep.Images) != 1 {
		t.Fatalf("got %d images", len(rep.Images))
	}
	return rep.Images[0]
}

// rec builds a one-record JSON array.
func rec(fields map[string]any) string {
	b, _ := json.Marshal([]any{fields})
	return string(b)
}

// ignoreRules builds a rule file with the given ignore rows
// ("field | token | position | side | status").
func ignoreRules(rows ...string) string {
	var sb strings.Builder
	sb.WriteString("## 1. Ignore rules\n\n| field | token | position | side | status | witness |\n|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&sb, "| %s | w |\n", r)
	}
	return sb.String()
}

// equivRules builds a rule file with the given equivalence rows
// ("field | forms | canonical | status").
func equivRules(rows ...string) string {
	var sb strings.Builder
	sb.WriteString("## 2. Equivalences\n\n| field | forms | canonical | status | witness |\n|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&sb, "| %s | w |\n", r)
	}
	return sb.String()
}

func fieldScore(t *testing.T, im *tabularreport.ImageScore, field string) *float64 {
	t.Helper()
	if len(im.Pairs) != 1 {
		t.Fatalf("expected one pair, got %d (unmatched model %v, gt %v)", len(im.Pairs), im.UnmatchedModel, im.UnmatchedGT)
	}
	for _, f := range im.Pairs[0].Fields {
		if f.Name == field {
			return f.Score
		}
	}
	t.Fatalf("no field %s", field)
	return nil
}

var _ = rules.Settled

func defaultSchemaForTest() *schemaT { return defaultSchema() }

type schemaT = schema.Schema

func defaultSchema() *schema.Schema { return schema.Default() }
