// Package cli is the docscore command as a library: every subcommand is a
// cobra command built from an Env, so tests can run the whole command line
// in-process with their own standard streams and environment.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/docscore/docscore/cmd/docscore/internal/inputfile"
	"github.com/docscore/docscore/scoring/inputerr"
)

// Exit codes shared by every subcommand.
const (
	ExitOK        = 0 // success
	ExitFailure   = 1 // anything else: I/O failures, bugs, interrupted work
	ExitInput     = 2 // input error: a file, flag or value the user gave is wrong
	ExitThreshold = 3 // a --fail-under threshold (or --fail-on verdict) was not met
)

// exitCodesHelp is appended to every command's help text.
const exitCodesHelp = `
Exit codes:
  0  ok
  1  anything else (I/O failure, interrupted work, internal error)
  2  input error: the message names the file, line and what was expected
  3  a --fail-under threshold (or --fail-on verdict) was not met
  130  stopped by Ctrl-C, SIGTERM or SIGHUP (no report written; a previous one kept)
`

// Env is what a command may touch of the process: its streams, its
// environment variables and its working context. Secrets are read only
// through Getenv.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	// Context is cancelled when the process is asked to stop (Ctrl-C).
	Context context.Context
	// Abort is cancelled when it is asked again (a second Ctrl-C): work
	// still finishing must stop at once. Nil means never.
	Abort context.Context
	// IsTerminal reports whether Stderr is an interactive terminal.
	IsTerminal bool

	// maxInputMiB is the --max-input-mib flag: the size limit of every
	// input read whole (0: inputfile.DefaultLimit).
	maxInputMiB int64
}

// maxInputMiBLimit is the largest --max-input-mib: 1 TiB.
const maxInputMiBLimit = 1 << 20

// OSEnv returns the Env of the running process.
func OSEnv() Env {
	isTerm := false
	if fi, err := os.Stderr.Stat(); err == nil {
		isTerm = fi.Mode()&os.ModeCharDevice != 0
	}
	return Env{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Getenv: os.Getenv, Context: context.Background(), IsTerminal: isTerm,
	}
}

// ExitError carries a specific exit code up to Main.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string { return e.Err.Error() }
func (e *ExitError) Unwrap() error { return e.Err }

// usageError marks a bad flag or argument: exit 2.
func usageError(format string, args ...any) error {
	return &ExitError{Code: ExitInput, Err: fmt.Errorf(format, args...)}
}

// commandSpec is one registered subcommand: its parent path ("" for the
// root, "score" for "docscore score …"), its name (the first word of its
// Use, checked by TestRegisteredNames) and its builder.
type commandSpec struct {
	parent, name string
	build        func(env *Env) *cobra.Command
}

var registry []commandSpec

// groups are the intermediate commands that only hold subcommands.
var groups = map[string]string{
	"score":       "Score model output against ground truth",
	"rules":       "Work with EQUIVALENCES.md rule files",
	"pilot":       "Run and report model pilots against a model server or a local command",
	"review":      "Advisory model-assisted review of scored output",
	"groundtruth": "Generate provisional ground truth with model panels, review it and approve it",
}

// register adds the subcommand name under parent; each command's file
// calls it from init, so commands never edit a shared list.
func register(parent, name string, build func(env *Env) *cobra.Command) {
	registry = append(registry, commandSpec{parent: parent, name: name, build: build})
}

// NewRoot builds the whole command tree for env.
func NewRoot(env *Env) *cobra.Command {
	return newRoot(env, func(commandSpec) bool { return true })
}

// newRootFor builds the part of the command tree that the command line
// args runs (see needed): a command's builder defines its flags, and
// building all of them took about 1 ms of every start (issue 34).
func newRootFor(env *Env, args []string) *cobra.Command {
	return newRoot(env, needed(args))
}

// needed tells which registered commands the command line args needs.
// The line's first word that is not a flag names the command: a root
// command is built alone; a group is built with the child its next word
// names, or with all its children when that word names none. A line that
// asks only for the version (--version or -v, no word) needs no command.
// Any other line, a word no command has (help, a typo, a flag's value)
// or --help without a command included, builds the whole tree, as before,
// so that help, the list of commands and cobra's suggestions stay whole.
func needed(args []string) func(commandSpec) bool {
	all := func(commandSpec) bool { return true }
	var words []string
	onlyVersion := true
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return all
		case a == "--max-input-mib":
			i++ // its value
			onlyVersion = false
		case strings.HasPrefix(a, "-"):
			if a != "--version" && a != "-v" {
				onlyVersion = false
			}
		default:
			words = append(words, a)
		}
	}
	if len(words) == 0 {
		if onlyVersion && len(args) > 0 {
			return func(commandSpec) bool { return false }
		}
		return all
	}
	if _, ok := groups[words[0]]; ok {
		group := words[0]
		if len(words) > 1 {
			for _, spec := range registry {
				if spec.parent == group && spec.name == words[1] {
					return func(s commandSpec) bool { return s.parent == group && s.name == words[1] }
				}
			}
		}
		return func(s commandSpec) bool { return s.parent == group }
	}
	for _, spec := range registry {
		if spec.parent == "" && spec.name == words[0] {
			return func(s commandSpec) bool { return s.parent == "" && s.name == words[0] }
		}
	}
	return all
}

// newRoot builds the root and the registered commands that want says
// are needed, with their groups.
func newRoot(env *Env, want func(commandSpec) bool) *cobra.Command {
	root := &cobra.Command{
		Use:   "docscore",
		Short: "Score what OCR, extraction and vision-language models read from documents",
		Long: `docscore scores model output against ground truth:
  tabular extraction (per-record fields, name matching, rule files),
  receipt OCR against CORD-v2 (ROUGE-L, numeric-string recall),
  and multi-stage document pipelines (the evaluation harness).
Scores are deterministic: the same input gives the same bytes out.` + "\n" + exitCodesHelp,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	root.SetIn(env.Stdin)
	root.CompletionOptions.DisableDefaultCmd = true
	root.PersistentFlags().Int64Var(&env.maxInputMiB, "max-input-mib", inputfile.DefaultLimit/inputfile.MiB,
		"size limit in MiB of each input file read whole (rules, schemas, ground truth, reports, cases)")
	root.PersistentPreRunE = func(c *cobra.Command, args []string) error {
		if env.maxInputMiB < 1 || env.maxInputMiB > maxInputMiBLimit {
			return usageError("--max-input-mib %d: expected 1 to %d", env.maxInputMiB, maxInputMiBLimit)
		}
		return nil
	}
	// --version (and -v) print the line "docscore version" prints.
	root.Version = currentBuild().String()
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &ExitError{Code: ExitInput, Err: fmt.Errorf("%w (see '%s --help')", err, c.CommandPath())}
	})

	parents := map[string]*cobra.Command{"": root}
	names := make([]string, 0, len(groups))
	for name := range groups {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		g := &cobra.Command{
			Use:   name,
			Short: groups[name],
			Long:  groups[name] + ".\n" + exitCodesHelp,
			Args:  cobra.NoArgs,
			RunE: func(c *cobra.Command, args []string) error {
				return c.Help()
			},
		}
		parents[name] = g
	}
	used := map[string]bool{}
	for _, spec := range registry {
		p, ok := parents[spec.parent]
		if !ok {
			panic("cli: unknown parent command " + spec.parent)
		}
		if !want(spec) {
			continue
		}
		c := spec.build(env)
		c.Long = strings.TrimRight(firstNonEmpty(c.Long, c.Short), "\n") + "\n" + exitCodesHelp
		p.AddCommand(c)
		used[spec.parent] = true
	}
	for _, name := range names {
		if used[name] {
			root.AddCommand(parents[name])
		}
	}
	return root
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// Main runs the command line args in env and returns the exit code.
func Main(args []string, env Env) int {
	if env.Context == nil {
		env.Context = context.Background()
	}
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	root := newRootFor(&env, args)
	root.SetArgs(args)
	err := root.ExecuteContext(env.Context)
	if err == nil {
		return ExitOK
	}
	msg := err.Error()
	var list inputerr.List
	if errors.As(err, &list) {
		// A list of input errors: each problem's first line is
		// prefixed, so that every problem reads as one; its source
		// line and caret follow as they are.
		parts := make([]string, len(list))
		for i, e := range list {
			parts[i] = e.Error()
		}
		msg = strings.TrimSuffix(msg, list.Error()) + strings.Join(parts, "\ndocscore: ")
	}
	fmt.Fprintln(env.Stderr, "docscore: "+msg)
	return exitCode(err)
}

// exitCode maps an error onto the documented exit codes.
func exitCode(err error) int {
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	if _, ok := inputerr.As(err); ok {
		return ExitInput
	}
	if strings.HasPrefix(err.Error(), "unknown command") || strings.HasPrefix(err.Error(), "unknown flag") ||
		strings.Contains(err.Error(), "accepts ") || strings.HasPrefix(err.Error(), "required flag") {
		return ExitInput
	}
	return ExitFailure
}
