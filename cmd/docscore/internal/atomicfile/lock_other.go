//go:build !unix

package atomicfile

import (
	"io/fs"
	"os"
)

// lockDir does nothing where flock is missing: stale temporary files are
// left for the user there.
func lockDir(string) (unlock func()) { return func() {} }

func lockTemp(*os.File) {}

func removeStale(dir, base string) {}

func specialBits(fs.FileInfo) fs.FileMode { return 0 }
