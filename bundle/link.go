package bundle

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"syscall"

	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/tree"
)

// Link saves the bundle at the slash-separated path rel of r as the bundle
// dst, with repro as the command that reproduces it. An archive is
// written again as the archive dst with that repro.txt, the files of its
// layout as they are. The files of a bundle directory of an earlier mcpt
// are hard-linked into the directory dst where dst is on the same file
// system as r's directory, copied where it is not, so that merging shards
// costs neither the time nor the disk of a second copy. As with Write, an
// existing dst is left as it is, and dst appears whole or not at all. What
// is linked is checked as Load checks it: regular files and directories
// inside r's directory, no symbolic link; a file replaced while it is
// linked is refused.
func (r *Reader) Link(rel, dst, repro string) error {
	if fi, err := r.check(rel); err == nil && fi.Mode().IsRegular() {
		return r.relinkArchive(rel, dst, repro)
	}
	if _, err := os.Lstat(dst); err == nil {
		if fi, err := os.Lstat(filepath.Join(dst, ManifestFile)); err == nil && fi.Mode().IsRegular() {
			return nil
		}
		return fmt.Errorf("%s is in the way: it is not a bundle mcpt wrote (it has no %s)", dst, ManifestFile)
	}
	files, err := r.layout(rel)
	if err != nil {
		return err
	}
	dst = filepath.Clean(dst)
	parent := filepath.Dir(dst)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, TempPrefix+filepath.Base(dst)+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	written := files
	if repro != "" {
		written = append(written[:len(written):len(written)], ReproFile)
	}
	if err := os.WriteFile(filepath.Join(tmp, ManifestFile), manifestOf(written), 0o644); err != nil {
		return err
	}
	var copied int64
	for _, name := range files {
		if err := r.linkFile(path.Join(rel, name), filepath.Join(tmp, filepath.FromSlash(name)), &copied); err != nil {
			return err
		}
	}
	if repro != "" {
		if err := os.WriteFile(filepath.Join(tmp, ReproFile), []byte(repro+"\n"), 0o644); err != nil {
			return err
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}

// layout checks the bundle at rel as Load does (a finding naming its seed
// file, the base input there) and returns the paths, relative to rel, of
// the files of its layout that it holds.
func (r *Reader) layout(rel string) ([]string, error) {
	// A bundle holding a link, a FIFO or a device anywhere is refused
	// whole, even where the entry is one a merge would not carry over
	// (repro.txt is written anew).
	if _, err := r.treeNames(rel); err != nil {
		return nil, err
	}
	data, err := r.ReadFile(path.Join(rel, FindingFile))
	if err != nil {
		return nil, fmt.Errorf("not a finding bundle: %w", err)
	}
	var f result.Finding
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", r.display(path.Join(rel, FindingFile)), err)
	}
	if f.SeedFile == "" {
		return nil, fmt.Errorf("%s: the finding names no seed file", r.display(path.Join(rel, FindingFile)))
	}
	name := path.Base(f.SeedFile)
	if name == "." || name == "/" || name == ".." {
		return nil, fmt.Errorf("%s: the finding names no seed file", r.display(path.Join(rel, FindingFile)))
	}
	if err := r.CheckTree(rel); err != nil {
		return nil, err
	}
	files := []string{FindingFile, path.Join(BaseDir, name)}
	if fi, err := r.check(path.Join(rel, BaseDir, name)); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("not a finding bundle: %s: %w", r.display(path.Join(rel, BaseDir, name)), orRefused(err))
	} else if err := r.checkInputSize(path.Join(rel, BaseDir, name), fi); err != nil {
		return nil, err
	}
	for _, opt := range []string{path.Join(FollowUpDir, name), RecipeFile, DiffFile} {
		fi, err := r.check(path.Join(rel, opt))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return nil, err
		case !fi.Mode().IsRegular():
			return nil, fmt.Errorf("%s: %w", r.display(path.Join(rel, opt)), ErrRefused)
		case opt == path.Join(FollowUpDir, name):
			if err := r.checkInputSize(path.Join(rel, opt), fi); err != nil {
				return nil, err
			}
		}
		files = append(files, opt)
	}
	for _, sub := range []string{BaseOutDir, FollowOutDir} {
		names, err := r.treeNames(path.Join(rel, sub))
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			files = append(files, path.Join(sub, n))
		}
	}
	return files, nil
}

// Stat returns what the slash-separated path name is, checked as every
// path is (no symbolic link on the way, nothing outside the directory).
func (r *Reader) Stat(name string) (os.FileInfo, error) { return r.check(name) }

func orRefused(err error) error {
	if err == nil {
		return ErrRefused
	}
	return err
}

// treeNames lists the regular files below the directory dir (none when it
// does not exist), refusing anything else.
func (r *Reader) treeNames(dir string) ([]string, error) {
	fi, err := r.check(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s: not a directory", r.display(dir))
	}
	if r.mem != nil {
		return r.mem.below(path.Clean(dir)), nil
	}
	var names []string
	var walk func(sub string) error
	walk = func(sub string) error {
		f, err := r.open(filepath.FromSlash(path.Join(dir, sub)))
		if err != nil {
			return err
		}
		entries, err := f.ReadDir(-1)
		f.Close()
		if err != nil {
			return err
		}
		for _, e := range entries {
			name := path.Join(sub, e.Name())
			switch {
			case e.IsDir():
				if err := walk(name); err != nil {
					return err
				}
			case e.Type().IsRegular():
				names = append(names, name)
			default:
				return fmt.Errorf("%s: %w", r.display(path.Join(dir, name)), ErrRefused)
			}
		}
		return nil
	}
	return names, walk("")
}

// linkFile hard-links the regular file name of r at dst, or copies it when
// the file systems differ or links are not allowed; copied counts the bytes
// copied for the bundle, bounded by MaxSize.
func (r *Reader) linkFile(name, dst string, copied *int64) error {
	fi, err := r.check(name)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: %w", r.display(name), ErrRefused)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if err := hardLink(r.display(name), dst); err == nil {
		// The path was checked through the directory r holds open; a
		// file swapped for another in between is not what was checked.
		if got, err := os.Lstat(dst); err != nil || !os.SameFile(got, fi) {
			return fmt.Errorf("%s: changed while it was merged: %w", r.display(name), ErrRefused)
		}
		return nil
	} else if !noLink(err) {
		return err
	}
	if *copied += fi.Size(); *copied > MaxSize {
		return fmt.Errorf("%s: the bundle is larger than %d MiB", r.display(path.Dir(name)), MaxSize>>20)
	}
	src, err := r.open(filepath.FromSlash(path.Clean(name)))
	if err != nil {
		return err
	}
	defer src.Close()
	if sfi, err := src.Stat(); err != nil || !os.SameFile(sfi, fi) {
		return fmt.Errorf("%s: changed while it was merged: %w", r.display(name), ErrRefused)
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if err := copyFile(out, src, fi.Size()); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// noLink tells whether err is the failure of a hard link that a copy
// replaces: another file system, or one that does not allow it (here).
func noLink(err error) bool {
	for _, e := range []error{syscall.EXDEV, syscall.EPERM, syscall.EMLINK, syscall.ENOTSUP, syscall.EOPNOTSUPP, syscall.ENOSYS} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// hardLink is os.Link; a test puts a failing one in its place.
var hardLink = os.Link

// relinkArchive is Link for the archive at rel.
func (r *Reader) relinkArchive(rel, dst, repro string) error {
	if fi, err := os.Lstat(dst); err == nil {
		if fi.Mode().IsRegular() && ownArchive(dst, false) {
			return nil
		}
		return fmt.Errorf("%s is in the way: it is not a bundle mcpt wrote", dst)
	}
	a, err := r.Sub(rel)
	if err != nil {
		return err
	}
	defer a.Close()
	names, err := a.layout(".")
	if err != nil {
		return err
	}
	files := tree.Tree{}
	for _, name := range names {
		if files[name], err = a.ReadFile(name); err != nil {
			return err
		}
	}
	if repro != "" {
		files[ReproFile] = []byte(repro + "\n")
	}
	var dirs []string
	for _, d := range []string{BaseOutDir, FollowOutDir} {
		if fi, err := a.check(d); err == nil && fi.IsDir() {
			dirs = append(dirs, d)
		}
	}
	dst = filepath.Clean(dst)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	tmp, err := tempName(filepath.Dir(dst), TempPrefix+filepath.Base(dst)+"-")
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	err = packFiles(f, files, dirs)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}
