package donut

import (
	"errors"
	"testing"
)

// FuzzStructured checks that arbitrary JSON parses never panic the
// structured metrics, that accuracy stays in [0, 1], that a parse scores 1
// against itself, and that field counts are consistent.
func FuzzStructured(f *testing.F) {
	f.Add([]byte(`{"menu": [{"nm": "cake", "cnt": "2"}], "total": {"total_price": "10"}}`), []byte(`{"menu": {"nm": "cake"}}`))
	f.Add([]byte(`[1, "a", {"b": null}]`), []byte(`{"a<leaf>": "<leaf>x", "": [[], {}]}`))
	f.Add([]byte(`{"x": 1e400, "y": -0.0, "z": true}`), []byte(`"  "`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		pred, err1 := Parse(a)
		gt, err2 := Parse(b)
		if err1 != nil || err2 != nil {
			return
		}
		acc, err := Accuracy(pred, gt)
		switch {
		case errors.Is(err, ErrEmptyGroundTruth), errors.Is(err, ErrTreesTooLarge):
			return
		case err != nil:
			t.Fatal(err)
		}
		if acc < 0 || acc > 1 {
			t.Fatalf("accuracy %v outside [0, 1]", acc)
		}
		if self, err := Accuracy(gt, gt); err != nil || self != 1 {
			t.Fatalf("self accuracy = %v, %v; want 1", self, err)
		}
		m, p, g := FieldCounts(pred, gt)
		if m > p || m > g {
			t.Fatalf("FieldCounts = %d, %d, %d: matched exceeds a side", m, p, g)
		}
	})
}
