//go:build e2e

package e2e

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestHostedUnderARepositoryPrefix opens the site as GitHub Pages serves
// it (.github/workflows/pages.yml publishes dist/site, which "make site"
// writes as TestMain does): under /docscore/, by a plain file server, the
// address typed without its final slash. The page loads the sample and
// scores it, the cells table is the command line's, and every request
// stays under the prefix (blob: URLs aside, which have no path): no URL
// of the page is absolute.
func TestHostedUnderARepositoryPrefix(t *testing.T) {
	base := origin + pagesPrefix
	ctx, reqs := newTabAt(t, 2*time.Minute, strings.TrimSuffix(base, "/"))
	href, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href`))
	if err != nil {
		t.Fatal(err)
	}
	if href != base {
		t.Fatalf("the page is at %s, want %s (the server's redirect to the folder)", href, base)
	}
	act(t, ctx, chromedp.Click(chromedp.ID("load-sample")))
	md := cliRun(t, "", "score", "tabular", "--sample", "--format", "md")
	cells := mdTable(t, md, "## Cells")
	shown := tableRows(t, ctx, "#cells")
	if len(cells) < 2 || !reflect.DeepEqual(shown, cells[1:]) {
		t.Fatalf("cells shown %q, docscore score tabular --sample --format md has %q", shown, cells)
	}
	urls := reqs.list()
	var sawWasm bool
	for _, u := range urls {
		sawWasm = sawWasm || strings.HasSuffix(u, ".wasm")
		if !strings.HasPrefix(u, base) && !strings.HasPrefix(u, "blob:"+origin+"/") && u != strings.TrimSuffix(base, "/") {
			t.Errorf("request outside %s: %s", pagesPrefix, u)
		}
	}
	if !sawWasm {
		t.Errorf("no wasm request recorded under %s: %q", pagesPrefix, urls)
	}
}
