package stats

// TabularID returns the id of a tabular cell: tabular/<model>/<phase>.
func TabularID(model, phase string) string { return "tabular/" + model + "/" + phase }

// ReceiptsID returns the id of a receipts phase: receipts/<phase>.
func ReceiptsID(phase string) string { return "receipts/" + phase }

// Id prefixes of the two sides of a comparison of reports (SPEC F.3).
const (
	BasePrefix    = "base:"
	NewPrefix     = "new:"
	SettledPrefix = "settled:"
	PreviewPrefix = "preview:"
)

// TextID returns the id of a page-text cell: text/<model>/<phase>.
func TextID(model, phase string) string { return "text/" + model + "/" + phase }
