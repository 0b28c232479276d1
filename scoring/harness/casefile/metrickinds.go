package casefile

import (
	"fmt"
	"sort"
	"strings"

	"github.com/docscore/docscore/scoring/evalcase"
)

// MetricKinds maps a metric kind to its factory. Hosts add kinds (the
// tabular and receipts scorers, a configured judge) with With.
type MetricKinds map[string]evalcase.MetricFactory

// With returns a copy of k with kind set to f.
func (k MetricKinds) With(kind string, f evalcase.MetricFactory) MetricKinds {
	out := MetricKinds{}
	for n, v := range k {
		out[n] = v
	}
	out[kind] = f
	return out
}

// Names returns the known kinds, sorted.
func (k MetricKinds) Names() []string {
	out := make([]string, 0, len(k))
	for n := range k {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Build returns the metrics of specs, in order.
func (k MetricKinds) Build(specs []evalcase.MetricSpec) ([]evalcase.Metric, error) {
	out := make([]evalcase.Metric, 0, len(specs))
	seen := map[string]bool{}
	for _, s := range specs {
		kind := s.EffectiveKind()
		f, ok := k[kind]
		if !ok {
			return nil, fmt.Errorf("metric %q: unknown kind %q (known: %s)", s.Name, kind, strings.Join(k.Names(), ", "))
		}
		m, err := f(s)
		if err != nil {
			return nil, fmt.Errorf("metric %q: %w", s.Name, err)
		}
		if seen[m.Name()] {
			return nil, fmt.Errorf("metric %q is listed twice", m.Name())
		}
		seen[m.Name()] = true
		out = append(out, m)
	}
	return out, nil
}
