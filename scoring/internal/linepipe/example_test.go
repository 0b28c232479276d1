package linepipe_test

import (
	"fmt"
	"strings"

	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/internal/linepipe"
)

// never is a Canceler that never cancels.
type never struct{}

func (never) Err() error { return nil }

// Run with three workers: each measures the lines of its batches, and
// Take prints them in input order, whichever worker finished first.
func ExampleRun() {
	in := "{\"a\": 1}\n\n  {\"bb\": 22}\r\n{\"ccc\": 333}"
	err := linepipe.Run(never{}, ingest.NewReaderLines("in.jsonl", strings.NewReader(in)), linepipe.Options[[]string]{
		Jobs: 3,
		Worker: func() func(*linepipe.Batch[[]string]) {
			return func(b *linepipe.Batch[[]string]) {
				b.Lines(func(i int, l ingest.Line, bad *inputerr.Error) {
					b.Out = append(b.Out, fmt.Sprintf("line %d: %d bytes (unended %v)", l.No, len(l.Text), l.Unended))
				})
				b.Drop()
			}
		},
		Take: func(b *linepipe.Batch[[]string]) error {
			fmt.Println(strings.Join(b.Out, "\n"))
			return nil
		},
		Stopped: func(err error) error { return fmt.Errorf("stopped: %w", err) },
	})
	fmt.Println("error:", err)
	// Output:
	// line 1: 8 bytes (unended false)
	// line 3: 10 bytes (unended false)
	// line 4: 12 bytes (unended true)
	// error: <nil>
}
