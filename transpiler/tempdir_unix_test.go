//go:build unix

package transpiler

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func mkfile(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRemoveStale: the run directories of a dead mcpt (its lock held by
// nobody) go; those of a living one, and anything not of mcpt's, stay.
func TestRemoveStale(t *testing.T) {
	tmp := t.TempDir()
	dead := filepath.Join(tmp, "mcpt-999999-1")
	mkfile(t, filepath.Join(dead, processLock))
	mkfile(t, filepath.Join(dead, "mcpt-run-1", "in", "a.cll"))
	alive := filepath.Join(tmp, "mcpt-999998-2")
	mkfile(t, filepath.Join(alive, processLock))
	f, err := os.Open(filepath.Join(alive, processLock))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(tmp, "mcpt-bench-3")
	mkfile(t, filepath.Join(other, "data"))
	elsewhere := filepath.Join(t.TempDir(), "x")
	mkfile(t, filepath.Join(elsewhere, processLock))
	if err := os.Symlink(elsewhere, filepath.Join(tmp, "mcpt-link")); err != nil {
		t.Fatal(err)
	}

	RemoveStale(tmp)
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("the directory of a dead mcpt stayed: %v", err)
	}
	for _, p := range []string{filepath.Join(alive, processLock), filepath.Join(other, "data"), filepath.Join(elsewhere, processLock)} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("removed: %v", err)
		}
	}
}

// TestProcessTempDir: a process's run directories are in one directory of
// its own, locked while it lives, and removed when it ends.
func TestProcessTempDir(t *testing.T) {
	RemoveProcessTempDir()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	defer RemoveProcessTempDir()
	c := &command{}
	work, _, _, err := c.newRunDir("a.cll", []byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(work)
	if filepath.Dir(dir) != tmp || !strings.HasPrefix(filepath.Base(dir), "mcpt-"+strconv.Itoa(os.Getpid())+"-") {
		t.Fatalf("run directory %s is not in a directory of this process in %s", work, tmp)
	}
	RemoveStale(tmp)
	if _, err := os.Stat(work); err != nil {
		t.Fatalf("the directory of a living process was removed: %v", err)
	}
	if err := removeRunDir(work); err != nil {
		t.Fatal(err)
	}
	RemoveProcessTempDir()
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("left in %s: %v", tmp, entries)
	}
}
