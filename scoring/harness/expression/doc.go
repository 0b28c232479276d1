// Package expression is the harness's expression metric kind: a metric
// written as an expression (the expr language) over the stage's
// prediction, references and input, bounded in size and in steps so that a
// hostile expression ends. Builds with the noexpr tag (the Worker) leave
// the engine out: NewExpressionMetric then answers ErrNoExpressions.
package expression
