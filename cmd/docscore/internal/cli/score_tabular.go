package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/provenance"
	"github.com/docscore/docscore/scoring/tabular"
	"github.com/docscore/docscore/scoring/tabular/tabularreport"
	"github.com/spf13/cobra"
)

func init() { register("score", "tabular", newScoreTabular) }

func newScoreTabular(env *Env) *cobra.Command {
	var (
		gtArgs       []string
		runsPath     string
		rulesPath    string
		schemaPath   string
		gate         float64
		preview      string
		format       string
		outPath      string
		failUnder    string
		skipBadLines bool
		skipInputs   bool
		useSample    bool
		intervals    tabular.Intervals
		jobs         int
	)
	c := &cobra.Command{
		Use:   "tabular --gt DIR|FILES… --runs FILE.jsonl [flags]",
		Short: "Score per-record tabular extraction (names, F1, name CER, per-field accuracy)",
		Long: `Score per-record tabular extraction against ground truth (SPEC A).

Model records are paired with ground-truth rows by name: a similarity gate
(Ratcliff–Obershelp ratio or token-set overlap, best reading under the rule
file's name ignore rules) and a global greedy pairing. Identification is
scored by precision, recall and F1; name reading by character error rate
(reported with the gate it was computed under); every other column by
per-field accuracy on the matched pairs. Scores pool per (model, phase).

Inputs:
  --gt      ground-truth CSVs: a directory (every *.csv in it) or files;
            the page id comes from gt_page_NN.csv or a "page" column
  --runs    the model outputs, one JSON object per image per line
  --rules   EQUIVALENCES.md: settled rows apply, OPEN rows only in a preview
  --schema  a JSON schema file to score a table other than the default
            9-field traveler register
  --sample  score the bundled synthetic sample (no other input needed)

A preview (--preview open, or --preview 32,33 for the OPEN rows at those
lines of the rule file) scores with those rows switched on: cells and images
hold the preview scores, and "preview" lists settled, preview and delta.
Its "comparison" compares each cell settled with its preview on the same
pages (SPEC F.6): the delta's paired bootstrap interval (--bootstrap,
--ci-level), a randomization p-value (--permutations) Holm-adjusted over the
cells, significant under --alpha, and the pages whose F1 rose or fell —
exactly what "docscore compare --preview" writes for the settled and the
preview report. --bootstrap 0 --permutations 0 leaves it out.

Formats: json (complete, the contract shared with the browser and the
Worker), csv (one row per image, then one per cell), md (cells table,
per-page comparison, preview deltas).

--skip-bad-inputs scores what is valid instead of exiting 2 on the first
bad input: a ground-truth CSV that cannot be read is left out with its
pages, a rule row that does not parse or check is left out and the other
rows apply, and a malformed runs line or one whose page has no ground
truth is skipped. The report's "left_out" lists each (file, line, column,
what, why), as the page does; each is also written to standard error.

--fail-under f1=0.9,title=0.8 exits 3 when any cell's F1, precision,
recall or a field's accuracy falls under its floor.

Large runs: the runs file is read as a stream and scored on --jobs cores
(default: the number of CPUs), in memory that does not grow with the
number of images, with the same bytes out. Progress goes to standard
error (a bar on a terminal, a line every 5 s otherwise). Ctrl-C exits 130
and leaves no --out file (it is written under a temporary name and
renamed at the end). A JSON report's image rows wait in a temporary file
until the cells are known. --preview is not streamed: it reads the whole
file into memory.`,
		Example: `  docscore score tabular --sample --format md
  docscore score tabular --gt gt/ --runs runs.jsonl --rules EQUIVALENCES.md
  docscore score tabular --gt gt/*.csv --runs runs.jsonl --rules EQUIVALENCES.md --preview open --format md
  docscore score tabular --sample --preview 32,33 --permutations 20000 --alpha 0.01 --format md
  docscore score tabular --gt gt/ --runs runs.jsonl --fail-under f1=0.95 --out report.json`,
		RunE: func(c *cobra.Command, args []string) error {
			op := api.ScoreTabularOperation()
			if err := flagError(op.CheckFormat(format)); err != nil {
				return err
			}
			thresholds, err := parseThresholds(failUnder)
			if err != nil {
				return err
			}
			// The gate and the preview are checked by the operation, as in
			// every host.
			req := tabular.Request{Gate: gate, Preview: preview, SkipBadLines: skipBadLines, SkipBadInputs: skipInputs, Intervals: intervals}
			gtArgs = append(gtArgs, args...)
			if err := oneStdin("--runs", runsPath, "--rules", rulesPath, "--schema", schemaPath); err != nil {
				return err
			}
			if err := notOverInputs(env, flagged("--out", outPath), append(flagged("--gt", gtArgs...),
				named{"--runs", runsPath}, named{"--rules", rulesPath}, named{"--schema", schemaPath})); err != nil {
				return err
			}
			if useSample {
				if len(gtArgs) > 0 || runsPath != "" {
					return usageError("--sample scores the bundled sample; leave out --gt and --runs")
				}
				if req, err = sampleRequest(req, rulesPath == ""); err != nil {
					return err
				}
			} else {
				if len(gtArgs) == 0 || runsPath == "" {
					return usageError("expected --gt and --runs (or --sample); see 'docscore score tabular --help'")
				}
				if req.GT, err = readGTFiles(env, gtArgs); err != nil {
					return err
				}
			}
			if err := checkJobs(jobs); err != nil {
				return err
			}
			if preview == "" {
				// Streamed: the runs file is read as it is scored.
				var runs io.Reader
				var size int64
				if useSample {
					runs, size = bytes.NewReader(req.Runs.Data), int64(len(req.Runs.Data))
				} else {
					var closeRuns func()
					if runs, size, closeRuns, err = openInput(env, "--runs", runsPath); err != nil {
						return err
					}
					defer closeRuns()
					req.Runs = tabular.File{Name: runsName(runsPath)}
				}
				if err := readRulesAndSchema(env, &req, rulesPath, schemaPath); err != nil {
					return err
				}
				areq := tabularRequest(req, format)
				rep, err := streamTabular(env, areq, runs, size, outPath, jobs, func(rep *tabularreport.Report) error {
					if err := checkTabularThresholds(rep, thresholds); err != nil && !isThresholdFailure(err) {
						return err
					}
					return nil
				})
				if err != nil {
					return interrupted(flagError(pathsBack(err, req)))
				}
				warnTabular(env, rep, req)
				return checkTabularThresholds(rep, thresholds)
			}
			if !useSample {
				if req.Runs, err = readInput(env, "--runs", runsPath); err != nil {
					return err
				}
			}
			if err := readRulesAndSchema(env, &req, rulesPath, schemaPath); err != nil {
				return err
			}
			res, rep, err := api.ScoreTabularReport(env.Context, tabularRequest(req, format))
			if err != nil {
				return interrupted(flagError(pathsBack(err, req)))
			}
			if err := checkTabularThresholds(rep, thresholds); err != nil && !isThresholdFailure(err) {
				return err
			}
			if err := writeOutput(env, "--out", outPath, res.Bytes); err != nil {
				return err
			}
			warnTabular(env, rep, req)
			return checkTabularThresholds(rep, thresholds)
		},
	}
	f := c.Flags()
	f.StringSliceVar(&gtArgs, "gt", nil, "ground-truth CSV directory or files (repeatable; comma-separated)")
	f.StringVar(&runsPath, "runs", "", "model outputs, JSONL (- for standard input)")
	f.StringVar(&rulesPath, "rules", "", "EQUIVALENCES.md rule file (- for standard input)")
	f.StringVar(&schemaPath, "schema", "", "schema file for tables other than the default register (- for standard input)")
	bindOptions(f, api.ScoreTabularOperation(), map[string]any{
		"gate": &gate, "preview": &preview, "format": &format, "skip_bad_lines": &skipBadLines, "skip_bad_inputs": &skipInputs,
		"bootstrap": &intervals.Bootstrap, "ci_level": &intervals.CILevel, "seed": &intervals.Seed,
		"permutations": &intervals.Permutations, "alpha": &intervals.Alpha, "effect": &intervals.Effect,
	})
	f.StringVar(&outPath, "out", "", "write the report to this file instead of standard output")
	f.StringVar(&failUnder, "fail-under", "", "exit 3 when a cell is under a floor, e.g. f1=0.9,title=0.8")
	f.BoolVar(&useSample, "sample", false, "score the bundled synthetic sample")
	f.IntVar(&jobs, "jobs", runtime.NumCPU(), "images scored at once (default: the number of CPUs)")
	return c
}

// warnTabular writes a report's warnings and what it left out to
// standard error, each file left out named by the path given (req's).
func warnTabular(env *Env, rep *tabularreport.Report, req tabular.Request) {
	for _, w := range rep.Warnings {
		fmt.Fprintln(env.Stderr, "warning: "+w)
	}
	paths := inputPaths(req)
	for _, l := range rep.LeftOut {
		if p, ok := paths[l.File]; ok {
			l.File = p
		}
		fmt.Fprintln(env.Stderr, "warning: "+l.String())
	}
}

// readRulesAndSchema reads the --rules and --schema files into req.
func readRulesAndSchema(env *Env, req *tabular.Request, rulesPath, schemaPath string) error {
	if rulesPath != "" {
		f, err := readInput(env, "--rules", rulesPath)
		if err != nil {
			return err
		}
		req.Rules = &f
	}
	if schemaPath != "" {
		f, err := readInput(env, "--schema", schemaPath)
		if err != nil {
			return err
		}
		req.Schema = &f
	}
	return nil
}

// maxJobs is the largest --jobs: more workers than this only cost memory
// (each holds its own buffers) on any machine docscore runs on.
const maxJobs = 1024

// checkJobs refuses a --jobs under 1 or over maxJobs.
func checkJobs(jobs int) error {
	if jobs < 1 || jobs > maxJobs {
		return usageError("--jobs %d: expected 1 to %d workers scoring at once", jobs, maxJobs)
	}
	return nil
}

// sampleRequest fills req's files with the bundled sample; withRules adds
// its EQUIVALENCES.md.
func sampleRequest(req tabular.Request, withRules bool) (tabular.Request, error) {
	files, err := sample.TabularRequest(withRules)
	if err != nil {
		return req, err
	}
	req.GT, req.Runs, req.Rules = files.GT, files.Runs, files.Rules
	return req, nil
}

// tabularRequest is the operation's request for the files and options the
// command read, each file named by its base name (provenance.Name), as
// the report's provenance names it (SPEC F.8): a report does not depend
// on where its files lay, so that "docscore verify" reproduces it from
// copies elsewhere, and the page, given the same files, writes the same
// bytes. An input error names the path given again (pathsBack).
func tabularRequest(req tabular.Request, format string) *api.TabularRequest {
	gate := req.Gate
	out := &api.TabularRequest{Runs: apiFile(req.Runs), Gate: &gate, Preview: req.Preview, SkipBadLines: req.SkipBadLines, SkipBadInputs: req.SkipBadInputs, Format: format,
		IntervalOptions: intervalOptions(req.Intervals.Bootstrap, req.Intervals.CILevel, req.Intervals.Seed),
		Permutations:    &req.Intervals.Permutations, Alpha: &req.Intervals.Alpha}
	if req.Intervals.Effect != 0 {
		out.Effect = &req.Intervals.Effect
	}
	for _, f := range req.GT {
		out.GT = append(out.GT, apiFile(f))
	}
	if req.Rules != nil {
		f := apiFile(*req.Rules)
		out.Rules = &f
	}
	if req.Schema != nil {
		f := apiFile(*req.Schema)
		out.Schema = &f
	}
	return out
}

// apiFile is a file the command read, as the operations take it.
func apiFile(f tabular.File) api.File {
	return api.File{Name: provenance.Name(f.Name), Text: string(f.Data)}
}

// inputPaths maps the base name of each of req's files to the path given.
func inputPaths(req tabular.Request) map[string]string {
	paths := map[string]string{}
	add := func(f *tabular.File) {
		if f != nil {
			paths[provenance.Name(f.Name)] = f.Name
		}
	}
	for i := range req.GT {
		add(&req.GT[i])
	}
	add(&req.Runs)
	add(req.Rules)
	add(req.Schema)
	return paths
}

// pathsBack names in an input error about one of req's files the path
// the user gave rather than the base name the scoring was given.
func pathsBack(err error, req tabular.Request) error {
	paths := inputPaths(req)
	fix := func(e *inputerr.Error) {
		if p, ok := paths[e.File]; ok {
			e.File = p
		}
	}
	var list inputerr.List
	if errors.As(err, &list) {
		for _, e := range list {
			fix(e)
		}
	} else if e, ok := inputerr.As(err); ok {
		fix(e)
	}
	return err
}

// readGTFiles reads ground-truth CSVs from directories (every *.csv in
// them, sorted) and files.
func readGTFiles(env *Env, args []string) ([]tabular.File, error) {
	var files []tabular.File
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, inputError(a, err)
		}
		if !st.IsDir() {
			f, err := readFile(env, a)
			if err != nil {
				return nil, err
			}
			files = append(files, f)
			continue
		}
		entries, err := os.ReadDir(a)
		if err != nil {
			return nil, inputError(a, err)
		}
		n := 0
		for _, e := range entries {
			if e.IsDir() || !strings.EqualFold(filepath.Ext(e.Name()), ".csv") {
				continue
			}
			f, err := readFile(env, filepath.Join(a, e.Name()))
			if err != nil {
				return nil, err
			}
			files = append(files, f)
			n++
		}
		if n == 0 {
			return nil, &ExitError{Code: ExitInput, Err: fmt.Errorf("%s: no *.csv ground-truth files in this directory", a)}
		}
	}
	return files, nil
}

// readFile reads a whole input file; a missing or unreadable file is an
// input error.
func readFile(env *Env, p string) (tabular.File, error) {
	b, err := readPath(env, "", p)
	if err != nil {
		return tabular.File{}, err
	}
	return tabular.File{Name: p, Data: b}, nil
}

func inputError(p string, err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		err = pe.Err
	}
	return &ExitError{Code: ExitInput, Err: fmt.Errorf("%s: %v", p, err)}
}

// checkTabularThresholds applies --fail-under floors to every cell.
func checkTabularThresholds(rep *tabularreport.Report, t Thresholds) error {
	if len(t) == 0 {
		return nil
	}
	var failures []string
	for _, name := range t.Names() {
		floor := t[name]
		known := name == "f1" || name == "precision" || name == "recall"
		for _, f := range rep.Fields {
			known = known || f == name
		}
		if !known {
			return usageError("--fail-under: unknown metric %q (expected f1, precision, recall or a field: %s)", name, strings.Join(rep.Fields, ", "))
		}
		for _, c := range rep.Cells {
			var v *float64
			switch name {
			case "f1":
				v = &c.F1
			case "precision":
				v = &c.Precision
			case "recall":
				v = &c.Recall
			default:
				ft, _ := c.Fields.Get(name)
				v = ft.Accuracy
			}
			if v != nil && *v < floor {
				failures = append(failures, fmt.Sprintf("%s / %s: %s %.4f < %g", c.Model, c.Phase, name, *v, floor))
			}
		}
	}
	if len(failures) > 0 {
		return thresholdFailure(failures)
	}
	return nil
}

func isThresholdFailure(err error) bool {
	ee, ok := err.(*ExitError)
	return ok && ee.Code == ExitThreshold
}
