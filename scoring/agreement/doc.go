// Package agreement computes how far raters agree: Krippendorff's α for
// nominal data with missing ratings ([NominalAlpha]), Cohen's κ with its
// confusion matrix ([CohenKappa]), each rater's rate of dissent from a
// decision ([Dissent]) and the rate at which repeated ratings of one unit
// change ([Changes]). It is the arithmetic behind the "agreement" member of
// docscore's judged reports: a panel's judges against each other, a judge
// against people, a judge against itself (samples, reference orders).
//
// Ratings are strings; [Missing] ("") is a rating that was not given. A
// statistic that is undefined on its data (one rater, no variation, no
// pairs) is reported as a nil value with a Reason, never as NaN or a
// made-up 0 or 1.
//
// testdata/gen_vectors.py is an independent implementation in Python
// (standard library, exact fractions) that writes the vectors the tests
// compare against, among them Krippendorff's own worked example.
//
// The package is pure: no I/O, no clocks, no randomness.
package agreement
