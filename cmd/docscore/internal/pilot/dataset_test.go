package pilot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// sampleRefs is the repository's receipt sample (CORD annotations).
const sampleRefs = "../../../../sample/receipts/refs"

func sampleCORD(t testing.TB, i int) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(sampleRefs, fmt.Sprintf("cord-test-%04d.json", i)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func writeFile(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

type hfImage struct {
	Bytes []byte  `parquet:"bytes,optional"`
	Path  *string `parquet:"path,optional"`
}

type hfRow struct {
	Image       *hfImage `parquet:"image,optional"`
	GroundTruth *string  `parquet:"ground_truth,optional"`
}

// writeParquet writes n rows of the sample's annotations with fake images.
func writeParquet(t testing.TB, path string, n int) {
	t.Helper()
	var rows []hfRow
	for i := range n {
		gt := string(sampleCORD(t, i))
		p := fmt.Sprintf("img%d.png", i)
		rows = append(rows, hfRow{Image: &hfImage{Bytes: fakeImage(fmt.Sprintf("row%d", i)), Path: &p}, GroundTruth: &gt})
	}
	var buf bytes.Buffer
	if err := parquet.Write(&buf, rows); err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, buf.Bytes())
}

func TestLoadDataset(t *testing.T) {
	dir := t.TempDir()
	// An image directory: a CORD label, a plain-text reference, no label,
	// and files that are not images.
	imgs := filepath.Join(dir, "images")
	writeFile(t, filepath.Join(imgs, "a.png"), fakeImage("a"))
	writeFile(t, filepath.Join(imgs, "a.json"), sampleCORD(t, 0))
	writeFile(t, filepath.Join(imgs, "b.JPG"), []byte("\xff\xd8\xff\xe0 jpeg"))
	writeFile(t, filepath.Join(imgs, "b.reference.txt"), []byte("TOTAL 10\n"))
	writeFile(t, filepath.Join(imgs, "c.png"), fakeImage("c"))
	writeFile(t, filepath.Join(imgs, "notes.txt"), []byte("not an image"))
	writeFile(t, filepath.Join(imgs, ".hidden.png"), fakeImage("h"))
	// A CORD file with its own sample id names the sample.
	withID := filepath.Join(dir, "withid")
	writeFile(t, filepath.Join(withID, "x.png"), fakeImage("x"))
	writeFile(t, filepath.Join(withID, "x.json"), []byte(`{"sample_id": "receipt-7", "ground_truth": {"valid_line": [{"words": [{"text": "TOTAL"}]}]}}`))
	// Parquet, as a file and as a directory of shards.
	writeParquet(t, filepath.Join(dir, "test-00000-of-00001.parquet"), 4)
	writeParquet(t, filepath.Join(dir, "shards", "test-00000-of-00002.parquet"), 2)
	writeParquet(t, filepath.Join(dir, "shards", "test-00001-of-00002.parquet"), 2)
	// A manifest with relative and absolute paths.
	abs := filepath.Join(imgs, "c.png")
	var compact bytes.Buffer
	json.Compact(&compact, sampleCORD(t, 1))
	gt := compact.String()
	gtString, _ := json.Marshal(gt)
	writeFile(t, filepath.Join(dir, "m.jsonl"), []byte(strings.Join([]string{
		`{"sample_id": "m1", "image": "images/a.png", "reference": "TOTAL 1"}`,
		``,
		`{"sample_id": "m2", "image": "` + abs + `", "ground_truth": ` + gt + `, "note": "ignored"}`,
		`{"sample_id": "m3", "image": "images/b.JPG", "ground_truth": ` + string(gtString) + `}`,
		`{"sample_id": "m4", "image": "images/c.png"}`,
	}, "\n")))

	type want struct {
		ids    []string
		kind   string
		split  string
		labels string // per sample: c (CORD label), r (reference), - (none)
		media  []string
	}
	cases := []struct {
		path string
		opts DatasetOptions
		want want
	}{
		{imgs, DatasetOptions{}, want{[]string{"a", "b", "c"}, KindImages, "", "cr-", []string{"image/png", "image/jpeg", "image/png"}}},
		{imgs, DatasetOptions{Offset: 1, Limit: 1}, want{[]string{"b"}, KindImages, "", "r", nil}},
		{imgs, DatasetOptions{Offset: 2, Limit: 5}, want{[]string{"c"}, KindImages, "", "-", nil}},
		{withID, DatasetOptions{}, want{[]string{"receipt-7"}, KindImages, "", "c", nil}},
		{filepath.Join(dir, "test-00000-of-00001.parquet"), DatasetOptions{}, want{[]string{"cord-test-0000", "cord-test-0001", "cord-test-0002", "cord-test-0003"}, KindParquet, "test", "cccc", nil}},
		{filepath.Join(dir, "test-00000-of-00001.parquet"), DatasetOptions{Offset: 1, Limit: 2}, want{[]string{"cord-test-0001", "cord-test-0002"}, KindParquet, "test", "cc", nil}},
		{filepath.Join(dir, "shards"), DatasetOptions{Offset: 1, Limit: 2}, want{[]string{"cord-test-0001", "cord-test-0002"}, KindParquet, "test", "cc", nil}},
		{filepath.Join(dir, "m.jsonl"), DatasetOptions{}, want{[]string{"m1", "m2", "m3", "m4"}, KindManifest, "", "rcc-", []string{"image/png", "image/png", "image/jpeg", "image/png"}}},
		{filepath.Join(dir, "m.jsonl"), DatasetOptions{Limit: 2}, want{[]string{"m1", "m2"}, KindManifest, "", "rc", nil}},
	}
	for _, c := range cases {
		name := fmt.Sprintf("%s offset %d limit %d", filepath.Base(c.path), c.opts.Offset, c.opts.Limit)
		t.Run(name, func(t *testing.T) {
			ds, err := LoadDataset(c.path, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			labels := ""
			for i, s := range ds.Samples {
				ids = append(ids, s.SampleID)
				switch {
				case len(s.Label) > 0:
					labels += "c"
					if !json.Valid(s.Label) || bytes.ContainsAny(s.Label, "\n") {
						t.Errorf("%s: label is not one line of JSON", s.SampleID)
					}
				case s.Reference != nil:
					labels += "r"
				default:
					labels += "-"
				}
				data := s.Data
				if data == nil {
					if !filepath.IsAbs(s.Path) {
						t.Errorf("%s: path %q is not absolute", s.SampleID, s.Path)
					}
					data, _ = os.ReadFile(s.Path)
				}
				if s.ImageSHA256 != sha256Hex(data) || s.ImageBytes != int64(len(data)) || s.Image == "" {
					t.Errorf("%s: image %q hash %s bytes %d do not describe the image", s.SampleID, s.Image, s.ImageSHA256, s.ImageBytes)
				}
				if c.want.media != nil && s.MediaType != c.want.media[i] {
					t.Errorf("%s: media type %s, want %s", s.SampleID, s.MediaType, c.want.media[i])
				}
			}
			if strings.Join(ids, ",") != strings.Join(c.want.ids, ",") || ds.Kind != c.want.kind || ds.Split != c.want.split || labels != c.want.labels {
				t.Errorf("got ids %v kind %s split %q labels %s; want %+v", ids, ds.Kind, ds.Split, labels, c.want)
			}
		})
	}
	// A parquet row's image is named by file and row.
	ds, _ := LoadDataset(filepath.Join(dir, "test-00000-of-00001.parquet"), DatasetOptions{Offset: 3})
	if ds.Samples[0].Image != "test-00000-of-00001.parquet row 3" || !bytes.Equal(ds.Samples[0].Data, fakeImage("row3")) {
		t.Errorf("parquet sample %+v", ds.Samples[0].Sample)
	}
}

func TestLoadDatasetErrors(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "empty", "readme.md"), []byte("no images"))
	writeFile(t, filepath.Join(dir, "badlabel", "a.png"), fakeImage("a"))
	writeFile(t, filepath.Join(dir, "badlabel", "a.json"), []byte(`{"valid_line": [{"words": [{"text": 5}]}]}`))
	writeFile(t, filepath.Join(dir, "dup", "a.png"), fakeImage("a"))
	writeFile(t, filepath.Join(dir, "dup", "a.json"), []byte(`{"sample_id": "same", "valid_line": []}`))
	writeFile(t, filepath.Join(dir, "dup", "b.png"), fakeImage("b"))
	writeFile(t, filepath.Join(dir, "dup", "b.json"), []byte(`{"sample_id": "same", "valid_line": []}`))
	writeFile(t, filepath.Join(dir, "zero", "a.png"), nil)
	writeFile(t, filepath.Join(dir, "missing.jsonl"), []byte("{\"sample_id\": \"a\", \"image\": \"nope.png\"}\n"))
	writeFile(t, filepath.Join(dir, "bad.jsonl"), []byte("{\"sample_id\": \"a\", \"image\": \"x.png\"}\n{\"sample_id\": \"b\", \"image\": 3}\n"))
	writeFile(t, filepath.Join(dir, "notparquet.parquet"), []byte("PAR1 not really"))
	writeFile(t, filepath.Join(dir, "data.csv"), []byte("a,b\n"))
	cases := []struct {
		path string
		opts DatasetOptions
		want string
	}{
		{filepath.Join(dir, "nothing-here"), DatasetOptions{}, "nothing-here: cannot read the dataset: no such file or directory"},
		{filepath.Join(dir, "empty"), DatasetOptions{}, "empty: no images: expected image files"},
		{filepath.Join(dir, "badlabel"), DatasetOptions{}, "a.json:1"},
		{filepath.Join(dir, "dup"), DatasetOptions{}, `sample id "same" is given twice (a.png and b.png)`},
		{filepath.Join(dir, "zero"), DatasetOptions{}, "a.png: the image file is empty"},
		{filepath.Join(dir, "missing.jsonl"), DatasetOptions{}, "missing.jsonl:1: image nope.png: cannot read the image: no such file or directory"},
		{filepath.Join(dir, "bad.jsonl"), DatasetOptions{}, `bad.jsonl:2:29: member "image" is a number: expected a string`},
		{filepath.Join(dir, "notparquet.parquet"), DatasetOptions{}, "notparquet.parquet: not a readable parquet file"},
		{filepath.Join(dir, "data.csv"), DatasetOptions{}, "data.csv: unknown dataset type"},
		{filepath.Join(dir, "dup"), DatasetOptions{Offset: 5}, "no samples selected (offset 5, limit 0)"},
		{filepath.Join(dir, "dup"), DatasetOptions{Limit: -1}, "must not be negative"},
	}
	for _, c := range cases {
		_, err := LoadDataset(c.path, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want one containing %q", filepath.Base(c.path), err, c.want)
		}
	}
}

func TestParseManifestErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"sample_id": "a"}`, `m.jsonl:1:1: expected a non-empty "image" string`},
		{`{"image": "a.png"}`, `m.jsonl:1:1: expected a non-empty "sample_id" string`},
		{"\n\n{\"sample_id\": \"a\", \"image\": \"a.png\"", `m.jsonl:3:`},
		{`[1, 2]`, `m.jsonl:1:1: expected a JSON object {"sample_id": "…", "image": "…"}, found an array`},
		{` "a.png"`, `m.jsonl:1:2: expected a JSON object {"sample_id": "…", "image": "…"}, found a string`},
		{"{\"sample_id\": \"a\", \"image\": \"\xff.png\"}", `m.jsonl:1:30: expected UTF-8 text`},
		{"{\"sample_id\": \"a\", \"image\": \"a.png\"}\n{\"sample_id\": \"a\", \"image\": \"b.png\"}", "m.jsonl:2:1: sample_id \"a\" is given twice (first on line 1): expected one image per sample\n    2 | {\"sample_id\": \"a\", \"image\": \"b.png\"}\n      | ^"},
		{`{"sample_id": "a", "image": "a.png", "reference": "x", "ground_truth": {"valid_line": []}}`, `both "reference" and "ground_truth"`},
		{`{"sample_id": "a", "image": "a.png", "ground_truth": 7}`, `m.jsonl:1:1: ground_truth`},
		{`{"sample_id": "a", "image": "a.png", "ground_truth": "{not json"}`, `m.jsonl:1:1: ground_truth`},
	}
	for _, c := range cases {
		_, err := ParseManifest("m.jsonl", []byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err = %v, want %q", c.in, err, c.want)
		}
	}
}

func FuzzParseManifest(f *testing.F) {
	f.Add([]byte(`{"sample_id": "m1", "image": "a.png", "reference": "TOTAL 1"}`))
	f.Add([]byte("{\"sample_id\": \"m2\", \"image\": \"/x/b.png\", \"ground_truth\": {\"valid_line\": [{\"words\": [{\"text\": \"A\"}]}]}}\n\n"))
	f.Add([]byte(`{"sample_id": "m3", "image": "c.png", "ground_truth": "{\"valid_line\": []}"}`))
	f.Add([]byte("\xef\xbb\xbf{\"sample_id\": \"a\"}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := ParseManifest("m.jsonl", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "m.jsonl") {
				t.Errorf("error %q does not name the file", err)
			}
			return
		}
		seen := map[string]bool{}
		for _, e := range entries {
			if e.SampleID == "" || e.Image == "" || seen[e.SampleID] || e.Line < 1 {
				t.Errorf("bad entry %+v", e)
			}
			seen[e.SampleID] = true
			if len(e.Label) > 0 && !json.Valid(e.Label) {
				t.Errorf("label %q is not JSON", e.Label)
			}
		}
	})
}
