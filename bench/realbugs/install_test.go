package realbugs

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// fakeNPM puts on PATH an npm that logs its arguments to the returned file
// and, unless it is told to fail, makes DIR/node_modules/.bin for
// --prefix DIR.
func fakeNPM(t *testing.T, fail bool) (log string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake npm is a shell script")
	}
	dir := t.TempDir()
	log = filepath.Join(dir, "npm.log")
	status := "0"
	if fail {
		status = "1"
	}
	script := `#!/bin/sh
echo "$@" >> '` + log + `'
prefix=
while [ $# -gt 0 ]; do
  if [ "$1" = --prefix ]; then prefix=$2; fi
  shift
done
if [ ` + status + ` != 0 ]; then echo 'E404 not found' >&2; exit 1; fi
mkdir -p "$prefix/node_modules/.bin"
`
	if err := os.WriteFile(filepath.Join(dir, "npm"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return log
}

func npmCalls(t *testing.T, log string) []string {
	t.Helper()
	data, err := os.ReadFile(log)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

// TestInstallTogether: a bug's npm packages are installed by one npm
// command into one directory (a CLI and the core it drives, a preset and
// Babel), the first at the release asked for; the cache then answers
// without npm.
func TestInstallTogether(t *testing.T) {
	log := fakeNPM(t, false)
	c := &Cache{Dir: t.TempDir()}
	b := &Bug{ID: "swc-1", Packages: []string{"npm:@swc/core", "npm:@swc/cli@0.1.55"}}
	bins, err := c.InstallRelease(context.Background(), b, "1.2.3")
	if err != nil {
		t.Fatal(err)
	}
	if len(bins) != 1 {
		t.Fatalf("%d program directories, want one for both packages: %q", len(bins), bins)
	}
	if want := filepath.Join(c.Dir, "npm", "swc~core@1.2.3+swc~cli@0.1.55", "node_modules", ".bin"); bins[0] != want {
		t.Errorf("installed in %s, want %s", bins[0], want)
	}
	calls := npmCalls(t, log)
	if len(calls) != 1 || !strings.HasSuffix(calls[0], " @swc/core@1.2.3 @swc/cli@0.1.55") {
		t.Errorf("npm ran as %q, want one install of @swc/core@1.2.3 @swc/cli@0.1.55", calls)
	}
	again, err := c.InstallRelease(context.Background(), b, "1.2.3")
	if err != nil || len(again) != 1 || again[0] != bins[0] {
		t.Errorf("the second installation gave %q, %v; want the cached %s", again, err, bins[0])
	}
	if calls := npmCalls(t, log); len(calls) != 1 {
		t.Errorf("npm ran again for a cached release: %q", calls)
	}
	other, err := c.InstallRelease(context.Background(), b, "1.2.4")
	if err != nil || len(other) != 1 || other[0] == bins[0] {
		t.Errorf("another release gave %q, %v; want a directory of its own", other, err)
	}
}

// TestInstallFailure: a failed installation says what it installed and
// what npm said, and leaves nothing in the cache.
func TestInstallFailure(t *testing.T) {
	fakeNPM(t, true)
	c := &Cache{Dir: t.TempDir()}
	b := &Bug{ID: "babel-1", Packages: []string{"npm:@babel/plugin-transform-typescript", "npm:@babel/core@7.22.9"}}
	_, err := c.InstallRelease(context.Background(), b, "7.22.5")
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"@babel/plugin-transform-typescript@7.22.5 @babel/core@7.22.9", "E404"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q: %v", want, err)
		}
	}
	ents, err := os.ReadDir(filepath.Join(c.Dir, "npm"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 0 {
		t.Errorf("a failed installation left %s in the cache", ents[0].Name())
	}
}

// TestNodePath: the command sees the installed packages' node_modules on
// NODE_PATH, and not the user's own NODE_PATH.
func TestNodePath(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("runs sh")
	}
	t.Setenv("NODE_PATH", "/elsewhere")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "input.ts"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	npmBin := filepath.Join(dir, "cache", "npm", "a@1", "node_modules", ".bin")
	goBin := filepath.Join(dir, "cache", "go", "b@v1", "bin")
	b := &Bug{ID: "x-1", Dir: dir, Input: []string{"input.ts"},
		Run: []string{"sh", "-c", `printf %s "$NODE_PATH" > {outdir}/node_path`}}
	tree, err := b.Outputs(context.Background(), []string{npmBin, goBin})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(tree["node_path"]), filepath.Dir(npmBin); got != want {
		t.Errorf("NODE_PATH is %q, want %q", got, want)
	}
}
