package bundle

import (
	"path"
	"path/filepath"
)

// Scanned is what ScanBundles tells of one bundle.
type Scanned struct {
	// Tree is the verdict of CheckTree on the bundle.
	Tree error
	// File is at most the first limit bytes of the file asked for and
	// Size its size, as ReadFilePrefix reads them; Found is false when
	// the bundle has no entry of that name, and FileErr is why the entry
	// was refused.
	File    []byte
	Size    int64
	Found   bool
	FileErr error
}

// ScanBundles checks the bundles named in the directory at the
// slash-separated path dir (checked as every path is) as CheckTree checks
// each, and reads at most limit bytes of the file named file in each, as
// ReadFilePrefix does, with the same verdicts and messages: the directory
// is opened and listed once, and each bundle through it with the file
// system's calls alone, a few at once. listed holds every name in the
// directory; scanned holds the bundles the listing shows as directories
// (of an earlier mcpt) and that read without surprise, and the others
// (an archive, not there, a link, an error of the system) are left to the
// caller, to read one by one (see Sub). Where the system has no such calls, the error wraps
// errors.ErrUnsupported.
func (r *Reader) ScanBundles(dir string, bundles []string, file string, limit int64) (listed map[string]bool, scanned map[string]*Scanned, err error) {
	d, err := r.dirOf(path.Clean(dir) + "/")
	if err != nil {
		return nil, nil, err
	}
	return d.scan(bundles, file, limit)
}

// bundleReader is the Reader that names the bundle name of the directory
// d in messages, as Sub names it.
func (r *Reader) bundleReader(name string) *Reader {
	return &Reader{dir: filepath.Join(r.dir, filepath.FromSlash(name))}
}
