package outdir

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// layout's bundles are directories whose file "written" lists the files
// mcpt wrote in them, one a line.
var layout = Layout{
	Files:   []string{"journal.jsonl", "report.json", "report.html", "junit.xml"},
	Bundles: "findings",
	Remove: func(dir string) error {
		b, err := os.ReadFile(filepath.Join(dir, "written"))
		if err != nil {
			return nil
		}
		for _, name := range strings.Fields(string(b)) {
			os.Remove(filepath.Join(dir, name))
		}
		os.Remove(filepath.Join(dir, "written"))
		os.Remove(dir)
		return nil
	},
	Pages: "pages",
}

func write(t *testing.T, dir string, files ...string) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func list(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			names = append(names, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(names)
	return names
}

func isUsage(err error) bool {
	var ue *UsageError
	return errors.As(err, &ue)
}

// A directory holding an mcpt file among others (a source tree with a
// report.json) is refused and left exactly as it was.
func TestCreateRefusesForeign(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "report.json", "journal.jsonl", "main.go", ".git/HEAD")
	before := list(t, dir)
	d, err := Create(dir, layout, true)
	if !isUsage(err) || !strings.Contains(err.Error(), "is not an mcpt output") {
		d.Close()
		t.Fatalf("Create over a source tree: %v", err)
	}
	if got := list(t, dir); !slices.Equal(got, before) {
		t.Errorf("the directory changed: %v, was %v", got, before)
	}
}

// An earlier campaign is replaced only with force, and then only what mcpt
// wrote goes: the top files the marker claims, the temporary files of their
// writes, what bundles list and the finding pages.
func TestCreateOverEarlierCampaign(t *testing.T) {
	dir := t.TempDir()
	d, err := Create(dir, layout, false)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	write(t, dir, "journal.jsonl", "report.json", "junit.xml", "notes.txt", ".report.json.tmp123",
		"findings/c000001-x/finding.json", "findings/c000001-x/base/a.cll", "findings/c000001-x/mine.txt",
		"findings/mine/keep.txt", "findings/mine/finding.json",
		"pages/c000001-x.html", "pages/.tmp-c000002-x.html", "pages/mine.txt")
	os.WriteFile(filepath.Join(dir, "findings/c000001-x/written"), []byte("finding.json base/a.cll"), 0o644)
	if _, err := Create(dir, layout, false); !isUsage(err) || !strings.Contains(err.Error(), "--force replaces it") {
		t.Fatalf("Create without force: %v", err)
	}
	d, err = Create(dir, layout, true)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	want := []string{LockName, MarkerName, "findings/c000001-x/mine.txt", "findings/mine/finding.json", "findings/mine/keep.txt", "notes.txt", "pages/mine.txt"}
	if got := list(t, dir); !slices.Equal(got, want) {
		t.Errorf("after --force: %v, want %v", got, want)
	}
}

// A directory mcpt did not make is never taken for an output because of
// the names it holds: one holding only a report.json, or a bundle, of the
// user's is refused, even with force, and left as it was.
func TestUnmarkedIsForeign(t *testing.T) {
	for _, files := range [][]string{
		{"report.json"},
		{"findings/X/finding.json", "findings/X/notes.txt"},
		{"journal.jsonl", "report.json", "findings/c000001-x/finding.json"},
	} {
		dir := t.TempDir()
		write(t, dir, files...)
		if st, err := Inspect(dir, layout); st != Foreign || err != nil {
			t.Errorf("%v: Inspect = %v, %v", files, st, err)
		}
		if d, err := Create(dir, layout, true); !isUsage(err) || !strings.Contains(err.Error(), "is not an mcpt output") {
			d.Close()
			t.Errorf("%v: Create with force: %v", files, err)
		}
		if _, err := Open(dir, layout); !isUsage(err) {
			t.Errorf("%v: Open: %v", files, err)
		}
		if got := list(t, dir); !slices.Equal(got, files) && !slices.Equal(got, slices.Sorted(slices.Values(files))) {
			t.Errorf("%v: the directory changed: %v", files, got)
		}
	}
}

// An output of format 1 did not record what mcpt wrote: it is read, but
// not reset.
func TestFormat1NotReset(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "report.json", "findings/c000001-x/finding.json")
	os.WriteFile(filepath.Join(dir, MarkerName), []byte(markerPrefix+"1\n"), 0o644)
	d, err := Open(dir, layout)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	d.Close()
	if _, err := Create(dir, layout, true); !isUsage(err) || !strings.Contains(err.Error(), "earlier mcpt") {
		t.Errorf("Create with force: %v", err)
	}
	if got := list(t, dir); !slices.Contains(got, "findings/c000001-x/finding.json") {
		t.Errorf("the bundle went: %v", got)
	}
}

// A link to a directory, named by the user, is followed; a layout name
// that is a link inside an output is refused.
func TestLinks(t *testing.T) {
	root := t.TempDir()
	real := filepath.Join(root, "real")
	link := filepath.Join(root, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(link, layout, false); !isUsage(err) || !strings.Contains(err.Error(), "link to nothing") {
		t.Errorf("Create through a dangling link: %v", err)
	}
	os.Mkdir(real, 0o755)
	d, err := Create(link, layout, false)
	if err != nil {
		t.Fatalf("Create through a link: %v", err)
	}
	d.Close()
	d, err = Open(link, layout)
	if err != nil {
		t.Fatalf("Open through a link: %v", err)
	}
	d.Close()
	elsewhere := filepath.Join(root, "elsewhere")
	os.Mkdir(elsewhere, 0o755)
	if err := os.Symlink(elsewhere, filepath.Join(real, "findings")); err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]func() (*Dir, error){
		"Open":   func() (*Dir, error) { return Open(real, layout) },
		"Create": func() (*Dir, error) { return Create(real, layout, true) },
	} {
		if d, err := f(); !isUsage(err) || !strings.Contains(err.Error(), "findings is not a directory (a symbolic link)") {
			d.Close()
			t.Errorf("%s with findings a link: %v", name, err)
		}
	}
}

func TestOpenRefuses(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/main.go")
	for _, c := range []struct{ dir, want string }{
		{filepath.Join(dir, "missing"), "does not exist"},
		{filepath.Join(dir, "src"), "not an mcpt output"},
		{t.TempDir(), "is empty"},
		{filepath.Join(dir, "src", "main.go"), "not a directory"},
	} {
		if _, err := Open(c.dir, layout); !isUsage(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Open(%s) = %v, want %q", c.dir, err, c.want)
		}
	}
	later := t.TempDir()
	os.WriteFile(filepath.Join(later, MarkerName), []byte(markerPrefix+"99\n"), 0o644)
	if _, err := Open(later, layout); !isUsage(err) || !strings.Contains(err.Error(), "later mcpt") {
		t.Errorf("Open of a later format: %v", err)
	}
}

// A locked directory is refused to a second opener, naming the holder.
func TestLock(t *testing.T) {
	dir := t.TempDir()
	d, err := Create(dir, layout, false)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, LockName))
	if strings.TrimSpace(string(b)) != strconv.Itoa(os.Getpid()) {
		t.Errorf("lock file holds %q", b)
	}
	_, err = Open(dir, layout)
	if !isUsage(err) || !strings.Contains(err.Error(), "in use by mcpt (pid "+strconv.Itoa(os.Getpid())+")") {
		t.Errorf("second Open: %v", err)
	}
	if _, err := Create(dir, layout, true); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Errorf("second Create: %v", err)
	}
	d.Close()
	d, err = Open(dir, layout)
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	d.Close()
}

// TestOnlyTheLock: a directory that holds only the lock file (a campaign
// stopped before it marked the directory) is empty to Create, with or
// without force, and holds nothing of a campaign (Unstarted); a marked
// output with only empty files of the layout holds nothing either.
func TestOnlyTheLock(t *testing.T) {
	for _, force := range []bool{false, true} {
		dir := t.TempDir()
		write(t, dir, LockName)
		if st, err := Inspect(dir, layout); err != nil || st != Empty {
			t.Fatalf("Inspect: %v %v", st, err)
		}
		if none, err := Unstarted(dir, layout); err != nil || !none {
			t.Errorf("Unstarted: %v %v", none, err)
		}
		d, err := Create(dir, layout, force)
		if err != nil {
			t.Fatalf("Create (force %v): %v", force, err)
		}
		d.Close()
		if none, err := Unstarted(dir, layout); err != nil || !none {
			t.Errorf("Unstarted after the marker: %v %v", none, err)
		}
		if err := os.WriteFile(filepath.Join(dir, "journal.jsonl"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if none, err := Unstarted(dir, layout); err != nil || !none {
			t.Errorf("Unstarted with an empty journal: %v %v", none, err)
		}
		write(t, dir, "journal.jsonl")
		if none, err := Unstarted(dir, layout); err != nil || none {
			t.Errorf("Unstarted with a journal: %v %v", none, err)
		}
	}
	// The lock and a file of the user's: not an output.
	dir := t.TempDir()
	write(t, dir, LockName, "notes.txt")
	if st, _ := Inspect(dir, layout); st != Foreign {
		t.Errorf("the lock and notes.txt: %v", st)
	}
	if none, _ := Unstarted(dir, layout); none {
		t.Error("a directory of the user's is unstarted")
	}
	if none, _ := Unstarted(filepath.Join(dir, "missing"), layout); none {
		t.Error("a missing directory is unstarted")
	}
}
