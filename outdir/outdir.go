// Package outdir guards the output directory of a campaign. A marker file
// says that mcpt made the directory, a lock file keeps one campaign at a
// time in it, and starting afresh removes only the files mcpt writes there:
// a typo in -o can never empty a source tree.
package outdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Names of the files of the guard itself.
const (
	MarkerName = ".mcpt-output"
	LockName   = ".mcpt-lock"
)

// Format is the version of the output layout written in the marker; a
// directory marked with a later version is refused.
const Format = 1

const markerPrefix = "mcpt output directory, format "

// Layout names what an output holds besides the marker and the lock: the
// files written at its top, and the directory of finding bundles, each of
// which holds BundleFile. Temporary bundles start with TempPrefix.
type Layout struct {
	Files      []string
	Bundles    string
	BundleFile string
	TempPrefix string
}

// State is what a directory holds.
type State int

// States of a directory.
const (
	Missing  State = iota // no such directory
	Empty                 // an empty directory
	Output                // an mcpt output (marked)
	Unmarked              // holds only names mcpt writes, from before the marker
	Foreign               // anything else: never touched
)

// UsageError is an output directory that cannot be used as asked: the
// user's mistake, not a broken campaign.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

func usage(format string, args ...any) error {
	return &UsageError{fmt.Errorf(format, args...)}
}

// Inspect tells what dir holds, without changing anything.
func Inspect(dir string, l Layout) (State, error) {
	info, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return Missing, nil
	}
	if err != nil {
		return 0, err
	}
	if !info.IsDir() {
		return 0, usage("output directory %s is not a directory", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	if len(entries) == 0 {
		return Empty, nil
	}
	if m, err := os.Lstat(filepath.Join(dir, MarkerName)); err == nil && m.Mode().IsRegular() {
		if err := checkMarker(dir); err != nil {
			return 0, err
		}
		return Output, nil
	}
	owned := append([]string{LockName, l.Bundles}, l.Files...)
	for _, e := range entries {
		if !slices.Contains(owned, e.Name()) {
			return Foreign, nil
		}
	}
	return Unmarked, nil
}

func checkMarker(dir string) error {
	b, err := os.ReadFile(filepath.Join(dir, MarkerName))
	if err != nil {
		return err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	v, ok := strings.CutPrefix(line, markerPrefix)
	n, err := strconv.Atoi(v)
	if !ok || err != nil {
		return usage("%s: not an mcpt marker", filepath.Join(dir, MarkerName))
	}
	if n > Format {
		return usage("%s was written by a later mcpt (output format %d, this one knows %d)", dir, n, Format)
	}
	return nil
}

func writeMarker(dir string) error {
	p := filepath.Join(dir, MarkerName)
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, []byte(markerPrefix+strconv.Itoa(Format)+"\n"), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}

// Dir is an output directory locked by this process.
type Dir struct {
	Path string
	// NoLock, when not nil, says why the directory could not be locked
	// (a file system without locks): it is used all the same.
	NoLock error
	lock   *os.File
}

// Close releases the lock.
func (d *Dir) Close() error {
	if d == nil || d.lock == nil {
		return nil
	}
	err := d.lock.Close()
	d.lock = nil
	return err
}

// Create prepares dir for a new campaign and locks it. A missing or empty
// directory is made an output; a directory holding anything but an earlier
// mcpt output is refused; an earlier output is refused too unless force is
// set, and then only the files mcpt writes are removed.
func Create(dir string, l Layout, force bool) (*Dir, error) {
	st, err := Inspect(dir, l)
	if err != nil {
		return nil, err
	}
	switch st {
	case Foreign:
		return nil, usage("output directory %s is not empty and is not an mcpt output (it has no %s): choose another -o (mcpt never deletes files it did not write)", dir, MarkerName)
	case Missing:
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	}
	d, err := lock(dir)
	if err != nil {
		return nil, err
	}
	// Under the lock, look again: another process may have written since.
	if st, err = Inspect(dir, l); err != nil {
		d.Close()
		return nil, err
	}
	if st == Output || st == Unmarked {
		if has, err := holdsCampaign(dir, l); err != nil || has {
			if err == nil && !force {
				err = usage("output directory %s holds an earlier campaign: --resume %s continues it, --force replaces it, or choose another -o", dir, dir)
			}
			if err == nil {
				err = reset(dir, l)
			}
			if err != nil {
				d.Close()
				return nil, err
			}
		}
	}
	if err := writeMarker(dir); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// Open locks an existing output (to resume its campaign or rebuild its
// report). A directory that is not an mcpt output is refused.
func Open(dir string, l Layout) (*Dir, error) {
	st, err := Inspect(dir, l)
	if err != nil {
		return nil, err
	}
	switch st {
	case Missing:
		return nil, usage("output directory %s does not exist", dir)
	case Empty:
		return nil, usage("output directory %s is empty: no campaign ran there", dir)
	case Foreign:
		return nil, usage("%s is not an mcpt output directory (it has no %s)", dir, MarkerName)
	}
	d, err := lock(dir)
	if err != nil {
		return nil, err
	}
	if st == Unmarked {
		if err := writeMarker(dir); err != nil {
			d.Close()
			return nil, err
		}
	}
	return d, nil
}

// holdsCampaign tells whether dir holds any file of the layout.
func holdsCampaign(dir string, l Layout) (bool, error) {
	for _, name := range append([]string{l.Bundles}, l.Files...) {
		_, err := os.Lstat(filepath.Join(dir, name))
		if err == nil {
			return true, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return false, err
		}
	}
	return false, nil
}

// reset removes the files of the layout from dir: the top files, and in the
// bundle directory the bundles (directories holding BundleFile) and the
// temporary ones. Anything else stays, and so does the bundle directory if
// anything is left in it.
func reset(dir string, l Layout) error {
	for _, name := range l.Files {
		p := filepath.Join(dir, name)
		if info, err := os.Lstat(p); err == nil && !info.Mode().IsRegular() {
			return usage("%s is not a regular file: mcpt did not write it, remove it yourself", p)
		}
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	bundles := filepath.Join(dir, l.Bundles)
	info, err := os.Lstat(bundles)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !info.IsDir() {
		return usage("%s is not a directory: mcpt did not write it, remove it yourself", bundles)
	}
	entries, err := os.ReadDir(bundles)
	if err != nil {
		return err
	}
	for _, e := range entries {
		p := filepath.Join(bundles, e.Name())
		if !e.IsDir() { // a symbolic link or a file: not a bundle
			continue
		}
		f, err := os.Lstat(filepath.Join(p, l.BundleFile))
		isBundle := err == nil && f.Mode().IsRegular()
		if isBundle || (l.TempPrefix != "" && strings.HasPrefix(e.Name(), l.TempPrefix)) {
			if err := os.RemoveAll(p); err != nil {
				return err
			}
		}
	}
	if err := os.Remove(bundles); err != nil && !errors.Is(err, fs.ErrNotExist) {
		if left, _ := os.ReadDir(bundles); len(left) == 0 {
			return err
		}
	}
	return nil
}
