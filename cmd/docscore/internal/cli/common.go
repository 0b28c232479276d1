package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/docscore/docscore/scoring/param"
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

// writeOutput writes data to path, or to the command's stdout when path is
// empty or "-". A file is written to a temporary name and renamed, so a
// failed run never leaves half a report behind.
func writeOutput(env *Env, path string, data []byte) error {
	if path == "" || path == "-" {
		_, err := env.Stdout.Write(data)
		return err
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
