package bridge

import (
	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/inputerr"
)

// ResolveParts fills in the text of every file of a request that names a
// part: File.Text becomes parts[Part-1] and Part 0. The site's worker so
// hands megabytes of file text over as they are, beside a small JSON
// request, instead of escaped inside it: it saves a JSON.stringify in
// JavaScript and the unescaping here. A part out of range, or a file
// giving both a part and a content, is an input error naming the file.
func ResolveParts(req api.Request, parts []string) error {
	for _, f := range req.InputFiles() {
		if err := resolveFile(f, parts); err != nil {
			return err
		}
	}
	return nil
}

func resolveFile(f *api.File, parts []string) error {
	switch {
	case f.Part == 0:
		return nil
	case len(parts) == 0:
		return inputerr.New(f.Name, 0, "names part %d, but no texts came beside the request (expected the file's text or base64)", f.Part)
	case f.Part < 0 || f.Part > len(parts):
		return inputerr.New(f.Name, 0, "part %d: the request came with %d text(s) beside it (expected 1 to %d)", f.Part, len(parts), len(parts))
	case f.Text != "" || f.Base64 != "":
		return inputerr.New(f.Name, 0, "gives both a part and its content (expected one of them)")
	}
	f.Text, f.Part = parts[f.Part-1], 0
	return nil
}
