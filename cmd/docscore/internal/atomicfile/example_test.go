package atomicfile_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/docscore/docscore/cmd/docscore/internal/atomicfile"
)

// A report written through a symbolic link replaces the file the link
// points at, which keeps its mode; the link stays a link. A directory is
// refused.
func Example() {
	dir, _ := os.MkdirTemp("", "atomicfile-example-")
	defer os.RemoveAll(dir)
	report := filepath.Join(dir, "report-2026-12-01.json")
	latest := filepath.Join(dir, "latest.json")
	os.WriteFile(report, []byte("{}\n"), 0o640)
	os.Symlink("report-2026-12-01.json", latest)

	if err := atomicfile.WriteFile(latest, []byte(`{"f1":0.93}`+"\n")); err != nil {
		fmt.Println(err)
	}
	data, _ := os.ReadFile(report)
	li, _ := os.Lstat(latest)
	fi, _ := os.Stat(report)
	fmt.Printf("%s", data)
	fmt.Println("latest.json is a link:", li.Mode()&os.ModeSymlink != 0)
	fmt.Println("report mode:", fi.Mode().Perm())

	err := atomicfile.WriteFile(dir, []byte("x"))
	fmt.Println(errors.Is(err, atomicfile.ErrIsDir))
	// Output:
	// {"f1":0.93}
	// latest.json is a link: true
	// report mode: -rw-r-----
	// true
}
