package parquetread

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
)

// The rows of the cord-v2 files: an optional image struct {bytes, path}
// and an optional ground_truth string, plainly or dictionary-encoded.
type image struct {
	Bytes []byte  `parquet:"bytes,optional"`
	Path  *string `parquet:"path,optional"`
}

type row struct {
	Image       *image  `parquet:"image,optional"`
	GroundTruth *string `parquet:"ground_truth,optional"`
}

type dictImage struct {
	Bytes []byte  `parquet:"bytes,optional,dict"`
	Path  *string `parquet:"path,optional,dict"`
}

type dictRow struct {
	Image       *dictImage `parquet:"image,optional"`
	GroundTruth *string    `parquet:"ground_truth,optional,dict"`
}

// sampleRows are n rows with nulls at every level, repeated values (for
// dictionaries and snappy's copies) and images of up to 3 KiB.
func sampleRows(n int, seed int64) []row {
	rng := rand.New(rand.NewSource(seed))
	rows := make([]row, n)
	for i := range rows {
		r := &rows[i]
		if rng.Intn(7) != 0 {
			gt := fmt.Sprintf(`{"meta":{"split":"test"},"valid_line":[{"words":[{"text":"item %d"}]}],"n":%d}`, rng.Intn(20), i%5)
			r.GroundTruth = &gt
		}
		switch rng.Intn(6) {
		case 0: // no image
		case 1:
			r.Image = &image{}
		default:
			b := make([]byte, rng.Intn(3000))
			for j := range b {
				if j > 16 && rng.Intn(4) != 0 {
					b[j] = b[j-1-rng.Intn(16)]
				} else {
					b[j] = byte(rng.Intn(256))
				}
			}
			r.Image = &image{Bytes: b}
			if rng.Intn(2) == 0 {
				p := fmt.Sprintf("img/%d.png", rng.Intn(10))
				r.Image.Path = &p
			}
		}
	}
	return rows
}

func writeWith[T any](t testing.TB, rows []T, opts ...parquet.WriterOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[T](&buf, opts...)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func toDict(rows []row) []dictRow {
	out := make([]dictRow, len(rows))
	for i, r := range rows {
		out[i].GroundTruth = r.GroundTruth
		if r.Image != nil {
			out[i].Image = &dictImage{Bytes: r.Image.Bytes, Path: r.Image.Path}
		}
	}
	return out
}

var leafPaths = [][]string{{"image", "bytes"}, {"image", "path"}, {"ground_truth"}}

// withParquetGo reads the leaf columns of data with parquet-go, as the
// command read them before: one line per row.
func withParquetGo(t testing.TB, data []byte) []string {
	t.Helper()
	pf, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var idx []int
	for _, p := range leafPaths {
		c, ok := pf.Schema().Lookup(p...)
		if !ok {
			t.Fatalf("parquet-go: no column %v", p)
		}
		idx = append(idx, c.ColumnIndex)
	}
	r := parquet.NewReader(pf)
	defer r.Close()
	var out []string
	buf := make([]parquet.Row, 3)
	for {
		n, err := r.ReadRows(buf)
		for _, values := range buf[:n] {
			cells := make([]string, len(idx))
			for i, c := range idx {
				cells[i] = "null"
				for _, v := range values {
					if v.Column() == c && !v.IsNull() {
						cells[i] = fmt.Sprintf("%q", v.ByteArray())
					}
				}
			}
			out = append(out, strings.Join(cells, " "))
		}
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// withParquetread is withParquetGo with this package.
func withParquetread(data []byte) ([]string, error) {
	f, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	var idx []int
	for _, p := range leafPaths {
		c, ok := f.Lookup(p...)
		if !ok {
			return nil, fmt.Errorf("no column %v", p)
		}
		idx = append(idx, c)
	}
	var out []string
	err = f.Rows(idx, func(_ int64, values []Value) error {
		cells := make([]string, len(values))
		for i, v := range values {
			cells[i] = "null"
			if !v.Null {
				cells[i] = fmt.Sprintf("%q", v.Bytes)
			}
		}
		out = append(out, strings.Join(cells, " "))
		return nil
	})
	return out, err
}

// TestAgainstParquetGo: every row of files written by parquet-go in
// every layout the reader knows (data pages v1 and v2; uncompressed,
// snappy and gzip; PLAIN and dictionary; one or several pages and row
// groups) reads as parquet-go reads it.
func TestAgainstParquetGo(t *testing.T) {
	rows := sampleRows(300, 1)
	codecs := map[string]compress.Codec{"none": &parquet.Uncompressed, "snappy": &parquet.Snappy, "gzip": &parquet.Gzip}
	for _, version := range []int{1, 2} {
		for cname, codec := range codecs {
			for _, dict := range []bool{false, true} {
				for _, small := range []bool{false, true} {
					name := fmt.Sprintf("v%d/%s/dict=%v/small=%v", version, cname, dict, small)
					t.Run(name, func(t *testing.T) {
						opts := []parquet.WriterOption{parquet.DataPageVersion(version), parquet.Compression(codec)}
						if small {
							opts = append(opts, parquet.PageBufferSize(2048), parquet.MaxRowsPerRowGroup(37))
						}
						var data []byte
						if dict {
							data = writeWith(t, toDict(rows), opts...)
						} else {
							data = writeWith(t, rows, opts...)
						}
						want := withParquetGo(t, data)
						got, err := withParquetread(data)
						if err != nil {
							t.Fatal(err)
						}
						if len(got) != len(want) {
							t.Fatalf("%d rows, parquet-go %d", len(got), len(want))
						}
						for i := range want {
							if got[i] != want[i] {
								t.Fatalf("row %d: %s\nparquet-go: %s", i, got[i], want[i])
							}
						}
					})
				}
			}
		}
	}
}

// TestCorpusSeeds writes the fuzz corpus's seeds: run with
// PARQUETREAD_SEEDS=1 to refresh them.
func TestCorpusSeeds(t *testing.T) {
	if os.Getenv("PARQUETREAD_SEEDS") == "" {
		t.Skip("PARQUETREAD_SEEDS unset")
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzRows")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	rows := sampleRows(12, 2)
	for name, data := range map[string][]byte{
		"v1-snappy-dict": writeWith(t, toDict(rows), parquet.DataPageVersion(1), parquet.Compression(&parquet.Snappy), parquet.PageBufferSize(512)),
		"v2-none":        writeWith(t, rows, parquet.MaxRowsPerRowGroup(5)),
		"v1-gzip":        writeWith(t, rows, parquet.DataPageVersion(1), parquet.Compression(&parquet.Gzip)),
	} {
		seed := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", data)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(seed), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// FuzzRows: no input panics, and no file gives more rows than it has
// bytes.
func FuzzRows(f *testing.F) {
	f.Add([]byte("PAR1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		pf, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		cols := make([]int, len(pf.Columns()))
		for i := range cols {
			cols[i] = i
		}
		rows := 0
		pf.Rows(cols, func(int64, []Value) error { rows++; return nil })
		if rows > len(data) {
			t.Fatalf("%d rows from %d bytes", rows, len(data))
		}
	})
}

func TestErrors(t *testing.T) {
	good := writeWith(t, sampleRows(20, 3), parquet.DataPageVersion(1), parquet.Compression(&parquet.Snappy))
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "too short"},
		{"no magic", []byte("PAR1 not really a file"), "no PAR1 magic"},
		{"footer too long", append([]byte("PAR1"), append([]byte{0xff, 0xff, 0, 0}, "PAR1"...)...), "footer of 65535 bytes"},
		{"cut", good[:len(good)/2], "no PAR1 magic"},
	} {
		_, err := withParquetread(c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
	// A page's bytes overwritten: an error, never a panic.
	for i := 4; i < len(good)-8; i += 7 {
		bad := bytes.Clone(good)
		bad[i] ^= 0x5a
		withParquetread(bad)
	}
}
