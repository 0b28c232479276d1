// Package cord loads CORD references from the file system for the docscore
// command: CORD annotation JSON files, directories of them, JSONL files of
// {"sample_id", "reference"}, and the Hugging Face naver-clova-ix/cord-v2
// parquet files as users download them. Parsing itself is done by the pure
// package scoring/receipts; this package only reads files.
package cord

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/docscore/docscore/cmd/docscore/internal/inputfile"
	"github.com/docscore/docscore/cmd/docscore/internal/parquetread"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/provenance"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
)

// Load reads the references at path: one file (.json, .jsonl or .parquet)
// or a directory, whose .json, .jsonl and .parquet files are read in name
// order (other files and subdirectories are left alone). Parquet rows get
// the sample ids cord-<split>-<NNNN> (see LoadParquet), numbered across
// the files of one split in name order.
func Load(path string, opts receiptsread.ParseOptions) (receiptsread.References, error) {
	return LoadWith(inputfile.Reader{}, path, opts)
}

// LoadWith is Load reading the JSON files with rd: under its size limit,
// stopped by its context. (Parquet files are read in place, not whole.)
func LoadWith(rd inputfile.Reader, path string, opts receiptsread.ParseOptions) (receiptsread.References, error) {
	refs, _, err := load(rd, path, opts, false, 1)
	return refs, err
}

// LoadDescribed is LoadWith that also describes every file it read for a
// report's provenance (SPEC F.8): role "refs", base name, byte count and
// sha256, in the order the references were read. A JSON file is hashed
// from the bytes parsed; a parquet file, read in place, is hashed in one
// more pass over it. The JSON files of a directory are read, parsed and
// hashed on up to jobs goroutines (less than 1 means 1), with the
// references, descriptions and error (the first file's in name order)
// of one.
func LoadDescribed(rd inputfile.Reader, path string, opts receiptsread.ParseOptions, jobs int) (receiptsread.References, []provenance.Input, error) {
	return load(rd, path, opts, true, jobs)
}

func load(rd inputfile.Reader, path string, opts receiptsread.ParseOptions, describe bool, jobs int) (receiptsread.References, []provenance.Input, error) {
	files, err := referenceFiles(path)
	if err != nil {
		return nil, nil, err
	}
	// The JSON files first, on jobs goroutines; the parquet files, whose
	// sample ids number on across the files of a split, in order below.
	loaded := make([]loadedFile, len(files))
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range max(min(jobs, len(files)), 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !failed.Load() {
				k := int(next.Add(1) - 1)
				if k >= len(files) {
					return
				}
				if isParquet(files[k]) {
					continue
				}
				if loaded[k] = loadJSON(rd, files[k], opts, describe); loaded[k].err != nil {
					failed.Store(true) // the files after it are not needed
				}
			}
		}()
	}
	wg.Wait()
	var refs receiptsread.References
	var inputs []provenance.Input
	rows := map[string]int{} // next row number per split, across parquet files
	for k, f := range files {
		l := &loaded[k]
		if isParquet(f) {
			*l = loadedFile{}
			if l.refs, l.err = loadParquetFile(f, opts, rows); l.err == nil && describe {
				l.input, l.err = describeParquet(f)
			}
		}
		if l.err != nil {
			return nil, nil, l.err
		}
		refs = append(refs, l.refs...)
		if describe {
			inputs = append(inputs, l.input)
		}
	}
	return refs, inputs, nil
}

// loadedFile is what became of a reference file.
type loadedFile struct {
	refs  receiptsread.References
	input provenance.Input
	err   error
}

// loadJSON reads, parses and (when describe is set) describes a JSON or
// JSONL reference file.
func loadJSON(rd inputfile.Reader, f string, opts receiptsread.ParseOptions, describe bool) loadedFile {
	data, err := rd.ReadFile(f)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return loadedFile{err: err}
		}
		return loadedFile{err: inputerr.New(f, 0, "cannot read: %v%s", unwrapPathError(err), limitHint(err))}
	}
	var l loadedFile
	if l.refs, l.err = receiptsread.ParseReferences(f, data, opts); l.err == nil && describe {
		l.input = provenance.NewInput("refs", f, data)
	}
	return l
}

// describeParquet hashes a parquet file, read in place, in one more pass.
func describeParquet(name string) (provenance.Input, error) {
	f, err := os.Open(name)
	if err != nil {
		return provenance.Input{}, inputerr.New(name, 0, "cannot read: %v", unwrapPathError(err))
	}
	defer f.Close()
	h := provenance.NewHash("refs", name)
	if _, err := io.Copy(h, f); err != nil {
		return provenance.Input{}, inputerr.New(name, 0, "cannot read: %v", unwrapPathError(err))
	}
	return h.Input(), nil
}

// referenceFiles lists the reference files at path: path itself, or the
// reference files of the directory, in name order.
func referenceFiles(path string) ([]string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, inputerr.New(path, 0, "cannot read the references: %v", unwrapPathError(err))
	}
	if !fi.IsDir() {
		return []string{path}, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		if e.IsDir() || !isReferenceFile(e.Name()) {
			continue
		}
		files = append(files, filepath.Join(path, e.Name()))
	}
	slices.Sort(files)
	if len(files) == 0 {
		return nil, inputerr.New(path, 0, "no reference files: expected .json CORD annotations, a .jsonl of {\"sample_id\", \"reference\"} or cord-v2 .parquet files")
	}
	return files, nil
}

func isParquet(name string) bool { return strings.EqualFold(filepath.Ext(name), ".parquet") }

func isReferenceFile(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json", ".jsonl", ".parquet":
		return !strings.HasPrefix(name, ".")
	}
	return false
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func loadParquetFile(path string, opts receiptsread.ParseOptions, rows map[string]int) (receiptsread.References, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, inputerr.New(path, 0, "cannot read: %v", unwrapPathError(err))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return LoadParquet(path, f, fi.Size(), opts, rows)
}

// LoadParquet reads the rows of a cord-v2 parquet file (name is used in
// errors and sample ids): the ground_truth column holds each receipt's
// CORD annotation as a JSON string, and the image column a struct whose
// bytes member holds the image, whose SHA-256 is kept so that run records
// made on another image are caught. Each row's sample id is
// cord-<split>-<NNNN>, split being the annotation's meta.split (else the
// file name up to its first "-", as in test-00000-of-00001.parquet) and
// NNNN the row's 0-based position within the split; next holds the next
// row number per split and is updated, so that sharded splits number on.
func LoadParquet(name string, r io.ReaderAt, size int64, opts receiptsread.ParseOptions, next map[string]int) (receiptsread.References, error) {
	var refs receiptsread.References
	err := ReadParquetRows(name, r, size, next, func(row ParquetRow) error {
		ref, perr := receiptsread.ParseGroundTruth(name, row.Index, row.SampleID, row.GroundTruth, opts)
		if perr != nil {
			return perr
		}
		if len(row.Image) > 0 {
			sum := sha256.Sum256(row.Image)
			ref.ImageSHA256 = hex.EncodeToString(sum[:])
		}
		refs = append(refs, ref)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return refs, nil
}

// ParquetRow is one row of a cord-v2 parquet file as ReadParquetRows hands
// it over. Its byte slices are only valid during the callback: copy what
// you keep.
type ParquetRow struct {
	Index       int    // 0-based row position in the file
	SampleID    string // cord-<split>-<NNNN>, see LoadParquet
	GroundTruth []byte // the ground_truth JSON string's bytes
	Image       []byte // the image bytes; nil when the file has none
	ImagePath   string // the image struct's path member, when present
}

// ReadParquetRows calls fn for every row of a cord-v2 parquet file, in
// file order, numbering sample ids as LoadParquet does (next is updated
// the same way; nil starts from zero). An error from fn stops the read and
// is returned as is; malformed files give input errors naming the file and
// the row.
func ReadParquetRows(name string, r io.ReaderAt, size int64, next map[string]int, fn func(ParquetRow) error) error {
	if next == nil {
		next = map[string]int{}
	}
	pf, err := parquetread.Open(r, size)
	if err != nil {
		return inputerr.New(name, 0, "not a readable parquet file (truncated or not parquet?): %v", err)
	}
	gtCol, ok := pf.Lookup("ground_truth")
	if !ok {
		return inputerr.New(name, 0, "no ground_truth column: expected a naver-clova-ix/cord-v2 parquet file with columns image and ground_truth (columns here: %s)", columnList(pf))
	}
	cols := []int{gtCol}
	imgAt, pathAt := -1, -1
	if c, ok := pf.Lookup("image", "bytes"); ok {
		imgAt, cols = len(cols), append(cols, c)
	} else if c, ok := pf.Lookup("image"); ok {
		imgAt, cols = len(cols), append(cols, c)
	}
	if c, ok := pf.Lookup("image", "path"); ok {
		pathAt, cols = len(cols), append(cols, c)
	}
	fallbackSplit := strings.SplitN(filepath.Base(name), "-", 2)[0]
	fallbackSplit = strings.TrimSuffix(fallbackSplit, filepath.Ext(fallbackSplit))
	var fnErr error
	err = pf.Rows(cols, func(row int64, values []parquetread.Value) error {
		if values[0].Null {
			return inputerr.New(name, 0, "row %d: ground_truth is null: expected the CORD annotation as a JSON string", row)
		}
		gt := values[0].Bytes
		var img []byte
		var imgPath string
		if imgAt >= 0 && !values[imgAt].Null {
			img = values[imgAt].Bytes
		}
		if pathAt >= 0 && !values[pathAt].Null {
			imgPath = string(values[pathAt].Bytes)
		}
		split := splitOf(gt)
		if split == "" {
			split = fallbackSplit
		}
		id := fmt.Sprintf("cord-%s-%04d", split, next[split])
		next[split]++
		fnErr = fn(ParquetRow{Index: int(row), SampleID: id, GroundTruth: gt, Image: img, ImagePath: imgPath})
		return fnErr
	})
	var re *parquetread.RowError
	switch {
	case err == nil || err == fnErr:
		return err
	case errors.As(err, &re):
		return inputerr.New(name, 0, "row %d: cannot read the parquet data (truncated or corrupt?): %v", re.Row, re.Err)
	}
	if _, ok := inputerr.As(err); ok { // a null ground_truth
		return err
	}
	return inputerr.New(name, 0, "cannot read the parquet data: %v", err)
}

// splitOf returns meta.split of a CORD ground truth, or "".
func splitOf(gt []byte) string {
	var v struct {
		Meta struct {
			Split string `json:"split"`
		} `json:"meta"`
	}
	if json.Unmarshal(gt, &v) != nil {
		return ""
	}
	return v.Meta.Split
}

func columnList(f *parquetread.File) string {
	var names []string
	for _, c := range f.Columns() {
		names = append(names, strings.Join(c, "."))
	}
	return strings.Join(names, ", ")
}

// limitHint tells how to raise the size limit a read went past.
func limitHint(err error) string {
	if errors.Is(err, inputfile.ErrTooLarge) {
		return " (raise it with --max-input-mib)"
	}
	return ""
}
