package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/docscore/docscore/scoring/api"
)

func init() { register("rules", "check", newRulesCheck) }

func newRulesCheck(env *Env) *cobra.Command {
	var rulesPath, schemaPath, format string
	var gtArgs []string
	c := &cobra.Command{
		Use:   "check --rules EQUIVALENCES.md [--gt DIR|FILES…]",
		Short: "Check a rule file: every row parses, no form has two canonicals, ignores never hit the ground truth",
		Long: `Check an EQUIVALENCES.md rule file (SPEC A.5).

Every row of the ignore and equivalence tables must parse: an unknown
field, position, side or status is an error naming the line. No form may map
to two canonicals for one field. With --gt, a model-side ignore that would
remove something from a ground-truth value of that field (at its position)
is an error: it would split identical pairs. A code fence that is never
closed is an error at the line that opens it. Settled and OPEN rows alike
are checked, and every error of the file is reported in one pass.

Warnings: a settled row without a witness; a table in a rule section that
looks like rules but lacks a rule column; a column or extra cells that are
not read; a file with no rule section, or no rule table, at all.

Errors and warnings are printed as FILE:LINE[:COLUMN]: message, an error
followed by its row with a caret under the cell at fault; the exit code is
2 when there is any error. With --format json the report still holds the
file's sha256 and the rows that parsed when there are errors.`,
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
			if err := oneStdin("--rules", rulesPath, "--schema", schemaPath); err != nil {
				return err
			}
			req := api.RulesCheckRequest{}
			rf, err := readInput(env, "--rules", rulesPath)
			if err != nil {
				return err
			}
			req.Rules = api.File{Name: rf.Name, Text: string(rf.Data)}
			if schemaPath != "" {
				sf, err := readInput(env, "--schema", schemaPath)
				if err != nil {
					return err
				}
				req.Schema = &api.File{Name: sf.Name, Text: string(sf.Data)}
			}
			if len(gtArgs) > 0 {
				files, err := readGTFiles(env, gtArgs)
				if err != nil {
					return err
				}
				for _, f := range files {
					req.GT = append(req.GT, api.File{Name: f.Name, Text: string(f.Data)})
				}
			}
			out, err := runOperation(env.Context, api.CheckRulesOperation(), &req)
			if err != nil {
				return err
			}
			res := out.Value.(*api.RulesCheckResult)
			if format == "json" {
				b, err := api.MarshalJSON(res)
				if err != nil {
					return err
				}
				env.Stdout.Write(b)
			} else {
				for _, e := range res.Errors {
					fmt.Fprintln(env.Stdout, "error: "+e.Text)
					if e.Excerpt != "" {
						fmt.Fprintln(env.Stdout, e.Excerpt)
					}
				}
				for _, w := range res.Warnings {
					fmt.Fprintln(env.Stdout, "warning: "+w.Text)
				}
				if len(res.Errors) == 0 {
					gtNote := ""
					if len(req.GT) > 0 {
						gtNote = ", checked against the ground truth"
					}
					fmt.Fprintf(env.Stdout, "%s: ok: %d settled, %d OPEN rows, %d warning(s)%s\n", res.File, res.Settled, res.Open, len(res.Warnings), gtNote)
				}
			}
			if len(res.Errors) > 0 {
				return &ExitError{Code: ExitInput, Err: fmt.Errorf("%s: %d error(s)", rf.Name, len(res.Errors))}
			}
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&rulesPath, "rules", "", "the EQUIVALENCES.md rule file (- for standard input)")
	fl.StringSliceVar(&gtArgs, "gt", nil, "ground-truth CSV directory or files, for the ignore check")
	fl.StringVar(&schemaPath, "schema", "", "schema file for tables other than the default register (- for standard input)")
	fl.StringVar(&format, "format", "text", "output format: text or json")
	return c
}
