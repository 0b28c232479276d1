package sitebuild

import (
	"bytes"
	"fmt"
	"html"
	"io/fs"

	"github.com/gomarkdown/markdown"
	mdhtml "github.com/gomarkdown/markdown/html"
	"github.com/gomarkdown/markdown/parser"
)

// FormatsDoc is the formats documentation the site serves beside the page
// (assets/formats.<hash>.html), relative to the module root: the page's
// "what to drop" panel and its schema advice link to it, on the page's own
// origin, so that it reads offline.
const FormatsDoc = "docs/formats.md"

// formatsHTML renders FormatsDoc as a page of the site: the same style
// sheet and Content-Security-Policy as index.html, headings with ids
// ("#schema-file-other-tables"), and a link back to the page.
func formatsHTML(root fs.FS) ([]byte, error) {
	src, err := fs.ReadFile(root, FormatsDoc)
	if err != nil {
		return nil, fmt.Errorf("sitebuild: the formats documentation: %v", err)
	}
	p := parser.NewWithExtensions(parser.CommonExtensions | parser.AutoHeadingIDs)
	r := mdhtml.NewRenderer(mdhtml.RendererOptions{Flags: mdhtml.CommonFlags})
	body := markdown.ToHTML(src, p, r)
	title := "File formats"
	var b bytes.Buffer
	fmt.Fprintf(&b, `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'none'; style-src 'self'; img-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light dark">
<title>docscore: %s</title>
<link rel="icon" href="icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="style.css">
</head>
<body class="doc">
<main>
<p><a href="../">← Back to the page</a> (this page is served with it: nothing is fetched from elsewhere)</p>
%s</main>
</body>
</html>
`, html.EscapeString(title), body)
	return b.Bytes(), nil
}
