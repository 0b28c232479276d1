package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/docscore/docscore/cmd/docscore/internal/cord"
	"github.com/docscore/docscore/httpapi"
	"github.com/docscore/docscore/sample"
	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/api/evalapi"
	"github.com/docscore/docscore/scoring/api/receiptsapi"
	"github.com/docscore/docscore/scoring/provenance"
	"github.com/docscore/docscore/scoring/receipts/receiptsread"
)

func init() {
	register("", "verify", func(env *Env) *cobra.Command {
		var inputs, stdin string
		c := &cobra.Command{
			Use:   "verify REPORT.json [--inputs DIR] [--stdin FILE]",
			Short: "Re-run a report from its provenance and check every number is reproduced byte for byte",
			Long: `Verify a JSON report as SPEC section F.8 defines (see docs/provenance.md).

A report's "provenance" names the operation that wrote it, every input's
name, byte count and sha256, and the options that change numbers. verify
finds each input under --inputs DIR, else beside the report, else (for a
file of the embedded sample, named sample/…) in the sample bundled with
docscore; checks its size and sha256; re-runs the operation and compares
the bytes with the report's. An input the report's run read from standard
input is named <stdin>: give the file that was piped with --stdin FILE
(- to pipe it to verify as well).

Exit 0 when every byte is reproduced; 1 when a number differs (the first
few are named); 2 when an input is missing or its hash differs, or the
report has no provenance.`,
			Example: `  docscore verify compare.json
  docscore verify report.json --inputs data/
  docscore verify report.json --stdin runs.jsonl`,
			Args: func(c *cobra.Command, args []string) error {
				if len(args) != 1 {
					return usageError("verify takes one report, REPORT.json (got %d arguments)", len(args))
				}
				return nil
			},
			RunE: func(c *cobra.Command, args []string) error {
				return runVerify(env, args[0], inputs, stdin)
			},
		}
		c.Flags().StringVar(&inputs, "inputs", "", "the folder holding the report's inputs (default: the report's own folder)")
		c.Flags().StringVar(&stdin, "stdin", "", "the file the report's run read from standard input (its input named <stdin>); - for standard input")
		return c
	})
}

func runVerify(env *Env, path, inputsDir, stdinPath string) error {
	if err := oneStdin("REPORT.json", path, "--stdin", stdinPath); err != nil {
		return err
	}
	f, err := readInput(env, "REPORT.json", path)
	if err != nil {
		return err
	}
	p, err := provenance.Read(path, f.Data)
	if err != nil {
		return &ExitError{Code: ExitInput, Err: err}
	}
	o, ok := api.Find(p.Operation, httpapi.Operations())
	if !ok || !o.Provenance {
		return &ExitError{Code: ExitInput, Err: fmt.Errorf("%s: its provenance names the operation %q, which this docscore cannot re-run", path, p.Operation)}
	}
	if err := canRerun(p); err != nil {
		return &ExitError{Code: ExitInput, Err: fmt.Errorf("%s: %v", path, err)}
	}
	dirs := []string{}
	if inputsDir != "" {
		dirs = append(dirs, inputsDir)
	}
	if path != "-" {
		dirs = append(dirs, filepath.Dir(path))
	}
	files := make([]api.File, len(p.Inputs))
	found := make([]string, len(p.Inputs))
	for i, in := range p.Inputs {
		var data []byte
		var where string
		if in.Name == stdinName && stdinPath != "" {
			data, where, err = stdinInput(env, stdinPath, in)
		} else {
			data, where, err = findInput(dirs, in)
			if err != nil && in.Name == stdinName {
				err = fmt.Errorf("input %s (%s) was read from standard input: give the file that was piped with --stdin FILE", in.Name, in.Role)
			}
		}
		if err != nil {
			return &ExitError{Code: ExitInput, Err: fmt.Errorf("%s: %v", path, err)}
		}
		files[i], found[i] = api.File{Name: in.Name, Text: string(data)}, where
		fmt.Fprintf(env.Stderr, "docscore: %s %s: read from %s (sha256 %s… agrees)\n", in.Role, in.Name, where, in.SHA256[:12])
	}
	var req api.Request
	if len(p.Inputs) > 0 && p.Inputs[0].Role == "prediction" {
		req, err = predictionRequest(env, p, found)
	} else {
		req, err = o.Rebuild(p, files)
	}
	if err != nil {
		return &ExitError{Code: ExitInput, Err: fmt.Errorf("%s: %v", path, err)}
	}
	if rr, ok := req.(*receiptsapi.ReceiptsRequest); ok {
		if err := referencesAsRead(rr, p); err != nil {
			return &ExitError{Code: ExitInput, Err: fmt.Errorf("%s: %v", path, err)}
		}
	}
	res, err := o.Run(env.Context, req)
	if err != nil {
		return flagError(err)
	}
	if bytes.Equal(res.Bytes, f.Data) {
		fmt.Fprintf(env.Stdout, "%s: reproduced byte for byte (%s, %d inputs, %d bytes)\n", path, p.Operation, len(p.Inputs), len(f.Data))
		return nil
	}
	diffs := jsonDiffs(f.Data, res.Bytes, 5)
	if len(diffs) == 0 {
		diffs = []string{"the bytes differ, every value agrees (spacing or order)"}
	}
	return &ExitError{Code: ExitFailure, Err: fmt.Errorf("%s: not reproduced; re-running %s gives other numbers:\n  %s", path, p.Operation, strings.Join(diffs, "\n  "))}
}

// canRerun refuses a report verify cannot re-run byte for byte: an eval
// report judged by a model (its answers are not reproducible offline),
// compared with human verdicts, or of one --prediction.
func canRerun(p *provenance.Provenance) error {
	if p.Operation != evalapi.EvaluateOperation().Name {
		return nil
	}
	for _, o := range p.Options {
		if o.Name == "judge" && string(o.Value) != `"none"` {
			return fmt.Errorf("its judge was %s: verify re-runs deterministic metrics only (eval --judge none); a model's answers are not reproducible", o.Value)
		}
	}
	return nil
}

// predictionRequest rebuilds the request of "docscore eval --prediction"
// from its provenance: the case built from the files found (found[i]
// holds p.Inputs[i]) with the recorded --case-id, --operation and
// --rubric, named as recorded.
func predictionRequest(env *Env, p *provenance.Provenance, found []string) (api.Request, error) {
	opts := map[string]string{}
	var hostOpts []provenance.Option
	for _, o := range p.Options {
		switch o.Name {
		case "case_id", "operation", "rubric":
			var v string
			if err := json.Unmarshal(o.Value, &v); err != nil {
				return nil, fmt.Errorf("provenance option %s: %v", o.Name, err)
			}
			opts[o.Name] = v
			hostOpts = append(hostOpts, o)
		}
	}
	var evidence, groundTruth []string
	for i, in := range p.Inputs[1:] {
		switch in.Role {
		case "evidence":
			evidence = append(evidence, found[i+1])
		case "ground_truth":
			groundTruth = append(groundTruth, found[i+1])
		default:
			return nil, fmt.Errorf("input %s (%s): verify re-runs an eval report of --prediction with --evidence and --ground-truth only", in.Name, in.Role)
		}
	}
	cf, _, err := directCase(env, found[0], opts["case_id"], opts["operation"], opts["rubric"], evidence, groundTruth)
	if err != nil {
		return nil, err
	}
	cf.Name = p.Inputs[0].Name
	return &evalapi.EvalRequest{CaseFile: cf, HostInputs: p.Inputs, HostOptions: hostOpts}, nil
}

// referencesAsRead reads a receipts request's reference files as "score
// receipts" reads them (cord.LoadDescribed), parquet files included, in
// the order the provenance records: the references, described as read.
func referencesAsRead(req *receiptsapi.ReceiptsRequest, p *provenance.Provenance) error {
	opts := receiptsread.ParseOptions{}
	if req.ReadingOrder {
		opts.Order = receiptsread.ReadingOrder
	}
	rows := map[string]int{}
	for _, f := range req.Refs {
		var got receiptsread.References
		var err error
		if strings.EqualFold(path.Ext(f.Name), ".parquet") {
			got, err = cord.LoadParquet(f.Name, strings.NewReader(f.Text), int64(len(f.Text)), opts, rows)
		} else {
			got, err = receiptsread.ParseReferences(f.Name, []byte(f.Text), opts)
		}
		if err != nil {
			return err
		}
		req.References = append(req.References, got...)
		req.ReferenceInputs = append(req.ReferenceInputs, provenance.NewInput("refs", f.Name, []byte(f.Text)))
	}
	req.Refs = nil
	return nil
}

// stdinInput reads the file --stdin names (standard input for -) as the
// report's input named <stdin>, which it must match in size and hash.
func stdinInput(env *Env, name string, in provenance.Input) ([]byte, string, error) {
	f, err := readInput(env, "--stdin", name)
	if err != nil {
		return nil, "", err
	}
	if mismatch := inputMismatch(f.Data, "--stdin "+f.Name, in); mismatch != "" {
		return nil, "", fmt.Errorf("input %s (%s): %s", in.Name, in.Role, mismatch)
	}
	return f.Data, f.Name, nil
}

// inputMismatch is "" when data has the input's recorded size and
// sha256, otherwise what differs, naming where data came from.
func inputMismatch(data []byte, where string, in provenance.Input) string {
	sum := sha256.Sum256(data)
	if int64(len(data)) == in.Bytes && hex.EncodeToString(sum[:]) == in.SHA256 {
		return ""
	}
	return fmt.Sprintf("%s has %d bytes, sha256 %s; the report's input had %d bytes, sha256 %s",
		where, len(data), hex.EncodeToString(sum[:]), in.Bytes, in.SHA256)
}

// findInput reads the input from the first folder holding a file of its
// name with its size and hash, else from the embedded sample.
func findInput(dirs []string, in provenance.Input) ([]byte, string, error) {
	var mismatch string
	check := func(data []byte, where string) bool {
		if m := inputMismatch(data, where, in); m != "" {
			mismatch = m
			return false
		}
		return true
	}
	// A file of the name but another size is not read; it is named when
	// nothing else is found.
	wrongSize := func(where string, size int64) {
		if mismatch == "" {
			mismatch = fmt.Sprintf("%s has %d bytes; the report's input had %d bytes, sha256 %s", where, size, in.Bytes, in.SHA256)
		}
	}
	// A name with a folder (a file a cases file names by its path) is
	// also looked up from the working folder, as the run that wrote the
	// report found it.
	places := dirs
	if strings.ContainsAny(in.Name, `/\`) {
		places = append(append([]string(nil), dirs...), "")
	}
	for _, d := range places {
		p := filepath.Join(d, filepath.FromSlash(in.Name))
		if data, err := os.ReadFile(p); err == nil && check(data, p) {
			return data, p, nil
		}
	}
	// Below those folders: ground truth in gt/ beside the runs file. A
	// file is taken only with the recorded size and hash, so that two of
	// one name cannot be confused.
	for _, d := range dirs {
		if data, p, ok := findBelow(d, in, check, wrongSize); ok {
			return data, p, nil
		}
	}
	if rest, ok := strings.CutPrefix(in.Name, provenance.SamplePrefix); ok {
		for _, fsys := range []fs.FS{sample.Tabular, sample.Receipts, sample.Tables, sample.Text} {
			if data, err := fs.ReadFile(fsys, rest); err == nil && check(data, "the embedded sample's "+rest) {
				return data, "the embedded sample", nil
			}
		}
	}
	if mismatch != "" {
		return nil, "", fmt.Errorf("input %s (%s): %s", in.Name, in.Role, mismatch)
	}
	return nil, "", fmt.Errorf("input %s (%s) not found in %s: give its folder with --inputs", in.Name, in.Role, strings.Join(dirs, ", "))
}

// maxSearched bounds the entries findBelow looks at in one folder's tree.
const maxSearched = 10000

// findBelow looks for a file of the input's base name in the folders
// below dir, at most three levels down and maxSearched entries in all,
// and reads the first of its recorded size whose hash agrees.
func findBelow(dir string, in provenance.Input, check func([]byte, string) bool, wrongSize func(string, int64)) ([]byte, string, bool) {
	base := path.Base(in.Name)
	seen := 0
	var found []byte
	var where string
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		seen++
		if err != nil || seen > maxSearched {
			return filepath.SkipAll
		}
		if e.IsDir() {
			if rel, _ := filepath.Rel(dir, p); rel != "." && strings.Count(rel, string(filepath.Separator)) >= 3 {
				return filepath.SkipDir
			}
			return nil
		}
		if e.Name() != base || !e.Type().IsRegular() {
			return nil
		}
		info, err := e.Info()
		if err != nil {
			return nil
		}
		if info.Size() != in.Bytes {
			wrongSize(p, info.Size())
			return nil
		}
		if data, err := os.ReadFile(p); err == nil && check(data, p) {
			found, where = data, p
			return filepath.SkipAll
		}
		return nil
	})
	return found, where, found != nil
}

// jsonDiffs names up to limit values that differ between two JSON
// documents: "comparisons[0].stats.f1.delta: report 0.1, re-run 0.2".
func jsonDiffs(a, b []byte, limit int) []string {
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return []string{"the report is not JSON the re-run can be compared with"}
	}
	var out []string
	var walk func(at string, x, y any)
	walk = func(at string, x, y any) {
		if len(out) >= limit {
			return
		}
		switch xv := x.(type) {
		case map[string]any:
			yv, ok := y.(map[string]any)
			if !ok {
				break
			}
			keys := make([]string, 0, len(xv))
			for k := range xv {
				keys = append(keys, k)
			}
			for k := range yv {
				if _, ok := xv[k]; !ok {
					keys = append(keys, k)
				}
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(strings.TrimPrefix(at+"."+k, "."), xv[k], yv[k])
			}
			return
		case []any:
			yv, ok := y.([]any)
			if !ok || len(yv) != len(xv) {
				break
			}
			for i := range xv {
				walk(fmt.Sprintf("%s[%d]", at, i), xv[i], yv[i])
			}
			return
		}
		xs, _ := json.Marshal(x)
		ys, _ := json.Marshal(y)
		if !bytes.Equal(xs, ys) {
			out = append(out, fmt.Sprintf("%s: report %s, re-run %s", at, clip(xs), clip(ys)))
		}
	}
	walk("", va, vb)
	return out
}

func clip(b []byte) string {
	if len(b) > 60 {
		return string(b[:57]) + "…"
	}
	return string(b)
}
