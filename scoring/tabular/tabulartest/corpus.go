// Package tabulartest generates deterministic synthetic corpora for the
// tabular scorer's benchmarks and load tests: ground-truth pages of
// register-like travelers and runs files in which models misread names the
// way OCR does (substitutions, dropped and doubled letters, added titles),
// skip and invent rows, and vary field values.
package tabulartest

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/docscore/docscore/scoring/tabular"
)

// Spec sizes a corpus.
type Spec struct {
	Models    int
	Runs      int // runs per model and phase
	Pages     int
	Travelers int // ground-truth rows per page (about)
	Phases    []string
	Seed      uint64
}

// Benchmark is the corpus of the project's benchmark: 150 runs (5 models ×
// 3 phases × 10 runs) × 3 pages × about 25 travelers = 450 image scorings.
var Benchmark = Spec{Models: 5, Runs: 10, Pages: 3, Travelers: 25, Phases: []string{"G", "N", "P"}, Seed: 1769}

// Images returns the number of images (runs lines) the spec produces.
func (s Spec) Images() int { return s.Models * s.Runs * s.Pages * len(s.Phases) }

var (
	given   = []string{"Anzolo", "Zuane", "Nicolò", "Marco", "Iseppo", "Francesco", "Bortolo", "Domenego", "Lazaro", "Moisè", "Karl", "Johann", "Giacomo", "Pietro", "Alvise", "Antonio", "Maria", "Anzola", "Orsola", "Elena", "Caterina", "Stella", "Regina", "Geneviève", "Abram", "Iacob", "Samuel", "Vettor", "Girolamo", "Tommaso"}
	family  = []string{"Rizzo", "Boscolo", "Valier", "Tiozzo", "Vianello", "Luzzatto", "Treves", "Uzielli", "Müller", "Lechner", "Pfister", "Kingsech", "Zambon", "Bellotto", "Romanò", "Curiel", "Manin", "Grimani", "Morosini", "Contarini", "Sullam", "Cases", "Girard", "Mercier", "Zorzetto", "Scarpa", "Benetti", "Tedesco", "Ponentino", "Barbarigo"}
	titles  = []string{"", "", "", "", "", "", "Conte", "Abate", "Capitano", "Dottor"}
	places  = []string{"San Giovanni Grisostomo", "Locanda del Cappello Nero", "San Geremia", "Casa di Iseppo Vianello", "Locanda dello Scudo di Francia", "Sant'Aponal", "San Zaccaria", "Ghetto Novo", "all'Ospizio dei Tedeschi", "San Moisè"}
	origins = []string{"Vienna", "Praga", "Corfù", "Napoli di Romania", "Mantova", "Rovigo", "Lubiana", "Costantinopoli", "Trieste", "Amsterdam", "Lione", ""}
	months  = []string{"January", "February", "March", "April"}
)

type row struct {
	name, title, arrival, departure, stay, origin, spouse, siblings, children string
}

// Generate returns the corpus: one ground-truth CSV per page and one runs
// JSONL. The same spec gives the same bytes.
func Generate(s Spec) (gt []tabular.File, runs tabular.File) {
	c := New(s)
	var out bytes.Buffer
	c.WriteRuns(&out, RunsOptions{}) // a bytes.Buffer never fails
	return c.GT, tabular.File{Name: "runs.jsonl", Data: out.Bytes()}
}

// Corpus is a generated corpus: its ground-truth pages, and the random
// stream its runs file is drawn from next (WriteRuns).
type Corpus struct {
	Spec  Spec
	GT    []tabular.File // one ground-truth CSV per page
	rng   *rand.Rand
	pages [][]row
}

// New draws a corpus's ground-truth pages. Its runs file is written by
// WriteRuns, once.
func New(s Spec) *Corpus {
	rng := rand.New(rand.NewPCG(s.Seed, s.Seed^0x9e3779b97f4a7c15))
	c := &Corpus{Spec: s, rng: rng, pages: make([][]row, s.Pages)}
	for p := range c.pages {
		n := s.Travelers - 3 + rng.IntN(7)
		seen := map[string]bool{}
		for len(c.pages[p]) < n {
			name := given[rng.IntN(len(given))] + " " + family[rng.IntN(len(family))]
			if rng.IntN(6) == 0 {
				name = given[rng.IntN(len(given))] + " q.m. " + name
			}
			if rng.IntN(40) == 0 {
				r := []rune(name)
				r[1+rng.IntN(len(r)-2)] = '?'
				name = string(r)
			}
			if seen[name] {
				continue
			}
			seen[name] = true
			m := months[rng.IntN(len(months))]
			c.pages[p] = append(c.pages[p], row{
				name: name, title: titles[rng.IntN(len(titles))],
				arrival:   fmt.Sprintf("%s %d 1769", m, 1+rng.IntN(28)),
				departure: pick(rng, fmt.Sprintf("%s %d 1769", months[rng.IntN(len(months))], 1+rng.IntN(28)), ""),
				stay:      places[rng.IntN(len(places))], origin: origins[rng.IntN(len(origins))],
				spouse: pick(rng, "N", "Y"), siblings: pick(rng, "N", "Y"), children: strconv.Itoa(rng.IntN(5)),
			})
		}
		var buf bytes.Buffer
		w := csv.NewWriter(&buf)
		w.Write([]string{"name", "title", "arrival_date", "departure_date", "place_of_stay", "place_of_origin", "with_spouse", "with_siblings", "children_count"})
		for _, r := range c.pages[p] {
			w.Write([]string{r.name, r.title, r.arrival, r.departure, r.stay, r.origin, r.spouse, r.siblings, r.children})
		}
		w.Flush()
		c.GT = append(c.GT, tabular.File{Name: fmt.Sprintf("gt_page_%02d.csv", p+1), Data: buf.Bytes()})
	}
	return c
}

// Large sizes a corpus of n images over pages ground-truth pages: five
// models, three phases and as many runs as n needs (WriteRuns with
// RunsOptions{Images: n} stops at n).
func Large(n, pages int) Spec {
	per := 5 * 3 * pages
	return Spec{Models: 5, Runs: (n + per - 1) / per, Pages: pages, Travelers: 25, Phases: []string{"G", "N", "P"}, Seed: 1769}
}

// RunsOptions shape a runs file beyond its spec.
type RunsOptions struct {
	// Images stops the file after this many images; 0 writes them all
	// (Spec.Images).
	Images int
	// BadLines are the images (0-based, in file order) before which a
	// malformed line is written: a line cut off mid-object, as a writer
	// killed mid-line leaves, or one missing its page. Each shifts the
	// line numbers after it by one.
	BadLines []int
	// Responses writes some images (one in five) as a model's raw answer,
	// a "response" string holding the records in a fenced JSON block,
	// rather than a "records" list.
	Responses bool
}

// WriteRuns writes the corpus's runs file to w, one line at a time (it
// holds no more than a line), and returns the number of lines written.
// With zero options it writes the bytes Generate returns.
func (c *Corpus) WriteRuns(w io.Writer, o RunsOptions) (lines int, err error) {
	s, rng := c.Spec, c.rng
	limit := o.Images
	if limit <= 0 {
		limit = s.Images()
	}
	bad := map[int]bool{}
	for _, i := range o.BadLines {
		bad[i] = true
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	image := 0
	for m := 0; m < s.Models; m++ {
		model := fmt.Sprintf("model-%d", m+1)
		noise := 0.02 + 0.03*float64(m)
		for _, phase := range s.Phases {
			for run := 1; run <= s.Runs; run++ {
				for p, page := range c.pages {
					if image == limit {
						return lines, bw.Flush()
					}
					if bad[image] {
						if image%2 == 0 {
							fmt.Fprintf(bw, `{"model": %q, "phase": %q, "run": %d, "page": "%02d", "status": "ok", "records": [{"name": "Zuane Ri`+"\n", model, phase, run, p+1)
						} else {
							fmt.Fprintf(bw, `{"model": %q, "phase": %q, "run": %d, "status": "ok", "records": []}`+"\n", model, phase, run)
						}
						lines++
					}
					image++
					line := map[string]any{"model": model, "phase": phase, "run": run, "page": fmt.Sprintf("%02d", p+1), "status": "ok"}
					if rng.IntN(200) == 0 {
						line["status"] = "error"
						line["records"] = nil
					} else {
						recs := misread(rng, page, noise)
						if o.Responses && image%5 == 0 {
							r, _ := json.MarshalIndent(recs, "", "  ")
							line["response"] = "Here are the travelers on page " + fmt.Sprintf("%02d", p+1) + ":\n\n```json\n" + string(r) + "\n```"
						} else {
							line["records"] = recs
						}
					}
					b, _ := json.Marshal(line)
					bw.Write(b)
					if err := bw.WriteByte('\n'); err != nil {
						return lines, err
					}
					lines++
				}
			}
		}
	}
	return lines, bw.Flush()
}

func pick(rng *rand.Rand, a, b string) string {
	if rng.IntN(4) == 0 {
		return b
	}
	return a
}

// misread is one model's reading of a page.
func misread(rng *rand.Rand, page []row, noise float64) []map[string]any {
	var recs []map[string]any
	for _, r := range page {
		if rng.Float64() < noise {
			continue // missed row
		}
		name := garble(rng, strings.ReplaceAll(r.name, "?", string(rune('a'+rng.IntN(26)))), noise)
		if rng.Float64() < noise {
			name = "Conte " + name
		}
		rec := map[string]any{
			"name": name, "title": r.title, "arrival_date": garble(rng, r.arrival, noise/2),
			"departure_date": garble(rng, r.departure, noise/2), "place_of_stay": garble(rng, r.stay, noise),
			"place_of_origin": garble(rng, r.origin, noise), "with_spouse": r.spouse == "Y",
			"with_siblings": r.siblings, "children_count": r.children,
		}
		if rng.Float64() < noise {
			rec["title"] = "Signor"
		}
		recs = append(recs, rec)
	}
	if rng.Float64() < 3*noise {
		recs = append(recs, map[string]any{"name": garble(rng, given[rng.IntN(len(given))]+" "+family[rng.IntN(len(family))], 0.3)})
	}
	return recs
}

// garble misreads characters of s with probability p each.
func garble(rng *rand.Rand, s string, p float64) string {
	var b strings.Builder
	for _, r := range s {
		if rng.Float64() >= p {
			b.WriteRune(r)
			continue
		}
		switch rng.IntN(4) {
		case 0: // substitution, OCR-style
			b.WriteRune(confusions[rng.IntN(len(confusions))])
		case 1: // dropped
		case 2: // doubled
			b.WriteRune(r)
			b.WriteRune(r)
		default: // case
			b.WriteString(strings.ToUpper(string(r)))
		}
	}
	return b.String()
}

var confusions = []rune("rnmvuiljcoe")
