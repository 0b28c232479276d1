package stats

import (
	"errors"
	"reflect"
	"testing"
)

// TestStop: Options.Stop ends a long bootstrap or randomization with its
// error after a few of its questions (every stopEvery draws), not at
// the end; a Stop that answers nil changes no bit of the result. Before
// it, a million replicates ran to the end whatever the host asked.
func TestStop(t *testing.T) {
	a := synthTabular(t, "a", 40, 0.8, "a")
	b := withID(synthTabular(t, "b", 40, 0.7, "b"), "b")
	stopErr := errors.New("stopped")
	for _, tc := range []struct {
		name string
		o    Options
		run  func(o Options) (any, error)
	}{
		{"interval", Options{Level: 0.95, Replicates: MaxDraws, Alpha: 0.05},
			func(o Options) (any, error) { return Interval(a, o) }},
		{"compare bootstrap", Options{Level: 0.95, Replicates: MaxDraws, Alpha: 0.05},
			func(o Options) (any, error) { return Compare(a, b, o) }},
		{"compare permutations", Options{Level: 0.95, Permutations: MaxDraws, Alpha: 0.05},
			func(o Options) (any, error) { return Compare(a, b, o) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			asked := 0
			o := tc.o
			o.Stop = func() error {
				if asked++; asked > 3 {
					return stopErr
				}
				return nil
			}
			if _, err := tc.run(o); !errors.Is(err, stopErr) || asked != 4 {
				t.Fatalf("got %v after %d questions; want the Stop error on the 4th", err, asked)
			}
			small := tc.o
			small.Replicates, small.Permutations = min(small.Replicates, 500), min(small.Permutations, 500)
			want, err := tc.run(small)
			if err != nil {
				t.Fatal(err)
			}
			small.Stop = func() error { return nil }
			got, err := tc.run(small)
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("with a Stop that never stops: %v, result differs: %v", err, !reflect.DeepEqual(got, want))
			}
		})
	}
}
