//go:build unix

package outdir

import (
	"errors"
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
