package snapshot

import (
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/mcpt-tool/mcpt/internal/inputfile"
)

// Reader reads input files from disk, each once, and keeps what it read
// for the snapshot. Every read has inputfile's guards: regular files only,
// none over its size limit.
type Reader struct {
	files map[string][]byte // by absolute path
	shown map[string]string // how the caller named each path, by absolute path
}

// NewReader returns a reader that has read nothing.
func NewReader() *Reader {
	return &Reader{files: map[string][]byte{}, shown: map[string]string{}}
}

// Read returns the content of the file at p, read from disk the first
// time only.
func (r *Reader) Read(p string) ([]byte, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, err
	}
	if b, ok := r.files[abs]; ok {
		return b, nil
	}
	b, err := inputfile.Read(p)
	if err != nil {
		return nil, err
	}
	r.files[abs] = b
	if _, ok := r.shown[abs]; !ok {
		r.shown[abs] = p
	}
	return b, nil
}

// Put makes b the content of the file at p, as if read from there: a
// file mcpt made (relations it inferred) that the snapshot holds beside
// those it read. Nothing is written.
func (r *Reader) Put(p string, b []byte) error {
	abs, err := filepath.Abs(p)
	if err != nil {
		return err
	}
	r.files[abs] = b
	r.shown[abs] = p
	return nil
}

// FS is the disk as an fs.FS that reads through r: a file's name is its
// absolute path, slash-separated, without the leading slash (FSName).
// Its DisplayName method names a file as the caller of FSName wrote it.
func (r *Reader) FS() fs.FS { return diskFS{r} }

// FSName is the name in FS of the file at p.
func (r *Reader) FSName(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	if _, ok := r.shown[abs]; !ok {
		r.shown[abs] = p
	}
	return strings.TrimPrefix(filepath.ToSlash(abs), "/"), nil
}

// Root is the deepest directory that holds every file read, absolute.
func (r *Reader) Root() string {
	var paths []string
	for p := range r.files {
		paths = append(paths, p)
	}
	return commonDir(paths)
}

// Rel is the name in Files of the file at p.
func (r *Reader) Rel(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	rel, err := filepath.Rel(r.Root(), abs)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(rel)
}

// Files is what r read, by path relative to Root.
func (r *Reader) Files() *Files {
	root := r.Root()
	f := &Files{data: map[string][]byte{}}
	for abs, b := range r.files {
		rel, err := filepath.Rel(root, abs)
		if err != nil {
			continue // cannot happen: root holds every file
		}
		f.data[filepath.ToSlash(rel)] = b
	}
	return f
}

// commonDir is the deepest directory that holds every absolute path.
func commonDir(paths []string) string {
	if len(paths) == 0 {
		return string(filepath.Separator)
	}
	dir := filepath.Dir(paths[0])
	for _, p := range paths[1:] {
		for dir != filepath.Dir(dir) && !strings.HasPrefix(p, dir+string(filepath.Separator)) {
			dir = filepath.Dir(dir)
		}
	}
	return dir
}

type diskFS struct{ r *Reader }

func (d diskFS) path(name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	return filepath.FromSlash("/" + name), nil
}

func (d diskFS) ReadFile(name string) ([]byte, error) {
	p, err := d.path(name)
	if err != nil {
		return nil, err
	}
	if shown, ok := d.r.shown[p]; ok {
		p = shown
	}
	return d.r.Read(p)
}

func (d diskFS) Open(name string) (fs.File, error) {
	b, err := d.ReadFile(name)
	if err != nil {
		return nil, err
	}
	f, _ := New(map[string][]byte{"f": b})
	file, _ := f.Open("f")
	return file, nil
}

// DisplayName names a file as the caller of FSName wrote it.
func (d diskFS) DisplayName(name string) string {
	if p, err := d.path(name); err == nil {
		if shown, ok := d.r.shown[p]; ok {
			return shown
		}
		return p
	}
	return name
}

// PathName is the name in FS of the file at the absolute path p.
func (d diskFS) PathName(p string) (string, error) { return d.r.FSName(p) }
