// Package prices reads price tables: the US dollars per million tokens of
// each provider/model (input, cached input, output) and the share its
// batch API takes off, in TOML. A table is bundled (prices.toml, with the
// date it was written: check before relying on it); --prices FILE gives
// another. Errors name the file, the line and what was expected.
package prices

import (
	_ "embed"
	"errors"
	"fmt"
	"math"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/docscore/docscore/cmd/docscore/internal/tomlkey"
	"github.com/docscore/docscore/scoring/ingest"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/judging"
	"github.com/pelletier/go-toml/v2"
)

//go:embed prices.toml
var bundled []byte

// BundledName is the name the bundled table reports.
const BundledName = "bundled price table"

// MaxPerMTok is the highest price a table may give (US dollars per
// million tokens): far above any list price, low enough that no usage
// overflows.
const MaxPerMTok = 1_000_000

// Price is one provider/model's prices.
type Price struct {
	Provider string
	Model    string
	// InputPerMTok, CachedInputPerMTok and OutputPerMTok are US dollars
	// per million tokens; the cached price is the input price when the
	// file gives none.
	InputPerMTok       float64
	CachedInputPerMTok float64
	OutputPerMTok      float64
	// BatchDiscount is the share taken off every token of a batch call
	// (0.5: half price), 0 ≤ d < 1.
	BatchDiscount float64
	// Line is the line of the entry's [[model]] header.
	Line int
}

// Judging returns the prices as the adapters take them.
func (p Price) Judging() judging.Prices {
	return judging.Prices{InputPerMTok: p.InputPerMTok, CachedInputPerMTok: p.CachedInputPerMTok, OutputPerMTok: p.OutputPerMTok, BatchDiscount: p.BatchDiscount}
}

// Cost prices one call's usage (batch: at the batch discount).
func (p Price) Cost(u judging.Usage, batch bool) float64 {
	return p.Judging().CostOf(u, batch)
}

// Table is a price table.
type Table struct {
	// Name is the file's name as given, or BundledName.
	Name string
	// Written is the date the prices were read (YYYY-MM-DD).
	Written string
	Note    string
	Models  []Price
}

// Describe names the table and its date, for --help, stderr and reports.
func (t *Table) Describe() string {
	return fmt.Sprintf("%s written %s (check before relying on it)", t.Name, t.Written)
}

// Lookup finds provider/model: the exact model id, else the id without a
// date suffix (gpt-4o-2024-08-06 → gpt-4o, claude-x-20250101 → claude-x).
func (t *Table) Lookup(provider, model string) (Price, bool) {
	for _, m := range []string{model, dateSuffix().ReplaceAllString(model, "")} {
		for _, p := range t.Models {
			if p.Provider == provider && p.Model == m {
				return p, true
			}
		}
	}
	return Price{}, false
}

// Cost prices usage of provider/model from the table (batch: at its batch
// discount); an unknown model is an error naming the table.
func (t *Table) Cost(provider, model string, u judging.Usage, batch bool) (float64, error) {
	p, ok := t.Lookup(provider, model)
	if !ok {
		return 0, t.Unknown(provider, model)
	}
	return p.Cost(u, batch), nil
}

// Unknown is the error of a model the table does not price.
func (t *Table) Unknown(provider, model string) error {
	return fmt.Errorf("model %s/%s is not in the %s: add a [[model]] entry for it to a price file and give it with --prices FILE", provider, model, t.Describe())
}

// dateSuffix is compiled on first use: a package-level regexp is
// compiled by every start of the binary, --version included.
var dateSuffix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`-(\d{4}-\d{2}-\d{2}|\d{8})$`) })

// Bundled returns the bundled table.
func Bundled() *Table {
	t, err := Parse(BundledName, bundled)
	if err != nil {
		panic("bundled price table: " + err.Error()) // a test keeps it valid
	}
	return t
}

// BundledDescription is Bundled().Describe() read without parsing the
// table: the --prices flag's help text needs it whenever the command
// tree is built (every start, --version included), and the TOML parse
// took about 1 ms of it. TestBundledDescription keeps the two equal.
func BundledDescription() string {
	written := ""
	lines := ingest.NewLineIndex(bundled)
	for n := 1; n <= lines.NumLines(); n++ {
		k, v, ok := strings.Cut(lines.LineText(n), "=")
		if ok && strings.TrimSpace(k) == "written" {
			written = strings.TrimSpace(v)
			break
		}
	}
	return (&Table{Name: BundledName, Written: written}).Describe()
}

// Cost prices usage of provider/model from the bundled table (batch: at
// its batch discount).
func Cost(provider, model string, u judging.Usage, batch bool) (float64, error) {
	return Bundled().Cost(provider, model, u, batch)
}

// Load reads a price file.
func Load(path string) (*Table, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, inputerr.New(path, 0, "cannot read the price table: %v", err)
	}
	return Parse(path, data)
}

type fileModel struct {
	Provider      *string  `toml:"provider"`
	Model         *string  `toml:"model"`
	Input         *float64 `toml:"input"`
	CachedInput   *float64 `toml:"cached_input"`
	Output        *float64 `toml:"output"`
	BatchDiscount *float64 `toml:"batch_discount"`
}

type file struct {
	Written any         `toml:"written"`
	Note    string      `toml:"note"`
	Model   []fileModel `toml:"model"`
}

const expectedShape = "expected a price table: written = YYYY-MM-DD, note, and [[model]] entries with provider, model, input, cached_input, output, batch_discount"

// Parse reads a price table; name is used in errors.
func Parse(name string, data []byte) (_ *Table, err error) {
	src, err := ingest.Open(name, data)
	if err != nil {
		return nil, err
	}
	// Every error shows its line, a secret's value hidden.
	defer func() { tomlkey.Redact(src.AttachAll(err)) }()
	x := &src.LineIndex
	headers := tomlkey.ArrayHeaders(x, "model")
	var f file
	if err := tomlkey.Decode(src, &f, headers, expectedShape, func(k tomlkey.Key) string {
		return fmt.Sprintf("unknown key %q: %s", k.String(), expectedShape)
	}); err != nil {
		return nil, err
	}
	// key places an error where the file sets key.
	key := func(k tomlkey.Key, format string, args ...any) error {
		line, col := tomlkey.Find(x, headers, k)
		return src.ErrorAtLine(line, col, format, args...)
	}
	t := &Table{Name: name, Note: f.Note}
	switch w := f.Written.(type) {
	case toml.LocalDate:
		t.Written = w.String()
	case toml.LocalDateTime:
		t.Written = w.LocalDate.String()
	case time.Time:
		t.Written = w.Format("2006-01-02")
	case string:
		if _, err := time.Parse("2006-01-02", w); err != nil {
			return nil, key(tomlkey.Key{"written"}, "written = %q: expected the date the prices were read, YYYY-MM-DD", w)
		}
		t.Written = w
	case nil:
		return nil, src.ErrorAtLine(1, 1, "no written = YYYY-MM-DD: a price table says when its prices were read")
	default:
		return nil, key(tomlkey.Key{"written"}, "written = %v: expected the date the prices were read, YYYY-MM-DD", w)
	}
	seen := map[string]int{}
	for i, m := range f.Model {
		header := 0
		if i < len(headers) {
			header = headers[i]
		}
		fail := func(key, format string, args ...any) error {
			line, col := tomlkey.InBlock(x, headers, i, key)
			if line == 0 {
				line, col = header, 1
			}
			return src.ErrorAtLine(line, col, "[[model]] %d: "+format, append([]any{i + 1}, args...)...)
		}
		if m.Provider == nil || strings.TrimSpace(*m.Provider) == "" {
			return nil, fail("provider", "provider: expected a provider name (openai, anthropic)")
		}
		if m.Model == nil || strings.TrimSpace(*m.Model) == "" {
			return nil, fail("model", "model: expected a model id")
		}
		p := Price{Provider: *m.Provider, Model: *m.Model, Line: header}
		for _, v := range []struct {
			key      string
			val      *float64
			dst      *float64
			required bool
		}{
			{"input", m.Input, &p.InputPerMTok, true},
			{"cached_input", m.CachedInput, &p.CachedInputPerMTok, false},
			{"output", m.Output, &p.OutputPerMTok, true},
		} {
			if v.val == nil {
				if v.required {
					return nil, fail(v.key, "%s: missing for %s/%s: expected US dollars per million tokens", v.key, p.Provider, p.Model)
				}
				continue
			}
			if math.IsNaN(*v.val) || *v.val < 0 || *v.val > MaxPerMTok {
				return nil, fail(v.key, "%s = %v: expected US dollars per million tokens, from 0 to %d", v.key, *v.val, MaxPerMTok)
			}
			*v.dst = *v.val
		}
		if m.CachedInput == nil {
			p.CachedInputPerMTok = p.InputPerMTok
		}
		if d := m.BatchDiscount; d != nil {
			if math.IsNaN(*d) || *d < 0 || *d >= 1 {
				return nil, fail("batch_discount", "batch_discount = %v: expected the share taken off batch calls, 0 ≤ d < 1 (0.5: half price)", *d)
			}
			p.BatchDiscount = *d
		}
		k := p.Provider + "/" + p.Model
		if prev, dup := seen[k]; dup {
			return nil, fail("model", "%s is priced twice (first at line %d)", k, prev)
		}
		seen[k] = header
		t.Models = append(t.Models, p)
	}
	return t, nil
}
