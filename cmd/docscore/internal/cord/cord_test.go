package cord

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/docscore/docscore/cmd/docscore/internal/inputfile"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
	"github.com/parquet-go/parquet-go"
)

// sampleDir is the repository's copy of the receipt sample.
const sampleDir = "../../../../sample/receipts"

// hfImage and hfRow mirror the schema of the Hugging Face cord-v2 parquet
// files: an optional image struct {bytes, path} and an optional
// ground_truth string.
type hfImage struct {
	Bytes []byte  `parquet:"bytes,optional"`
	Path  *string `parquet:"path,optional"`
}

type hfRow struct {
	Image       *hfImage `parquet:"image,optional"`
	GroundTruth *string  `parquet:"ground_truth,optional"`
}

// writeFixture writes a parquet file of the first n sample annotations,
// the first row carrying the real receipt photograph, and returns its
// bytes.
func writeFixture(t *testing.T, n int, mutate func(i int, r *hfRow)) []byte {
	t.Helper()
	photo, err := os.ReadFile(filepath.Join(sampleDir, "real", "cord_test_receipt_00004.png"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []hfRow
	for i := 0; i < n; i++ {
		gt, err := os.ReadFile(filepath.Join(sampleDir, "refs", "cord-test-000"+string(rune('0'+i))+".json"))
		if err != nil {
			t.Fatal(err)
		}
		s := string(gt)
		img := []byte{0x89, 'P', 'N', 'G', byte(i)}
		if i == 0 {
			img = photo
		}
		r := hfRow{Image: &hfImage{Bytes: img}, GroundTruth: &s}
		if mutate != nil {
			mutate(i, &r)
		}
		rows = append(rows, r)
	}
	var buf bytes.Buffer
	if err := parquet.Write(&buf, rows); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestLoadParquetFixture(t *testing.T) {
	dir := t.TempDir()
	data := writeFixture(t, 5, nil)
	path := filepath.Join(dir, "test-00000-of-00001.parquet")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path, receiptsread.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := Load(filepath.Join(sampleDir, "refs"), receiptsread.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 5 {
		t.Fatalf("got %d references, want 5", len(got))
	}
	for i, r := range got {
		if r.SampleID != want[i].SampleID || r.Text != want[i].Text || !bytes.Equal(r.GTParse, want[i].GTParse) {
			t.Errorf("row %d: %q %q, want %q %q as from the JSON file", i, r.SampleID, r.Text, want[i].SampleID, want[i].Text)
		}
		if r.Source != path+" row "+string(rune('0'+i)) {
			t.Errorf("row %d: Source = %q", i, r.Source)
		}
	}
	// The real photograph's hash, as its README gives it.
	if got[0].ImageSHA256 != "8f3eee7068c96e86cdb2e4b5c53085cb5e1439462edd55c373548cb1962801ad" {
		t.Errorf("row 0 image SHA-256 = %s", got[0].ImageSHA256)
	}
	sum := sha256.Sum256([]byte{0x89, 'P', 'N', 'G', 3})
	if got[3].ImageSHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("row 3 image SHA-256 = %s", got[3].ImageSHA256)
	}
}

func TestLoadParquetSplitNumbering(t *testing.T) {
	dir := t.TempDir()
	// Without meta.split the file name gives the split; two shards number on.
	noMeta := func(i int, r *hfRow) {
		s := `{"valid_line": [{"words": [{"text": "ROW` + string(rune('0'+i)) + `"}]}]}`
		r.GroundTruth = &s
		r.Image = nil
	}
	for _, name := range []string{"validation-00000-of-00002.parquet", "validation-00001-of-00002.parquet"} {
		if err := os.WriteFile(filepath.Join(dir, name), writeFixture(t, 2, noMeta), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	refs, err := Load(dir, receiptsread.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range refs {
		ids = append(ids, r.SampleID+"="+r.Text)
		if r.ImageSHA256 != "" {
			t.Errorf("%s: a null image must leave ImageSHA256 empty", r.SampleID)
		}
	}
	want := "cord-validation-0000=ROW0 cord-validation-0001=ROW1 cord-validation-0002=ROW0 cord-validation-0003=ROW1"
	if strings.Join(ids, " ") != want {
		t.Errorf("ids = %s, want %s", strings.Join(ids, " "), want)
	}
}

func TestLoadParquetErrors(t *testing.T) {
	dir := t.TempDir()
	good := writeFixture(t, 3, nil)
	nullGT := writeFixture(t, 3, func(i int, r *hfRow) {
		if i == 2 {
			r.GroundTruth = nil
		}
	})
	badGT := writeFixture(t, 2, func(i int, r *hfRow) {
		if i == 1 {
			s := `{"valid_line": [{"words": [{"text": 5}]}]}`
			r.GroundTruth = &s
		}
	})
	var noGT bytes.Buffer
	if err := parquet.Write(&noGT, []struct {
		Text string `parquet:"text"`
	}{{"x"}}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		data     []byte
		contains string
	}{
		{"truncated.parquet", good[:len(good)/2], "not a readable parquet file (truncated or not parquet?)"},
		{"tail-cut.parquet", good[:len(good)-9], "not a readable parquet file"},
		{"empty.parquet", nil, "not a readable parquet file"},
		{"null.parquet", nullGT, "row 2: ground_truth is null"},
		{"bad.parquet", badGT, "row 1: ground_truth (line 1, column 37 of the string): valid_line[0].words[0].text: expected a string, got number"},
		{"other.parquet", noGT.Bytes(), "no ground_truth column"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name)
			if err := os.WriteFile(path, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Load(path, receiptsread.ParseOptions{})
			e, ok := inputerr.As(err)
			if !ok || e.File != path || !strings.Contains(e.Msg, tc.contains) {
				t.Errorf("err = %v, want an input error naming %s and containing %q", err, path, tc.contains)
			}
		})
	}
}

func TestLoadFilesAndDirectories(t *testing.T) {
	dir, err := Load(filepath.Join(sampleDir, "refs"), receiptsread.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	jsonl, err := Load(filepath.Join(sampleDir, "refs.jsonl"), receiptsread.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	one, err := Load(filepath.Join(sampleDir, "refs", "cord-test-0007.json"), receiptsread.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(dir) != 24 || len(jsonl) != 24 || len(one) != 1 || one[0].SampleID != "cord-test-0007" || one[0].Text != jsonl[7].Text {
		t.Errorf("dir %d, jsonl %d, one %+v", len(dir), len(jsonl), one)
	}
	empty := t.TempDir()
	os.WriteFile(filepath.Join(empty, "notes.txt"), []byte("x"), 0o644)
	for _, p := range []string{empty, filepath.Join(empty, "missing.json")} {
		if _, err := Load(p, receiptsread.ParseOptions{}); err == nil {
			t.Errorf("Load(%s): no error", p)
		} else if e, ok := inputerr.As(err); !ok || e.File != p {
			t.Errorf("Load(%s): err = %v, want an input error naming it", p, err)
		}
	}
}

func TestReadParquetRows(t *testing.T) {
	data := writeFixture(t, 3, func(i int, r *hfRow) {
		if i == 1 {
			p := "receipts/one.png"
			r.Image.Path = &p
		}
	})
	var got []ParquetRow
	err := ReadParquetRows("test-00000-of-00001.parquet", bytes.NewReader(data), int64(len(data)), nil, func(row ParquetRow) error {
		row.Image = bytes.Clone(row.Image)
		row.GroundTruth = bytes.Clone(row.GroundTruth)
		got = append(got, row)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("%d rows", len(got))
	}
	for i, row := range got {
		wantPath := ""
		if i == 1 {
			wantPath = "receipts/one.png"
		}
		if row.Index != i || row.SampleID != "cord-test-000"+string(rune('0'+i)) || row.ImagePath != wantPath ||
			(i > 0 && !bytes.Equal(row.Image, []byte{0x89, 'P', 'N', 'G', byte(i)})) || len(row.GroundTruth) == 0 {
			t.Errorf("row %d: index %d id %s path %q image %d bytes", i, row.Index, row.SampleID, row.ImagePath, len(row.Image))
		}
	}
	// An error from the callback stops the read and comes back as is.
	stop := inputerr.New("x", 0, "stop here")
	n := 0
	err = ReadParquetRows("t.parquet", bytes.NewReader(data), int64(len(data)), nil, func(ParquetRow) error { n++; return stop })
	if err != stop || n != 1 {
		t.Errorf("err %v after %d rows", err, n)
	}
}

// TestLoadDescribedJobs reads a directory of JSON files and parquet
// shards of one split on 1 to 4 goroutines: the same references and
// descriptions in name order each time, and of two broken files the
// first one's error, as one goroutine reads them.
func TestLoadDescribedJobs(t *testing.T) {
	dir := t.TempDir()
	entries, err := os.ReadDir(filepath.Join(sampleDir, "refs"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(sampleDir, "refs", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644)
	}
	// Shards between the JSON files: their rows number on across them.
	os.WriteFile(filepath.Join(dir, "cord-test-0010-a.parquet"), writeFixture(t, 3, nil), 0o644)
	os.WriteFile(filepath.Join(dir, "cord-test-0010-b.parquet"), writeFixture(t, 2, nil), 0o644)
	want, wantIn, err := LoadDescribed(inputfile.Reader{}, dir, receiptsread.ParseOptions{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != 29 || len(wantIn) != 26 {
		t.Fatalf("%d references from %d files, want 29 from 26", len(want), len(wantIn))
	}
	for jobs := 2; jobs <= 4; jobs++ {
		got, in, err := LoadDescribed(inputfile.Reader{}, dir, receiptsread.ParseOptions{}, jobs)
		if err != nil || !reflect.DeepEqual(got, want) || !reflect.DeepEqual(in, wantIn) {
			t.Errorf("jobs %d: %d references, %d inputs, err %v: not those of one job", jobs, len(got), len(in), err)
		}
	}
	os.WriteFile(filepath.Join(dir, "cord-test-0003-broken.json"), []byte("{"), 0o644)
	os.WriteFile(filepath.Join(dir, "cord-test-0020-broken.json"), []byte("["), 0o644)
	for jobs := 1; jobs <= 4; jobs++ {
		_, _, err := LoadDescribed(inputfile.Reader{}, dir, receiptsread.ParseOptions{}, jobs)
		if e, ok := inputerr.As(err); !ok || filepath.Base(e.File) != "cord-test-0003-broken.json" {
			t.Errorf("jobs %d: err = %v, want the first broken file's", jobs, err)
		}
	}
}
