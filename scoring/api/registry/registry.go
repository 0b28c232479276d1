// Package registry is docscore's operation registry: every operation of
// every family (scoring/api's family lists), each declared once with its
// inputs and options (api.Operation, api.Param, api.Input). Hosts
// dispatch through it or are generated from it: the command line
// registers its flags from each operation's Params, the HTTP API serves
// each operation with a Route, and npm's functions and .d.ts and
// Python's typed functions are generated from it
// (cmd/docscore/internal/hostgen). Tests in every host fail when a host's
// surface differs from it; docs/architecture.md walks through adding an
// operation.
//
// It links every family, so the page's WebAssembly cores, which serve
// one family each, take their family's list instead.
package registry

//go:generate go run ../../../cmd/docscore/internal/hostgen/run -root ../../..

import (
	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/api/compareapi"
	"github.com/docscore/docscore/scoring/api/evalapi"
	"github.com/docscore/docscore/scoring/api/receiptsapi"
	"github.com/docscore/docscore/scoring/api/tablesapi"
	"github.com/docscore/docscore/scoring/api/textapi"
)

// Families lists the scoring families in the order hosts list them, each
// with its operations.
func Families() []Family {
	return []Family{
		{"tabular", api.TabularOperations()},
		{"receipts", receiptsapi.Operations()},
		{"tables", tablesapi.Operations()},
		{"text", textapi.Operations()},
		{"eval", evalapi.Operations()},
		{"compare", compareapi.Operations()},
	}
}

// Family is one scoring family and its operations.
type Family struct {
	Name       string
	Operations []api.Operation
}

// Operations lists every operation of every family, in Families' order.
func Operations() []api.Operation {
	var all []api.Operation
	for _, f := range Families() {
		all = append(all, f.Operations...)
	}
	return all
}

// Commands lists the operations the command line answers (those with a
// Command), in Families' order: the operations npm and Python offer.
func Commands() []api.Operation {
	var out []api.Operation
	for _, o := range Operations() {
		if o.Command != "" {
			out = append(out, o)
		}
	}
	return out
}
