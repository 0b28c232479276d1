package api_test

import (
	"fmt"
	"testing"

	"github.com/docscore/docscore/scoring/api"
)

func TestSetParam(t *testing.T) {
	o := api.ScoreTabularOperation()
	req := o.New().(*api.TabularRequest)
	for _, c := range []struct {
		name string
		v    any
		ok   bool
	}{
		{"gate", 0.8, true},
		{"seed", uint64(7), true}, // a field of the embedded IntervalOptions
		{"skip_bad_lines", true, true},
		{"format", "md", true},
		{"gate", 1, false},      // an int for a float
		{"nope", true, false},   // no such option
		{"gt", "x.csv", false},  // an input, not an option
		{"preview", nil, false}, // no value
	} {
		err := o.SetParam(req, c.name, c.v)
		if (err == nil) != c.ok {
			t.Errorf("SetParam(%s, %#v): %v, want ok %v", c.name, c.v, err, c.ok)
		}
	}
	if req.Gate == nil || *req.Gate != 0.8 || req.Seed == nil || *req.Seed != 7 || !req.SkipBadLines || req.Format != "md" {
		t.Errorf("request after SetParam: %+v", req)
	}
}

func ExampleOperation_SetParam() {
	o := api.ScoreTabularOperation()
	req := o.New().(*api.TabularRequest)
	gate, _ := o.Param("gate")
	fmt.Println(gate.FlagName(), gate.Kind, gate.DefaultText(), gate.Range)
	if err := o.SetParam(req, "gate", 0.8); err != nil {
		panic(err)
	}
	fmt.Println(*req.Gate)
	// Output:
	// gate float 0.7 a similarity in (0, 1]
	// 0.8
}
