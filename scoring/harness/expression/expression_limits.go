package expression

// Limits of expression metrics. A hostile expression terminates: its size
// is bounded, every iteration of a predicate (map, filter, all, sum, …) and
// every unit of data an operator or built-in touches costs a step, and a
// run that exceeds its step budget ends with verdict uncertain. The
// expression library's own memory budget bounds what it allocates.
const (
	// DefaultExpressionSteps is the step budget of one evaluation.
	DefaultExpressionSteps = 200_000
	// MaxExpressionSteps is the largest budget a cases file may ask for.
	MaxExpressionSteps = 10_000_000
	// MaxExpressionLength bounds the source of one expression, in bytes.
	MaxExpressionLength = 8192
	// maxExpressionNodes bounds the expression's syntax tree.
	maxExpressionNodes = 2000
	// bytesPerStep is how many bytes of a string one step pays for.
	bytesPerStep = 64
)

// disabledBuiltins are expression built-ins whose result depends on the
// host (the clock, the local time zone), which would break byte-identical
// reports.
var disabledBuiltins = []string{"now", "date", "timezone"}
