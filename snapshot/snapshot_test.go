package snapshot

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestNewRefusesPathsThatLeave(t *testing.T) {
	for _, name := range []string{"../x.yaml", "/etc/passwd", "a/../../b", ""} {
		if _, err := New(map[string][]byte{name: nil}); err == nil {
			t.Errorf("%q: no error", name)
		}
	}
	if _, err := New(map[string][]byte{"a": nil, "a/b": nil}); err == nil {
		t.Error("a file that is also a directory: no error")
	}
}

// TestReaderNamesFilesByTheirCommonDirectory: what a reader read is named
// relative to the deepest directory holding it all, whatever the working
// directory and however the paths were written.
func TestReaderNamesFilesByTheirCommonDirectory(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"c/mcpt.yaml": "x", "c/rel/a.yaml": "a", "defs.yaml": "d"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(filepath.Join(dir, "c"))
	r := NewReader()
	for _, p := range []string{"mcpt.yaml", filepath.Join(dir, "c", "rel", "a.yaml"), "../defs.yaml", "rel/../rel/a.yaml"} {
		if _, err := r.Read(p); err != nil {
			t.Fatal(err)
		}
	}
	f := r.Files()
	want := map[string]string{"c/mcpt.yaml": Hash([]byte("x")), "c/rel/a.yaml": Hash([]byte("a")), "defs.yaml": Hash([]byte("d"))}
	got := f.Hashes()
	if len(got) != len(want) {
		t.Fatalf("files %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: hash %q, want %q", k, got[k], v)
		}
	}
	if n := r.Rel("rel/a.yaml"); n != "c/rel/a.yaml" {
		t.Errorf("Rel = %q", n)
	}
	b, err := fs.ReadFile(f, "defs.yaml")
	if err != nil || string(b) != "d" {
		t.Errorf("ReadFile: %q, %v", b, err)
	}
	if _, err := f.Open("nosuch"); err == nil {
		t.Error("Open of a missing file: no error")
	}
}
