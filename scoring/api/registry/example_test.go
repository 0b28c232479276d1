package registry_test

import (
	"fmt"

	"github.com/docscore/docscore/scoring/api/registry"
)

// Each operation the command line answers, with its command and the
// flags of its options, as the registry declares them.
func ExampleCommands() {
	for _, o := range registry.Commands() {
		if o.Name != "plan" {
			continue
		}
		fmt.Println(o.Name, "is docscore", o.Command, "and POST", o.Route)
		for _, p := range o.Params {
			fmt.Printf("  --%s (%s, default %s): %s\n", p.FlagName(), p.Kind, p.DefaultText(), p.Help)
		}
	}
	// Output:
	// plan is docscore plan and POST /v1/plan
	//   --format (string, default json): output format: json or md
	//   --pairs (string, default ): the cell pairs to plan: "A:B,…" (model/phase, or a receipts phase)
	//   --effect (float, default 0): the difference to plan for, e.g. 0.01: the paired pages it needs
	//   --alpha (float, default 0.05): significance threshold on Holm-adjusted p-values, strictly between 0 and 1
}
