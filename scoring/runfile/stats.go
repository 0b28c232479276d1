package runfile

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// PhaseStats summarizes the requests of one phase of a run: how they
// ended, how long they took and how fast the phase went. It is computed
// from the run file alone (Stats), so every host reports the same numbers.
type PhaseStats struct {
	Phase string `json:"phase"`
	// Concurrency is the number in a phase name cN (1 for warmups, which
	// run one at a time); null for other names.
	Concurrency *int `json:"concurrency"`
	// Requests counts every request record of the phase.
	Requests int          `json:"requests"`
	Statuses StatusCounts `json:"statuses"`
	// FinishReasons counts the requests by finish reason ("null" when
	// there was none).
	FinishReasons map[string]int `json:"finish_reasons"`
	// EmptyOutputs counts the ok requests whose output is blank;
	// Truncated the requests with finish reason "length".
	EmptyOutputs int `json:"empty_outputs"`
	Truncated    int `json:"truncated"`
	// LatencyS summarizes the latencies of the requests that were not
	// cancelled; null when there is none.
	LatencyS *Latency `json:"latency_s"`
	// BusyS is the time during which at least one timed request of the
	// phase was in flight (the union of the requests' intervals, so the
	// pause of an interrupted and resumed run is left out); WallS runs
	// from the first start to the last end. Both are null when no request
	// has a readable started_at.
	BusyS *float64 `json:"busy_s"`
	WallS *float64 `json:"wall_s"`
	// RequestsPerS is the timed requests that were not cancelled divided
	// by BusyS.
	RequestsPerS *float64   `json:"requests_per_s"`
	Usage        TokenUsage `json:"usage"`
}

// StatusCounts counts requests by status.
type StatusCounts struct {
	OK             int `json:"ok"`
	Timeout        int `json:"timeout"`
	HTTPError      int `json:"http_error"`
	TransportError int `json:"transport_error"`
	Cancelled      int `json:"cancelled"`
}

// Failed is the number of requests whose status is not ok.
func (c StatusCounts) Failed() int { return c.Timeout + c.HTTPError + c.TransportError + c.Cancelled }

// Latency holds latency percentiles in seconds (linear interpolation
// between the closest ranks, as NumPy's default: the p-th percentile of
// n sorted values is at rank (n-1)·p/100).
type Latency struct {
	N    int     `json:"n"`
	Mean float64 `json:"mean"`
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P99  float64 `json:"p99"`
	Max  float64 `json:"max"`
}

// TokenUsage is the token usage of a phase.
type TokenUsage struct {
	// Requests counts the requests whose answer reported usage.
	Requests         int `json:"requests"`
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	// CompletionTokensPerS is CompletionTokens / BusyS; null without
	// usage or timing.
	CompletionTokensPerS *float64 `json:"completion_tokens_per_s"`
}

// Percentile returns the p-th percentile (0 ≤ p ≤ 100) of sorted values by
// linear interpolation between the closest ranks; NaN when there are none.
func Percentile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	p = min(max(p, 0), 100)
	rank := float64(n-1) * p / 100
	lo := int(math.Floor(rank))
	hi := min(lo+1, n-1)
	frac := rank - float64(lo)
	return sorted[lo] + (sorted[hi]-sorted[lo])*frac
}

// interval is one request's [start, end) in nanoseconds since the Unix
// epoch (integers, so that sums are exact).
type interval struct{ start, end int64 }

// busySeconds returns the length of the union of the intervals and the
// span from the first start to the last end, in seconds.
func busySeconds(iv []interval) (busy, wall float64) {
	b, w := busyNanos(iv)
	return float64(b) / 1e9, float64(w) / 1e9
}

func busyNanos(iv []interval) (busy, wall int64) {
	if len(iv) == 0 {
		return 0, 0
	}
	slices.SortFunc(iv, func(a, b interval) int {
		switch {
		case a.start < b.start:
			return -1
		case a.start > b.start:
			return 1
		}
		return 0
	})
	curS, curE := iv[0].start, iv[0].end
	last := iv[0].end
	for _, x := range iv[1:] {
		last = max(last, x.end)
		if x.start > curE {
			busy += curE - curS
			curS, curE = x.start, x.end
			continue
		}
		curE = max(curE, x.end)
	}
	busy += curE - curS
	return busy, last - iv[0].start
}

// PhaseConcurrency returns the concurrency a phase name says: N for cN,
// 1 for the warmup phase; ok is false for other names.
func PhaseConcurrency(phase string) (int, bool) {
	if phase == WarmupPhase {
		return 1, true
	}
	if rest, ok := strings.CutPrefix(phase, "c"); ok {
		if n, err := strconv.Atoi(rest); err == nil && n > 0 && strconv.Itoa(n) == rest {
			return n, true
		}
	}
	return 0, false
}

// Stats summarizes every phase of a run: the warmup phase first (when it
// has records), then the planned phases in plan order (planned phases
// without records included), then unplanned phases in the order they
// first appear.
func Stats(run *Run) []PhaseStats {
	var order []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			order = append(order, p)
		}
	}
	byPhase := map[string][]*Request{}
	for i := range run.Requests {
		r := &run.Requests[i].Request
		byPhase[r.Phase] = append(byPhase[r.Phase], r)
	}
	if len(byPhase[WarmupPhase]) > 0 {
		add(WarmupPhase)
	}
	for _, p := range run.Header.Planned.Phases {
		add(p)
	}
	for i := range run.Requests {
		add(run.Requests[i].Phase)
	}
	out := make([]PhaseStats, 0, len(order))
	for _, p := range order {
		out = append(out, PhaseStatsOf(p, byPhase[p]))
	}
	return out
}

// PhaseStatsOf summarizes the requests of one phase.
func PhaseStatsOf(phase string, reqs []*Request) PhaseStats {
	st := PhaseStats{Phase: phase, Requests: len(reqs), FinishReasons: map[string]int{}}
	if c, ok := PhaseConcurrency(phase); ok {
		st.Concurrency = &c
	}
	var lat []float64
	var iv []interval
	timed := 0
	for _, r := range reqs {
		switch r.Status {
		case StatusOK:
			st.Statuses.OK++
		case StatusTimeout:
			st.Statuses.Timeout++
		case StatusHTTPError:
			st.Statuses.HTTPError++
		case StatusTransportError:
			st.Statuses.TransportError++
		case StatusCancelled:
			st.Statuses.Cancelled++
		}
		fr := "null"
		if r.FinishReason != nil {
			fr = *r.FinishReason
		}
		st.FinishReasons[fr]++
		if r.Status == StatusOK && strings.TrimSpace(r.OutputString()) == "" {
			st.EmptyOutputs++
		}
		if r.FinishReasonString() == FinishLength {
			st.Truncated++
		}
		if r.Usage != nil {
			st.Usage.Requests++
			st.Usage.PromptTokens += r.Usage.PromptTokens
			st.Usage.CompletionTokens += r.Usage.CompletionTokens
		}
		if r.Status == StatusCancelled || r.LatencyS < 0 || math.IsNaN(r.LatencyS) || math.IsInf(r.LatencyS, 0) {
			continue
		}
		lat = append(lat, r.LatencyS)
		if t, err := time.Parse(time.RFC3339Nano, r.StartedAt); err == nil && r.LatencyS < 1e9 {
			s := t.UnixNano()
			iv = append(iv, interval{s, s + int64(math.Round(r.LatencyS*1e9))})
			timed++
		}
	}
	if len(lat) > 0 {
		slices.Sort(lat)
		sum := 0.0
		for _, v := range lat {
			sum += v
		}
		st.LatencyS = &Latency{N: len(lat), Mean: sum / float64(len(lat)),
			P50: Percentile(lat, 50), P90: Percentile(lat, 90), P99: Percentile(lat, 99), Max: lat[len(lat)-1]}
	}
	if len(iv) > 0 {
		busy, wall := busySeconds(iv)
		st.BusyS, st.WallS = &busy, &wall
		if busy > 0 {
			rps := float64(timed) / busy
			st.RequestsPerS = &rps
			if st.Usage.Requests > 0 {
				tps := float64(st.Usage.CompletionTokens) / busy
				st.Usage.CompletionTokensPerS = &tps
			}
		}
	}
	return st
}
