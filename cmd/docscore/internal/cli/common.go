package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/docscore/docscore/cmd/docscore/internal/atomicfile"
	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/param"
	"github.com/docscore/docscore/scoring/stats"
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
		errors.Is(pe.Err, fs.ErrNotExist) || errors.Is(pe.Err, fs.ErrPermission) || errors.Is(pe.Err, syscall.ENOTDIR) {
		return &ExitError{Code: ExitInput, Err: err}
	}
	return err
}

// stdinName is how errors name standard input.
const stdinName = "<stdin>"

// readInput reads the one input a flag names: a file, or standard input
// for "-". A directory, a missing or an unreadable file is an input error
// (exit 2) naming the path.
func readInput(env *Env, flag, path string) (tabular.File, error) {
	if path == "-" {
		b, err := io.ReadAll(env.Stdin)
		if err != nil {
			return tabular.File{}, fmt.Errorf("%s -: reading standard input: %w", flag, err)
		}
		return tabular.File{Name: stdinName, Data: b}, nil
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return tabular.File{}, &ExitError{Code: ExitInput, Err: fmt.Errorf("%s %s: is a directory: expected a file", flag, path)}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return tabular.File{}, &ExitError{Code: ExitInput, Err: fmt.Errorf("%s %s: %v", flag, path, unwrapPathErr(err))}
	}
	return tabular.File{Name: path, Data: b}, nil
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
	if path == "-" {
		return env.Stdin, 0, func() {}, nil
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, 0, nil, &ExitError{Code: ExitInput, Err: fmt.Errorf("%s %s: is a directory: expected a file", flag, path)}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, nil, &ExitError{Code: ExitInput, Err: fmt.Errorf("%s %s: %v", flag, path, unwrapPathErr(err))}
	}
	var size int64
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	return f, size, func() { f.Close() }, nil
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

// intervalFlags defines --bootstrap, --ci-level and --seed (SPEC F.4),
// with SPEC's defaults; what names the unit that gets intervals.
func intervalFlags(f *pflag.FlagSet, bootstrap *int, level *float64, seed *uint64, what string) {
	f.IntVar(bootstrap, "bootstrap", stats.DefaultReplicates, "bootstrap replicates of each "+what+"'s confidence intervals (0: none)")
	f.Float64Var(level, "ci-level", stats.DefaultLevel, "confidence level of the intervals, between 0 and 1")
	f.Uint64Var(seed, "seed", 0, "seed of the intervals' random numbers")
}

// intervalOptions are the interval flags as the operations take them:
// every option given, so that the operation checks each.
func intervalOptions(bootstrap int, level float64, seed uint64) api.IntervalOptions {
	return api.IntervalOptions{Bootstrap: &bootstrap, CILevel: &level, Seed: &seed}
}
