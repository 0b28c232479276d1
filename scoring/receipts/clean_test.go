package receipts

import (
	"reflect"
	"strings"
	"testing"
)

func TestCleanConstructs(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string // strings.Fields of the cleaned text
	}{
		// Nemotron-Parse tokens
		{"coordinates and class", `<x_0.1903><y_0.0400>WARUNG BU SRI<x_0.6544><y_0.0600><class_Page-header>`, []string{"WARUNG", "BU", "SRI"}},
		{"class with dash and underscore", `A<class_List-item>B<class_Section_header>C`, []string{"A", "B", "C"}},
		{"coordinates never fuse cells", `12<x_0.5>000`, []string{"12", "000"}},
		{"not a coordinate", `<x_>1 <x_a>2`, []string{"1", "2"}}, // then removed as HTML tags
		// HTML
		{"table cells", `<tr><td colspan="2">SUBTOTAL</td><td>495000</td></tr>`, []string{"SUBTOTAL", "495000"}},
		{"line breaks and paragraphs", `<p><b>WARUNG</b><br/>Jl. Kemang<br>Telp.</p>`, []string{"WARUNG", "Jl.", "Kemang", "Telp."}},
		{"comment", `TOTAL<!-- footer 123 -->5`, []string{"TOTAL", "5"}},
		{"quoted > in an attribute", `<td title="a>b">X</td>`, []string{"X"}},
		{"comparison is text", `a < b > c`, []string{"a", "<", "b", ">", "c"}},
		{"unterminated tag is text", `x <b y`, []string{"x", "<b", "y"}},
		{"declaration", `<!DOCTYPE html>Z`, []string{"Z"}},
		// entities, decoded after tags
		{"ampersand entity", `A &amp; W`, []string{"A", "W"}},
		{"numeric entities", `&#55;&#48;`, []string{"70"}},
		{"escaped tag stays text", `&lt;b&gt;`, []string{"<b>"}},
		{"non-breaking space", `10&nbsp;000`, []string{"10", "000"}},
		// LaTeX
		{"begin with column spec", `\begin{tabular}{|c|c|}X`, []string{"X"}},
		{"begin with nested spec and option", `\begin{tabular}[t]{p{4cm}cr}X`, []string{"X"}},
		{"begin with a space before the spec", `\begin{tabular} {p{4cm}cr}X`, []string{"X"}},
		{"end", `X\end{tabular}Y`, []string{"X", "Y"}},
		{"hline", `\hline CAFE`, []string{"CAFE"}},
		{"multicolumn keeps content", `\multicolumn{3}{c}{SUBTOTAL 531000}`, []string{"SUBTOTAL", "531000"}},
		{"multicolumn with commands inside", `\multicolumn{2}{|r|}{\textbf{TOTAL} 5}`, []string{"TOTAL", "5"}},
		{"multicolumn with spaces between arguments", `\multicolumn {3} {c} {X}`, []string{"X"}},
		{"multicolumn truncated content", `\multicolumn{3}{c}{SUBTOTAL 177,000`, []string{"SUBTOTAL", "177,000"}},
		{"multirow keeps content", `\multirow[t]{2}{*}{CASH}`, []string{"CASH"}},
		{"multirow with width", `\multirow{3}{4cm}{X}`, []string{"X"}},
		{"cline", `\cline{2-3} A`, []string{"A"}},
		{"cmidrule", `\cmidrule(lr){2-3} A`, []string{"A"}},
		{"row end with spacing", `A \\[2pt] B`, []string{"A", "B"}},
		{"cells and rows", `A & B \\ C`, []string{"A", "B", "C"}},
		{"textbf keeps text", `\textbf{Item}`, []string{"Item"}},
		{"command option dropped", `\makecell[l]{Total}`, []string{"Total"}},
		{"escaped percent", `10\% TAX`, []string{"10", "TAX"}},
		{"percent is not a comment", `10% TAX 5`, []string{"10%", "TAX", "5"}},
		{"truncated column spec", `X \begin{tabular}{|l|c|r`, []string{"X"}},
		{"truncated command name", `Y \multicol`, []string{"Y"}},
		{"trailing backslash", `Z \`, []string{"Z"}},
		{"backslash before non-ASCII", `\é5`, []string{"é5"}},
		{"braces never fuse", `1{}2`, []string{"1", "2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Fields(Clean(tc.in))
			if len(got) == 0 {
				got = nil
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Clean(%q) fields = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestLayoutNumbersNeverMatch is the regression of the historical scoring
// bug: layout arguments (column counts, column ranges, column specs,
// coordinates) must never become numeric tokens that match a receipt
// number.
func TestLayoutNumbersNeverMatch(t *testing.T) {
	tests := []struct {
		name, pred, ref string
	}{
		{"multicolumn column count", `\multicolumn{3}{c}{SUBTOTAL} \\`, "3 CAFE LATTE SUBTOTAL"},
		{"multicolumn spec with width", `\multicolumn{2}{p{3cm}}{TOTAL}`, "2 3 TOTAL"},
		{"cline column range", `\cline{2-3} TOTAL`, "2-3 TOTAL"},
		{"tabular column spec", `\begin{tabular}{|c|c|} TOTAL \end{tabular}`, "TOTAL"},
		{"tabular width spec", `\begin{tabular}{p{4cm}cr} TOTAL`, "4 TOTAL"},
		{"multirow row count", `\multirow{2}{*}{CASH}`, "2 CASH"},
		{"coordinate", `<x_0.5><y_0.0400>TOTAL<class_Text>`, "0.5 0.0400 TOTAL"},
		{"row spacing", `TOTAL \\[2pt] CASH`, "2 TOTAL CASH"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pred := Tokenize(Clean(tc.pred))
			ref := Tokenize(tc.ref)
			n := NumericRecall(pred, ref)
			if n.Matched != 0 {
				t.Errorf("%q matched %d reference numbers of %q (pred tokens %q)", tc.pred, n.Matched, tc.ref, Words(pred))
			}
			for _, tok := range pred {
				if tok.Numeric {
					t.Errorf("%q left the numeric token %q", tc.pred, tok.Text)
				}
			}
		})
	}
	// The receipt numbers inside the cell still count.
	pred := Tokenize(Clean(`\multicolumn{3}{c}{TAX 10% 53100}`))
	if n := NumericRecall(pred, Tokenize("TAX 10% 53100 3")); n.Matched != 2 || !reflect.DeepEqual(n.Missing, []string{"3"}) {
		t.Errorf("multicolumn content: matched %d, missing %q; want 2 matched, 3 missing", n.Matched, n.Missing)
	}
}
