package cli

import (
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/docscore/docscore/scoring/api"
	operations "github.com/docscore/docscore/scoring/api/registry"
)

// hostFlags are the flags of each command the registry answers that are
// the command line's own, not the operation's: where the report goes,
// thresholds, parallelism, the bundled sample, and eval's judge (the
// model calls only the command line makes). Anything else a command
// takes must be a registry option or input.
var hostFlags = map[string][]string{
	"score tabular":  {"out", "fail-under", "jobs", "sample"},
	"score receipts": {"out", "fail-under", "jobs"},
	"score tables":   {"out", "jobs"},
	"score text":     {"out"},
	"rules check":    {"format"}, // text or json: the check's text form is the command line's
	"compare":        {"out", "fail-on-regression"},
	"plan":           {"out"},
	"eval": {"allow-outside-paths", "batch", "batch-poll", "case-id", "checkpoint-context", "checkpoint-dir",
		"evidence", "fail-on", "ground-truth", "human-verdicts", "judge", "judge-backoff", "judge-command",
		"judge-concurrency", "judge-retries", "judge-samples", "judge-timeout", "markdown", "max-cost",
		"max-output-tokens", "model", "operation", "output", "prediction", "price-cached-input", "price-input",
		"price-output", "prices", "reasoning-effort", "resubmit", "rubric", "shuffle-references", "temperature"},
}

// flagTypes are the pflag types of each kind of option.
var flagTypes = map[api.Kind]string{
	api.Bool: "bool", api.Int: "int", api.Uint: "uint64", api.Float: "float64",
	api.String: "string", api.Strings: "stringSlice",
}

// commandOf finds the command that answers o.
func commandOf(t *testing.T, root *cobra.Command, o api.Operation) *cobra.Command {
	t.Helper()
	c, rest, err := root.Find(strings.Fields(o.Command))
	if err != nil || len(rest) > 0 || c.CommandPath() != "docscore "+o.Command {
		t.Fatalf("%s: no command %q (%v)", o.Name, o.Command, err)
	}
	return c
}

// TestCommandsAreTheRegistrys checks the command line's surface against
// the operation registry: for every operation with a Command, each
// option the command line takes is a flag of that command with the
// declared name, type, default and help; each input is a flag or an
// argument of its usage; and every other flag of the command is one of
// the command line's own (hostFlags). A flag removed, renamed, retyped or
// added by hand fails here.
func TestCommandsAreTheRegistrys(t *testing.T) {
	env := testEnvForRegistry()
	root := NewRoot(&env)
	seen := map[string]bool{}
	for _, o := range operations.Commands() {
		c := commandOf(t, root, o)
		seen[o.Command] = true
		known := map[string]bool{}
		for _, h := range hostFlags[o.Command] {
			known[h] = true
		}
		for _, p := range o.Params {
			name := p.FlagName()
			if name == "" {
				continue
			}
			known[name] = true
			f := c.LocalFlags().Lookup(name)
			if f == nil {
				t.Errorf("%s: option %s: %q has no flag --%s", o.Name, p.Name, c.CommandPath(), name)
				continue
			}
			if got, want := f.Value.Type(), flagTypes[p.Kind]; got != want {
				t.Errorf("%s: --%s is a %s, the registry's %s a %s", o.Name, name, got, p.Name, want)
			}
			if f.DefValue != p.DefaultText() {
				t.Errorf("%s: --%s defaults to %q, the registry's %s to %q", o.Name, name, f.DefValue, p.Name, p.DefaultText())
			}
			if f.Usage != p.Help {
				t.Errorf("%s: --%s says %q, the registry's %s %q", o.Name, name, f.Usage, p.Name, p.Help)
			}
		}
		for _, in := range o.Inputs {
			if in.Arg != "" {
				if !strings.Contains(c.Use, in.Arg) {
					t.Errorf("%s: input %s: %q's usage %q names no %s", o.Name, in.Name, c.CommandPath(), c.Use, in.Arg)
				}
				continue
			}
			name := in.FlagName()
			if name == "" {
				continue
			}
			known[name] = true
			if c.LocalFlags().Lookup(name) == nil {
				t.Errorf("%s: input %s: %q has no flag --%s", o.Name, in.Name, c.CommandPath(), name)
			}
		}
		var extra []string
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if !known[f.Name] {
				extra = append(extra, "--"+f.Name)
			}
		})
		sort.Strings(extra)
		if len(extra) > 0 {
			t.Errorf("%s: %q has flags neither the registry nor hostFlags declare: %s", o.Name, c.CommandPath(), strings.Join(extra, " "))
		}
	}
	for cmd := range hostFlags {
		if !seen[cmd] {
			t.Errorf("hostFlags names %q, which answers no operation of the registry", cmd)
		}
	}
}

func testEnvForRegistry() Env {
	return Env{Getenv: func(string) string { return "" }}
}
