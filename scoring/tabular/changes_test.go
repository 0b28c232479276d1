package tabular_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/tabular"
)

// plainChange is a change as the test derives it, in one comparable
// string: image line, GT line, field, before, after, records.
type plainChange = string

// jsonReport scores req and returns its JSON, decoded plainly.
func jsonReport(t *testing.T, req tabular.Request) map[string]any {
	t.Helper()
	rep, err := tabular.ScoreRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rep.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// settle returns the rule file with the OPEN rows at lines made settled.
func settle(t *testing.T, md []byte, lines []int) []byte {
	t.Helper()
	rows := strings.Split(string(md), "\n")
	for _, l := range lines {
		if !strings.Contains(rows[l-1], "| OPEN |") {
			t.Fatalf("rule file line %d is not an OPEN row: %q", l, rows[l-1])
		}
		rows[l-1] = strings.Replace(rows[l-1], "| OPEN |", "| settled |", 1)
	}
	return []byte(strings.Join(rows, "\n"))
}

func optNum(v any) string {
	if v == nil {
		return "null"
	}
	return fmt.Sprint(v.(float64))
}

// diffPlain derives the changes between two plain reports from their
// images' pairs, keyed by GT line: a pair whose model record differs (or
// that exists on one side only) is a pairing change; otherwise the name's
// CER and each field's score are compared.
func diffPlain(key string, before, after map[string]any) []plainChange {
	var out []plainChange
	bi, ai := before["images"].([]any), after["images"].([]any)
	for i := range bi {
		b, a := bi[i].(map[string]any), ai[i].(map[string]any)
		if b["status"] != "ok" || a["status"] != "ok" {
			continue
		}
		byLine := func(im map[string]any) map[float64]map[string]any {
			m := map[float64]map[string]any{}
			for _, p := range im["pairs"].([]any) {
				p := p.(map[string]any)
				m[p["gt_line"].(float64)] = p
			}
			return m
		}
		bp, ap := byLine(b), byLine(a)
		var lines []float64
		for l := range bp {
			lines = append(lines, l)
		}
		for l := range ap {
			if bp[l] == nil {
				lines = append(lines, l)
			}
		}
		slices.Sort(lines)
		for _, l := range lines {
			x, y := bp[l], ap[l]
			at := fmt.Sprintf("image %v gt %v", b["line"], l)
			rec := func(p map[string]any) string {
				if p == nil {
					return ""
				}
				return p["model"].(string)
			}
			sim := func(p map[string]any) string {
				if p == nil {
					return "null"
				}
				return optNum(p["similarity"])
			}
			if x == nil || y == nil || x["model_index"] != y["model_index"] {
				out = append(out, fmt.Sprintf("%s pairing %s→%s %q→%q", at, sim(x), sim(y), rec(x), rec(y)))
				continue
			}
			cer := func(p map[string]any) string {
				if p["name_ref_chars"].(float64) == 0 {
					return "null"
				}
				return fmt.Sprint(p["name_cer_edits"].(float64) / p["name_ref_chars"].(float64))
			}
			if x["name_cer_edits"] != y["name_cer_edits"] || x["name_ref_chars"] != y["name_ref_chars"] {
				out = append(out, fmt.Sprintf("%s %s %s→%s %q→%q", at, key, cer(x), cer(y), rec(x), rec(y)))
			}
			xf, yf := x["fields"].(map[string]any), y["fields"].(map[string]any)
			for _, f := range before["fields"].([]any) {
				f := f.(string)
				if u, v := optNum(xf[f]), optNum(yf[f]); u != v {
					out = append(out, fmt.Sprintf("%s %s %s→%s %q→%q", at, f, u, v, rec(x), rec(y)))
				}
			}
		}
	}
	return out
}

// listed returns a preview report's changes in the test's form, and the
// rows each names.
func listed(t *testing.T, rep map[string]any) ([]plainChange, [][]int) {
	t.Helper()
	var out []plainChange
	var rows [][]int
	for _, c := range rep["preview"].(map[string]any)["changes"].([]any) {
		c := c.(map[string]any)
		out = append(out, fmt.Sprintf("image %v gt %v %s %s→%s %q→%q", c["line"], c["gt_line"], c["field"],
			optNum(c["before"]), optNum(c["after"]), c["record_before"], c["record_after"]))
		var r []int
		for _, l := range c["rows"].([]any) {
			r = append(r, int(l.(float64)))
		}
		rows = append(rows, r)
	}
	return out, rows
}

// TestPreviewChangesEqualTwoPlainScorings: the changes a preview lists are
// exactly the differences between the settled report and a report scored
// with the previewed rows made settled (no preview), found by diffing the
// images' pairs; each change names the rows that, made settled alone,
// give the same difference; the counts tally the list.
func TestPreviewChangesEqualTwoPlainScorings(t *testing.T) {
	base, err := sample.TabularRequest(true)
	if err != nil {
		t.Fatal(err)
	}
	open := []int{32, 33, 51, 52}
	settled := jsonReport(t, base)
	key := settled["key"].(string)
	alone := map[int][]plainChange{}
	for _, l := range open {
		req := base
		req.Rules = &tabular.File{Name: base.Rules.Name, Data: settle(t, base.Rules.Data, []int{l})}
		alone[l] = diffPlain(key, settled, jsonReport(t, req))
	}
	for _, c := range []struct {
		preview string
		lines   []int
		// tally of the whole list: rose, fell, names, pairings
		total [4]int
	}{
		{"51", []int{51}, [4]int{20, 6, 0, 0}},
		{"32", []int{32}, [4]int{0, 0, 6, 2}},
		{"33,52", []int{33, 52}, [4]int{94, 0, 0, 0}},
		{"open", open, [4]int{114, 6, 6, 2}},
	} {
		t.Run(c.preview, func(t *testing.T) {
			req := base
			req.Rules = &tabular.File{Name: base.Rules.Name, Data: settle(t, base.Rules.Data, c.lines)}
			want := diffPlain(key, settled, jsonReport(t, req))
			req = base
			req.Preview = c.preview
			pv := jsonReport(t, req)
			got, rows := listed(t, pv)
			if !slices.Equal(got, want) {
				t.Fatalf("preview %s lists %d changes:\n%s\nwant %d:\n%s", c.preview, len(got), strings.Join(got, "\n"), len(want), strings.Join(want, "\n"))
			}
			if len(want) == 0 {
				t.Fatalf("preview %s changes nothing on the sample", c.preview)
			}
			counts := map[int][4]int{}
			var total [4]int
			for i, g := range got {
				var wantRows []int
				for _, l := range c.lines {
					if slices.Contains(alone[l], g) {
						wantRows = append(wantRows, l)
					}
				}
				if !slices.Equal(rows[i], wantRows) {
					t.Errorf("%s: rows %v, want %v", g, rows[i], wantRows)
				}
				k := 3
				switch f := strings.Fields(g)[4]; {
				case f == "pairing":
				case f == key:
					k = 2
				default:
					k = 1
					b, a, _ := strings.Cut(strings.Fields(g)[5], "→")
					bf, err1 := strconv.ParseFloat(b, 64)
					af, err2 := strconv.ParseFloat(a, 64)
					if err1 != nil || err2 != nil {
						t.Fatalf("%s: a field change between unscorable and scored", g)
					}
					if af > bf {
						k = 0
					}
				}
				if k == 3 && strings.Fields(g)[4] != "pairing" {
					t.Fatalf("bad change %s", g)
				}
				total[k]++
				for _, l := range rows[i] {
					x := counts[l]
					x[k]++
					counts[l] = x
				}
			}
			if total != c.total {
				t.Errorf("tally %v, want %v", total, c.total)
			}
			p := pv["preview"].(map[string]any)
			tally := func(m map[string]any) [4]int {
				return [4]int{int(m["rose"].(float64)), int(m["fell"].(float64)), int(m["names"].(float64)), int(m["pairings"].(float64))}
			}
			if g := tally(p["change_total"].(map[string]any)); g != total {
				t.Errorf("change_total %v, want %v", g, total)
			}
			cc := p["change_counts"].([]any)
			if len(cc) != len(c.lines) {
				t.Fatalf("%d change counts, want %d", len(cc), len(c.lines))
			}
			for i, l := range c.lines {
				m := cc[i].(map[string]any)
				if int(m["line"].(float64)) != l || tally(m) != counts[l] {
					t.Errorf("change_counts[%d] = %v, want line %d %v", i, m, l, counts[l])
				}
			}
		})
	}
}
