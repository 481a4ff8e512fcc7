//go:build unix

package transpiler

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// The private run directories of a process are made in one directory of
// its own, $TMPDIR/mcpt-PID-*, which holds a lock file locked for as long
// as the process lives. A kill -9 leaves that directory behind; the next
// mcpt to make one removes those whose lock nobody holds: a lock file mcpt
// made and no living process holds is the proof that mcpt wrote the
// directory and that nothing uses it any more.
const (
	processPrefix = "mcpt-"
	processLock   = ".mcpt-lock"
)

var process struct {
	sync.Mutex
	dir  string
	lock *os.File
}

// processTempDir returns the directory of this process's run directories,
// made on first use (after removing those of dead processes).
func processTempDir() (string, error) {
	process.Lock()
	defer process.Unlock()
	if process.dir != "" {
		return process.dir, nil
	}
	tmp := os.TempDir()
	RemoveStale(tmp)
	// Made under another name and renamed once locked, so that another
	// mcpt never sees it unlocked.
	const newPrefix = ".mcpt-new-"
	made, err := os.MkdirTemp(tmp, newPrefix)
	if err != nil {
		return "", err
	}
	f, err := os.OpenFile(filepath.Join(made, processLock), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		if err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
			f.Close()
		}
	}
	if err != nil {
		os.RemoveAll(made)
		return "", err
	}
	dir := filepath.Join(tmp, processPrefix+strconv.Itoa(os.Getpid())+"-"+strings.TrimPrefix(filepath.Base(made), newPrefix))
	if err := os.Rename(made, dir); err != nil {
		f.Close()
		os.RemoveAll(made)
		return "", err
	}
	process.dir, process.lock = dir, f
	return dir, nil
}

// RemoveProcessTempDir removes the directory of this process's run
// directories, if it made one; a process ends with it.
func RemoveProcessTempDir() {
	process.Lock()
	defer process.Unlock()
	if process.dir == "" {
		return
	}
	os.RemoveAll(process.dir)
	process.lock.Close()
	process.dir, process.lock = "", nil
}

// RemoveStale removes the run directories of dead mcpt processes below
// tmp: directories named mcpt-PID-* holding a lock file that no process
// holds. Anything else, and whatever cannot be removed (another user's),
// stays.
func RemoveStale(tmp string) {
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), processPrefix) {
			continue
		}
		dir := filepath.Join(tmp, e.Name())
		if stale(dir) {
			os.RemoveAll(dir)
		}
	}
}

// stale tells whether dir holds a lock file of mcpt's that no process
// holds.
func stale(dir string) bool {
	p := filepath.Join(dir, processLock)
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	f, err := os.OpenFile(p, os.O_RDONLY|unix.O_NOFOLLOW, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) || err != nil {
		return false
	}
	return true
}
