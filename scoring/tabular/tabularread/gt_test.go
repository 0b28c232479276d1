package tabularread

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/schema"
)

const gtHeader = "name,title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count\n"

// describePages renders pages as "page:line:key|value|…" lines.
func describePages(pages []*GTPage) []string {
	out := []string{}
	for _, p := range pages {
		for _, r := range p.Rows {
			out = append(out, fmt.Sprintf("%s:%d:%s", p.ID, r.Line, strings.Join(append([]string{r.Key}, r.Values...), "|")))
		}
	}
	return out
}

func pageIDs(pages []*GTPage) []string {
	out := []string{}
	for _, p := range pages {
		out = append(out, p.ID)
	}
	return out
}

func TestReadGT(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		data  string
		ids   []string
		pages []string
	}{
		{
			name: "plain", file: "gt_page_27.csv",
			data:  gtHeader + "Karl Müller,,February 9 1769,March 13 1769,San Giovanni Grisostomo,Lubiana?,N,N,4\n",
			ids:   []string{"27"},
			pages: []string{"27:2:Karl Müller||February 9 1769|March 13 1769|San Giovanni Grisostomo|Lubiana?|N|N|4"},
		},
		{
			name: "byte order mark", file: "gt_page_27.csv",
			data:  "\ufeff" + gtHeader + "A,,,,,,,,\n",
			ids:   []string{"27"},
			pages: []string{"27:2:A||||||||"},
		},
		{
			name: "quoted cells with commas, quotes and newlines", file: "gt_page_27.csv",
			data: gtHeader +
				`"Pietro, detto ""il Moro""",Ab.,,,"Casa di Pietro,` + "\n" + `in Ghetto",,N,N,` + "\n" +
				"B,,,,,,,,\n",
			ids:   []string{"27"},
			pages: []string{"27:2:Pietro, detto \"il Moro\"|Ab.|||Casa di Pietro,\nin Ghetto||N|N|", "27:4:B||||||||"},
		},
		{
			name: "CRLF line endings", file: "gt_page_27.csv",
			data:  strings.ReplaceAll(gtHeader+"A,,,,,,,,\nB,,,,,,,,\n", "\n", "\r\n"),
			ids:   []string{"27"},
			pages: []string{"27:2:A||||||||", "27:3:B||||||||"},
		},
		{
			name: "header names trimmed and lower-cased, in any order, extra columns ignored", file: "gt_page_27.csv",
			data: " Title , NAME ,notes,Arrival_Date,departure_date,PLACE_OF_STAY,place_of_origin,With_Spouse,with_siblings,Children_Count \n" +
				"Conte,Nicolò Valier,a note,February 2 1769,,,,,,3\n",
			ids:   []string{"27"},
			pages: []string{"27:2:Nicolò Valier|Conte|February 2 1769||||||3"},
		},
		{
			name: "all-blank rows skipped", file: "gt_page_27.csv",
			data:  gtHeader + ",,,,,,,,\nA,,,,,,,,\n \t, ,,,,,,,\n\n , \nB,,,,,,,,\n",
			ids:   []string{"27"},
			pages: []string{"27:3:A||||||||", "27:7:B||||||||"},
		},
		{
			name: "a page column assigns rows to pages", file: "gt_page_27.csv",
			data: "page," + gtHeader +
				"28,A,,,,,,,,\n,B,,,,,,,,\n 29 ,C,,,,,,,,\n28,D,,,,,,,,\n  ,E,,,,,,,,\n",
			ids:   []string{"28", "27", "29"},
			pages: []string{"28:2:A||||||||", "28:5:D||||||||", "27:3:B||||||||", "27:6:E||||||||", "29:4:C||||||||"},
		},
		{
			name: "the same name on two pages", file: "register.csv",
			data:  "page," + gtHeader + "1,A,,,,,,,,\n2,A,,,,,,,,\n",
			ids:   []string{"1", "2"},
			pages: []string{"1:2:A||||||||", "2:3:A||||||||"},
		},
		{
			name: "rows without a name do not clash", file: "gt_page_27.csv",
			data:  gtHeader + ",Abate,,,,,,,\n  ,Conte,,,,,,,\n",
			ids:   []string{"27"},
			pages: []string{"27:2:|Abate|||||||", "27:3:  |Conte|||||||"},
		},
		{
			name: "page id from the file name", file: "data/gt_page_07.csv",
			data:  gtHeader + "A,,,,,,,,\n",
			ids:   []string{"07"},
			pages: []string{"07:2:A||||||||"},
		},
		{
			name: "a header and no rows is an empty page", file: "gt_page_31.csv",
			data:  gtHeader + ",,,,,,,,\n",
			ids:   []string{"31"},
			pages: []string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pages, err := ReadGT(tt.file, []byte(tt.data), schema.Default())
			if err != nil {
				t.Fatalf("ReadGT: %v", err)
			}
			if got := pageIDs(pages); !reflect.DeepEqual(got, tt.ids) {
				t.Errorf("page ids = %q, want %q", got, tt.ids)
			}
			if got := describePages(pages); !reflect.DeepEqual(got, tt.pages) {
				t.Errorf("rows:\n got %q\nwant %q", got, tt.pages)
			}
			for _, p := range pages {
				if p.File != tt.file {
					t.Errorf("page %s: File = %q, want %q", p.ID, p.File, tt.file)
				}
			}
		})
	}
}

func TestReadGTErrors(t *testing.T) {
	const expected = "(expected name, title, arrival_date, departure_date, place_of_stay, place_of_origin, with_spouse, with_siblings, children_count)"
	tests := []struct {
		name, data, err string
		line, col       int
	}{
		{
			name: "duplicate names on a page",
			data: gtHeader + "Karl Müller,,,,,,,,\nB,,,,,,,,\nkarl  müller.,,,,,,,,\n",
			err:  `gt_page_27.csv:4:1: name "karl  müller." repeats the row at line 2 on page 27 (no two ground-truth rows of a page may share a name)`,
			line: 4, col: 1,
		},
		{
			name: "duplicate names on a page given by the page column",
			data: "page," + gtHeader + "28,A,,,,,,,,\n27,A,,,,,,,,\n28,A,,,,,,,,\n",
			err:  `gt_page_27.csv:4:4: name "A" repeats the row at line 2 on page 28 (no two ground-truth rows of a page may share a name)`,
			line: 4, col: 4,
		},
		{
			name: "missing columns",
			data: "name,arrival_date,departure_date,place_of_stay,place_of_origin,with_siblings,children_count\nA,,,,,,\n",
			err:  "gt_page_27.csv:1:1: header lacks the column(s) title, with_spouse " + expected,
			line: 1, col: 1,
		},
		{
			name: "missing key column",
			data: "person,title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count\n",
			err:  "gt_page_27.csv:1:1: header lacks the column(s) name " + expected,
			line: 1, col: 1,
		},
		{
			name: "a column named twice",
			data: "name,title,Title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count\n",
			err:  `gt_page_27.csv:1:12: column "title" appears twice in the header`,
			line: 1, col: 12,
		},
		{
			name: "empty file",
			data: "",
			err:  "gt_page_27.csv:1: expected a header row with the columns name, title, arrival_date, departure_date, place_of_stay, place_of_origin, with_spouse, with_siblings, children_count",
			line: 1,
		},
		{
			name: "a short row",
			data: gtHeader + "A,,,,,,,,\nB,,,,,,,\n",
			err:  "gt_page_27.csv:3:9: expected 9 cells as in the header, found 8",
			line: 3, col: 9,
		},
		{
			name: "a long row after a cell with a newline",
			data: gtHeader + "A,,,,\"Casa\ndi Pietro\",,,,\nB,,,,,,,,,\n",
			err:  "gt_page_27.csv:4:11: expected 9 cells as in the header, found 10",
			line: 4, col: 11,
		},
		{
			name: "invalid UTF-8",
			data: gtHeader + "A,,,,,,,,\nB,,,,San Mois\xe8,,,,\n",
			err:  "gt_page_27.csv:3:14: expected UTF-8 text",
			line: 3, col: 14,
		},
		{
			name: "a bare quote",
			data: gtHeader + "A,\"Ab\"x,,,,,,,\n",
			err:  `gt_page_27.csv:2:6: expected RFC 4180 CSV: extraneous or missing " in quoted-field`,
			line: 2, col: 6,
		},
		{
			name: "an unterminated quote",
			data: gtHeader + "A,,,,\"Casa di,,,,\nB,,,,,,,,\n",
			err:  `gt_page_27.csv:2:6: expected RFC 4180 CSV: the quoted field that starts here is never closed (extraneous or missing " in quoted-field)`,
			line: 2, col: 6,
		},
		{
			name: "a quote left open on line 4 of 27",
			data: gtHeader + "A,,,,,,,,\nB,,,,,,,,\nC,\"Dott.,,,,,,,\n" + strings.Repeat("D,,,,,,,,\n", 23),
			err:  `gt_page_27.csv:4:3: expected RFC 4180 CSV: the quoted field that starts here is never closed (extraneous or missing " in quoted-field)`,
			line: 4, col: 3,
		},
		{
			name: "a record with a closed multi-line quote, then an open one",
			data: gtHeader + "A,\"x \"\"y\"\"\nz\",,,\"w,,,,\nB,,,,,,,,\n",
			err:  `gt_page_27.csv:3:6: expected RFC 4180 CSV: the quoted field that starts here is never closed (extraneous or missing " in quoted-field)`,
			line: 3, col: 6,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pages, err := ReadGT("gt_page_27.csv", []byte(tt.data), schema.Default())
			if err == nil {
				t.Fatalf("ReadGT succeeded with %q; want an error", pageIDs(pages))
			}
			if inputerr.Head(err) != tt.err || tt.col > 0 && !strings.HasSuffix(err.Error(), "^") {
				t.Errorf("error:\n got %s\nwant %s, the line and a caret", err, tt.err)
			}
			var ie *inputerr.Error
			if !errors.As(err, &ie) || ie.File != "gt_page_27.csv" || ie.Line != tt.line || ie.Column != tt.col {
				t.Errorf("error %#v: want an input error at line %d column %d", err, tt.line, tt.col)
			}
		})
	}
}

func TestPageIDFromName(t *testing.T) {
	for name, want := range map[string]string{
		"gt_page_27.csv":            "27",
		"gt_page_07.csv":            "07",
		"data/gt/gt_page_7.csv":     "7",
		`C:\data\gt\gt_page_12.csv`: "12",
		"GT_PAGE_3a.CSV":            "3a",
		"register.csv":              "register",
		"gt_page_.csv":              "gt_page_",
	} {
		if got := PageIDFromName(name); got != want {
			t.Errorf("PageIDFromName(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestGTPageIDMatchesPattern holds gtPageID to the pattern it replaced,
// (?i)^gt_page_(.+)\.csv$, on names at its edges.
func TestGTPageIDMatchesPattern(t *testing.T) {
	pattern := regexp.MustCompile(`(?i)^gt_page_(.+)\.csv$`)
	for _, tt := range []struct {
		name string
		id   string // "" when not a page name
	}{
		{"gt_page_27.csv", "27"},
		{"GT_Page_x.Csv", "x"},
		{"gt_page_.csv", ""},
		{"gt_page_..csv", "."},
		{"gt_page_a.csv.csv", "a.csv"},
		{"gt_page_a.cs", ""},
		{"gt_page_a.csvx", ""},
		{"gt_page_a", ""},
		{"gt_page_", ""},
		{"gt_pag_1.csv", ""},
		{"xgt_page_1.csv", ""},
		{"gt-page_1.csv", ""},
		{"gt_page_1\n2.csv", ""},
		{"gt_page_\n.csv", ""},
		{"gt_page_ü.csv", "ü"},
		{"gt_page_1.c\u017fv", "1"},
		{"gt_page_1.C\u017fV", "1"},
		{"gt_page_\xff.csv", "\xff"},
		{"gt_page_ .csv", " "},
		{"gt_page_1.csv\n", ""},
		{"", ""},
	} {
		id, ok := gtPageID(tt.name)
		if ok != (tt.id != "") || id != tt.id {
			t.Errorf("gtPageID(%q) = %q, %v; want %q", tt.name, id, ok, tt.id)
		}
		m := pattern.FindStringSubmatch(tt.name)
		if (m != nil) != ok || m != nil && m[1] != id {
			t.Errorf("gtPageID(%q) = %q, %v; the pattern gives %q", tt.name, id, ok, m)
		}
	}
}
