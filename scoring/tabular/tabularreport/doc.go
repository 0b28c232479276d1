// Package tabularreport is the report of a tabular scoring (SPEC A.4):
// its types (Report, Cell, ImageScore, Pair, Preview, Change), the pooling
// of image scores into cells (CellPool), and its three writers, JSON
// (WriteJSON, the contract every host shares), CSV and Markdown. Package
// tabular fills it; package tabularstream writes it as it goes.
package tabularreport
