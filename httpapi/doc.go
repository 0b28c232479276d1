// Package httpapi is docscore's HTTP API as an ordinary [net/http.Handler]: the
// Cloudflare Worker (wasm/worker) and "docscore serve --api" both serve
// the handler that [New] returns, so the same request gives the same bytes
// in both, and the same bytes as the command line.
//
// Routes (JSON in and out; multipart/form-data is accepted for files). The
// POST routes are the operations of scoring/api's lists (see Operations):
// one entry there is one route here, in the browser bridge and in the
// command line.
//
//	GET  /healthz              {"status": "ok"}
//	GET  /v1/version           docscore version, commit and date, Go and API versions, routes
//	POST /v1/score/tabular     exactly "docscore score tabular --format F"
//	POST /v1/rules/check       the parsed rows, errors and warnings of a rule file
//	POST /v1/tabular/detail    the drill-down of one image: its pairs, field values and differences
//	POST /v1/score/receipts    exactly "docscore score receipts --format F"
//	POST /v1/receipts/page     the drill-down of one receipt page: prediction against reference, LCS and missing numbers marked
//	POST /v1/score/tables      exactly "docscore score tables --format F"
//	POST /v1/tables/detail     one table's ground truth and prediction as grids, differing cells marked
//	POST /v1/score/text        exactly "docscore score text --format F": CER, WER, bag of words, confusions
//	POST /v1/text/page         one page's two texts aligned, substitutions, insertions and deletions marked
//	POST /v1/eval              the report of "docscore eval --judge none"
//	POST /v1/eval/markdown     the Markdown of a harness report
//	POST /v1/compare           exactly "docscore compare --format F"
//	POST /v1/plan              exactly "docscore plan --format F"
//
// A JSON request carries files as {"name", "text"} objects, the request
// types of [github.com/docscore/docscore/scoring/api], or as {"name",
// "base64"} for its bytes in standard base64 (a base64 that does not
// decode is a 400 naming the file). A multipart request
// carries one part per file, named after the field ("gt" may repeat), the
// part's file name kept as the file's name; option fields (gate, preview,
// format, skip_bad_lines) are plain parts or query parameters, a query
// parameter overriding the body.
//
// Every failure is a JSON body {"error": {"code", "message", "file",
// "line"}} (file and line null when they do not apply) with one of these
// statuses:
//
//	400 bad_request             body not JSON or multipart as declared, unknown
//	                            or missing field, a value of the wrong type, a
//	                            parameter out of its range: gate outside (0, 1]
//	                            (0, NaN and the infinities included; leave gate
//	                            out for the default 0.7), a preview that is not
//	                            "open" or line numbers, an unknown format
//	404 not_found               no such route
//	405 method_not_allowed      the route exists for another method (see Allow)
//	408 timeout                 the body did not arrive within the server's
//	                            read timeout ("docscore serve": 30 s)
//	413 too_large               body over Options.MaxBodyBytes (default 2 MiB)
//	415 unsupported_media_type  a POST body that is neither application/json
//	                            nor multipart/form-data
//	422 input                   a file the scorer rejects: file and line name it
//	422 too_much_work           a tabular scoring that would compare more than
//	                            Options.MaxPairs name pairs (default 2,000,000):
//	                            a job for the command line, which has no cap;
//	                            a receipts scoring whose ROUGE-L would compare
//	                            more than DefaultMaxLCSCells token pairs, a page
//	                            drill-down over DefaultMaxPageTokens tokens
//	503 timeout                 the request's work ran past Options.Deadline
//	                            (default 30 s)
//
// Limits. Besides the body size, each request's work is bounded: it runs
// under the request's context (it stops when the client goes away) with
// Options.Deadline added, and a tabular scoring stops after
// Options.MaxPairs name pairs compared (ground-truth rows × distinct model
// names, per page; a preview counts twice; a comparison of texts over 32
// characters, names or field values, counts one more per 1024 character
// cells, so one huge value meets the cap before it is compared). The
// scorers look at the context between images or pages and every 1024
// pairs. In the Worker the clock stands still while the CPU works, so
// there the work cap is the bound that holds; Cloudflare's CPU limit is
// the last resort. The command line has no cap: big jobs belong there.
//
// No input makes the handler panic or answer 5xx other than 503 timeout: a
// panic would be a bug, and is recovered into a 500 with code "internal";
// FuzzHandler, under a small work cap, looks for one.
package httpapi
