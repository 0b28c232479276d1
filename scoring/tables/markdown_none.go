//go:build nogomarkdown

package tables

import "errors"

// parseMarkdown is left out of this build (the Cloudflare Worker's, tag
// nogomarkdown): gomarkdown's parser would take the Worker over
// Cloudflare's 3 MB upload limit. HTML and CSV tables are read as
// everywhere else.
func parseMarkdown(string, int) ([]*Node, error) {
	return nil, errors.New("Markdown tables are not read by this build (the Cloudflare Worker's): send the tables as HTML or CSV, or score them with the command line or the page")
}
