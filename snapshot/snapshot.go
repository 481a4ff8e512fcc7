// Package snapshot holds the input files of a campaign read once: the
// configuration, the relation files and every file they include, the seeds
// and the grammar, in memory, by slash-separated path relative to the
// directory that holds them all. A Files is an fs.FS: relations compile
// from it, a recipe stores it, and the journal's fingerprint hashes it by
// content, so that a campaign is the same whatever the directory it is
// started from and however its configuration's path is written.
package snapshot

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path"
	"slices"
	"time"
)

// Files is a set of input files by slash-separated path. It is never
// changed once made.
type Files struct {
	data map[string][]byte
}

// New makes a file set of data, by slash-separated relative path; a path
// that is not a valid fs.FS name (absolute, or with .. in it) is an error.
func New(data map[string][]byte) (*Files, error) {
	f := &Files{data: make(map[string][]byte, len(data))}
	for name, b := range data {
		if !fs.ValidPath(name) || name == "." {
			return nil, fmt.Errorf("file %q: the path leaves its directory", name)
		}
		f.data[name] = b
	}
	for name := range f.data {
		for dir := path.Dir(name); dir != "."; dir = path.Dir(dir) {
			if _, clash := f.data[dir]; clash {
				return nil, fmt.Errorf("file %q: %s is also a file", name, dir)
			}
		}
	}
	return f, nil
}

// Names lists the files, sorted.
func (f *Files) Names() []string {
	if f == nil {
		return nil
	}
	return slices.Sorted(maps.Keys(f.data))
}

// ReadFile returns the content of the file name (fs.ReadFileFS). The
// caller must not change it.
func (f *Files) ReadFile(name string) ([]byte, error) {
	if f != nil {
		if b, ok := f.data[name]; ok {
			return b, nil
		}
	}
	return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
}

// Hash is the content hash of the file name, "" when there is none.
func (f *Files) Hash(name string) string {
	b, err := f.ReadFile(name)
	if err != nil {
		return ""
	}
	return Hash(b)
}

// Hash is the short content hash of a file that fingerprints use.
func Hash(b []byte) string {
	h := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(h[:8])
}

// Hashes is the content hash of every file, by name.
func (f *Files) Hashes() map[string]string {
	m := map[string]string{}
	for _, name := range f.Names() {
		m[name] = Hash(f.data[name])
	}
	return m
}

// Strings is the file set as text by name, the form a recipe records.
func (f *Files) Strings() map[string]string {
	m := map[string]string{}
	for _, name := range f.Names() {
		m[name] = string(f.data[name])
	}
	return m
}

// FromStrings makes a file set of text by name (a recipe's).
func FromStrings(files map[string]string) (*Files, error) {
	data := make(map[string][]byte, len(files))
	for name, s := range files {
		data[name] = []byte(s)
	}
	return New(data)
}

// Subset is the file set of the files names keep.
func (f *Files) Subset(keep func(name string) bool) *Files {
	s := &Files{data: map[string][]byte{}}
	for name, b := range f.data {
		if keep(name) {
			s.data[name] = b
		}
	}
	return s
}

// Open opens the file name (fs.FS). Only files open: a file set lists no
// directories.
func (f *Files) Open(name string) (fs.File, error) {
	b, err := f.ReadFile(name)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &file{Reader: bytes.NewReader(b), info: info{name: path.Base(name), size: int64(len(b))}}, nil
}

type file struct {
	*bytes.Reader
	info info
}

func (f *file) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *file) Close() error               { return nil }

var _ io.ReaderAt = (*file)(nil)

type info struct {
	name string
	size int64
}

func (i info) Name() string       { return i.name }
func (i info) Size() int64        { return i.size }
func (i info) Mode() fs.FileMode  { return 0o444 }
func (i info) ModTime() time.Time { return time.Time{} }
func (i info) IsDir() bool        { return false }
func (i info) Sys() any           { return nil }
