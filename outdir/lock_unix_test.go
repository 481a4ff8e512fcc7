//go:build unix

package outdir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// On a file system without locks the directory is used, and NoLock says so.
func TestNoLocks(t *testing.T) {
	defer func(f func(int, int) error) { flock = f }(flock)
	flock = func(int, int) error { return unix.ENOLCK }
	d, err := Create(t.TempDir(), layout, false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if !errors.Is(d.NoLock, unix.ENOLCK) {
		t.Errorf("NoLock = %v", d.NoLock)
	}
}

// TestHolder: the lock of a directory in use names its holder; once it is
// released, or where there is no lock file, nobody holds it, and Holder
// makes no lock file.
func TestHolder(t *testing.T) {
	dir := t.TempDir()
	if h, busy := Holder(dir); busy {
		t.Errorf("no lock file, held by %s", h)
	}
	if _, err := os.Stat(filepath.Join(dir, LockName)); !os.IsNotExist(err) {
		t.Errorf("Holder made a lock file: %v", err)
	}
	d, err := Create(dir, layout, false)
	if err != nil {
		t.Fatal(err)
	}
	h, busy := Holder(dir)
	if want := fmt.Sprintf("mcpt (pid %d)", os.Getpid()); !busy || h != want {
		t.Errorf("Holder of a directory in use: %q %v, want %q", h, busy, want)
	}
	// Looking does not keep the lock from its holder's next user.
	d.Close()
	if h, busy := Holder(dir); busy {
		t.Errorf("released, held by %s", h)
	}
	d, err = Open(dir, layout)
	if err != nil {
		t.Fatalf("the lock after Holder looked: %v", err)
	}
	d.Close()
}
