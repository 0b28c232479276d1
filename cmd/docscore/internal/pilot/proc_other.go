//go:build !unix

package pilot

import (
	"os"
	"os/exec"
)

// setProcessGroup does nothing where there are no process groups.
func setProcessGroup(cmd *exec.Cmd) {}

// killProcessGroup kills the process.
func killProcessGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}

// terminateProcessGroup kills the process (there is no gentler signal).
func terminateProcessGroup(cmd *exec.Cmd) error { return killProcessGroup(cmd) }

// lockFile does nothing where advisory locks are not available.
func lockFile(f *os.File) error { return nil }
