package pagetext

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/docscore/docscore/scoring/inputerr"
)

// FuzzExtract: any bytes give a text or an input error naming the file
// (its caret on the line it shows), never a panic; the text scores
// against itself with no edits.
func FuzzExtract(f *testing.F) {
	for _, s := range []string{"", "Lorem\r\nipsum", "\ufeff", "<", "<?xml version=\"1.0\"?><alto><TextLine><String CONTENT=\"a\"/></TextLine></alto>",
		`<PcGts xmlns="p"><Page><ReadingOrder><OrderedGroup><RegionRefIndexed index="x" regionRef="r"/></OrderedGroup></ReadingOrder><TextRegion id="r"><TextEquiv><Unicode>a</Unicode></TextEquiv></TextRegion></Page></PcGts>`,
		`<html><body><div class="ocr_page"><span class="ocr_line"><span class="ocrx_word">ﬁ</span></span></div></body></html>`,
		"<PcGts><Page><TextRegion", "\xff\xfe"} {
		f.Add([]byte(s))
	}
	files, _ := filepath.Glob("testdata/dinglehopper/table-order/*.xml")
	files = append(files, "testdata/tesseract-5.3.0.hocr")
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, lv := range []Level{RegionLevel, LineLevel} {
			ex, err := Extract("f.xml", data, ExtractOptions{Level: lv})
			if err != nil {
				e, ok := inputerr.As(err)
				if !ok || e.File != "f.xml" {
					t.Fatalf("error %v is not an input error naming the file", err)
				}
				if e.Column > 0 && e.Source != "" && e.Column > utf8.RuneCountInString(e.Source)+1 {
					t.Fatalf("error %q: column %d outside its line %q", e.Head(), e.Column, e.Source)
				}
				continue
			}
			p, err := ScorePage(ex.Text, ex.Text, AlignLimits{})
			if err != nil || p.CharEdits != 0 || p.WordEdits != 0 {
				t.Fatalf("text against itself: %v %v", p, err)
			}
		}
	})
}

// FuzzAlign: the script is the full programme's, whatever the limits.
func FuzzAlign(f *testing.F) {
	f.Add([]byte("abcde"), []byte("aaadef"), 3)
	f.Add([]byte(""), []byte("foo"), 1)
	f.Fuzz(func(t *testing.T, a, b []byte, front int) {
		if len(a) > 200 || len(b) > 200 {
			return
		}
		conv := func(x []byte) []int32 {
			out := make([]int32, len(x))
			for i, c := range x {
				out[i] = int32(c % 8)
			}
			return out
		}
		ia, ib := conv(a), conv(b)
		wd, wops := naiveAlign(ia, ib)
		d, ops, err := Align(ia, ib, 8, AlignLimits{FrontCells: front % 64})
		if err != nil || d != wd || !reflect.DeepEqual(ops, wops) {
			t.Fatalf("Align = %d %v %v, want %d %v", d, ops, err, wd, wops)
		}
	})
}
