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

var layout = Layout{
	Files:      []string{"journal.jsonl", "report.json", "report.html", "junit.xml"},
	Bundles:    "findings",
	BundleFile: "finding.json",
	TempPrefix: ".tmp-",
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
// wrote goes.
func TestCreateOverEarlierCampaign(t *testing.T) {
	dir := t.TempDir()
	d, err := Create(dir, layout, false)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	write(t, dir, "journal.jsonl", "report.json", "junit.xml", "notes.txt",
		"findings/c000001-x/finding.json", "findings/c000001-x/base/a.cll",
		"findings/.tmp-c000002-x-123/base/a.cll", "findings/mine/keep.txt")
	if _, err := Create(dir, layout, false); !isUsage(err) || !strings.Contains(err.Error(), "--force replaces it") {
		t.Fatalf("Create without force: %v", err)
	}
	d, err = Create(dir, layout, true)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	want := []string{LockName, MarkerName, "findings/mine/keep.txt", "notes.txt"}
	if got := list(t, dir); !slices.Equal(got, want) {
		t.Errorf("after --force: %v, want %v", got, want)
	}
}

// An output of an mcpt from before the marker (only names mcpt writes) is
// still recognised.
func TestUnmarkedOutput(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "journal.jsonl", "report.json", "findings/c000001-x/finding.json")
	if st, err := Inspect(dir, layout); st != Unmarked || err != nil {
		t.Fatalf("Inspect = %v, %v", st, err)
	}
	d, err := Open(dir, layout)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if st, err := Inspect(dir, layout); st != Output || err != nil {
		t.Fatalf("after Open: Inspect = %v, %v", st, err)
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
