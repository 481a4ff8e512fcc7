//go:build !unix

package goprobe

import "os/exec"

// setGroup does nothing: the process alone is killed when its context
// ends.
func setGroup(*exec.Cmd) {}
