// Package bundle is the on-disk form of a finding: one archive
// (findings/ID.tar.gz) that holds what is needed to see and reproduce it;
// earlier mcpt wrote the same files as a directory (findings/ID), which
// every reader still reads. Every writer and reader of bundles goes
// through this package: Write makes a bundle appear whole or not at all (a
// temporary file renamed into place), and a Reader reads bundles below an
// output directory without ever leaving it: no symbolic link, no "..", no
// special file is followed, in the directory or in an archive, so that a
// bundle or an output directory received from someone else cannot make
// mcpt read other files, and an archive is read in memory, never unpacked.
package bundle

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/tree"
)

// Layout of a bundle: the names of its files in the archive (or in the
// directory of an earlier mcpt).
const (
	FindingFile  = "finding.json" // the finding with all its evidence (expected and actual as edits of followup-out/, see result.Evidence)
	BaseDir      = "base"         // the base input, under the seed's base name
	FollowUpDir  = "followup"     // the follow-up input, same name
	BaseOutDir   = "base-out"     // the base run's output: the failing file (see Kept)
	FollowOutDir = "followup-out" // the follow-up run's output: the failing file
	DiffFile     = "diff.txt"     // the unified diff of a failed checker
	ReproFile    = "repro.txt"    // the command that reproduces the finding
)

// Dir is the directory of an output directory that holds the bundles, one
// per bundled finding, named after the finding's ID.
const Dir = "findings"

// TempPrefix starts the name of the temporary file in which a bundle is
// written before it is renamed into place; such a file is left only by a
// kill.
const TempPrefix = ".tmp-"

// Path is the bundle path of a finding, relative to the output directory.
func Path(id string) string { return path.Join(Dir, id+Ext) }

// MaxSize bounds the bytes a Reader loads for one bundle, so that a bundle
// received from elsewhere cannot exhaust memory.
const MaxSize = 256 << 20

// MaxInput bounds the size of a bundle's base and follow-up inputs: mcpt
// reads seeds of at most 16 MiB, and a follow-up adds one declaration, so a
// larger input is no bundle mcpt wrote (a sparse file of 200 MiB from
// elsewhere, say), and is refused rather than loaded or copied.
const MaxInput = 32 << 20

// Bounds of the walk of a bundle's tree (CheckTree).
const (
	maxDepth   = 64
	maxEntries = 100000
)

// Bundle is a finding with its evidence.
type Bundle struct {
	Finding result.Finding
	// Recipe is what reproducing the finding needs; nil in bundles made
	// before recipes were recorded.
	Recipe *Recipe
	// Base and FollowUp are the inputs, named path.Base(Finding.SeedFile);
	// FollowUp is nil for a finding about a base run.
	Base, FollowUp []byte
	// BaseOut and FollowUpOut are the output trees; nil when the run wrote
	// none. A bundle keeps of them what Kept says: loaded, they hold that.
	BaseOut, FollowUpOut tree.Tree
	// Repro is the command that reproduces the finding.
	Repro string
}

// InputName is the file name under which the bundle keeps its inputs.
func (b *Bundle) InputName() string { return path.Base(b.Finding.SeedFile) }

// ManifestFile is the file of a bundle that lists the files mcpt wrote
// in it, one slash-separated path a line (as a Go string literal, so that
// any name fits on one) after a first line that says what the file is:
// the first entry of an archive. In a bundle directory of an earlier mcpt
// it was written first, so that a bundle a kill left half-written lists
// what it holds, and Remove deletes nothing else.
const ManifestFile = ".mcpt-bundle"

const manifestHead = "mcpt bundle: files mcpt wrote here"

// Write saves b as the bundle archive file p (OUT/findings/ID.tar.gz),
// atomically: written to a temporary file beside it, then renamed into
// place. When p holds an archive mcpt wrote already, it is left as it is:
// one written before an interruption, with the same content. Anything
// else in its place is an error: mcpt writes no bundle over files it did
// not write.
func Write(p string, b *Bundle) error {
	if fi, err := os.Lstat(p); err == nil {
		if fi.Mode().IsRegular() && ownArchive(p, false) {
			return nil
		}
		return fmt.Errorf("saving finding %s: %s is in the way: it is not a bundle mcpt wrote", b.Finding.ID, p)
	}
	return write(p, b, false)
}

// Remove deletes what mcpt wrote at the bundle path p: a bundle archive
// mcpt wrote (its gzip header says so), or, in a bundle directory of an
// earlier mcpt, the files its manifest lists, then the directories left
// empty, then the directory itself if nothing else is in it. Anything
// else (a file or a directory mcpt did not write) stays, unless it is an
// empty temporary one (a kill right after it was made). Nothing is
// followed out of p.
func Remove(p string) error {
	fi, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	temp := strings.HasPrefix(filepath.Base(p), TempPrefix)
	if fi.Mode().IsRegular() {
		if ownArchive(p, temp && tempArchiveName(filepath.Base(p))) {
			return os.Remove(p)
		}
		return nil
	}
	if !fi.IsDir() {
		return nil
	}
	return removeDir(p, temp)
}

// removeDir is Remove for a bundle directory of an earlier mcpt.
func removeDir(dir string, temp bool) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	listed, err := readManifest(root)
	if errors.Is(err, fs.ErrNotExist) {
		if temp {
			removeIfEmpty(dir)
		}
		return nil
	}
	if err != nil && temp && onlyManifest(dir) {
		// The manifest is written first: cut short (a kill between making
		// it and writing it, a full disk), it is all the bundle holds.
		if err := root.Remove(ManifestFile); err != nil {
			return err
		}
		removeIfEmpty(dir)
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(dir, ManifestFile), err)
	}
	dirs := map[string]bool{}
	for _, name := range listed {
		p := filepath.FromSlash(name)
		if fi, err := root.Lstat(p); err == nil && fi.Mode().IsRegular() {
			if err := root.Remove(p); err != nil {
				return err
			}
		}
		for d := path.Dir(name); d != "."; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	deepest := slices.SortedFunc(maps.Keys(dirs), func(a, b string) int { return len(b) - len(a) })
	for _, d := range deepest {
		_ = root.Remove(filepath.FromSlash(d)) // kept when something else is in it
	}
	if err := root.Remove(ManifestFile); err != nil {
		return err
	}
	removeIfEmpty(dir)
	return nil
}

// onlyManifest tells whether the directory dir holds its manifest and
// nothing else.
func onlyManifest(dir string) bool {
	entries, err := os.ReadDir(dir)
	return err == nil && len(entries) == 1 && entries[0].Name() == ManifestFile && entries[0].Type().IsRegular()
}

// removeIfEmpty removes the directory dir if it is empty.
func removeIfEmpty(dir string) {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) == 0 {
		_ = os.Remove(dir)
	}
}

// manifestOf is the manifest of a bundle that holds the slash-separated
// paths names.
func manifestOf(names []string) []byte {
	lines := []string{manifestHead}
	for _, name := range names {
		lines = append(lines, strconv.Quote(name))
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

// readManifest reads the paths a bundle's manifest lists, keeping those
// that stay inside the bundle.
func readManifest(root *os.Root) ([]string, error) {
	fi, err := root.Lstat(ManifestFile)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxManifest {
		return nil, errors.New("not a manifest mcpt wrote")
	}
	data, err := root.ReadFile(ManifestFile)
	if err != nil {
		return nil, err
	}
	head, rest, _ := strings.Cut(string(data), "\n")
	if head != manifestHead {
		return nil, errors.New("not a manifest mcpt wrote")
	}
	var names []string
	for _, line := range strings.Split(rest, "\n") {
		name, err := strconv.Unquote(line)
		if err == nil && tree.Clean(name) && name != ManifestFile {
			names = append(names, name)
		}
	}
	return names, nil
}

// maxManifest bounds the size of a manifest Remove reads.
const maxManifest = 16 << 20

// RemoveTemps removes what mcpt wrote in the temporary bundles below the
// directory of bundles dir: those a kill left half-written (archives, and
// directories of an earlier mcpt).
func RemoveTemps(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if (e.IsDir() || e.Type().IsRegular()) && strings.HasPrefix(e.Name(), TempPrefix) {
			if err := Remove(filepath.Join(dir, e.Name())); err != nil {
				return fmt.Errorf("removing a half-written bundle: %w", err)
			}
		}
	}
	return nil
}

// Replace saves b as the bundle archive p, atomically, in place of the
// bundle p holds (a reduction made again): p holds the old bundle or the
// new one, never half of one. A file at p that mcpt did not write is
// left, and is an error.
func Replace(p string, b *Bundle) error {
	if fi, err := os.Lstat(p); err == nil && (!fi.Mode().IsRegular() || !ownArchive(p, false)) {
		return fmt.Errorf("saving finding %s: %s is in the way: it is not a bundle mcpt wrote", b.Finding.ID, p)
	}
	return write(p, b, true)
}

func write(p string, b *Bundle, replace bool) error {
	p = filepath.Clean(p)
	parent := filepath.Dir(p)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := tempName(parent, TempPrefix+filepath.Base(p)+"-")
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := b.writeArchive(tmp); err != nil {
		return fmt.Errorf("saving finding %s: %w", b.Finding.ID, err)
	}
	if !replace {
		// A bundle that appeared meanwhile is not replaced.
		if _, err := os.Lstat(p); err == nil {
			return nil
		}
	}
	if err := os.Rename(tmp, p); err != nil {
		return fmt.Errorf("saving finding %s: %w", b.Finding.ID, err)
	}
	return nil
}

// tempArchiveName tells whether name is one tempName gives an archive:
// TempPrefix, a name ending in Ext, "-" and digits.
func tempArchiveName(name string) bool {
	i := strings.LastIndex(name, Ext+"-")
	if !strings.HasPrefix(name, TempPrefix) || i < 0 {
		return false
	}
	digits := name[i+len(Ext)+1:]
	return digits != "" && strings.Trim(digits, "0123456789") == ""
}

// tempName makes an empty file of a new name that starts with prefix in
// dir, and returns its path.
func tempName(dir, prefix string) (string, error) {
	f, err := os.CreateTemp(dir, prefix+"*")
	if err != nil {
		return "", err
	}
	name := f.Name()
	err = f.Chmod(0o644) // what os.WriteFile gives, not CreateTemp's 0600
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}

// Kept is what a bundle keeps of the output tree t of a finding whose
// check failed on the output file file: that file alone (an empty tree
// when the run did not write it), or the whole tree for a finding about
// no one file (a crash, a timeout, a rejection: of the run that failed;
// a bundle keeps no base output for a follow-up's). The other files of a
// run are what a report, repro and reduce never read; repro --outputs
// makes them again. nil stays nil: the run wrote no output.
func Kept(t tree.Tree, file string) tree.Tree {
	if t == nil || file == "" {
		return t
	}
	kept := tree.Tree{}
	if data, ok := t[file]; ok {
		kept[file] = data
	}
	return kept
}

// files lays out the files of b by slash-separated name, and the
// directories that are there even when they hold no file (an output tree
// of a run that wrote nothing).
func (b *Bundle) files() (tree.Tree, []string, error) {
	name := b.InputName()
	if name == "." || name == "/" || name == ".." {
		return nil, nil, fmt.Errorf("the finding names no seed file")
	}
	files := tree.Tree{path.Join(BaseDir, name): b.Base}
	if b.FollowUp != nil {
		files[path.Join(FollowUpDir, name)] = b.FollowUp
	}
	if b.Finding.Diff != "" {
		files[DiffFile] = []byte(b.Finding.Diff)
	}
	if b.Repro != "" {
		files[ReproFile] = []byte(b.Repro + "\n")
	}
	var norm oracle.Normalizer
	if b.Recipe != nil {
		norm = b.Recipe.Normalize
	}
	packed := packEvidence(b.Finding, b.FollowUpOut, norm)
	data, err := json.MarshalIndent(&packed, "", "  ")
	if err != nil {
		return nil, nil, err
	}
	files[FindingFile] = append(data, '\n')
	if b.Recipe != nil {
		data, err := json.MarshalIndent(b.Recipe, "", "  ")
		if err != nil {
			return nil, nil, err
		}
		files[RecipeFile] = append(data, '\n')
	}
	outs := map[string]tree.Tree{BaseOutDir: Kept(b.BaseOut, b.Finding.File), FollowOutDir: Kept(b.FollowUpOut, b.Finding.File)}
	if f := b.Finding; f.File == "" && (f.Kind == result.RejectedFollowUp || f.Role == result.RoleFollowUp) {
		// A follow-up that crashed, timed out or was rejected: what its
		// run left is the evidence, the base's output none.
		outs[BaseOutDir] = nil
	}
	var dirs []string
	for _, sub := range []string{BaseOutDir, FollowOutDir} {
		t := outs[sub]
		if t != nil {
			dirs = append(dirs, sub)
		}
		for _, name := range t.Names() {
			if !tree.Clean(name) {
				return nil, nil, fmt.Errorf("%s: path leaves the output directory", name)
			}
			files[path.Join(sub, name)] = t[name]
		}
	}
	return files, dirs, nil
}

// ErrRefused is wrapped by the errors of a Reader for a path it does not
// follow: a symbolic link, a special file, or a path that leaves the
// directory.
var ErrRefused = errors.New("refused: mcpt reads only regular files and directories inside the directory it is given, and follows no symbolic link")

// Reader reads files below a directory and nowhere else, or the files of
// a bundle archive (see OpenArchive). It is not safe for concurrent use.
type Reader struct {
	dir  string
	root *os.Root
	// refs tells whether paths may lead out of dir to the bundles of the
	// output directories beside it (see OpenOutput); up is the root of
	// dir's parent, opened on first use.
	refs bool
	up   *os.Root
	// dirs holds the Readers of the directories that hold the bundles
	// Sub opened (findings/, ../SHARD/findings/), open while r is.
	dirs map[string]*Reader
	// mem is the bundle archive the Reader reads, in place of a
	// directory (root is nil then).
	mem *memTree
}

// Open returns a Reader of the directory dir (itself named by the user,
// so a link there is followed).
func Open(dir string) (*Reader, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &Reader{dir: dir, root: root}, nil
}

// OpenOutput returns a Reader of the output directory dir that also reads
// the bundles its report refers to in place (see Ref): paths
// "../OTHER/…/findings/ID" lead to the bundles of the output directories
// beside dir, under dir's parent as dir names it, and nowhere else; they
// are checked as every path is (no symbolic link, no special file).
func OpenOutput(dir string) (*Reader, error) {
	r, err := Open(dir)
	if r != nil {
		r.refs = true
	}
	return r, err
}

// Ref is the path, relative to the output directory out, by which out's
// report refers in place to the bundle dir (an archive or a directory),
// when dir is in an output directory beside out (below out's parent,
// under a directory named findings); ok is false when it is not. Both paths are taken as
// given, made absolute from the working directory.
func Ref(out, dir string) (ref string, ok bool) {
	absOut, err1 := filepath.Abs(out)
	absDir, err2 := filepath.Abs(dir)
	if err1 != nil || err2 != nil {
		return "", false
	}
	rel, err := filepath.Rel(filepath.Dir(absOut), absDir)
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	ref = "../" + filepath.ToSlash(rel)
	return ref, isRef(ref)
}

// isRef tells whether the clean slash-separated path p leads out of an
// output directory to a bundle beside it: one "..", then a local path
// through a directory named findings.
func isRef(p string) bool {
	rest, ok := strings.CutPrefix(p, "../")
	return ok && filepath.IsLocal(filepath.FromSlash(rest)) && strings.Contains("/"+rest+"/", "/"+Dir+"/")
}

// Close releases the directory.
func (r *Reader) Close() error {
	if r.mem != nil {
		return nil
	}
	for _, d := range r.dirs {
		d.Close()
	}
	if r.up != nil {
		r.up.Close()
	}
	return r.root.Close()
}

// resolve returns the root that holds the slash-separated path name and
// the path inside it: the Reader's own, or for a reference to a bundle
// beside an output directory (see OpenOutput), its parent's.
func (r *Reader) resolve(name string) (*os.Root, string, error) {
	if r.mem != nil {
		return nil, "", fmt.Errorf("%s: an archive's file: %w", r.display(name), errors.ErrUnsupported)
	}
	clean := path.Clean(name)
	if p := filepath.FromSlash(clean); filepath.IsLocal(p) || p == "." {
		return r.root, p, nil
	}
	if !r.refs || !isRef(clean) {
		return nil, "", fmt.Errorf("%s: %w", r.display(name), ErrRefused)
	}
	if r.up == nil {
		up, err := os.OpenRoot(filepath.Join(r.dir, ".."))
		if err != nil {
			return nil, "", err
		}
		r.up = up
	}
	return r.up, filepath.FromSlash(strings.TrimPrefix(clean, "../")), nil
}

// Sub returns a Reader of the bundle at the slash-separated path rel (an
// archive, or a directory of an earlier mcpt), checked as every path is;
// its paths are relative to rel. The directory that holds rel is opened
// once for every Sub of r.
func (r *Reader) Sub(rel string) (*Reader, error) {
	if r.mem != nil {
		return nil, fmt.Errorf("%s: %w", r.display(rel), errNotDir)
	}
	if _, _, err := r.resolve(rel); err != nil {
		return nil, err
	}
	dir, name := path.Split(path.Clean(rel))
	if dir == "" || name == ".." {
		return r.bundle(rel)
	}
	d, err := r.dirOf(dir)
	if err != nil {
		return nil, err
	}
	return d.bundle(name)
}

// bundle is the Reader of the bundle at rel: an archive when it is a
// regular file, else a directory.
func (r *Reader) bundle(rel string) (*Reader, error) {
	if fi, err := r.check(rel); err == nil && fi.Mode().IsRegular() {
		return r.openArchive(rel)
	}
	return r.sub(rel)
}

// dirOf is the Reader of the directory at the slash-separated path dir
// (ending in a slash, as path.Split gives it), opened once for r.
func (r *Reader) dirOf(dir string) (*Reader, error) {
	if d, ok := r.dirs[dir]; ok {
		return d, nil
	}
	d, err := r.sub(dir)
	if err != nil {
		return nil, err
	}
	if r.dirs == nil {
		r.dirs = map[string]*Reader{}
	}
	r.dirs[dir] = d
	return d, nil
}

// sub is Sub without the directories kept open.
func (r *Reader) sub(rel string) (*Reader, error) {
	fi, err := r.check(rel)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s: not a directory", r.display(rel))
	}
	root, p, err := r.resolve(rel)
	if err != nil {
		return nil, err
	}
	sub, err := root.OpenRoot(p)
	if err != nil {
		return nil, r.fsErr(err)
	}
	if got, err := sub.Lstat("."); err != nil || !os.SameFile(got, fi) {
		sub.Close()
		return nil, fmt.Errorf("%s: changed while it was read: %w", r.display(rel), ErrRefused)
	}
	return &Reader{dir: r.display(rel), root: sub}, nil
}

// Dir is the directory the Reader reads.
func (r *Reader) Dir() string { return r.dir }

// check refuses a slash-separated path that leaves the directory or passes
// through a symbolic link, and returns what its last element is.
func (r *Reader) check(name string) (os.FileInfo, error) {
	if r.mem != nil {
		return r.memCheck(name)
	}
	root, p, err := r.resolve(name)
	if err != nil {
		return nil, err
	}
	var fi os.FileInfo
	prefix := ""
	for _, part := range splitPath(p) {
		prefix = filepath.Join(prefix, part)
		fi, err = root.Lstat(prefix)
		if err != nil {
			return nil, r.fsErrIn(root, err)
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return nil, fmt.Errorf("%s: %w", r.displayIn(root, prefix), ErrRefused)
		}
	}
	if fi == nil { // "."
		return r.lstat(".")
	}
	return fi, nil
}

func splitPath(p string) []string {
	var parts []string
	for p != "." && p != "" {
		dir, file := filepath.Split(p)
		parts = append([]string{file}, parts...)
		p = filepath.Clean(dir)
		if dir == "" {
			break
		}
	}
	return parts
}

func (r *Reader) display(name string) string { return filepath.Join(r.dir, filepath.FromSlash(name)) }

// displayIn is display for the path p inside root (see resolve).
func (r *Reader) displayIn(root *os.Root, p string) string {
	if root != r.root {
		p = filepath.Join("..", p)
	}
	return r.display(filepath.ToSlash(p))
}

// lstat, open and readFile are those of the directory the Reader holds
// (the slash-separated path name resolved as resolve does), with errors
// that name the file as the user knows it ("DIR/base/a.cll: no such file
// or directory", not "statat base/a.cll: …").
func (r *Reader) lstat(name string) (os.FileInfo, error) {
	if r.mem != nil {
		return r.memCheck(filepath.ToSlash(name))
	}
	root, p, err := r.resolve(filepath.ToSlash(name))
	if err != nil {
		return nil, err
	}
	fi, err := root.Lstat(p)
	return fi, r.fsErrIn(root, err)
}

func (r *Reader) open(name string) (*os.File, error) {
	if r.mem != nil {
		return nil, fmt.Errorf("%s: an archive's file: %w", r.display(filepath.ToSlash(name)), errors.ErrUnsupported)
	}
	root, p, err := r.resolve(filepath.ToSlash(name))
	if err != nil {
		return nil, err
	}
	f, err := root.Open(p)
	return f, r.fsErrIn(root, err)
}

func (r *Reader) readFile(name string) ([]byte, error) {
	if r.mem != nil {
		return r.memRead(filepath.ToSlash(name))
	}
	root, p, err := r.resolve(filepath.ToSlash(name))
	if err != nil {
		return nil, err
	}
	data, err := root.ReadFile(p)
	return data, r.fsErrIn(root, err)
}

// fsErr names the file of a path error by its path below the directory
// the user gave; the cause stays in the chain (errors.Is(err,
// fs.ErrNotExist) holds as before).
func (r *Reader) fsErr(err error) error { return r.fsErrIn(r.root, err) }

// fsErrIn is fsErr for an error of root (see resolve).
func (r *Reader) fsErrIn(root *os.Root, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", r.displayIn(root, pe.Path), pe.Err)
	}
	return err
}

// LoadReport reads the report file name (report.json) of the
// directory the Reader reads, as ReadFile checks it but decoded as it is
// read (see result.Decode).
func (r *Reader) LoadReport(name string) (*result.Report, error) {
	if r.mem != nil {
		return nil, fmt.Errorf("%s: %w", r.display(name), errNotDir)
	}
	f, fi, err := r.openFile(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > MaxSize {
		return nil, fmt.Errorf("%s: larger than %d MiB", r.display(name), MaxSize>>20)
	}
	rep, err := result.Decode(bufio.NewReaderSize(io.LimitReader(f, MaxSize), 256<<10))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.display(name), err)
	}
	return rep, nil
}

// OpenRegular opens the regular file at the slash-separated path name,
// checked as every path is (no symbolic link, no special file), for a
// reader that bounds what it reads itself (a journal, read a line at a
// time).
func (r *Reader) OpenRegular(name string) (*os.File, error) {
	f, _, err := r.openFile(name)
	return f, err
}

// openFile opens the regular file at the slash-separated path name,
// checked as every path is, and returns what it is.
func (r *Reader) openFile(name string) (*os.File, os.FileInfo, error) {
	if r.mem != nil {
		return nil, nil, fmt.Errorf("%s: an archive's file: %w", r.display(name), errors.ErrUnsupported)
	}
	fi, err := r.check(name)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s: %w", r.display(name), ErrRefused)
	}
	f, err := r.open(filepath.FromSlash(path.Clean(name)))
	if err != nil {
		return nil, nil, err
	}
	if sfi, err := f.Stat(); err != nil || !os.SameFile(sfi, fi) {
		f.Close()
		return nil, nil, fmt.Errorf("%s: changed while it was read: %w", r.display(name), ErrRefused)
	}
	return f, fi, nil
}

// checkInputSize refuses an input larger than MaxInput.
func (r *Reader) checkInputSize(name string, fi fs.FileInfo) error {
	if fi.Size() > MaxInput {
		return fmt.Errorf("%s: %d bytes, larger than %d MiB: not an input mcpt wrote (seeds are at most 16 MiB)", r.display(name), fi.Size(), MaxInput>>20)
	}
	return nil
}

// CheckTree walks the directory at the slash-separated path rel and refuses
// anything in it but regular files and directories (a symbolic link, a
// named pipe, a device), a tree deeper than 64 levels and one of more than
// 100,000 entries: a bundle mcpt wrote holds none of these.
func (r *Reader) CheckTree(rel string) error {
	fi, err := r.check(rel)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s: not a directory", r.display(rel))
	}
	if r.mem != nil {
		return nil // checked whole as it was read
	}
	return r.checkTree(rel)
}

// walkTree is the walk of CheckTree through os.File, for the systems
// without checkTree's own.
func (r *Reader) walkTree(rel string) error {
	top, err := r.openDir(rel)
	if err != nil {
		return err
	}
	defer top.Close()
	const batch = 1024
	entries := 0
	var walk func(f *os.File, dir string, depth int) error
	walk = func(f *os.File, dir string, depth int) error {
		if depth > maxDepth {
			return fmt.Errorf("%s: deeper than %d levels: %w", r.display(dir), maxDepth, ErrRefused)
		}
		for {
			list, err := f.ReadDir(batch)
			for _, e := range list {
				if entries++; entries > maxEntries {
					return fmt.Errorf("%s: more than %d files: %w", r.display(rel), maxEntries, ErrRefused)
				}
				name := path.Join(dir, e.Name())
				switch {
				case e.IsDir():
					sub, err := r.openSubdir(f, dir, e.Name())
					if err != nil {
						return err
					}
					err = walk(sub, name, depth+1)
					sub.Close()
					if err != nil {
						return err
					}
				case !e.Type().IsRegular():
					return fmt.Errorf("%s: %w", r.display(name), ErrRefused)
				}
			}
			// A short list is the end of the directory.
			if err == io.EOF || len(list) < batch {
				return nil
			}
			if err != nil {
				return err
			}
		}
	}
	return walk(top, rel, 0)
}

// ReadFilePrefix reads at most limit bytes of the regular file at the
// slash-separated path name, and tells its whole size.
func (r *Reader) ReadFilePrefix(name string, limit int64) ([]byte, int64, error) {
	if r.mem != nil {
		data, err := r.memRead(name)
		if err != nil {
			return nil, 0, err
		}
		return data[:min(int64(len(data)), max(limit, 0))], int64(len(data)), nil
	}
	f, fi, err := r.openFile(name)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit))
	return data, fi.Size(), err
}

// ReadFile reads the regular file at the slash-separated path name. A file
// that does not exist gives an error wrapping fs.ErrNotExist.
func (r *Reader) ReadFile(name string) ([]byte, error) {
	fi, err := r.check(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", r.display(name), ErrRefused)
	}
	if fi.Size() > MaxSize {
		return nil, fmt.Errorf("%s: larger than %d MiB", r.display(name), MaxSize>>20)
	}
	return r.readFile(filepath.FromSlash(path.Clean(name)))
}

// Load reads the bundle at the slash-separated path rel ("." for the
// directory of the Reader itself). The finding and the base input must be
// there; the rest is optional.
func (r *Reader) Load(rel string) (*Bundle, error) {
	b := &Bundle{}
	if err := r.CheckTree(rel); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("not a finding bundle: %w", err)
		}
		return nil, err
	}
	data, err := r.ReadFile(path.Join(rel, FindingFile))
	if err != nil {
		return nil, fmt.Errorf("not a finding bundle: %w", err)
	}
	if err := json.Unmarshal(data, &b.Finding); err != nil {
		return nil, fmt.Errorf("%s: %w", r.display(path.Join(rel, FindingFile)), err)
	}
	if b.Finding.SeedFile == "" {
		return nil, fmt.Errorf("%s: the finding names no seed file", r.display(path.Join(rel, FindingFile)))
	}
	name := b.InputName()
	for _, in := range []string{path.Join(rel, BaseDir, name), path.Join(rel, FollowUpDir, name)} {
		if fi, err := r.check(in); err == nil && fi.Mode().IsRegular() {
			if err := r.checkInputSize(in, fi); err != nil {
				return nil, err
			}
		}
	}
	if b.Base, err = r.ReadFile(path.Join(rel, BaseDir, name)); err != nil {
		return nil, fmt.Errorf("not a finding bundle: %w", err)
	}
	size := int64(len(data) + len(b.Base))
	opt := func(p string) ([]byte, error) {
		data, err := r.ReadFile(path.Join(rel, p))
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		size += int64(len(data))
		return data, err
	}
	if b.FollowUp, err = opt(path.Join(FollowUpDir, name)); err != nil {
		return nil, err
	}
	recipe, err := opt(RecipeFile)
	if err != nil {
		return nil, err
	}
	if recipe != nil {
		b.Recipe = &Recipe{}
		if err := json.Unmarshal(recipe, b.Recipe); err != nil {
			return nil, fmt.Errorf("%s: %w", r.display(path.Join(rel, RecipeFile)), err)
		}
	}
	repro, err := opt(ReproFile)
	if err != nil {
		return nil, err
	}
	b.Repro = strings.TrimSpace(string(repro))
	if b.BaseOut, err = r.readTree(path.Join(rel, BaseOutDir), &size); err != nil {
		return nil, err
	}
	if b.FollowUpOut, err = r.readTree(path.Join(rel, FollowOutDir), &size); err != nil {
		return nil, err
	}
	if b.Finding.Evidence != nil {
		var norm oracle.Normalizer
		if b.Recipe != nil {
			norm = b.Recipe.Normalize
		}
		unpackEvidence(&b.Finding, b.FollowUpOut[b.Finding.File], norm)
	}
	return b, nil
}

// readTree reads the regular files below the directory dir; nil when dir
// does not exist. size counts the bytes read for the bundle.
func (r *Reader) readTree(dir string, size *int64) (tree.Tree, error) {
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
	t := tree.Tree{}
	if r.mem != nil {
		for _, name := range r.mem.below(path.Clean(dir)) {
			data := r.mem.files[path.Join(path.Clean(dir), name)]
			if *size += int64(len(data)); *size > MaxSize {
				return nil, fmt.Errorf("%s: the bundle is larger than %d MiB", r.display(dir), MaxSize>>20)
			}
			t[name] = data
		}
		return t, nil
	}
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
				data, err := r.ReadFile(path.Join(dir, name))
				if err != nil {
					return err
				}
				if *size += int64(len(data)); *size > MaxSize {
					return fmt.Errorf("%s: the bundle is larger than %d MiB", r.display(dir), MaxSize>>20)
				}
				t[name] = data
			default:
				return fmt.Errorf("%s: %w", r.display(path.Join(dir, name)), ErrRefused)
			}
		}
		return nil
	}
	return t, walk("")
}

// Load reads the bundle at p: an archive, or a directory of an earlier
// mcpt.
func Load(p string) (*Bundle, error) {
	if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
		r, err := OpenArchive(p)
		if err != nil {
			return nil, fmt.Errorf("not a finding bundle: %w", err)
		}
		return r.Load(".")
	}
	dir := p
	r, err := Open(dir)
	if err != nil {
		return nil, fmt.Errorf("not a finding bundle: %w", err)
	}
	defer r.Close()
	return r.Load(".")
}

// ReproCommand is the command that reproduces the finding whose bundle is
// dir (an archive, or a directory of an earlier mcpt), with mcpt the command that starts mcpt: "mcpt" when
// it is empty (mcpt itself, started with go run or by a path, gives the
// form that works as it was started).
func ReproCommand(mcpt, dir string) string {
	if mcpt == "" {
		mcpt = "mcpt"
	}
	return mcpt + " repro " + filepath.ToSlash(filepath.Clean(dir))
}

// FillEvidence completes each lean finding of fs (see result.Finding.Lean)
// with the whole-file evidence its bundle's finding.json keeps, read
// through r, the output directory the findings' bundle paths are relative
// to. A bundle that is not there, cannot be read or holds other evidence
// than the finding's sum names leaves the finding lean: its diff and
// everything else stay, and the report reads what the bundle has.
func (r *Reader) FillEvidence(fs []result.Finding) {
	for i := range fs {
		f := &fs[i]
		if !f.IsLean() || f.Bundle == "" {
			continue
		}
		b, err := r.Sub(f.Bundle)
		if err != nil {
			continue
		}
		data, err := b.ReadFile(FindingFile)
		if err == nil {
			var bf result.Finding
			if json.Unmarshal(data, &bf) == nil {
				b.unpackIn(".", &bf)
				f.Fill(&bf)
			}
		}
		b.Close()
	}
}
