//go:build unix

package goprobe

import (
	"os/exec"
	"syscall"
)

// setGroup runs cmd in a process group of its own, killed whole when its
// context ends (the compiler processes of go build with it).
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
