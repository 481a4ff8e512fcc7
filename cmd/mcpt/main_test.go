package main

import (
	"archive/tar"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/mcpt-tool/mcpt/internal/testtier"
)

func TestMain(m *testing.M) {
	testscript.Main(cleanupM{m}, map[string]func(){
		"mcpt":            main,
		"http-transpiler": httpTranspilerMain,
	})
}

// cleanupM removes the tools built for the tests once they have run.
type cleanupM struct{ *testing.M }

func (c cleanupM) Run() int {
	code := c.M.Run()
	if toolsDir != "" {
		os.RemoveAll(toolsDir)
	}
	return code
}

func TestScripts(t *testing.T) {
	examples, err := filepath.Abs(filepath.Join("..", "..", "examples", "cll"))
	if err != nil {
		t.Fatal(err)
	}
	// Some scripts drive cllc as an external command: build it once.
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "cllc"), "github.com/mcpt-tool/mcpt/cmd/cllc")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building cllc: %v\n%s", err, out)
	}
	// The scripts that instrument and build a Go module need the build
	// and module caches.
	goenv := map[string]string{}
	for _, v := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOFLAGS", "GOPROXY", "GOTOOLCHAIN"} {
		if val := goEnv(v); val != "" {
			goenv[v] = val
		}
	}
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") == "1",
		RequireExplicitExec: true,
		// [long]: MCPT_TEST_LONG=1 asks for the long scripts (internal/testtier).
		// [typescript]: this mcpt links the TypeScript grammar (-tags typescript).
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "long":
				return testtier.On(testtier.LongVar), nil
			case "typescript":
				return len(linked()) > 0, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){"unpack": unpackCmd},
		Setup: func(env *testscript.Env) error {
			env.Setenv("EXAMPLES", examples)
			env.Setenv("MODULE", filepath.Dir(filepath.Dir(examples)))
			for k, v := range goenv {
				env.Setenv(k, v)
			}
			env.Setenv("CLLC", filepath.Join(bin, "cllc"))
			env.Setenv("PATH", bin+string(os.PathListSeparator)+env.Getenv("PATH"))
			return nil
		},
	})
}

// goEnv returns the value go env gives for name.
func goEnv(name string) string {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// unpackCmd is the script command "unpack ARCHIVE DIR": it writes the
// files and directories of the bundle archive ARCHIVE below the new
// directory DIR, as tar xzf would, so that a script reads a bundle's files
// as it read those of a bundle directory. Any other entry, or a name that
// leaves DIR, fails the script: mcpt writes none.
func unpackCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: unpack ARCHIVE DIR")
	}
	f, err := os.Open(ts.MkAbs(args[0]))
	ts.Check(err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	ts.Check(err)
	dir := ts.MkAbs(args[1])
	ts.Check(os.Mkdir(dir, 0o755))
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return
		}
		ts.Check(err)
		name := filepath.FromSlash(strings.TrimSuffix(h.Name, "/"))
		if !filepath.IsLocal(name) {
			ts.Fatalf("%s: entry %q leaves the archive", args[0], h.Name)
		}
		p := filepath.Join(dir, name)
		switch h.Typeflag {
		case tar.TypeDir:
			ts.Check(os.MkdirAll(p, 0o755))
		case tar.TypeReg:
			ts.Check(os.MkdirAll(filepath.Dir(p), 0o755))
			data, err := io.ReadAll(tr)
			ts.Check(err)
			ts.Check(os.WriteFile(p, data, 0o644))
		default:
			ts.Fatalf("%s: entry %q is not a file or a directory", args[0], h.Name)
		}
	}
}
