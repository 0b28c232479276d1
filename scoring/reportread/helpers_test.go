package reportread

// tabularReport is the tabular sample's golden JSON report.
const tabularReport = "../tabular/testdata/golden/sample.json"
