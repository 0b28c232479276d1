// Package receiptstest writes generated pilot run files for load tests,
// benchmarks and the streamed scoring's tests: records over given
// CORD-style references (the bundled sample's), with a fixed seed, as a
// stream (nothing grows with the number of records).
package receiptstest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/docscore/docscore/scoring/receipts/receiptsread"
)

// Options say what to write.
type Options struct {
	// Records is the number of measured request records, rounded down to
	// a whole number of phases (one record per sample each), at least one
	// phase.
	Records int
	// BadLines are records (0-based) before which a malformed line is
	// written: a run scored with SkipBadLines stays complete.
	BadLines []int
	// Seed is the random stream's seed (0 is a seed like any other).
	Seed uint64
}

// Phases is the number of phases WriteRun plans for n records over
// samples samples.
func Phases(n, samples int) int { return max(1, n/max(samples, 1)) }

// WriteRun writes a run file over refs: a header planning phases c1, c2,
// … and every sample, one warmup per sample, then every phase's records
// in plan order, and an end record. Most records are ok and stop with
// the reference read with OCR errors (characters changed, words dropped,
// layout markup); some are truncated, timed out, failed over HTTP, empty,
// or (when the reference has a gt_parse) a JSON parse. It returns the
// number of lines written.
func WriteRun(w io.Writer, refs receiptsread.References, o Options) (int, error) {
	bw := bufio.NewWriterSize(w, 1<<16)
	rng := rand.New(rand.NewPCG(o.Seed, 0x5eed))
	phases := Phases(o.Records, len(refs))
	ids := make([]string, len(refs))
	for i, r := range refs {
		ids[i] = r.SampleID
	}
	phaseNames := make([]string, phases)
	for i := range phaseNames {
		phaseNames[i] = fmt.Sprintf("c%d", i+1)
	}
	hdr := map[string]any{"type": "run", "run_id": fmt.Sprintf("generated-%d", o.Seed),
		"planned": map[string]any{"phases": phaseNames, "sample_ids": ids},
		"model":   map[string]any{"name": "generated/ocr", "max_tokens": 4096}}
	lines := 0
	enc := func(v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		bw.Write(b)
		lines++
		return bw.WriteByte('\n')
	}
	if err := enc(hdr); err != nil {
		return lines, err
	}
	bad := map[int]bool{}
	for _, b := range o.BadLines {
		bad[b] = true
	}
	for i := range refs {
		if err := enc(record(rng, "warmup", &refs[i])); err != nil {
			return lines, err
		}
	}
	k := 0
	for _, p := range phaseNames {
		for i := range refs {
			if bad[k] {
				fmt.Fprintf(bw, "{\"type\": \"request\", \"phase\": %q, \"sample_id\": \"cut short\n", p)
				lines++
			}
			if err := enc(record(rng, p, &refs[i])); err != nil {
				return lines, err
			}
			k++
		}
	}
	if err := enc(map[string]any{"type": "end", "status": "complete"}); err != nil {
		return lines, err
	}
	return lines, bw.Flush()
}

// request is a run record as the runner writes it.
type request struct {
	Type         string  `json:"type"`
	Phase        string  `json:"phase"`
	SampleID     string  `json:"sample_id"`
	Status       string  `json:"status"`
	FinishReason *string `json:"finish_reason"`
	Output       *string `json:"output"`
	LatencyS     float64 `json:"latency_s"`
	Error        *string `json:"error"`
}

func str(s string) *string { return &s }

func record(rng *rand.Rand, phase string, ref *receiptsread.Reference) request {
	r := request{Type: "request", Phase: phase, SampleID: ref.SampleID, Status: "ok",
		FinishReason: str("stop"), LatencyS: float64(rng.IntN(9000)+500) / 1000}
	switch x := rng.IntN(100); {
	case x < 2:
		r.Status, r.FinishReason, r.Error = "timeout", nil, str("deadline of 120 s passed")
	case x < 4:
		r.Status, r.FinishReason, r.Error = "http_error", nil, str("HTTP 503: server overloaded")
	case x < 5:
		r.Output = str("")
	case x < 8:
		t := ocr(rng, ref.Text)
		r.FinishReason, r.Output = str("length"), str(t[:len(t)/2])
	case x < 14 && ref.GTParse != nil:
		r.Output = str(parse(rng, ref.GTParse))
	default:
		r.Output = str(ocr(rng, ref.Text))
	}
	return r
}

// ocr reads text with errors: a character changed here and there, a
// word dropped, layout markup around lines.
func ocr(rng *rand.Rand, text string) string {
	words := strings.Fields(text)
	var b strings.Builder
	for i, w := range words {
		if rng.IntN(40) == 0 {
			continue
		}
		if i%6 == 0 {
			fmt.Fprintf(&b, "<x_0.%04d><y_0.%04d>", rng.IntN(10000), rng.IntN(10000))
		} else if i > 0 {
			b.WriteByte(' ')
		}
		if rng.IntN(25) == 0 {
			r := []rune(w)
			r[rng.IntN(len(r))] = []rune("0O1lI5S8B")[rng.IntN(9)]
			w = string(r)
		}
		b.WriteString(w)
		if i%6 == 5 {
			b.WriteString("<class_Text>")
		}
	}
	return b.String()
}

// parse is a Donut-style prediction: the gt_parse, a digit changed now
// and then, sometimes in a ``` fence.
func parse(rng *rand.Rand, gt json.RawMessage) string {
	b := []byte(string(gt))
	for i := range b {
		if b[i] >= '0' && b[i] <= '9' && rng.IntN(30) == 0 {
			b[i] = byte('0' + rng.IntN(10))
		}
	}
	if rng.IntN(3) == 0 {
		return "```json\n" + string(b) + "\n```"
	}
	return string(b)
}

// Repeat returns n references: refs in turn, each under a new sample id
// (gen-00000, gen-00001, …) and source (gen-00000.json, …), as
// "gencorpus -kind receipts -samples n" writes them.
func Repeat(refs receiptsread.References, n int) receiptsread.References {
	out := make(receiptsread.References, n)
	for i := range out {
		out[i] = refs[i%len(refs)]
		out[i].SampleID = fmt.Sprintf("gen-%05d", i)
		out[i].Source = out[i].SampleID + ".json"
	}
	return out
}
