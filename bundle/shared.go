package bundle

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"sync"
)

// Shared remembers the files of the bundles written into one output
// directory, by content, so that a file of a later bundle with the content
// of one written before is a hard link to it rather than a second copy:
// the recipe every bundle of a campaign has, the seed and the base's
// output every bundle of the seed has, the files of a follow-up's
// output that the follow-up left as they were in the base's, and the
// manifest of the bundles that list the same files. A bundle
// stays a directory of plain files that any tool reads; only the disk is
// shared. A file is linked only when it is still the one written (the
// same file, size and time), and written again otherwise, or where the
// file system has no hard links. The zero Shared is ready; a nil one
// shares nothing. It is safe for concurrent use.
type Shared struct {
	mu    sync.Mutex
	files map[[sha256.Size]byte]sharedFile
}

type sharedFile struct {
	path string
	fi   os.FileInfo
}

// maxShared bounds the files a Shared remembers: beyond, bundles write
// their files again, and memory stays bounded however many bundles a
// campaign writes.
const maxShared = 200000

// link makes dst a hard link to a file written before with the content
// data, and tells whether it did.
func (s *Shared) link(sum [sha256.Size]byte, size int, dst string) bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	sf, ok := s.files[sum]
	s.mu.Unlock()
	if !ok {
		return false
	}
	fi, err := os.Lstat(sf.path)
	if err != nil || !fi.Mode().IsRegular() || !os.SameFile(fi, sf.fi) || fi.Size() != int64(size) || !fi.ModTime().Equal(sf.fi.ModTime()) {
		s.forget(sum, sf.path)
		return false
	}
	if err := hardLink(sf.path, dst); err != nil {
		return false
	}
	// Linked to what was checked, and not changed since.
	got, err := os.Lstat(dst)
	if err != nil || !os.SameFile(got, sf.fi) || got.Size() != int64(size) {
		_ = os.Remove(dst)
		return false
	}
	return true
}

func (s *Shared) forget(sum [sha256.Size]byte, path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.files[sum].path == path {
		delete(s.files, sum)
	}
}

// remember records the files of the bundle directory dir (by their
// slash-separated names, with their sums) that a later bundle may link
// to.
func (s *Shared) remember(dir string, names []string, sums [][sha256.Size]byte) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.files == nil {
		s.files = map[[sha256.Size]byte]sharedFile{}
	}
	for i, name := range names {
		if _, ok := s.files[sums[i]]; ok || len(s.files) >= maxShared {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
			s.files[sums[i]] = sharedFile{path: p, fi: fi}
		}
	}
}
