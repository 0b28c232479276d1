package tabular

// AddIntervals exposes addIntervals to the benchmarks of package
// tabular_test.
var AddIntervals = addIntervals

// PreviewComparison exposes previewComparison to the benchmarks.
var PreviewComparison = previewComparison
