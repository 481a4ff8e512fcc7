package bundle

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"
)

// TestLink: a linked bundle reads back as the original with its new repro
// command; on one file system its files are the original's (hard links),
// across file systems copies; an existing bundle is left as it is.
func TestLink(t *testing.T) {
	for _, cross := range []bool{false, true} {
		tmp := t.TempDir()
		src := filepath.Join(tmp, "shard")
		b := sample()
		if err := writeDir(filepath.Join(src, "findings", "c000001-r"), b); err != nil {
			t.Fatal(err)
		}
		// A file that is not of the layout is not taken along.
		os.WriteFile(filepath.Join(src, "findings", "c000001-r", "extra"), []byte("x"), 0o644)
		if cross {
			hardLink = func(string, string) error { return &os.LinkError{Op: "link", Err: syscall.EXDEV} }
		}
		r, err := Open(src)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(tmp, "all", "findings", "c000001-r")
		err = r.Link("findings/c000001-r", dst, "mcpt repro all/findings/c000001-r")
		hardLink = os.Link
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		got, err := Load(dst)
		if err != nil {
			t.Fatal(err)
		}
		want := sample()
		want.Repro = "mcpt repro all/findings/c000001-r"
		if !reflect.DeepEqual(got, want) {
			t.Errorf("cross %v: read back %+v, want %+v", cross, got, want)
		}
		a, _ := os.Stat(filepath.Join(src, "findings", "c000001-r", BaseOutDir, "sub", "x.txt"))
		c, _ := os.Stat(filepath.Join(dst, BaseOutDir, "sub", "x.txt"))
		if os.SameFile(a, c) == cross {
			t.Errorf("cross %v: the output file is the shard's: %v", cross, !cross)
		}
		if _, err := os.Stat(filepath.Join(dst, "extra")); err == nil {
			t.Error("a file outside the bundle's layout was taken along")
		}
		entries, _ := os.ReadDir(filepath.Dir(dst))
		if len(entries) != 1 {
			t.Errorf("%d entries beside the bundle, want none (no temporary left)", len(entries))
		}
	}
}

// TestLinkRefuses: a symbolic link in the bundle is refused, and
// nothing is left at the destination.
func TestLinkRefuses(t *testing.T) {
	for _, bad := range []string{"link-base", "link-out"} {
		tmp := t.TempDir()
		src := filepath.Join(tmp, "shard")
		bd := filepath.Join(src, "findings", "c000001-r")
		if err := writeDir(bd, sample()); err != nil {
			t.Fatal(err)
		}
		secret := filepath.Join(tmp, "secret")
		os.WriteFile(secret, []byte("secret"), 0o600)
		switch bad {
		case "link-base":
			os.Remove(filepath.Join(bd, BaseDir, "a.prog"))
			os.Symlink(secret, filepath.Join(bd, BaseDir, "a.prog"))
		case "link-out":
			os.Symlink(secret, filepath.Join(bd, BaseOutDir, "leak"))
		}
		r, err := Open(src)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(tmp, "all", "findings", "c000001-r")
		err = r.Link("findings/c000001-r", dst, "")
		r.Close()
		if err == nil {
			t.Errorf("%s: linked", bad)
		}
		if _, err := os.Lstat(dst); err == nil {
			t.Errorf("%s: a bundle was left", bad)
		}
	}
}

// TestRef: an output directory refers to the bundles beside it, below its
// parent and in a findings directory; OpenOutput reads them there through
// no symbolic link, and Open not at all.
func TestRef(t *testing.T) {
	tmp := t.TempDir()
	for _, c := range []struct {
		out, dir, ref string
	}{
		{"c/all", "c/s0/findings/x", "../s0/findings/x"},
		{"c/all", "c/deep/s0/findings/x", "../deep/s0/findings/x"},
		{"c/all/", "c/s0/findings/x/", "../s0/findings/x"},
		{"c/sub/all", "c/s0/findings/x", ""},
		{"c/all", "c/s0/x", ""},
		{"c/all", "elsewhere/s0/findings/x", ""},
	} {
		ref, ok := Ref(filepath.Join(tmp, c.out), filepath.Join(tmp, c.dir))
		if ok != (c.ref != "") || ok && ref != c.ref {
			t.Errorf("Ref(%s, %s) = %q, %v, want %q", c.out, c.dir, ref, ok, c.ref)
		}
	}

	if err := writeDir(filepath.Join(tmp, "c", "s0", "findings", "x"), sample()); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(tmp, "c", "all"), 0o755)
	os.Symlink(filepath.Join(tmp, "c", "s0"), filepath.Join(tmp, "c", "link"))
	out, err := OpenOutput(filepath.Join(tmp, "c", "all"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	b, err := out.Sub("../s0/findings/x")
	if err != nil {
		t.Fatal(err)
	}
	got, err := b.Load(".")
	b.Close()
	if err != nil || !reflect.DeepEqual(got, sample()) {
		t.Errorf("read through the reference: %+v, %v", got, err)
	}
	for _, bad := range []string{"../link/findings/x", "../s0/findings/../../../x/findings/y", "../s0/report.json", "../../c/s0/findings/x"} {
		if _, err := out.ReadFile(bad + "/" + FindingFile); !errors.Is(err, ErrRefused) {
			t.Errorf("%s: %v, want a refusal", bad, err)
		}
	}
	plain, err := Open(filepath.Join(tmp, "c", "all"))
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	if _, err := plain.Sub("../s0/findings/x"); !errors.Is(err, ErrRefused) {
		t.Errorf("Open reads a reference: %v", err)
	}
}
