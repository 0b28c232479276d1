//go:build e2e && large

package e2e

// The page's streamed scoring of a large runs file (make
// test-page-large): a generated corpus of DOCSCORE_LARGE_IMAGES images
// (160,000 make about 1 GB) scored by the command line (--jobs 1 and 2)
// and dropped into the page with a pool of 1 and of 2 workers: images/s,
// the longest main-thread task, and the peak memory of every process of
// the browser.

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/docscore/docscore/scoring/tabular/tabulartest"
)

// browserRSS sums the proportional resident memory (PSS, bytes: shared
// pages divided among the processes sharing them) of the test browser's
// processes: the one started with profileDir and its descendants.
func browserRSS() int64 {
	parent := map[int]int{}
	var roots []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(f) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		parent[pid] = ppid
		if cmd, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline")); err == nil && bytes.Contains(cmd, []byte("--user-data-dir="+profileDir)) {
			roots = append(roots, pid)
		}
	}
	in := map[int]bool{}
	for _, r := range roots {
		in[r] = true
	}
	var total int64
	for pid := range parent {
		for p := pid; p > 1; p = parent[p] {
			if in[p] {
				if b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "smaps_rollup")); err == nil {
					for _, l := range strings.Split(string(b), "\n") {
						if f := strings.Fields(l); len(f) >= 2 && f[0] == "Pss:" {
							n, _ := strconv.ParseInt(f[1], 10, 64)
							total += n << 10
						}
					}
				}
				break
			}
		}
	}
	return total
}

func TestStreamedLargeFile(t *testing.T) {
	images := envInt("DOCSCORE_LARGE_IMAGES", 160000)
	dir := t.TempDir()
	c := tabulartest.New(tabulartest.Large(images, 10))
	paths := writeFiles(t, dir, c.GT)
	runsPath := filepath.Join(dir, "runs.jsonl")
	out, err := os.Create(runsPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.WriteRuns(out, tabulartest.RunsOptions{Images: images, Responses: true}); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(runsPath)
	t.Logf("%d images, runs file %.0f MB", images, float64(st.Size())/1e6)
	args := []string{"score", "tabular", "--gt"}
	for _, p := range paths {
		args = append(args, filepath.Base(p))
	}
	args = append(args, "--runs", "runs.jsonl", "--format", "csv", "--out", filepath.Join(dir, "report.csv"))
	for _, jobs := range []string{"1", "2"} {
		start := time.Now()
		cliRun(t, dir, append(args, "--jobs", jobs)...)
		t.Logf("native, --jobs %s: %.1f s, %.0f images/s", jobs, time.Since(start).Seconds(), float64(images)/time.Since(start).Seconds())
	}
	paths = append(paths, runsPath)
	rates := map[int]float64{}
	for _, workers := range []int{1, 2} {
		ctx := streamTab(t, 50*time.Minute, workers)
		if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`window.__longTasks = []; window.__longAt = [];
			new PerformanceObserver(list => { for (const e of list.getEntries()) { window.__longTasks.push(Math.round(e.duration)); window.__longAt.push([Math.round(e.startTime), Math.round(e.duration)]); } }).observe({type: 'longtask'});`)); err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		var peak int64
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			for {
				if n := browserRSS(); n > 0 {
					mu.Lock()
					peak = max(peak, n)
					mu.Unlock()
				}
				select {
				case <-stop:
					return
				case <-time.After(250 * time.Millisecond):
				}
			}
		}()
		base := browserRSS()
		start := time.Now()
		act(t, ctx, drop(paths...))
		elapsed := time.Since(start)
		close(stop)
		<-done
		s := streamedInfo(t, ctx)
		if s == nil || s.Images != images {
			var alert string
			evalJSON(t, ctx, `JSON.stringify(document.getElementById('error').textContent)`, &alert)
			t.Fatalf("%d workers: streamed %+v, want %d images (%s)", workers, s, images, alert)
		}
		var long []int
		evalJSON(t, ctx, `new Promise(resolve => setTimeout(() => resolve(window.__longTasks), 500))`, &long)
		sort.Ints(long)
		longest := 0
		if len(long) > 0 {
			longest = long[len(long)-1]
		}
		rates[workers] = float64(s.Images) / (s.MS / 1000)
		t.Logf("page, %d worker(s): %.1f s from the drop (scoring %.1f s), %.0f images/s; longest main-thread task %d ms (%d over 50 ms); browser memory %.0f MB before, peak %.0f MB",
			workers, elapsed.Seconds(), s.MS/1000, rates[workers], longest, countOver(long, 50), float64(base)/1e6, float64(peak)/1e6)
		if longest > 50 {
			var at, marks any
			evalJSON(t, ctx, `window.__longAt`, &at)
			evalJSON(t, ctx, `performance.getEntriesByType('mark').map(m => [m.name, Math.round(m.startTime)])`, &marks)
			t.Logf("long tasks [start, ms]: %v; marks: %v", at, marks)
			t.Errorf("%d workers: a main-thread task took %d ms (target: none over 50 ms)", workers, longest)
		}
		chromedp.Do(ctx, chromedp.Navigate("about:blank"))
	}
	t.Logf("pool of 2 against 1 worker: %.2f×", rates[2]/rates[1])
}

func countOver(xs []int, limit int) int {
	n := 0
	for _, x := range xs {
		if x > limit {
			n++
		}
	}
	return n
}

// TestBenchmarkCorpusStreamedAndWhole drops the 450-image benchmark
// corpus (2.8 MB: below the streaming threshold, so scored whole as
// before) into the page as it is and with its runs file streamed by a
// pool of 2, interleaved, and logs the medians from the drop to the
// results.
func TestBenchmarkCorpusStreamedAndWhole(t *testing.T) {
	paths, _ := writeCorpus(t, t.TempDir(), tabulartest.Benchmark, true)
	whole, _ := newTab(t, 10*time.Minute)
	streamed := streamTab(t, 10*time.Minute, 2)
	var times [2][]float64
	for round := 0; round < 5; round++ {
		for i, ctx := range []context.Context{whole, streamed} {
			clearIfAny(t, ctx)
			start := time.Now()
			act(t, ctx, drop(paths...))
			times[i] = append(times[i], float64(time.Since(start).Milliseconds()))
		}
	}
	if s := streamedInfo(t, streamed); s == nil || s.Images != 450 {
		t.Fatalf("streamed: %+v", s)
	}
	if s := streamedInfo(t, whole); s != nil {
		t.Fatalf("the whole path streamed: %+v", s)
	}
	for i := range times {
		sort.Float64s(times[i])
	}
	t.Logf("450-image benchmark corpus, drop to results (ms), 5 rounds interleaved: whole (today's path) median %.0f %v; streamed by 2 workers median %.0f %v",
		times[0][2], times[0], times[1][2], times[1])
}

// clearIfAny removes the page's files, when it has any.
func clearIfAny(t *testing.T, ctx context.Context) {
	t.Helper()
	disabled, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById('clear').disabled`))
	if err != nil {
		t.Fatal(err)
	}
	if !disabled {
		act(t, ctx, chromedp.Click(chromedp.ID("clear")))
	}
}
