//go:build unix && !linux

package nodeproc

import (
	"os/exec"
	"syscall"
)

// setParentDeath does nothing: only Linux has a parent-death signal; a
// process elsewhere ends when mcpt's end closes its input.
func setParentDeath(*syscall.SysProcAttr) {}

// startProcess starts cmd.
func startProcess(cmd *exec.Cmd) error { return cmd.Start() }

// limitData does nothing: the heap limit of node is the only bound.
func limitData(int, int64) {}
