package bundle

import (
	"encoding/binary"
	"fmt"
	"os"
	"path"

	"golang.org/x/sys/unix"
)

// checkTree walks the directory at the slash-separated path rel for
// CheckTree, as walkTree does but with the file system's calls alone: a
// directory is opened, listed and closed, three calls where an os.File
// takes a dozen, which is most of a check of tens of thousands of bundles.
func (r *Reader) checkTree(rel string) error {
	top, err := r.open(rel)
	if err != nil {
		return err
	}
	defer top.Close()
	conn, err := top.SyscallConn()
	if err != nil {
		return err
	}
	w := treeWalk{r: r, top: rel}
	if cerr := conn.Control(func(fd uintptr) { err = w.walk(int(fd), path.Clean(rel), 0) }); cerr != nil {
		return cerr
	}
	return err
}

// treeWalk is one walk of checkTree.
type treeWalk struct {
	r       *Reader
	top     string // the path of the walk, for messages
	entries int
	bufs    [][]byte // a listing buffer for each depth
}

// walk checks the directory open at fd, at the slash-separated path dir,
// depth levels below the top.
func (w *treeWalk) walk(fd int, dir string, depth int) error {
	r := w.r
	if depth > maxDepth {
		return fmt.Errorf("%s: deeper than %d levels: %w", r.display(dir), maxDepth, ErrRefused)
	}
	if len(w.bufs) <= depth {
		w.bufs = append(w.bufs, make([]byte, 8<<10))
	}
	buf := w.bufs[depth]
	for {
		n, err := unix.Getdents(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return &os.PathError{Op: "readdirent", Path: r.display(dir), Err: err}
		}
		if n <= 0 {
			return nil
		}
		for off := 0; off < n; {
			// struct linux_dirent64: inode, offset, record length,
			// type, name ending in NUL.
			reclen := int(binary.NativeEndian.Uint16(buf[off+16:]))
			typ := buf[off+18]
			name := buf[off+19 : off+reclen]
			for i, c := range name {
				if c == 0 {
					name = name[:i]
					break
				}
			}
			off += reclen
			if string(name) == "." || string(name) == ".." {
				continue
			}
			if w.entries++; w.entries > maxEntries {
				return fmt.Errorf("%s: more than %d files: %w", r.display(w.top), maxEntries, ErrRefused)
			}
			if typ == unix.DT_UNKNOWN {
				var st unix.Stat_t
				if err := unix.Fstatat(fd, string(name), &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
					return &os.PathError{Op: "lstat", Path: r.display(path.Join(dir, string(name))), Err: err}
				}
				typ = map[uint32]uint8{unix.S_IFDIR: unix.DT_DIR, unix.S_IFREG: unix.DT_REG}[st.Mode&unix.S_IFMT]
			}
			switch typ {
			case unix.DT_DIR:
				if err := w.sub(fd, dir, string(name), depth); err != nil {
					return err
				}
			case unix.DT_REG:
			default:
				return fmt.Errorf("%s: %w", r.display(path.Join(dir, string(name))), ErrRefused)
			}
		}
	}
}

// sub checks the directory name listed in the directory open at fd, at
// the slash-separated path dir, without following a symbolic link there.
func (w *treeWalk) sub(fd int, dir, name string, depth int) error {
	display := w.r.display(path.Join(dir, name))
	for {
		sfd, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		switch err {
		case nil:
			err = w.walk(sfd, path.Join(dir, name), depth+1)
			unix.Close(sfd)
			return err
		case unix.EINTR:
			continue
		case unix.ELOOP, unix.ENOTDIR:
			return fmt.Errorf("%s: %w", display, ErrRefused)
		}
		return &os.PathError{Op: "open", Path: display, Err: err}
	}
}
