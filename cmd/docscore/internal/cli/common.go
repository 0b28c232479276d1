package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"
	"syscall"

	"github.com/docscore/docscore/cmd/docscore/internal/atomicfile"
	"github.com/docscore/docscore/cmd/docscore/internal/inputfile"
	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/param"
	"github.com/docscore/docscore/scoring/tabular"
)

// Thresholds are the metric floors of a --fail-under flag, such as
// "f1=0.9,title=0.8".
type Thresholds map[string]float64

// parseThresholds reads a --fail-under value: comma-separated metric=value
// pairs, each value a number in [0, 1].
func parseThresholds(s string) (Thresholds, error) {
	t := Thresholds{}
	if strings.TrimSpace(s) == "" {
		return t, nil
	}
	for _, part := range strings.Split(s, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, usageError("--fail-under: %q is not metric=value (for example f1=0.9)", part)
		}
		v, err := param.Parse("--fail-under "+name, val, param.Unit)
		if err != nil {
			return nil, err
		}
		t[name] = v
	}
	return t, nil
}

// Names returns the threshold metric names in sorted order.
func (t Thresholds) Names() []string {
	names := make([]string, 0, len(t))
	for n := range t {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// thresholdFailure is returned when a score falls under its floor: exit 3.
func thresholdFailure(failures []string) error {
	return &ExitError{Code: ExitThreshold, Err: fmt.Errorf("below --fail-under:\n  %s", strings.Join(failures, "\n  "))}
}

// checkFormat validates a --format value against the allowed ones.
func checkFormat(format string, allowed ...string) error {
	for _, a := range allowed {
		if format == a {
			return nil
		}
	}
	return usageError("--format %q: expected one of %s", format, strings.Join(allowed, ", "))
}

// runOperation runs an operation of the core on the request a command
// built from its flags and files: the same checks and the same bytes as
// in the page and the HTTP API. A bad option is a usage error naming its
// flag.
func runOperation(ctx context.Context, o api.Operation, req api.Request) (*api.Result, error) {
	res, err := o.Run(ctx, req)
	if err != nil {
		return nil, flagError(err)
	}
	return res, nil
}

// flagError turns an operation's *api.ParamError into a usage error that
// names the command line's flag (format → --format, skip_bad_lines →
// --skip-bad-lines); other errors pass unchanged.
func flagError(err error) error {
	var pe *api.ParamError
	if errors.As(err, &pe) {
		return usageError("--%s %s", strings.ReplaceAll(pe.Param, "_", "-"), pe.Msg)
	}
	return err
}

// writeOutput writes data to path, or to the command's stdout when path is
// empty or "-", as package atomicfile describes: a regular file (or a link
// to one) is replaced atomically, keeping its mode; a device or FIFO is
// written straight through. flag names the option that gave path, for the
// message of a path that cannot be written: exit 2 when the path is wrong
// (a directory, a missing folder, a dangling link, no permission), exit 1
// for other failures (a full disk). Either way the message names the path
// the user gave, and no temporary file is left behind.
func writeOutput(env *Env, flag, path string, data []byte) error {
	return outputError(flag, path, atomicfile.Output(env.Stdout, path, data))
}

// outputError is the error of a failed write of path as writeOutput
// describes it (nil for nil).
func outputError(flag, path string, err error) error {
	if err == nil {
		return nil
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		return err // already described
	}
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != path {
		return err
	}
	err = fmt.Errorf("%s %s: %w", flag, path, pe.Err)
	if errors.Is(pe.Err, atomicfile.ErrIsDir) || errors.Is(pe.Err, atomicfile.ErrDanglingLink) ||
		errors.Is(pe.Err, fs.ErrNotExist) || errors.Is(pe.Err, fs.ErrPermission) || errors.Is(pe.Err, syscall.ENOTDIR) ||
		errors.Is(pe.Err, syscall.ELOOP) {
		return &ExitError{Code: ExitInput, Err: err}
	}
	return err
}

// stdinName is how errors name standard input.
const stdinName = "<stdin>"

// readInput reads the one input a flag names: a file, or standard input
// for "-", under the --max-input-mib limit and stopped by Ctrl-C. A
// directory, a missing, an unreadable or a too large file is an input
// error (exit 2) naming the flag and the path; an interrupted read exits
// 130.
func readInput(env *Env, flag, path string) (tabular.File, error) {
	if path == "-" {
		b, err := env.inputs().ReadAll(stdinName, env.Stdin)
		if err != nil {
			return tabular.File{}, inputReadError(flag+" -", err)
		}
		return tabular.File{Name: stdinName, Data: b}, nil
	}
	b, err := env.inputs().ReadFile(path)
	if err != nil {
		return tabular.File{}, inputReadError(flag+" "+path, err)
	}
	return tabular.File{Name: path, Data: b}, nil
}

// readPath reads a file named by a flag or a folder listing (what names
// it in errors: "--gt", or "" for the path alone), as readInput does.
func readPath(env *Env, what, path string) ([]byte, error) {
	b, err := env.inputs().ReadFile(path)
	if err != nil {
		return nil, inputReadError(strings.TrimSpace(what+" "+path), err)
	}
	return b, nil
}

// inputs is the reader of the command's inputs: the --max-input-mib
// limit, and the command's context, which Ctrl-C cancels.
func (env *Env) inputs() inputfile.Reader {
	mib := env.maxInputMiB
	if mib <= 0 {
		mib = inputfile.DefaultLimit / inputfile.MiB
	}
	return inputfile.Reader{Context: env.Context, Limit: mib * inputfile.MiB}
}

// inputReadError is the error of an input that could not be read; what
// names it ("--rules r.md"). A read stopped by Ctrl-C exits 130; every
// other failure is an input error (exit 2), and one past the size limit
// says how to raise it.
func inputReadError(what string, err error) error {
	if errors.Is(err, context.Canceled) {
		return &ExitError{Code: ExitInterrupted, Err: fmt.Errorf("interrupted while reading %s (%w)", what, err)}
	}
	var tl *inputfile.TooLargeError
	if errors.As(err, &tl) {
		return &ExitError{Code: ExitInput, Err: fmt.Errorf("%s: %v (raise it with --max-input-mib)", what, tl)}
	}
	return &ExitError{Code: ExitInput, Err: fmt.Errorf("%s: %v", what, unwrapPathErr(err))}
}

// runsName is how errors name the runs file a flag gives.
func runsName(path string) string {
	if path == "-" {
		return stdinName
	}
	return path
}

// openInput opens the one input a flag names for reading as a stream: a
// file, or standard input for "-", with its size (0 when unknown) and
// what closes it. The errors are readInput's.
func openInput(env *Env, flag, path string) (io.Reader, int64, func(), error) {
	rd := env.inputs()
	if path == "-" {
		r, stop := rd.Stream(env.Stdin)
		return r, 0, stop, nil
	}
	f, err := rd.Open(path)
	if err != nil {
		return nil, 0, nil, inputReadError(flag+" "+path, err)
	}
	var size int64
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	r, stop := rd.Stream(f)
	return r, size, func() { stop(); f.Close() }, nil
}

// oneStdin refuses a command line where more than one flag reads standard
// input; pairs are flag names and their values.
func oneStdin(pairs ...string) error {
	var on []string
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] == "-" {
			on = append(on, pairs[i])
		}
	}
	if len(on) > 1 {
		return usageError("%s all read standard input (-): only one input may be -", strings.Join(on, " and "))
	}
	return nil
}

// intervalOptions are the interval flags as the operations take them:
// every option given, so that the operation checks each.
func intervalOptions(bootstrap int, level float64, seed uint64) api.IntervalOptions {
	return api.IntervalOptions{Bootstrap: &bootstrap, CILevel: &level, Seed: &seed}
}
