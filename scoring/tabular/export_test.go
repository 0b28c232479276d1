package tabular

// AddIntervals exposes addIntervals to the benchmarks of package
// tabular_test.
var AddIntervals = addIntervals
