//go:build unix && !linux

package transpiler

import (
	"os/exec"
	"syscall"
)

// setParentDeath does nothing: only Linux has a parent-death signal, so
// elsewhere a transpiler running when mcpt is killed outright lives on.
func setParentDeath(*syscall.SysProcAttr) {}

// startProcess starts cmd.
func startProcess(cmd *exec.Cmd) error { return cmd.Start() }
