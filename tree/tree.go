// Package tree holds a source tree: the set of files a transpiler writes for
// one input, keyed by slash-separated path relative to its output directory.
package tree

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Tree maps slash-separated relative paths to file contents.
type Tree map[string][]byte

// Names returns the paths of the tree in sorted order.
func (t Tree) Names() []string {
	names := make([]string, 0, len(t))
	for n := range t {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Size is the total number of bytes of all files.
func (t Tree) Size() int64 {
	var n int64
	for _, b := range t {
		n += int64(len(b))
	}
	return n
}

// Limits bounds what Read accepts; zero fields mean no limit.
type Limits struct {
	MaxFiles int
	MaxBytes int64
}

// ErrLimit is returned (wrapped) by Read when the tree exceeds its limits.
var ErrLimit = fmt.Errorf("output exceeds the configured limits")

// Read loads every regular file below dir. Symbolic links and other special
// files are refused, so that a transpiler cannot make the tester read outside
// its output directory.
func Read(dir string, lim Limits) (Tree, error) {
	t := Tree{}
	var total int64
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.Type()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s: a symbolic link, not a regular file", rel)
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s: not a regular file", rel)
		}
		if lim.MaxFiles > 0 && len(t) >= lim.MaxFiles {
			return fmt.Errorf("%w: more than %d files", ErrLimit, lim.MaxFiles)
		}
		b, err := readAtMost(path, lim.MaxBytes, total)
		if err != nil {
			return err
		}
		total += int64(len(b))
		if lim.MaxBytes > 0 && total > lim.MaxBytes {
			return fmt.Errorf("%w: more than %d bytes", ErrLimit, lim.MaxBytes)
		}
		t[rel] = b
		return nil
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// readAtMost reads a file, but no more than one byte past what the budget
// max (zero: none) leaves after used, so that a file growing while it is
// read cannot exhaust memory.
func readAtMost(path string, max, used int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if max > 0 {
		r = io.LimitReader(f, max-used+1)
	}
	return io.ReadAll(r)
}

// Write writes every file of the tree below dir, creating directories as
// needed. Paths that would leave dir are refused.
func (t Tree) Write(dir string) error {
	for _, name := range t.Names() {
		if !Clean(name) {
			return fmt.Errorf("%s: path leaves the output directory", name)
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, t[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Clean reports whether name is a relative slash path that stays inside its
// root.
func Clean(name string) bool {
	if name == "" || strings.HasPrefix(name, "/") || strings.Contains(name, "\\") {
		return false
	}
	for _, part := range strings.Split(name, "/") {
		if part == ".." || part == "" || part == "." {
			return false
		}
	}
	return true
}
