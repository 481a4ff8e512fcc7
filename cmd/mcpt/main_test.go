package main

import (
	"fmt"
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
