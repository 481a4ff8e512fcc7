//go:build linux

package bundle

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestScanBundles: a scan of a directory of bundles, seen from an output
// directory beside it as a merged report sees a shard's, tells of each
// bundle what CheckTree and ReadFilePrefix tell of it one by one, with the
// same messages, and leaves to the caller the bundles it cannot open as
// directories (a link, a file, one that is not there).
func TestScanBundles(t *testing.T) {
	parent := t.TempDir()
	shard := filepath.Join(parent, "shard-0", "findings")
	secret := filepath.Join(parent, "secret.txt")
	if err := os.WriteFile(secret, []byte("SECRET\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	damage := map[string]func(dir string) error{
		"b-good":     func(string) error { return nil },
		"b-filelink": func(dir string) error { return os.Symlink(secret, filepath.Join(dir, "base-out", "sub", "x.link")) },
		"b-dirlink":  func(dir string) error { return os.Symlink(parent, filepath.Join(dir, "followup-out", "up")) },
		"b-fifo":     func(dir string) error { return syscall.Mkfifo(filepath.Join(dir, "base", "fifo"), 0o644) },
		"b-deep": func(dir string) error {
			return os.MkdirAll(filepath.Join(dir, "base-out", strings.Repeat("d/", maxDepth+1)), 0o755)
		},
		"b-reprolink": func(dir string) error {
			return replace(filepath.Join(dir, ReproFile), func(p string) error { return os.Symlink(secret, p) })
		},
		"b-reprodir": func(dir string) error {
			return replace(filepath.Join(dir, ReproFile), func(p string) error { return os.Mkdir(p, 0o755) })
		},
		"b-reprofifo": func(dir string) error {
			return replace(filepath.Join(dir, ReproFile), func(p string) error { return syscall.Mkfifo(p, 0o644) })
		},
		"b-noRepro": func(dir string) error { return os.Remove(filepath.Join(dir, ReproFile)) },
		"b-longrepro": func(dir string) error {
			return os.WriteFile(filepath.Join(dir, ReproFile), bytes.Repeat([]byte("x"), 10000), 0o644)
		},
		"b-bundlelink": func(dir string) error {
			return replace(dir, func(p string) error { return os.Symlink(filepath.Join(shard, "b-good"), p) })
		},
		"b-bundlefile": func(dir string) error {
			return replace(dir, func(p string) error { return os.WriteFile(p, []byte("x"), 0o644) })
		},
		"b-good-reduced": func(string) error { return nil },
	}
	for name, f := range damage {
		dir := filepath.Join(shard, name)
		if err := writeDir(dir, sample()); err != nil {
			t.Fatal(err)
		}
		if err := f(dir); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	names := []string{"b-missing"}
	for name := range damage {
		names = append(names, name)
	}
	out := filepath.Join(parent, "merged")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := OpenOutput(out)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	const limit = 4096
	listed, scanned, err := r.ScanBundles("../shard-0/findings", names, ReproFile, limit)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		_, there := damage[name]
		if listed[name] != there {
			t.Errorf("%s listed: %v, want %v", name, listed[name], there)
		}
		s := scanned[name]
		one, err := r.Sub("../shard-0/findings/" + name)
		if err != nil {
			if s != nil {
				t.Errorf("%s: scanned, but Sub: %v", name, err)
			}
			continue
		}
		if s == nil {
			t.Errorf("%s: not scanned", name)
			continue
		}
		want := struct {
			tree, file string
			data       []byte
			size       int64
			found      bool
		}{tree: errText(one.CheckTree("."))}
		data, size, err := one.ReadFilePrefix(ReproFile, limit)
		want.found = !errors.Is(err, fs.ErrNotExist)
		if want.found {
			want.data, want.size, want.file = data, size, errText(err)
		}
		if got := errText(s.Tree); got != want.tree {
			t.Errorf("%s: tree %q, want %q", name, got, want.tree)
		}
		if got := errText(s.FileErr); got != want.file || s.Found != want.found || s.Size != want.size || !bytes.Equal(s.File, want.data) {
			t.Errorf("%s: file %q %v %d %q, want %q %v %d %q", name, got, s.Found, s.Size, s.File, want.file, want.found, want.size, want.data)
		}
		one.Close()
	}
	for _, name := range []string{"b-good", "b-filelink", "b-reprolink", "b-noRepro"} {
		if scanned[name] == nil {
			t.Errorf("%s: not scanned", name)
		}
	}
	if _, _, err := r.ScanBundles("../../shard-0/findings", names, ReproFile, limit); !errors.Is(err, ErrRefused) {
		t.Errorf("a scan above the parent: %v, want it refused", err)
	}
}

// replace removes the file or directory p and makes something else there.
func replace(p string, make func(string) error) error {
	if err := os.RemoveAll(p); err != nil {
		return err
	}
	return make(p)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return fmt.Sprint(err)
}
