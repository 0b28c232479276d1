package pilot

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/docscore/docscore/cmd/docscore/internal/cord"
	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
	"github.com/docscore/docscore/scoring/runfile"
)

// Dataset kinds.
const (
	KindImages   = "images"   // a directory of images with labels of the same stem
	KindParquet  = "parquet"  // naver-clova-ix/cord-v2 parquet file(s)
	KindManifest = "manifest" // a JSONL of {"sample_id", "image", …}
)

// imageExts are the file extensions an image directory's images have.
var imageExts = []string{".png", ".jpg", ".jpeg", ".webp", ".gif", ".bmp", ".tif", ".tiff"}

// Sample is one image of a pilot: its header entry (id, image name, hash,
// label) and where its bytes are.
type Sample struct {
	runfile.Sample
	// Path is the image file (absolute); empty when Data holds the image.
	Path string
	// Data holds the image bytes of a parquet row; nil for files.
	Data []byte
	// MediaType is the image's MIME type, such as image/png.
	MediaType string
}

// Dataset is the selected samples of a dataset, in plan order.
type Dataset struct {
	Path    string
	Kind    string
	Split   string // the parquet rows' split when they all have one
	Samples []Sample
}

// DatasetOptions pick the rows of a dataset: Offset rows are skipped, then
// at most Limit are kept (0 keeps all).
type DatasetOptions struct {
	Offset, Limit int
}

// window returns the [lo, hi) range of n items that opts selects.
func (o DatasetOptions) window(n int) (int, int) {
	lo := min(o.Offset, n)
	hi := n
	if o.Limit > 0 {
		hi = min(lo+o.Limit, n)
	}
	return lo, hi
}

func (o DatasetOptions) contains(i int) bool {
	return i >= o.Offset && (o.Limit <= 0 || i < o.Offset+o.Limit)
}

// LoadDataset reads the dataset at path: a directory of images (each
// labelled by a CORD JSON file of the same stem, or a plain-text reference
// <stem>.reference.txt, or unlabelled), a cord-v2 parquet file or a
// directory of them, or a JSONL manifest (.jsonl) of {"sample_id",
// "image", "reference" or "ground_truth"} lines. Every selected image is
// read and hashed; labels are validated. Errors are input errors naming
// the file (and line or row).
func LoadDataset(path string, opts DatasetOptions) (*Dataset, error) {
	if opts.Offset < 0 || opts.Limit < 0 {
		return nil, inputerr.New(path, 0, "--offset and --limit must not be negative")
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, inputerr.New(path, 0, "cannot read the dataset: %v", unwrapPathError(err))
	}
	var ds *Dataset
	switch {
	case fi.IsDir():
		ds, err = loadDir(path, opts)
	case strings.EqualFold(filepath.Ext(path), ".parquet"):
		ds, err = loadParquet(path, []string{path}, opts)
	case strings.EqualFold(filepath.Ext(path), ".jsonl"):
		ds, err = loadManifest(path, opts)
	default:
		return nil, inputerr.New(path, 0, "unknown dataset type: expected a directory of images, a cord-v2 .parquet file or a .jsonl manifest of {\"sample_id\", \"image\"}")
	}
	if err != nil {
		return nil, err
	}
	if len(ds.Samples) == 0 {
		return nil, inputerr.New(path, 0, "no samples selected (offset %d, limit %d): expected at least one image", opts.Offset, opts.Limit)
	}
	seen := map[string]string{}
	for _, s := range ds.Samples {
		if prev, dup := seen[s.SampleID]; dup {
			return nil, inputerr.New(path, 0, "sample id %q is given twice (%s and %s): expected one image per sample", s.SampleID, prev, s.Image)
		}
		seen[s.SampleID] = s.Image
	}
	return ds, nil
}

// loadDir reads a directory of images, or of parquet files when it has no
// images.
func loadDir(dir string, opts DatasetOptions) (*Dataset, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, inputerr.New(dir, 0, "cannot read the dataset directory: %v", unwrapPathError(err))
	}
	var images, parquets []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || strings.HasPrefix(name, ".") {
			continue
		}
		ext := strings.ToLower(filepath.Ext(name))
		switch {
		case slices.Contains(imageExts, ext):
			images = append(images, name)
		case ext == ".parquet":
			parquets = append(parquets, filepath.Join(dir, name))
		}
	}
	slices.Sort(images)
	slices.Sort(parquets)
	if len(images) == 0 && len(parquets) > 0 {
		return loadParquet(dir, parquets, opts)
	}
	if len(images) == 0 {
		return nil, inputerr.New(dir, 0, "no images: expected image files (%s) with CORD JSON of the same stem, or cord-v2 .parquet files", strings.Join(imageExts, " "))
	}
	ds := &Dataset{Path: dir, Kind: KindImages}
	lo, hi := opts.window(len(images))
	for _, name := range images[lo:hi] {
		s, err := readImageFile(filepath.Join(dir, name), name)
		if err != nil {
			return nil, err
		}
		s.SampleID = stem(name)
		if err := labelFromSidecar(&s, dir, name); err != nil {
			return nil, err
		}
		ds.Samples = append(ds.Samples, s)
	}
	return ds, nil
}

// labelFromSidecar labels an image of a directory from <stem>.json (a CORD
// annotation, whose sample_id, when it has one, names the sample) or else
// <stem>.reference.txt (a plain-text reference).
func labelFromSidecar(s *Sample, dir, image string) error {
	base := filepath.Join(dir, stem(image))
	data, err := readFile(base + ".json")
	switch {
	case err == nil:
		ref, perr := receiptsread.ParseCORD(base+".json", data, receiptsread.ParseOptions{})
		if perr != nil {
			return perr
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, data); err != nil {
			return inputerr.New(base+".json", 0, "expected a CORD annotation JSON object: %v", err)
		}
		s.SampleID = ref.SampleID
		s.Label = compact.Bytes()
		return nil
	case !errors.Is(err, os.ErrNotExist):
		return inputerr.New(base+".json", 0, "cannot read: %v", unwrapPathError(err))
	}
	text, err := readFile(base + ".reference.txt")
	switch {
	case err == nil:
		ref := string(text)
		s.Reference = &ref
	case !errors.Is(err, os.ErrNotExist):
		return inputerr.New(base+".reference.txt", 0, "cannot read: %v", unwrapPathError(err))
	}
	return nil
}

// readImageFile reads and hashes one image file; name is how the run
// header names it.
func readImageFile(path, name string) (Sample, error) {
	data, err := readFile(path)
	if err != nil {
		return Sample{}, inputerr.New(path, 0, "cannot read the image: %v", unwrapPathError(err))
	}
	if len(data) == 0 {
		return Sample{}, inputerr.New(path, 0, "the image file is empty: expected image bytes")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return Sample{}, err
	}
	s := Sample{Path: abs, MediaType: mediaType(data, path)}
	s.Image = name
	s.ImageSHA256 = sha256Hex(data)
	s.ImageBytes = int64(len(data))
	return s, nil
}

// loadParquet reads the selected rows of cord-v2 parquet files (numbered
// across the files in order, as cord.Load does).
func loadParquet(path string, files []string, opts DatasetOptions) (*Dataset, error) {
	ds := &Dataset{Path: path, Kind: KindParquet}
	next := map[string]int{}
	pos := 0
	splits := map[string]bool{}
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			return nil, inputerr.New(file, 0, "cannot read: %v", unwrapPathError(err))
		}
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, err
		}
		name := filepath.Base(file)
		err = cord.ReadParquetRows(file, f, fi.Size(), next, func(row cord.ParquetRow) error {
			defer func() { pos++ }()
			if !opts.contains(pos) {
				return nil
			}
			if _, err := receiptsread.ParseGroundTruth(file, row.Index, row.SampleID, row.GroundTruth, receiptsread.ParseOptions{}); err != nil {
				return err
			}
			if len(row.Image) == 0 {
				return inputerr.New(file, 0, "row %d: no image bytes: expected the image column's bytes", row.Index)
			}
			var label bytes.Buffer
			if err := json.Compact(&label, row.GroundTruth); err != nil {
				return inputerr.New(file, 0, "row %d: ground_truth: %v", row.Index, err)
			}
			img := bytes.Clone(row.Image)
			s := Sample{Data: img, MediaType: mediaType(img, row.ImagePath)}
			s.SampleID = row.SampleID
			s.Image = fmt.Sprintf("%s row %d", name, row.Index)
			s.ImageSHA256 = sha256Hex(img)
			s.ImageBytes = int64(len(img))
			s.Label = label.Bytes()
			ds.Samples = append(ds.Samples, s)
			splits[splitOfID(row.SampleID)] = true
			return nil
		})
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	if len(splits) == 1 {
		for s := range splits {
			ds.Split = s
		}
	}
	return ds, nil
}

// splitOfID returns the split of a sample id cord-<split>-<NNNN>.
func splitOfID(id string) string {
	id = strings.TrimPrefix(id, "cord-")
	if i := strings.LastIndexByte(id, '-'); i >= 0 {
		return id[:i]
	}
	return id
}

// ManifestEntry is one line of a JSONL dataset manifest.
type ManifestEntry struct {
	Line     int
	SampleID string
	Image    string // as written: relative to the manifest's directory or absolute
	// Reference is a plain-text reference; Label a CORD ground truth
	// (from "ground_truth", an object or a JSON string).
	Reference *string
	Label     json.RawMessage
}

// ParseManifest parses a JSONL dataset manifest: one object per line with
// a "sample_id" and an "image" path, and optionally a plain-text
// "reference" or a CORD "ground_truth" (an object or a JSON string holding
// one). Blank lines are skipped; other members are ignored. Errors name
// the file, the line and what was expected.
func ParseManifest(name string, data []byte) ([]ManifestEntry, error) {
	var out []ManifestEntry
	seen := map[string]int{}
	const want = `a JSON object {"sample_id": "…", "image": "…"}`
	lines := ingest.NewLines(name, data)
	for lines.Next() {
		if e := lines.BadLine(); e != nil {
			return nil, e
		}
		if e := lines.NotObject(want); e != nil {
			return nil, e
		}
		lineNo, t := lines.Line().No, lines.Line().Text
		// at is an error about the line's record: the caret under its
		// start, the line shown.
		at := func(format string, args ...any) *inputerr.Error {
			l := lines.Line()
			return inputerr.At(name, l.No, l.Indent+1, l.Source(), format, args...)
		}
		var rec struct {
			SampleID    *string         `json:"sample_id"`
			Image       *string         `json:"image"`
			Reference   *string         `json:"reference"`
			GroundTruth json.RawMessage `json:"ground_truth"`
		}
		if err := json.Unmarshal(t, &rec); err != nil {
			return nil, lines.JSONError(err, want+" on one line")
		}
		switch {
		case rec.SampleID == nil || strings.TrimSpace(*rec.SampleID) == "":
			return nil, at("expected a non-empty \"sample_id\" string")
		case rec.Image == nil || strings.TrimSpace(*rec.Image) == "":
			return nil, at("expected a non-empty \"image\" string: the image file's path")
		}
		if prev, dup := seen[*rec.SampleID]; dup {
			return nil, at("sample_id %q is given twice (first on line %d): expected one image per sample", *rec.SampleID, prev)
		}
		seen[*rec.SampleID] = lineNo
		e := ManifestEntry{Line: lineNo, SampleID: *rec.SampleID, Image: *rec.Image, Reference: rec.Reference}
		if gt := bytes.TrimSpace(rec.GroundTruth); len(gt) > 0 && !bytes.Equal(gt, []byte("null")) {
			if rec.Reference != nil {
				return nil, at("both \"reference\" and \"ground_truth\": expected one label per sample")
			}
			if gt[0] == '"' {
				var s string
				if err := json.Unmarshal(gt, &s); err != nil {
					return nil, at("ground_truth: expected an object or a JSON string: %v", err)
				}
				gt = []byte(s)
			}
			if _, err := receiptsread.ParseGroundTruth(name, lineNo, e.SampleID, gt, receiptsread.ParseOptions{}); err != nil {
				msg := err.Error()
				if ie, ok := inputerr.As(err); ok {
					msg = strings.TrimPrefix(ie.Msg, fmt.Sprintf("row %d: ", lineNo))
				}
				return nil, at("%s", msg)
			}
			var compact bytes.Buffer
			if err := json.Compact(&compact, gt); err != nil {
				return nil, at("ground_truth: expected a CORD annotation object: %v", err)
			}
			e.Label = compact.Bytes()
		}
		out = append(out, e)
	}
	return out, lines.Err()
}

// loadManifest reads a JSONL manifest and its selected images.
func loadManifest(path string, opts DatasetOptions) (*Dataset, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, inputerr.New(path, 0, "cannot read: %v", unwrapPathError(err))
	}
	entries, err := ParseManifest(path, data)
	if err != nil {
		return nil, err
	}
	ds := &Dataset{Path: path, Kind: KindManifest}
	lo, hi := opts.window(len(entries))
	for _, e := range entries[lo:hi] {
		p := e.Image
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(path), p)
		}
		s, err := readImageFile(p, e.Image)
		if err != nil {
			var ie *inputerr.Error
			if errors.As(err, &ie) {
				return nil, inputerr.New(path, e.Line, "image %s: %s", e.Image, ie.Msg)
			}
			return nil, err
		}
		s.SampleID = e.SampleID
		s.Reference = e.Reference
		s.Label = e.Label
		ds.Samples = append(ds.Samples, s)
	}
	return ds, nil
}

// mediaType names an image's MIME type from its first bytes, else from
// its file name.
func mediaType(data []byte, name string) string {
	if t := http.DetectContentType(data); strings.HasPrefix(t, "image/") {
		return t
	}
	if len(data) >= 4 && (bytes.HasPrefix(data, []byte("II*\x00")) || bytes.HasPrefix(data, []byte("MM\x00*"))) {
		return "image/tiff"
	}
	if t := mime.TypeByExtension(strings.ToLower(filepath.Ext(name))); strings.HasPrefix(t, "image/") {
		return t
	}
	return "application/octet-stream"
}

// extension returns a file extension for a media type.
func extension(mediaType string) string {
	switch mediaType {
	case "image/png":
		return ".png"
	case "image/jpeg":
		return ".jpg"
	case "image/gif":
		return ".gif"
	case "image/webp":
		return ".webp"
	case "image/bmp":
		return ".bmp"
	case "image/tiff":
		return ".tif"
	}
	return ".img"
}

func stem(name string) string {
	return strings.TrimSuffix(name, filepath.Ext(name))
}

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// readAllLimit reads at most limit bytes of r; more is an error.
func readAllLimit(r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return data, err
	}
	if int64(len(data)) > limit {
		return data[:limit], fmt.Errorf("more than %d bytes", limit)
	}
	return data, nil
}
