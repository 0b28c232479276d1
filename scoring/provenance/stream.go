package provenance

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
)

// Hash takes an input's byte count and sha256 as it goes through a
// streamed scoring, so that a file read once (standard input, a FIFO, a
// runs file larger than memory) is described without a second read.
type Hash struct {
	role, name string
	h          hash.Hash
	n          int64
}

// NewHash starts the description of the input role, named name.
func NewHash(role, name string) *Hash {
	return &Hash{role: role, name: name, h: newSHA256()}
}

// Write adds p to the input's bytes.
func (h *Hash) Write(p []byte) (int, error) {
	h.n += int64(len(p))
	return h.h.Write(p)
}

// Reader returns r, every byte read from it also written to h.
func (h *Hash) Reader(r io.Reader) io.Reader { return io.TeeReader(r, h) }

// Input is the input as far as it went through h.
func (h *Hash) Input() Input {
	return Input{Role: h.role, Name: Name(h.name), Bytes: h.n, SHA256: hex.EncodeToString(h.h.Sum(nil))}
}

// reportClose is the last line of an indented JSON report, which Tail replaces.
var reportClose = []byte("\n}\n")

// TailWriter passes a JSON report streamed to it on to its destination,
// holding back only the last three bytes, so that Finish can write the
// provenance member in place of the report's closing "\n}\n" (Tail): the
// report is never held whole.
type TailWriter struct {
	w    io.Writer
	held []byte
}

// NewTailWriter writes to w.
func NewTailWriter(w io.Writer) *TailWriter {
	return &TailWriter{w: w, held: make([]byte, 0, len(reportClose))}
}

// Write passes on all of p but what may be the report's last three bytes.
func (t *TailWriter) Write(p []byte) (int, error) {
	if len(t.held)+len(p) <= len(reportClose) {
		t.held = append(t.held, p...)
		return len(p), nil
	}
	if len(p) >= len(reportClose) {
		if len(t.held) > 0 {
			if _, err := t.w.Write(t.held); err != nil {
				return 0, err
			}
		}
		if _, err := t.w.Write(p[:len(p)-len(reportClose)]); err != nil {
			return 0, err
		}
		t.held = append(t.held[:0], p[len(p)-len(reportClose):]...)
		return len(p), nil
	}
	// Fewer than three new bytes: some held ones go out.
	all := append(t.held, p...)
	out := len(all) - len(reportClose)
	if _, err := t.w.Write(all[:out]); err != nil {
		return 0, err
	}
	t.held = append(t.held[:0], all[out:]...)
	return len(p), nil
}

// ReadFrom passes on what r gives through the destination's ReadFrom
// where it has one (a report's rows copied from a spool file within the
// kernel), after its first bytes and the held ones: the report's close
// must come in a later Write (Finish refuses a report whose close came
// through ReadFrom). A reader that gives nothing leaves the held bytes
// held. Without a ReadFrom it writes as Write does.
func (t *TailWriter) ReadFrom(r io.Reader) (int64, error) {
	rf, ok := t.w.(io.ReaderFrom)
	if !ok {
		return io.Copy(struct{ io.Writer }{t}, r)
	}
	var first [512]byte
	k, err := io.ReadFull(r, first[:])
	if k > 0 {
		if _, err := t.Write(first[:k]); err != nil {
			return 0, err
		}
	}
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		return int64(k), nil
	case err != nil:
		return int64(k), err
	}
	if len(t.held) > 0 {
		if _, err := t.w.Write(t.held); err != nil {
			return int64(k), err
		}
		t.held = t.held[:0]
	}
	n, err := rf.ReadFrom(r)
	return int64(k) + n, err
}

// Finish writes the provenance member and the report's reportClose in place of
// the held "\n}\n"; a report that does not end so is an error.
func (t *TailWriter) Finish(p *Provenance) error {
	if !bytes.Equal(t.held, reportClose) {
		return fmt.Errorf("provenance: the streamed report does not end in an indented JSON object's reportClose")
	}
	tail, err := Tail(p)
	if err != nil {
		return err
	}
	_, err = t.w.Write(tail)
	return err
}
