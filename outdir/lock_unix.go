//go:build unix

package outdir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// flock is unix.Flock; tests replace it.
var flock = unix.Flock

// lock takes the exclusive lock of dir, held until Close (or the end of
// the process, however it ends), and writes this process's id into the
// lock file so that another mcpt can say who holds it. On a file system
// without locks (some network file systems) the directory is used
// unlocked, and Dir.NoLock says why.
func lock(dir string) (*Dir, error) {
	p := filepath.Join(dir, LockName)
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	noLock := error(nil)
	if err := flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); errors.Is(err, unix.ENOLCK) || errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.ENOSYS) {
		noLock = fmt.Errorf("cannot lock %s: %w", p, err)
	} else if err != nil {
		b, _ := os.ReadFile(p)
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			holder := "another process"
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				holder = fmt.Sprintf("mcpt (pid %d)", pid)
			}
			return nil, usage("output directory %s is in use by %s: one campaign at a time per directory", dir, holder)
		}
		return nil, fmt.Errorf("locking %s: %w", p, err)
	}
	err = f.Truncate(0)
	if err == nil {
		_, err = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", p, err)
	}
	return &Dir{Path: dir, lock: f, NoLock: noLock}, nil
}

// Holder tells whether another process holds the lock of dir, and who
// ("mcpt (pid N)"): a campaign that still runs there. It takes the lock
// for no longer than it looks, and makes no lock file.
func Holder(dir string) (string, bool) {
	p := filepath.Join(dir, LockName)
	f, err := os.OpenFile(p, os.O_RDONLY|unix.O_NOFOLLOW, 0)
	if err != nil {
		return "", false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	if err := flock(int(f.Fd()), unix.LOCK_SH|unix.LOCK_NB); !errors.Is(err, unix.EWOULDBLOCK) {
		if err == nil {
			_ = flock(int(f.Fd()), unix.LOCK_UN)
		}
		return "", false
	}
	b := make([]byte, 32)
	n, _ := f.Read(b)
	if pid, err := strconv.Atoi(strings.TrimSpace(string(b[:n]))); err == nil {
		return fmt.Sprintf("mcpt (pid %d)", pid), true
	}
	return "another process", true
}
