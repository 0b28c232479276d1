package cli

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/docscore/docscore/rules"
	"github.com/docscore/docscore/scoring/inputerr"
	"github.com/docscore/docscore/scoring/schema"
	"github.com/docscore/docscore/scoring/tabular"
)

func init() { register("rules", newRulesCheck) }

func newRulesCheck(env *Env) *cobra.Command {
	var rulesPath, schemaPath, format string
	var gtArgs []string
	c := &cobra.Command{
		Use:   "check --rules EQUIVALENCES.md [--gt DIR|FILES…]",
		Short: "Check a rule file: every row parses, no form has two canonicals, ignores never hit the ground truth",
		Long: `Check an EQUIVALENCES.md rule file (SPEC A.5).

Every row of the ignore and equivalence tables must parse: an unknown
field, position, side or status is an error naming the line. No form may map
to two canonicals for one field. With --gt, a model-side ignore whose token
appears in that field's ground-truth values is an error: it would split
identical pairs. Settled and OPEN rows alike are checked. A settled row
without a witness is a warning.

Errors and warnings are printed as FILE:LINE: message; the exit code is 2
when there is any error.`,
		Example: `  docscore rules check --rules EQUIVALENCES.md
  docscore rules check --rules EQUIVALENCES.md --gt gt/`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if err := checkFormat(format, "text", "json"); err != nil {
				return err
			}
			if rulesPath == "" {
				return usageError("expected --rules FILE")
			}
			rf, err := readFile(rulesPath)
			if err != nil {
				return err
			}
			s := schema.Default()
			if schemaPath != "" {
				sf, err := readFile(schemaPath)
				if err != nil {
					return err
				}
				if s, err = schema.Parse(sf.Name, sf.Data); err != nil {
					return err
				}
			}
			var gt map[string][]string
			if len(gtArgs) > 0 {
				files, err := readGTFiles(gtArgs)
				if err != nil {
					return err
				}
				if gt, err = gtValues(files, s); err != nil {
					return err
				}
			}
			var errs inputerr.List
			var warnings []*inputerr.Error
			f, perr := rules.Parse(rf.Name, rf.Data)
			if perr != nil {
				if l, ok := perr.(inputerr.List); ok {
					errs = l
				} else {
					return perr
				}
			} else {
				errs = rules.Check(f, s, gt)
				warnings = f.Warnings
			}
			if format == "json" {
				out := rulesCheckJSON{Errors: messages(errs), Warnings: messages(warnings)}
				if f != nil {
					out.File, out.SHA256 = f.Name, f.SHA256
					out.Settled, out.Open, out.Rows = f.Count(rules.Settled), f.Count(rules.Open), f.Rows
				}
				b, _ := json.MarshalIndent(out, "", "  ")
				fmt.Fprintln(env.Stdout, string(b))
			} else {
				for _, e := range errs {
					fmt.Fprintln(env.Stdout, "error: "+e.Error())
				}
				for _, w := range warnings {
					fmt.Fprintln(env.Stdout, "warning: "+w.Error())
				}
				if f != nil && len(errs) == 0 {
					gtNote := ""
					if gt != nil {
						gtNote = ", checked against the ground truth"
					}
					fmt.Fprintf(env.Stdout, "%s: ok: %d settled, %d OPEN rows, %d warning(s)%s\n", f.Name, f.Count(rules.Settled), f.Count(rules.Open), len(warnings), gtNote)
				}
			}
			if len(errs) > 0 {
				return &ExitError{Code: ExitInput, Err: fmt.Errorf("%s: %d error(s)", rf.Name, len(errs))}
			}
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&rulesPath, "rules", "", "the EQUIVALENCES.md rule file")
	fl.StringSliceVar(&gtArgs, "gt", nil, "ground-truth CSV directory or files, for the ignore check")
	fl.StringVar(&schemaPath, "schema", "", "schema file for tables other than the default register")
	fl.StringVar(&format, "format", "text", "output format: text or json")
	return c
}

type rulesCheckJSON struct {
	File     string      `json:"file"`
	SHA256   string      `json:"sha256"`
	Settled  int         `json:"settled"`
	Open     int         `json:"open"`
	Errors   []string    `json:"errors"`
	Warnings []string    `json:"warnings"`
	Rows     []rules.Row `json:"rows"`
}

func messages[E error](errs []E) []string {
	out := []string{}
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

// gtValues collects every column's ground-truth values, the key included.
func gtValues(files []tabular.File, s *schema.Schema) (map[string][]string, error) {
	out := map[string][]string{}
	for _, f := range files {
		pages, err := tabular.ReadGT(f.Name, f.Data, s)
		if err != nil {
			return nil, err
		}
		for _, p := range pages {
			for _, r := range p.Rows {
				out[s.Key] = append(out[s.Key], r.Key)
				for i, c := range s.Columns {
					out[c.Name] = append(out[c.Name], r.Values[i])
				}
			}
		}
	}
	return out, nil
}
