//go:build unix

package bundle

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestCheckTreeWalks: the walk of CheckTree (the system's own where there
// is one) and the walk through os.File agree on every tree: a bundle,
// and one with a link to a file, a link to a directory, a named pipe, or
// a tree too deep, each refused with the path of the offending entry.
func TestCheckTreeWalks(t *testing.T) {
	cases := map[string]struct {
		make func(t *testing.T, dir string)
		want string // a part of the message; "" for no error
	}{
		"bundle": {func(*testing.T, string) {}, ""},
		"link to a file": {func(t *testing.T, dir string) {
			if err := os.Symlink("/etc/passwd", filepath.Join(dir, "base-out", "sub", "x.txt.link")); err != nil {
				t.Fatal(err)
			}
		}, "sub/x.txt.link: refused"},
		"link to a directory": {func(t *testing.T, dir string) {
			if err := os.Symlink("/etc", filepath.Join(dir, "followup-out", "etc")); err != nil {
				t.Fatal(err)
			}
		}, "followup-out/etc: refused"},
		"named pipe": {func(t *testing.T, dir string) {
			if err := syscall.Mkfifo(filepath.Join(dir, "base", "fifo"), 0o644); err != nil {
				t.Skip(err)
			}
		}, "base/fifo: refused"},
		"too deep": {func(t *testing.T, dir string) {
			deep := filepath.Join(dir, "base-out", strings.Repeat("d/", maxDepth+1))
			if err := os.MkdirAll(deep, 0o755); err != nil {
				t.Fatal(err)
			}
		}, "levels: refused"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			out := t.TempDir()
			dir := filepath.Join(out, "findings", "c000001-r")
			if err := writeDir(dir, sample()); err != nil {
				t.Fatal(err)
			}
			c.make(t, dir)
			r, err := Open(out)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			for walk, err := range map[string]error{"CheckTree": r.CheckTree("findings/c000001-r"), "walkTree": r.walkTree("findings/c000001-r")} {
				switch {
				case c.want == "" && err != nil:
					t.Errorf("%s: %v", walk, err)
				case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
					t.Errorf("%s: %v, want an error with %q", walk, err, c.want)
				}
			}
		})
	}
}
