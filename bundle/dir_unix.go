//go:build unix

package bundle

import (
	"fmt"
	"os"
	"path"

	"golang.org/x/sys/unix"
)

// openDir opens the directory at the slash-separated path name to list
// it. The file is opened again relative to itself, outside the os.Root,
// whose directories look up every entry they list; the entries' types
// come from the directory itself.
func (r *Reader) openDir(name string) (*os.File, error) {
	f, err := r.open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return openDirAt(f, ".", r.display(name))
}

// openSubdir opens the directory name listed in the directory parent, at
// the slash-separated path dir, without following a symbolic link there.
func (r *Reader) openSubdir(parent *os.File, dir, name string) (*os.File, error) {
	return openDirAt(parent, name, r.display(path.Join(dir, name)))
}

func openDirAt(parent *os.File, name, display string) (*os.File, error) {
	for {
		fd, err := unix.Openat(int(parent.Fd()), name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		switch err {
		case nil:
			return os.NewFile(uintptr(fd), display), nil
		case unix.EINTR:
			continue
		case unix.ELOOP, unix.ENOTDIR:
			return nil, fmt.Errorf("%s: %w", display, ErrRefused)
		}
		return nil, &os.PathError{Op: "open", Path: display, Err: err}
	}
}
