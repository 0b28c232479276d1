package pilot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/runfile"
)

// appender appends JSONL records to a run file. Append returns once the
// record is written and (unless sync is off) fsynced. Records that end at
// the same time share one write and one fsync (group commit): the first
// waiting caller writes every pending record, the others wait for it, so
// a record is never acknowledged before it is durable and the disk's
// fsync rate does not bound the request rate.
type appender struct {
	f    *os.File
	sync bool

	mu       sync.Mutex
	cond     *sync.Cond
	pending  []byte
	spare    []byte
	batch    uint64 // the batch that records appended now belong to
	flushed  uint64 // the last batch written (and synced)
	flushing bool
	err      error  // the first write error; later appends fail with it
	errBatch uint64 // the batch that failed (0: none)
}

func newAppender(f *os.File, doSync bool) *appender {
	a := &appender{f: f, sync: doSync, batch: 1}
	a.cond = sync.NewCond(&a.mu)
	return a
}

// Append encodes v as one JSON line and appends it durably.
func (a *appender) Append(v any) error {
	line, err := encodeLine(v)
	if err != nil {
		return err
	}
	return a.AppendLine(line)
}

// AppendLine appends one encoded line (ending in "\n") durably.
func (a *appender) AppendLine(line []byte) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.err != nil {
		return a.err
	}
	a.pending = append(a.pending, line...)
	mine := a.batch
	for a.flushed < mine {
		if a.err != nil {
			return a.err // an earlier batch failed: this one is never written
		}
		if a.flushing {
			a.cond.Wait()
			continue
		}
		// Lead: write everything pending as one batch.
		a.flushing = true
		buf := a.pending
		a.pending = a.spare[:0]
		b := a.batch
		a.batch++
		a.mu.Unlock()
		_, werr := a.f.Write(buf)
		if werr == nil && a.sync {
			werr = a.f.Sync()
		}
		a.mu.Lock()
		a.spare = buf
		a.flushing = false
		a.flushed = b
		if werr != nil {
			a.err = fmt.Errorf("writing %s: %w", a.f.Name(), werr)
			a.errBatch = b
		}
		a.cond.Broadcast()
	}
	if a.err != nil && mine >= a.errBatch {
		return a.err
	}
	return nil // this record's batch was written (a later one may have failed)
}

// encodeLine encodes v as compact JSON without HTML escaping, plus "\n".
func encodeLine(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// runFile is the output file of a run: new, or an existing one to resume.
type runFile struct {
	path string
	f    *os.File // nil until the file is opened for writing
	// existing is the file read back when resuming; nil for a new file.
	existing *runfile.Run
	// repaired describes a repair of a partial last line, if one was made.
	repaired string
}

// prepareRunFile checks the output file before anything runs. A missing or
// empty file is a new run. An existing one is locked, a partial last line
// (left by a crash while a record was written) is repaired, and its
// header must describe the same run as want: the same plan, prompt,
// model settings, engine, dataset and images. want's run id and creation
// time are then replaced by the file's.
func prepareRunFile(path string, want *runfile.Header) (*runFile, error) {
	rf := &runFile{path: path}
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		// A run file is read back to resume: a directory, FIFO, device or
		// socket cannot be one (a FIFO would hang, a directory fail late).
		return nil, usage(fmt.Errorf("--out %s: is %s; a run file must be a regular file (a rerun reads it back to resume)", path, fileKind(fi.Mode())))
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return rf, nil
	}
	if err != nil {
		return nil, fmt.Errorf("--out %s: %v", path, unwrapPathError(err))
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			f.Close()
		}
	}()
	data, err := readAllFile(f)
	if err != nil {
		return nil, err
	}
	if n := len(data); n > 0 && data[n-1] != '\n' {
		data, err = rf.repair(f, data)
		if err != nil {
			return nil, err
		}
	}
	rf.f = f
	ok = true
	if len(bytes.TrimSpace(data)) == 0 {
		return rf, nil // empty (or only a partial header): a new run
	}
	run, err := runfile.Read(bytes.NewReader(data), path, runfile.ReadOptions{})
	if err != nil {
		ok = false
		return nil, fmt.Errorf("%w\n(--out names an existing run file to resume; it must be a docscore run file, unchanged)", err)
	}
	if diffs := headerDiffs(&run.Header, want); len(diffs) > 0 {
		ok = false
		return nil, &inputerr.Error{File: path, Line: run.HeaderLine, Msg: fmt.Sprintf(
			"cannot resume: this run file was made with other settings:\n  %s\nRerun with the same settings to resume it, or give another --out for a new run.",
			strings.Join(diffs, "\n  "))}
	}
	want.RunID = run.Header.RunID
	want.CreatedAt = run.Header.CreatedAt
	want.DocscoreVersion = run.Header.DocscoreVersion
	rf.existing = run
	return rf, nil
}

// fileKind names the kind of a file that is not a regular one.
func fileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// repair handles a last line without its newline. A line that is a
// complete record gets its newline; a partial one (a crash while it was
// written) is saved to <out>.partial-<time> and cut off, so that nothing
// is lost and the file holds only whole records.
func (rf *runFile) repair(f *os.File, data []byte) ([]byte, error) {
	lines := ingest.NewLineIndex(data)
	cut := lines.Offset(lines.NumLines(), 1) // where the last line starts
	tail := data[cut:]
	if json.Valid(tail) {
		probe := append(bytes.Clone(data), '\n')
		if _, err := runfile.Read(bytes.NewReader(probe), rf.path, runfile.ReadOptions{}); err == nil {
			if _, err := f.WriteAt([]byte("\n"), int64(len(data))); err != nil {
				return nil, err
			}
			if err := f.Sync(); err != nil {
				return nil, err
			}
			rf.repaired = fmt.Sprintf("the last line of %s had no newline; added it", rf.path)
			return probe, nil
		}
	}
	saved := fmt.Sprintf("%s.partial-%s", rf.path, time.Now().UTC().Format("20060102T150405.000000000Z"))
	if err := os.WriteFile(saved, tail, 0o666); err != nil {
		return nil, fmt.Errorf("saving the partial last line of %s: %w", rf.path, err)
	}
	if err := f.Truncate(int64(cut)); err != nil {
		return nil, err
	}
	if err := f.Sync(); err != nil {
		return nil, err
	}
	rf.repaired = fmt.Sprintf("the last line of %s was cut short (%d bytes, a crash while it was written): moved it to %s",
		rf.path, len(tail), saved)
	return data[:cut], nil
}

// create opens a new run file (exclusively: a run that appeared meanwhile
// is not overwritten), locks it and syncs its directory entry.
func (rf *runFile) create() error {
	if rf.f != nil {
		return nil
	}
	f, err := os.OpenFile(rf.path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return fmt.Errorf("--out %s: %v", rf.path, unwrapPathError(err))
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return err
	}
	if d, err := os.Open(filepath.Dir(rf.path)); err == nil {
		_ = d.Sync()
		d.Close()
	}
	rf.f = f
	return nil
}

// appender positions the file for appending and returns its appender.
func (rf *runFile) appender(doSync bool) (*appender, error) {
	if _, err := rf.f.Seek(0, 2); err != nil {
		return nil, err
	}
	return newAppender(rf.f, doSync), nil
}

func (rf *runFile) Close() error {
	if rf.f == nil {
		return nil
	}
	return rf.f.Close()
}

func readAllFile(f *os.File) ([]byte, error) {
	if _, err := f.Seek(0, 0); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if _, err := b.ReadFrom(f); err != nil {
		return nil, fmt.Errorf("reading %s: %w", f.Name(), err)
	}
	return b.Bytes(), nil
}

// headerDiffs lists how two headers differ in what defines a run: every
// member except the run id, the creation time and the docscore version.
func headerDiffs(have, want *runfile.Header) []string {
	var d []string
	if !slices.Equal(have.Planned.Phases, want.Planned.Phases) {
		d = append(d, fmt.Sprintf("planned phases: file %v, now %v", have.Planned.Phases, want.Planned.Phases))
	}
	if !slices.Equal(have.Planned.SampleIDs, want.Planned.SampleIDs) {
		d = append(d, fmt.Sprintf("planned samples: file %d (%s), now %d (%s)", len(have.Planned.SampleIDs), idRange(have.Planned.SampleIDs),
			len(want.Planned.SampleIDs), idRange(want.Planned.SampleIDs)))
	}
	if have.PromptSHA256 != want.PromptSHA256 {
		d = append(d, fmt.Sprintf("prompt: file sha256 %s, now %s", orNone(have.PromptSHA256), orNone(want.PromptSHA256)))
	}
	if have.DeadlineS != want.DeadlineS {
		d = append(d, fmt.Sprintf("deadline: file %gs, now %gs", have.DeadlineS, want.DeadlineS))
	}
	if !jsonEqual(have.Model, want.Model) {
		d = append(d, fmt.Sprintf("model settings: file %s, now %s", jsonText(have.Model), jsonText(want.Model)))
	}
	if !jsonEqual(have.Engine, want.Engine) {
		d = append(d, fmt.Sprintf("engine: file %s, now %s", jsonText(have.Engine), jsonText(want.Engine)))
	}
	if !jsonEqual(have.Dataset, want.Dataset) {
		d = append(d, fmt.Sprintf("dataset: file %s, now %s", jsonText(have.Dataset), jsonText(want.Dataset)))
	}
	if !jsonEqual(have.Samples, want.Samples) && slices.Equal(have.Planned.SampleIDs, want.Planned.SampleIDs) {
		for i := range min(len(have.Samples), len(want.Samples)) {
			h, w := have.Samples[i], want.Samples[i]
			switch {
			case h.ImageSHA256 != w.ImageSHA256:
				d = append(d, fmt.Sprintf("image of %s: file sha256 %s, now %s", w.SampleID, h.ImageSHA256, w.ImageSHA256))
			case !jsonEqual(h, w):
				d = append(d, fmt.Sprintf("sample %s: its image name or label differs", w.SampleID))
			}
		}
		if len(have.Samples) != len(want.Samples) {
			d = append(d, fmt.Sprintf("samples: file lists %d, now %d", len(have.Samples), len(want.Samples)))
		}
	}
	return d
}

func idRange(ids []string) string {
	switch len(ids) {
	case 0:
		return "none"
	case 1:
		return ids[0]
	}
	return ids[0] + " … " + ids[len(ids)-1]
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// jsonEqual compares two values by their JSON encoding (nil and empty
// differ only where the encoding does).
func jsonEqual(a, b any) bool {
	if reflect.DeepEqual(a, b) {
		return true
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
