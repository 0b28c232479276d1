package sitebuild

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFormatsHTML renders the formats documentation as a page of the
// site: its sections have ids the page links to, and it loads nothing
// from elsewhere.
func TestFormatsHTML(t *testing.T) {
	b, err := formatsHTML(os.DirFS(filepath.Join("..", "..", "..", "..")))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{`id="schema-file-other-tables"`, `id="ground-truth-gt-page-nn-csv"`, `<link rel="stylesheet" href="style.css">`, "script-src 'none'"} {
		if !strings.Contains(s, want) {
			t.Errorf("formats.html lacks %s", want)
		}
	}
	if strings.Contains(s, "http://") || strings.Contains(s, "https://") {
		t.Error("formats.html names another origin")
	}
}
