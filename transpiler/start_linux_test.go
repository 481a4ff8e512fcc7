package transpiler

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// When mcpt is killed outright, the transpiler it was running dies with it.
func TestCommandDiesWithParent(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pids := filepath.Join(t.TempDir(), "pids")
	parent := exec.Command(self, "parent", pids)
	parent.Env = append(os.Environ(), fakeEnv+"=1", "TMPDIR="+t.TempDir())
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	child, grandchild := readPids(t, pids, 30*time.Second)
	// The grandchild is the transpiler's own affair: it has no parent-death
	// signal, and only the test cleans it up.
	t.Cleanup(func() { _ = unix.Kill(grandchild, unix.SIGKILL) })
	if err := parent.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = parent.Wait()
	wantGone(t, "transpiler of a killed parent", child)
}
