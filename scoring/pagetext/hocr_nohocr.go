//go:build nohocr

package pagetext

import "github.com/docscore/docscore/scoring/inputerr"

// hocrText refuses hOCR in a build without it (the Worker is built
// -tags nohocr: the HTML parser would take it over its size limit).
func hocrText(name string, data []byte, norm Normalization) (string, error) {
	return "", inputerr.New(name, 0, "hOCR is not read by this build of docscore (use the command line or the page): expected plain text, PAGE-XML or ALTO")
}
