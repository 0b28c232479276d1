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
//	GET  /v1/version           docscore and Go versions, API version, routes
//	POST /v1/score/tabular     exactly "docscore score tabular --format F"
//	POST /v1/rules/check       the parsed rows, errors and warnings of a rule file
//	POST /v1/tabular/detail    the drill-down of one image: its pairs, field values and differences
//	POST /v1/score/receipts    exactly "docscore score receipts --format F"
//	POST /v1/eval              the report of "docscore eval --judge none"
//	POST /v1/eval/markdown     the Markdown of a harness report
//
// A JSON request carries files as {"name", "text"} objects, the request
// types of [github.com/docscore/docscore/scoring/api]. A multipart request
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
//	                            or missing field, a value of the wrong type
//	404 not_found               no such route
//	405 method_not_allowed      the route exists for another method (see Allow)
//	413 too_large               body over Options.MaxBodyBytes (default 2 MiB)
//	415 unsupported_media_type  a POST body that is neither application/json
//	                            nor multipart/form-data
//	422 input                   a file the scorer rejects: file and line name it
//
// No input makes the handler panic or answer 5xx: a panic would be a bug, and
// is recovered into a 500 with code "internal"; FuzzHandler looks for one.
package httpapi
