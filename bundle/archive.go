package bundle

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpt-tool/mcpt/tree"
)

// Ext ends the name of a bundle as mcpt writes it: one gzip-compressed tar
// archive (findings/ID.tar.gz) of the files a bundle directory held
// before, so that a bundle costs one file of the file system, not a dozen
// blocks of small files. Any tar reads it (tar xzf); mcpt reads it in
// memory, checked as a directory is (see OpenArchive), and never unpacks
// it to disk.
const Ext = ".tar.gz"

// archiveComment is the comment of the gzip header of an archive mcpt
// wrote: the first bytes of the file, so that even one a kill cut short
// tells that mcpt wrote it (see Remove).
const archiveComment = "mcpt bundle"

// archiveHead is the gzip header of every archive mcpt writes, byte for
// byte (no time, no name, a fixed level).
var archiveHead = sync.OnceValue(func() []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Comment = archiveComment
	_ = zw.Flush()
	// The header: 10 bytes, then the comment and its NUL.
	return buf.Bytes()[:10+len(archiveComment)+1]
})

// archiveTime is the time of every entry of an archive mcpt writes: the
// same bundle gives the same bytes.
var archiveTime = time.Unix(0, 0).UTC()

// Reduced is the path of the reduced bundle mcpt reduce writes beside the
// bundle at p (a path or a slash-separated bundle path): "-reduced"
// before the archive's extension, or after a bundle directory's name.
func Reduced(p string) string {
	if base, ok := strings.CutSuffix(p, Ext); ok {
		return base + reducedSuffix + Ext
	}
	return p + reducedSuffix
}

// IsReduced tells whether the bundle path p is that of a reduced bundle.
func IsReduced(p string) bool {
	return strings.HasSuffix(strings.TrimSuffix(p, Ext), reducedSuffix)
}

const reducedSuffix = "-reduced"

// writeArchive writes the archive of the files of b (their names sorted,
// the manifest first) to the file p, made empty by tempName.
func (b *Bundle) writeArchive(p string) error {
	files, dirs, err := b.files()
	if err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 64<<10)
	err = packFiles(bw, files, dirs)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// packFiles writes the archive of files (by slash-separated name) and of
// the directories dirs to w: the manifest, the directories, the files.
func packFiles(w io.Writer, files tree.Tree, dirs []string) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	zw.Comment = archiveComment
	tw := tar.NewWriter(zw)
	names := files.Names()
	put := func(name string, data []byte) error {
		h := &tar.Header{Typeflag: tar.TypeReg, Name: name, Size: int64(len(data)), Mode: 0o644, ModTime: archiveTime}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		_, err := tw.Write(data)
		return err
	}
	if err := put(ManifestFile, manifestOf(names)); err != nil {
		return err
	}
	for _, d := range dirs {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: d + "/", Mode: 0o755, ModTime: archiveTime}); err != nil {
			return err
		}
	}
	for _, name := range entryOrder(names) {
		if err := put(name, files[name]); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return zw.Close()
}

// entryOrder orders the files of an archive so that gzip, which looks 32
// KB back, finds what they share: each file of the follow-up's output
// right after the base's (the C++ file of a Thrift finding, 24 KB, packs
// to 4 KB for both instead of 7), the follow-up input after the base
// input, the small files, the recipe last.
func entryOrder(names []string) []string {
	rank := func(name string) (int, string) {
		switch {
		case strings.HasPrefix(name, BaseDir+"/"):
			return 0, strings.TrimPrefix(name, BaseDir+"/")
		case strings.HasPrefix(name, FollowUpDir+"/"):
			return 1, strings.TrimPrefix(name, FollowUpDir+"/")
		case strings.HasPrefix(name, BaseOutDir+"/"):
			return 2, strings.TrimPrefix(name, BaseOutDir+"/")
		case strings.HasPrefix(name, FollowOutDir+"/"):
			return 3, strings.TrimPrefix(name, FollowOutDir+"/")
		case name == RecipeFile:
			return 5, ""
		}
		return 4, name
	}
	out := slices.Clone(names)
	slices.SortStableFunc(out, func(a, b string) int {
		ra, ka := rank(a)
		rb, kb := rank(b)
		// The outputs by file, base before follow-up.
		if ra >= 2 && ra <= 3 && rb >= 2 && rb <= 3 {
			if c := strings.Compare(ka, kb); c != 0 {
				return c
			}
		}
		if ra != rb {
			return ra - rb
		}
		return strings.Compare(ka, kb)
	})
	return out
}

// ownArchive tells whether the regular file p is an archive mcpt wrote:
// it starts with the gzip header mcpt writes. A temporary one (partial)
// may hold only the start of it, or nothing at all: a kill cut it short.
func ownArchive(p string, partial bool) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	head := archiveHead()
	buf := make([]byte, len(head))
	n, _ := io.ReadFull(f, buf)
	if n < len(head) && !partial {
		return false
	}
	return bytes.Equal(buf[:n], head[:n])
}

// maxUnpacked bounds the bytes of an archive unpacked (MaxSize; a test
// lowers it).
var maxUnpacked int64 = MaxSize

// memTree is a bundle read from its archive: its files and directories
// by slash-separated name ("." the top).
type memTree struct {
	files map[string][]byte
	dirs  map[string]bool
}

// readArchive reads the bundle archive from r, named display in messages,
// refusing what no archive mcpt wrote holds: an entry that is not a
// regular file or a directory (a symbolic or hard link, a device, a named
// pipe), a name that is absolute or leaves the archive (".."), a name
// given twice, a tree deeper than 64 levels or of more than 100,000
// entries, more than MaxSize bytes unpacked.
func readArchive(r io.Reader, display string) (*memTree, error) {
	zr, err := gzip.NewReader(bufio.NewReaderSize(r, 64<<10))
	if err != nil {
		return nil, fmt.Errorf("%s: not a bundle archive: %w", display, err)
	}
	lr := &io.LimitedReader{R: zr, N: maxUnpacked + 1}
	tr := tar.NewReader(lr)
	m := &memTree{files: map[string][]byte{}, dirs: map[string]bool{".": true}}
	refuse := func(name, why string) error {
		return fmt.Errorf("%s: %q in the archive: %s: %w", display, name, why, ErrRefused)
	}
	for entries := 0; ; entries++ {
		h, err := tr.Next()
		if lr.N <= 0 {
			return nil, fmt.Errorf("%s: the bundle is larger than %d MiB unpacked", display, maxUnpacked>>20)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: not a bundle archive: %w", display, err)
		}
		if entries >= maxEntries {
			return nil, fmt.Errorf("%s: more than %d entries: %w", display, maxEntries, ErrRefused)
		}
		name := h.Name
		if h.Typeflag == tar.TypeDir {
			name = strings.TrimSuffix(name, "/")
		}
		if !tree.Clean(name) {
			return nil, refuse(h.Name, "a path that leaves the bundle")
		}
		if strings.Count(name, "/") >= maxDepth {
			return nil, refuse(h.Name, fmt.Sprintf("deeper than %d levels", maxDepth))
		}
		if _, ok := m.files[name]; ok || m.dirs[name] && h.Typeflag != tar.TypeDir {
			return nil, refuse(h.Name, "given twice")
		}
		for d := path.Dir(name); d != "."; d = path.Dir(d) {
			if _, ok := m.files[d]; ok {
				return nil, refuse(h.Name, "below a file")
			}
			m.dirs[d] = true
		}
		switch h.Typeflag {
		case tar.TypeDir:
			m.dirs[name] = true
		case tar.TypeReg, 0: // 0: a regular file of old archives
			data, err := io.ReadAll(tr)
			if lr.N <= 0 {
				return nil, fmt.Errorf("%s: the bundle is larger than %d MiB unpacked", display, maxUnpacked>>20)
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", display, name, err)
			}
			m.files[name] = data
		default:
			return nil, refuse(h.Name, "not a regular file or a directory")
		}
	}
	return m, nil
}

// memInfo is what a file or directory of a memTree is.
type memInfo struct {
	name string
	size int64
	dir  bool
}

func (i memInfo) Name() string { return i.name }
func (i memInfo) Size() int64  { return i.size }
func (i memInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o755
	}
	return 0o644
}
func (i memInfo) ModTime() time.Time { return archiveTime }
func (i memInfo) IsDir() bool        { return i.dir }
func (i memInfo) Sys() any           { return nil }

// stat is what the slash-separated path name of m is; name must be clean
// and local.
func (m *memTree) stat(name string) (fs.FileInfo, bool) {
	if data, ok := m.files[name]; ok {
		return memInfo{name: path.Base(name), size: int64(len(data))}, true
	}
	if m.dirs[name] {
		return memInfo{name: path.Base(name), dir: true}, true
	}
	return nil, false
}

// below lists the files of m below the directory dir ("." for all), by
// their names relative to dir, sorted.
func (m *memTree) below(dir string) []string {
	var names []string
	for name := range m.files {
		if dir == "." {
			names = append(names, name)
		} else if rest, ok := strings.CutPrefix(name, dir+"/"); ok {
			names = append(names, rest)
		}
	}
	slices.Sort(names)
	return names
}

// OpenArchive returns a Reader of the bundle archive file (itself named by
// the user, so a link there is followed), read whole into memory as
// readArchive checks it.
func OpenArchive(file string) (*Reader, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", file, ErrRefused)
	}
	return archiveReader(f, fi, file)
}

// archiveReader reads the archive open as f (what fi says), named display.
func archiveReader(f io.Reader, fi fs.FileInfo, display string) (*Reader, error) {
	if fi.Size() > MaxSize {
		return nil, fmt.Errorf("%s: larger than %d MiB", display, MaxSize>>20)
	}
	m, err := readArchive(io.LimitReader(f, MaxSize), display)
	if err != nil {
		return nil, err
	}
	return &Reader{dir: display, mem: m}, nil
}

// openArchive is the Reader of the archive at the slash-separated path
// rel, checked as every path is.
func (r *Reader) openArchive(rel string) (*Reader, error) {
	f, fi, err := r.openFile(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return archiveReader(f, fi, r.display(rel))
}

// memCheck is check for a Reader of an archive.
func (r *Reader) memCheck(name string) (fs.FileInfo, error) {
	clean := path.Clean(name)
	if !filepath.IsLocal(filepath.FromSlash(clean)) && clean != "." {
		return nil, fmt.Errorf("%s: %w", r.display(name), ErrRefused)
	}
	fi, ok := r.mem.stat(clean)
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: r.display(name), Err: fs.ErrNotExist}
	}
	return fi, nil
}

// memRead is the content of the regular file name of an archive.
func (r *Reader) memRead(name string) ([]byte, error) {
	fi, err := r.memCheck(name)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s: %w", r.display(name), ErrRefused)
	}
	return r.mem.files[path.Clean(name)], nil
}

// IsArchive tells whether the Reader reads a bundle archive.
func (r *Reader) IsArchive() bool { return r.mem != nil }

// errNotDir is the error of a path of an archive where a directory is
// expected.
var errNotDir = errors.New("not a directory")
