package bundle

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"iter"
	"os"
	"path"
	"sync"

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
		for name, typ := range dirents(buf[:n]) {
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

// dirents are the names and types of the entries listed in buf by
// getdents, but for "." and "..".
func dirents(buf []byte) iter.Seq2[[]byte, uint8] {
	return func(yield func([]byte, uint8) bool) {
		for off := 0; off < len(buf); {
			// struct linux_dirent64: inode, offset, record length,
			// type, name ending in NUL.
			reclen := int(binary.NativeEndian.Uint16(buf[off+16:]))
			typ := buf[off+18]
			name := buf[off+19 : off+reclen]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			off += reclen
			if string(name) == "." || string(name) == ".." {
				continue
			}
			if !yield(name, typ) {
				return
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

// scan is ScanBundles in the directory r reads.
func (r *Reader) scan(bundles []string, file string, limit int64) (map[string]bool, map[string]*Scanned, error) {
	f, err := r.open(".")
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	conn, err := f.SyscallConn()
	if err != nil {
		return nil, nil, err
	}
	var types map[string]uint8
	results := make([]*Scanned, len(bundles))
	if cerr := conn.Control(func(fd uintptr) {
		if types, err = list(int(fd), r.dir); err != nil {
			return
		}
		workers := min(4, len(bundles))
		var wg sync.WaitGroup
		for k := range workers {
			wg.Go(func() {
				w := &treeWalk{top: "."}
				for i := k; i < len(bundles); i += workers {
					if types[bundles[i]] == unix.DT_DIR {
						results[i] = r.scanBundle(int(fd), bundles[i], w, file, limit)
					}
				}
			})
		}
		wg.Wait()
	}); cerr != nil {
		return nil, nil, cerr
	}
	if err != nil {
		return nil, nil, err
	}
	listed := make(map[string]bool, len(types))
	for name := range types {
		listed[name] = true
	}
	scanned := map[string]*Scanned{}
	for i, s := range results {
		if s != nil {
			scanned[bundles[i]] = s
		}
	}
	return listed, scanned, nil
}

// list lists the directory open at fd, named display, with the type of
// each entry.
func list(fd int, display string) (map[string]uint8, error) {
	types := map[string]uint8{}
	buf := make([]byte, 64<<10)
	for {
		n, err := unix.Getdents(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "readdirent", Path: display, Err: err}
		}
		if n <= 0 {
			return types, nil
		}
		for name, typ := range dirents(buf[:n]) {
			types[string(name)] = typ
		}
	}
}

// scanBundle checks the bundle directory name listed in the directory open
// at fd and reads its file, as scan does, with w's buffers; nil when the
// bundle is for the caller to read one by one.
func (r *Reader) scanBundle(fd int, name string, w *treeWalk, file string, limit int64) *Scanned {
	bfd, err := openat(fd, name, unix.O_DIRECTORY)
	if err != nil {
		return nil
	}
	defer unix.Close(bfd)
	br := r.bundleReader(name)
	w.r, w.entries = br, 0
	s := &Scanned{Tree: w.walk(bfd, ".", 0)}
	var st unix.Stat_t
	for err = unix.EINTR; err == unix.EINTR; {
		err = unix.Fstatat(bfd, file, &st, unix.AT_SYMLINK_NOFOLLOW)
	}
	switch {
	case err == unix.ENOENT:
		return s
	case err != nil:
		return nil
	}
	s.Found = true
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		s.FileErr = fmt.Errorf("%s: %w", br.display(file), ErrRefused)
		return s
	}
	ffd, err := openat(bfd, file, unix.O_NONBLOCK)
	if err != nil {
		return nil
	}
	defer unix.Close(ffd)
	var fst unix.Stat_t
	if err := unix.Fstat(ffd, &fst); err != nil {
		return nil
	}
	if fst.Dev != st.Dev || fst.Ino != st.Ino {
		s.FileErr = fmt.Errorf("%s: changed while it was read: %w", br.display(file), ErrRefused)
		return s
	}
	s.Size = st.Size
	s.File = make([]byte, min(limit, st.Size))
	got := 0
	for got < len(s.File) {
		n, err := unix.Read(ffd, s.File[got:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil
		}
		if n == 0 {
			break
		}
		got += n
	}
	s.File = s.File[:got]
	return s
}

// openat opens name in the directory open at fd for reading, with flags
// besides, following no symbolic link.
func openat(fd int, name string, flags int) (int, error) {
	for {
		nfd, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|flags, 0)
		if err != unix.EINTR {
			return nfd, err
		}
	}
}
