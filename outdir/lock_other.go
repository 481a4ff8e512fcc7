//go:build !unix

package outdir

// lock does not lock on systems without flock: there, one campaign per
// directory is the user's care.
func lock(dir string) (*Dir, error) { return &Dir{Path: dir}, nil }

// Holder knows no lock on systems without flock.
func Holder(dir string) (string, bool) { return "", false }
