//go:build notext

package httpapi

import core "github.com/docscore/docscore/scoring/api"

// textOperations is empty in a build with -tags notext: the Cloudflare
// Worker leaves the page-text family out, whose Unicode tables (grapheme
// and word breaks, NFC) take it over Cloudflare's 3 MB upload limit
// (3,095,083 B of gzip against 2,895 KiB without). Its routes answer 404
// there; the command line, "docscore serve --api" and the page have them.
func textOperations() []core.Operation { return nil }
