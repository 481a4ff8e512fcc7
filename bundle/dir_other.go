//go:build !unix

package bundle

import (
	"os"
	"path"
)

// openDir opens the directory at the slash-separated path name to list
// it.
func (r *Reader) openDir(name string) (*os.File, error) { return r.open(path.Clean(name)) }

// openSubdir opens the directory name listed in the directory at the
// slash-separated path dir.
func (r *Reader) openSubdir(_ *os.File, dir, name string) (*os.File, error) {
	return r.open(path.Join(dir, name))
}
