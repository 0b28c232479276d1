package tabular_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/tabular"
)

// TestEmptyRunsReport: a runs file without an image gives "cells": [] (it
// gave null) beside "images": [], in both JSON encodings of the report,
// and a warning naming the file.
func TestEmptyRunsReport(t *testing.T) {
	header := "name,title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count\nAnna Bon,,,,,,,,\n"
	for _, runs := range []string{"", "\n\r\n  \n", "\ufeff"} {
		rep, err := tabular.ScoreRequest(tabular.Request{
			GT:   []tabular.File{{Name: "gt_page_1.csv", Data: []byte(header)}},
			Runs: tabular.File{Name: "runs.jsonl", Data: []byte(runs)},
		})
		if err != nil {
			t.Fatal(err)
		}
		var hand bytes.Buffer
		if err := rep.WriteJSON(&hand); err != nil {
			t.Fatal(err)
		}
		tags, err := json.Marshal(rep)
		if err != nil {
			t.Fatal(err)
		}
		for name, data := range map[string][]byte{"WriteJSON": hand.Bytes(), "struct tags": tags} {
			var got struct {
				Warnings []string         `json:"warnings"`
				Cells    *json.RawMessage `json:"cells"`
				Images   *json.RawMessage `json:"images"`
			}
			if err := json.Unmarshal(data, &got); err != nil {
				t.Fatal(err)
			}
			if got.Cells == nil || string(*got.Cells) != "[]" || got.Images == nil || string(*got.Images) != "[]" {
				t.Errorf("%q, %s: cells %s, images %s; want [] and []", runs, name, deref(got.Cells), deref(got.Images))
			}
			if len(got.Warnings) != 1 || !strings.HasPrefix(got.Warnings[0], "runs.jsonl: no images to score") {
				t.Errorf("%q, %s: warnings %q", runs, name, got.Warnings)
			}
		}
	}
}

func deref(r *json.RawMessage) string {
	if r == nil {
		return "absent"
	}
	return string(*r)
}
