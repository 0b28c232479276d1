package sample

import (
	"embed"
	"io/fs"
	"path"
	"sort"

	"github.com/docscore/docscore/scoring/tabular"
)

// Tabular holds the tabular sample: tabular/gt/gt_page_NN.csv,
// tabular/runs.jsonl and tabular/EQUIVALENCES.md (SPEC A).
//
//go:embed tabular
var Tabular embed.FS

// TabularRequest returns a scoring request for the tabular sample, its
// files named "sample/tabular/…"; withRules adds its EQUIVALENCES.md.
func TabularRequest(withRules bool) (tabular.Request, error) {
	var req tabular.Request
	names, err := fs.Glob(Tabular, "tabular/gt/*.csv")
	if err != nil {
		return req, err
	}
	sort.Strings(names)
	read := func(name string) (tabular.File, error) {
		b, err := fs.ReadFile(Tabular, name)
		return tabular.File{Name: path.Join("sample", name), Data: b}, err
	}
	for _, n := range names {
		f, err := read(n)
		if err != nil {
			return req, err
		}
		req.GT = append(req.GT, f)
	}
	if req.Runs, err = read("tabular/runs.jsonl"); err != nil {
		return req, err
	}
	if withRules {
		f, err := read("tabular/EQUIVALENCES.md")
		if err != nil {
			return req, err
		}
		req.Rules = &f
	}
	return req, nil
}
