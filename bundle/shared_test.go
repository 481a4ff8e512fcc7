package bundle

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestWriteShared: bundles written with one Shared read back as written;
// the files a later bundle has in common with an earlier one (the recipe,
// the base input and output) and those its follow-up's output keeps of
// the base's are links to one file, the others its own; a file changed
// since it was written is not linked to; removing a bundle leaves the
// others whole.
func TestWriteShared(t *testing.T) {
	out := filepath.Join(t.TempDir(), "findings")
	var s Shared
	a, b := sample(), sample()
	a.FollowUpOut = map[string][]byte{"out.txt": []byte("o2\n"), "sub/x.txt": []byte("x\n")}
	b.Finding.ID, b.FollowUp, b.FollowUpOut = "c000002-r", []byte("follow-up 2\n"), map[string][]byte{"out.txt": []byte("o3\n")}
	da, db := filepath.Join(out, "a"), filepath.Join(out, "b")
	if err := WriteShared(da, a, &s); err != nil {
		t.Fatal(err)
	}
	if err := WriteShared(db, b, &s); err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]*Bundle{da: a, db: b} {
		got, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s read back %+v, want %+v", dir, got, want)
		}
	}
	same := func(p, q string) bool {
		t.Helper()
		fp, err1 := os.Lstat(p)
		fq, err2 := os.Lstat(q)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		return os.SameFile(fp, fq)
	}
	for _, name := range []string{RecipeFile, "base/a.prog", "base-out/out.txt", "base-out/sub/x.txt"} {
		if !same(filepath.Join(da, name), filepath.Join(db, name)) {
			t.Errorf("%s: two copies, want one file", name)
		}
	}
	if !same(filepath.Join(da, "followup-out/sub/x.txt"), filepath.Join(da, "base-out/sub/x.txt")) {
		t.Error("the follow-up's output file the base's has as it is: two copies, want one file")
	}
	for _, name := range []string{FindingFile, "followup/a.prog", "followup-out/out.txt"} {
		if same(filepath.Join(da, name), filepath.Join(db, name)) {
			t.Errorf("%s: one file for two contents", name)
		}
	}
	// A bundle that holds the same names as another has its manifest.
	a2 := sample()
	a2.Finding.ID, a2.FollowUp = "c000004-r", []byte("follow-up 4\n")
	a2.FollowUpOut = map[string][]byte{"out.txt": []byte("o4\n"), "sub/x.txt": []byte("x4\n")}
	da2 := filepath.Join(out, "a2")
	if err := WriteShared(da2, a2, &s); err != nil {
		t.Fatal(err)
	}
	if !same(filepath.Join(da, ManifestFile), filepath.Join(da2, ManifestFile)) {
		t.Error("the manifests of the same names: two copies, want one file")
	}
	if same(filepath.Join(da, ManifestFile), filepath.Join(db, ManifestFile)) {
		t.Error("the manifests of other names: one file")
	}
	if err := Remove(da2); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(da2); !os.IsNotExist(err) {
		t.Errorf("bundle a2 still there: %v", err)
	}
	if data, err := os.ReadFile(filepath.Join(da, ManifestFile)); err != nil || !strings.HasPrefix(string(data), manifestHead) {
		t.Errorf("bundle a lost its manifest with a2: %q, %v", data, err)
	}
	// Removing a bundle leaves the others whole.
	if err := Remove(db); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(db); !os.IsNotExist(err) {
		t.Errorf("bundle b still there: %v", err)
	}
	if got, err := Load(da); err != nil || !reflect.DeepEqual(got, a) {
		t.Errorf("bundle a after b was removed: %+v, %v", got, err)
	}
	// A file changed since it was written (in place, which the bundles
	// linked to it see too): the next bundle writes its own.
	recipe := filepath.Join(da, RecipeFile)
	if err := os.WriteFile(recipe, []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(recipe, later, later); err != nil {
		t.Fatal(err)
	}
	c := sample()
	c.Finding.ID = "c000003-r"
	dc := filepath.Join(out, "c")
	if err := WriteShared(dc, c, &s); err != nil {
		t.Fatal(err)
	}
	if got, err := Load(dc); err != nil || !reflect.DeepEqual(got, c) {
		t.Errorf("a bundle linked to a file changed since: %+v, %v", got, err)
	}
	if same(recipe, filepath.Join(dc, RecipeFile)) {
		t.Error("linked to a file changed since it was written")
	}
	if !same(filepath.Join(da, "base/a.prog"), filepath.Join(dc, "base/a.prog")) {
		t.Error("the base input: two copies, want one file")
	}
}
