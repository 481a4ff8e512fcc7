// Package outdir guards the output directory of a campaign. A marker file
// says that mcpt made the directory, when it was missing or empty, and
// which names in it are mcpt's; a lock file keeps one campaign at a time in
// it; and starting afresh removes only what mcpt can prove it wrote there:
// the files the marker claims, and in each bundle the files its manifest
// lists. A typo in -o can never empty a source tree, and a directory of
// the user's is never taken for an output because of the names it holds.
package outdir

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Names of the files of the guard itself.
const (
	MarkerName = ".mcpt-output"
	LockName   = ".mcpt-lock"
)

// Format is the version of the output layout written in the marker; a
// directory marked with a later version is refused. Format 2 claims the
// names of the layout in the marker, and bundles list their files; a
// format 1 output is read, but not reset (it did not record what mcpt
// wrote).
const Format = 2

const markerPrefix = "mcpt output directory, format "

// Layout names what an output holds besides the marker and the lock: the
// files written at its top, and the directory of finding bundles. Remove
// deletes what mcpt wrote in one entry of the bundle directory and leaves
// the rest.
type Layout struct {
	Files   []string
	Bundles string
	Remove  func(path string) error
	// Pages is the directory of the report's finding pages, of which
	// mcpt wrote the regular files named *.html and the temporary files
	// of their writes (.tmp-*); "" for none.
	Pages string
}

// names are the names of dir that l claims.
func (l Layout) names() []string {
	names := append([]string{l.Bundles}, l.Files...)
	if l.Pages != "" {
		names = append(names, l.Pages)
	}
	return names
}

// State is what a directory holds.
type State int

// States of a directory.
const (
	Missing State = iota // no such directory
	Empty                // an empty directory
	Output               // an mcpt output (marked)
	Foreign              // anything else: never touched
)

// UsageError is an output directory that cannot be used as asked: the
// user's mistake, not a broken campaign.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

func usage(format string, args ...any) error {
	return &UsageError{fmt.Errorf(format, args...)}
}

// Inspect tells what dir holds, without changing anything. dir itself is
// named by the user: a link to a directory is followed.
func Inspect(dir string, l Layout) (State, error) {
	st, _, err := inspect(dir)
	return st, err
}

// inspect is Inspect, with the format of the marker of an Output.
func inspect(dir string) (State, int, error) {
	info, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if _, lerr := os.Lstat(dir); lerr == nil {
			return 0, 0, usage("output directory %s is a link to nothing", dir)
		}
		return Missing, 0, nil
	}
	if err != nil {
		return 0, 0, err
	}
	if !info.IsDir() {
		return 0, 0, usage("output directory %s is not a directory", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, 0, err
	}
	if len(entries) == 0 || len(entries) == 1 && entries[0].Name() == LockName && entries[0].Type().IsRegular() {
		// Only the lock: a campaign that stopped before it marked the
		// directory (a kill, a full disk) and wrote nothing else.
		return Empty, 0, nil
	}
	if m, err := os.Lstat(filepath.Join(dir, MarkerName)); err == nil && m.Mode().IsRegular() {
		n, err := checkMarker(dir)
		if err != nil {
			return 0, 0, err
		}
		return Output, n, nil
	}
	return Foreign, 0, nil
}

func checkMarker(dir string) (int, error) {
	f, err := os.Open(filepath.Join(dir, MarkerName))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	b := make([]byte, 256)
	n, _ := io.ReadFull(f, b)
	line, _, _ := strings.Cut(string(b[:n]), "\n")
	v, ok := strings.CutPrefix(line, markerPrefix)
	format, err := strconv.Atoi(v)
	if !ok || err != nil || format < 1 {
		return 0, usage("%s: not an mcpt marker", filepath.Join(dir, MarkerName))
	}
	if format > Format {
		return 0, usage("%s was written by a later mcpt (output format %d, this one knows %d)", dir, format, Format)
	}
	return format, nil
}

// writeMarker marks dir as an output and claims the names of l in it.
func writeMarker(dir string, l Layout) error {
	p := filepath.Join(dir, MarkerName)
	tmp := p + ".tmp"
	text := markerPrefix + strconv.Itoa(Format) + "\n" +
		"mcpt wrote this directory and owns these names in it: " + strings.Join(l.names(), " ") + "\n"
	if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}

// checkLayout refuses an output in which a name of the layout is not what
// mcpt writes there (a link, a directory for a file): mcpt would write
// through it, or over something it did not write.
func checkLayout(dir string, l Layout) error {
	for _, name := range l.Files {
		p := filepath.Join(dir, name)
		if fi, err := os.Lstat(p); err == nil && !fi.Mode().IsRegular() {
			return usage("%s is not a regular file (%s): mcpt did not write it; remove it yourself", p, kind(fi))
		}
	}
	p := filepath.Join(dir, l.Bundles)
	if fi, err := os.Lstat(p); err == nil && !fi.IsDir() {
		return usage("%s is not a directory (%s): mcpt writes bundles only into a directory of its own; remove it yourself", p, kind(fi))
	}
	if l.Pages != "" {
		p := filepath.Join(dir, l.Pages)
		if fi, err := os.Lstat(p); err == nil && !fi.IsDir() {
			return usage("%s is not a directory (%s): mcpt writes finding pages only into a directory of its own; remove it yourself", p, kind(fi))
		}
	}
	return nil
}

// kind names what a file that is not the expected one is.
func kind(fi fs.FileInfo) string {
	switch m := fi.Mode(); {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a directory"
	case m.IsRegular():
		return "a file"
	}
	return "a special file"
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
// directory is made an output; a directory that is not an mcpt output is
// refused; an earlier output is refused too unless force is set, and then
// only what mcpt wrote is removed.
func Create(dir string, l Layout, force bool) (*Dir, error) {
	st, err := Inspect(dir, l)
	if err != nil {
		return nil, err
	}
	switch st {
	case Foreign:
		return nil, foreign(dir)
	case Missing:
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	}
	d, err := lock(dir)
	if err != nil {
		return nil, err
	}
	if err := d.prepare(l, force); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

func foreign(dir string) error {
	return usage("output directory %s is not empty and is not an mcpt output (it has no %s): choose another -o (mcpt never deletes files it did not write)", dir, MarkerName)
}

// prepare makes the locked directory ready for a new campaign: looked at
// again under the lock (another process may have written since), reset
// with force, and marked.
func (d *Dir) prepare(l Layout, force bool) error {
	st, format, err := inspect(d.Path)
	switch {
	case err != nil:
		return err
	case st == Foreign:
		return foreign(d.Path)
	case st == Output:
		if err := checkLayout(d.Path, l); err != nil {
			return err
		}
		has, err := holdsCampaign(d.Path, l)
		switch {
		case err != nil:
			return err
		case has && !force:
			return usage("output directory %s holds an earlier campaign: --resume %s continues it, --force replaces it, or choose another -o", d.Path, d.Path)
		case has && format < 2:
			return usage("output directory %s holds a campaign of an earlier mcpt, which did not record what it wrote there: mcpt does not delete it; remove it yourself or choose another -o", d.Path)
		case has:
			if err := reset(d.Path, l); err != nil {
				return err
			}
		}
	}
	return writeMarker(d.Path, l)
}

// Open locks an existing output (to resume its campaign or rebuild its
// report). A directory that is not an mcpt output is refused, and so is
// one in which a name of the layout is not what mcpt writes there.
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
	if err := checkLayout(dir, l); err != nil {
		return nil, err
	}
	d, err := lock(dir)
	if err != nil {
		return nil, err
	}
	if err := RemoveTemps(dir, l); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// Unstarted tells whether dir holds nothing of a campaign: it is empty,
// holds only the lock (a campaign stopped before it marked the directory),
// or is an output that holds no file of the layout but empty ones (a
// campaign stopped before it wrote its journal). Such a directory is where
// a campaign resumed starts from the beginning.
func Unstarted(dir string, l Layout) (bool, error) {
	st, err := Inspect(dir, l)
	switch {
	case err != nil:
		return false, err
	case st == Empty:
		return true, nil
	case st != Output:
		return false, nil
	}
	if err := checkLayout(dir, l); err != nil {
		return false, err
	}
	has, err := holdsCampaign(dir, l)
	return !has && err == nil, err
}

// holdsCampaign tells whether dir holds any file of the layout. An empty
// file holds nothing: a kill came right after it was made.
func holdsCampaign(dir string, l Layout) (bool, error) {
	for _, name := range l.names() {
		fi, err := os.Lstat(filepath.Join(dir, name))
		if err == nil && fi.Mode().IsRegular() && fi.Size() == 0 {
			continue
		}
		if err == nil {
			return true, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return false, err
		}
	}
	return false, nil
}

// reset removes from dir what mcpt wrote there: the top files the marker
// claims, with the temporary files of their atomic writes (a kill's
// litter), and in the bundle directory what each bundle's manifest lists.
// Anything else stays, and so does the bundle directory if anything is
// left in it.
func reset(dir string, l Layout) error {
	for _, name := range l.Files {
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if err := RemoveTemps(dir, l); err != nil {
		return err
	}
	if err := removePages(dir, l); err != nil {
		return err
	}
	bundles := filepath.Join(dir, l.Bundles)
	entries, err := os.ReadDir(bundles)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !e.IsDir() && !e.Type().IsRegular() { // a symbolic link, a device: not a bundle
			continue
		}
		if err := l.Remove(filepath.Join(bundles, e.Name())); err != nil {
			return err
		}
	}
	if left, err := os.ReadDir(bundles); err == nil && len(left) == 0 {
		return os.Remove(bundles)
	}
	return nil
}

// removePages removes the finding pages mcpt wrote (see Layout.Pages),
// and their directory when nothing else is left in it.
func removePages(dir string, l Layout) error {
	if l.Pages == "" {
		return nil
	}
	pages := filepath.Join(dir, l.Pages)
	entries, err := os.ReadDir(pages)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Type().IsRegular() && (strings.HasSuffix(e.Name(), ".html") || strings.HasPrefix(e.Name(), ".tmp-")) {
			if err := os.Remove(filepath.Join(pages, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	if left, err := os.ReadDir(pages); err == nil && len(left) == 0 {
		return os.Remove(pages)
	}
	return nil
}

// RemoveTemps removes the temporary files that atomic writes of the top
// files of the layout leave when killed (".report.json.tmp…"), in the
// output dir, whose marker claims those names.
func RemoveTemps(dir string, l Layout) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		for _, name := range l.Files {
			if e.Type().IsRegular() && strings.HasPrefix(e.Name(), "."+name+".tmp") {
				if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return err
				}
			}
		}
	}
	return nil
}
