package pagetext

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// countdown is a Cancel that reports context.Canceled from its left+1-th
// question on, and counts the questions.
type countdown struct{ left, asked int }

func (c *countdown) Err() error {
	c.asked++
	if c.asked > c.left {
		return context.Canceled
	}
	return nil
}

// page returns a page of n characters and its OCR at 1 % errors.
func page(n int) (gt, ocr string) {
	r := rand.New(rand.NewPCG(7, 7))
	g := benchText(r, n)
	return strings.Join(g, ""), strings.Join(withErrors(r, g, 0.01), "")
}

// TestAlignStopsWhenCancelled: an alignment taken past the
// diagonal-transition method (FrontCells 1) to the bit-parallel band asks
// its Cancel all along and returns context.Canceled at the first
// question after cancellation, whichever phase it is in: the work after
// Ctrl-C is one step (at most 256 columns of a pass, or of the segment
// the trace back recomputes), not the page. Two pages of 200,000
// characters cancelled before the start, or early in the first pass,
// return at once; the later phases are taken on pages of 20,000 (the
// steps are the same).
func TestAlignStopsWhenCancelled(t *testing.T) {
	long, longOCR := page(200_000)
	short, shortOCR := page(20_000)
	// The fronts ask once here. Of the OCR's m columns, each of the two
	// passes then asks every 256 columns, the trace back once a segment
	// of ⌈√m⌉ columns (fewer than 256).
	m := len(Clusters(shortOCR))
	pass := (m + 255) / 256
	for _, c := range []struct {
		phase   string
		gt, ocr string
		left    int
	}{
		{"before the start, 200,000 characters", long, longOCR, 0},
		{"early in the first pass, 200,000 characters", long, longOCR, 1 + 20},
		{"in the first pass", short, shortOCR, 1 + pass/2},
		{"in the second pass", short, shortOCR, 1 + pass + pass/2},
		{"in the trace back", short, shortOCR, 1 + 2*pass + 70},
	} {
		cd := &countdown{left: c.left}
		start := time.Now()
		p, err := ScorePage(c.gt, c.ocr, AlignLimits{FrontCells: 1, Cancel: cd})
		if !errors.Is(err, context.Canceled) || p != nil {
			t.Fatalf("cancelled %s (after %d questions): %v", c.phase, c.left, err)
		}
		if cd.asked != c.left+1 {
			t.Fatalf("cancelled %s after %d questions, it asked %d times: it went on after cancellation", c.phase, c.left, cd.asked)
		}
		t.Logf("cancelled %s (question %d): returned after %v", c.phase, c.left+1, time.Since(start).Round(time.Millisecond))
	}
	// Uncancelled, the short page asks in every phase and scores as
	// without a Cancel.
	cd := &countdown{left: 1 << 40}
	p, err := ScorePage(short, shortOCR, AlignLimits{FrontCells: 1, Cancel: cd})
	q, err2 := ScorePage(short, shortOCR, AlignLimits{FrontCells: 1})
	if err != nil || err2 != nil || p.CharEdits != q.CharEdits || len(p.CharOps) != len(q.CharOps) {
		t.Fatalf("with a Cancel %v %v; without %v %v", p, err, q, err2)
	}
	if cd.asked < 1+2*pass+100 {
		t.Fatalf("the short page asked %d times, want one question a step of every phase", cd.asked)
	}
}

// TestScoreRunsStopsInsideAPage: a context cancelled while the one line
// of a runs file is being aligned stops ScoreRuns inside that alignment.
func TestScoreRunsStopsInsideAPage(t *testing.T) {
	gt, ocr := page(200_000)
	ctx, cancel := context.WithCancel(context.Background())
	line := `{"model":"m","phase":"p","run":1,"page":"p1","text":` + jsonString(ocr) + "}\n"
	// Cancelled once the scoring has started: after the line is read
	// and extracted, inside the alignment.
	c := &hook{ctx: ctx, after: 3, fire: cancel}
	start := time.Now()
	_, err := ScoreRuns(c, []Input{{Name: "p1.gt.txt", Data: []byte(gt)}}, "runs.jsonl", strings.NewReader(line), ReportOptions{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if c.asked > c.after+2 {
		t.Fatalf("asked %d times after cancelling at %d", c.asked, c.after)
	}
	t.Logf("stopped %v after the start, %d questions", time.Since(start).Round(time.Millisecond), c.asked)
}

// hook is a Cancel over ctx that calls fire at its after-th question.
type hook struct {
	ctx          context.Context
	after, asked int
	fire         func()
}

func (h *hook) Err() error {
	h.asked++
	if h.asked == h.after {
		h.fire()
	}
	return h.ctx.Err()
}

func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte("0123456789abcdef"[r>>4])
			b.WriteByte("0123456789abcdef"[r&15])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
