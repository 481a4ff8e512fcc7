package cgen_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/mcpt-tool/mcpt/cll/ast"
	"github.com/mcpt-tool/mcpt/cll/cgen"
	"github.com/mcpt-tool/mcpt/cll/check"
	"github.com/mcpt-tool/mcpt/cll/parser"
)

// update says to rewrite the golden files instead of comparing with them:
// UPDATE_GOLDEN=1, the module's one switch for golden files.
var update = os.Getenv("UPDATE_GOLDEN") == "1"

const examplesDir = "../../examples/cll"

// example is one shipped CLL program.
type example struct {
	name string // file name without .cll
	src  []byte
}

func examples(t testing.TB) []example {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(examplesDir, "*.cll"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 8 {
		t.Fatalf("want at least 8 examples in %s, found %d", examplesDir, len(paths))
	}
	var out []example
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, example{strings.TrimSuffix(filepath.Base(p), ".cll"), src})
	}
	return out
}

// generate parses, checks and renders src.
func generate(t testing.TB, name string, src []byte, faults ...string) map[string][]byte {
	t.Helper()
	prog, err := parser.Parse(name+".cll", src)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	info, err := check.Check(prog)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	files, err := cgen.Generate(prog, info, faults...)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return files
}

func sortedNames(files map[string][]byte) []string {
	var names []string
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func TestGolden(t *testing.T) {
	for _, ex := range examples(t) {
		t.Run(ex.name, func(t *testing.T) {
			files := generate(t, ex.name, ex.src)
			dir := filepath.Join("testdata", "golden", ex.name)
			if update {
				if err := os.RemoveAll(dir); err != nil {
					t.Fatal(err)
				}
				if err := os.MkdirAll(dir, 0o777); err != nil {
					t.Fatal(err)
				}
				for n, b := range files {
					if err := os.WriteFile(filepath.Join(dir, n), b, 0o666); err != nil {
						t.Fatal(err)
					}
				}
				return
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatalf("%v (run with UPDATE_GOLDEN=1)", err)
			}
			var golden []string
			for _, e := range entries {
				golden = append(golden, e.Name())
			}
			if got := sortedNames(files); !slices.Equal(got, golden) {
				t.Fatalf("files %v, golden has %v", got, golden)
			}
			for _, n := range golden {
				want, err := os.ReadFile(filepath.Join(dir, n))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(files[n], want) {
					t.Errorf("%s differs from %s:\n%s", n, filepath.Join(dir, n), lineDiff(string(want), string(files[n])))
				}
			}
		})
	}
}

// lineDiff shows the first differing line of two texts.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\n  want %q\n  got  %q", i+1, wl, gl)
		}
	}
	return "(same lines)"
}

func TestEightFiles(t *testing.T) {
	for _, ex := range examples(t) {
		files := generate(t, ex.name, ex.src)
		prefix := strings.TrimSuffix(sortedNamesWithSuffix(files, "_types.h"), "_types.h")
		want := cgen.FileNames(prefix)
		sort.Strings(want)
		if got := sortedNames(files); !slices.Equal(got, want) {
			t.Errorf("%s: files %v, want %v", ex.name, got, want)
		}
		for n, b := range files {
			if len(b) == 0 || b[len(b)-1] != '\n' {
				t.Errorf("%s: %s does not end with a newline", ex.name, n)
			}
			if bytes.Contains(b, []byte("\n\n\n")) && !strings.HasSuffix(n, "_io.h") && !strings.HasSuffix(n, "_attrs.h") {
				t.Errorf("%s: %s has two blank lines in a row", ex.name, n)
			}
			for i, l := range strings.Split(string(b), "\n") {
				if strings.TrimRight(l, " \t") != l {
					t.Errorf("%s: %s:%d: trailing white space", ex.name, n, i+1)
				}
			}
		}
	}
}

func sortedNamesWithSuffix(files map[string][]byte, suffix string) string {
	for _, n := range sortedNames(files) {
		if strings.HasSuffix(n, suffix) {
			return n
		}
	}
	return ""
}

func TestDeterministic(t *testing.T) {
	for _, ex := range examples(t) {
		var outs [4]map[string][]byte
		var wg sync.WaitGroup
		for i := range outs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				outs[i] = generate(t, ex.name, ex.src)
			}()
		}
		wg.Wait()
		for i := 1; i < len(outs); i++ {
			if len(outs[i]) != len(outs[0]) {
				t.Fatalf("%s: run %d gives %d files, run 0 gives %d", ex.name, i, len(outs[i]), len(outs[0]))
			}
			for n, b := range outs[0] {
				if !bytes.Equal(outs[i][n], b) {
					t.Errorf("%s: %s differs between runs", ex.name, n)
				}
			}
		}
	}
}

func TestUnknownFault(t *testing.T) {
	ex := examples(t)[0]
	prog, err := parser.Parse("x.cll", ex.src)
	if err != nil {
		t.Fatal(err)
	}
	info, err := check.Check(prog)
	if err != nil {
		t.Fatal(err)
	}
	files, err := cgen.Generate(prog, info, "no-such-fault")
	if err == nil || files != nil {
		t.Fatalf("Generate with an unknown fault: files %v, error %v", files != nil, err)
	}
	if !strings.Contains(err.Error(), `"no-such-fault"`) {
		t.Errorf("error %q does not name the fault", err)
	}
}

func TestFaultsListed(t *testing.T) {
	fs := cgen.Faults()
	if len(fs) < 6 {
		t.Fatalf("%d faults, want at least 6", len(fs))
	}
	if !slices.IsSortedFunc(fs, func(a, b cgen.Fault) int { return strings.Compare(a.Name, b.Name) }) {
		t.Error("faults not sorted by name")
	}
	seen := map[string]bool{}
	for _, f := range fs {
		if seen[f.Name] {
			t.Errorf("fault %s listed twice", f.Name)
		}
		seen[f.Name] = true
		if f.Doc == "" || strings.Contains(f.Doc, "\n") {
			t.Errorf("fault %s: doc %q is not one line", f.Name, f.Doc)
		}
	}
	if !seen[cgen.FaultReverseEnums] {
		t.Error("the paper's fault reverse-enums is missing")
	}
}

// gccArgs are the flags every output must compile with; -Wall has
// -Wtautological-compare already, named for who looks for it.
var gccArgs = []string{"-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-Werror=tautological-compare"}

func needGCC(t *testing.T) string {
	t.Helper()
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Fatal("gcc is needed to check the generated C: ", err)
	}
	return gcc
}

// writeFiles writes files into dir.
func writeFiles(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	for n, b := range files {
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

// compile compiles every .c file of files on its own with the strict flags.
func compile(t *testing.T, gcc string, files map[string][]byte) {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, files)
	args := append([]string{}, gccArgs...)
	args = append(args, "-c")
	for _, n := range sortedNames(files) {
		if strings.HasSuffix(n, ".c") {
			args = append(args, n)
		}
	}
	cmd := exec.Command(gcc, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("gcc %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// TestCompile compiles every example's output, by default and with each
// fault; an output that a fault leaves unchanged is compiled once.
func TestCompile(t *testing.T) {
	gcc := needGCC(t)
	configs := [][]string{nil}
	for _, f := range cgen.Faults() {
		configs = append(configs, []string{f.Name})
	}
	for _, ex := range examples(t) {
		seen := map[string]bool{}
		for _, faults := range configs {
			name := ex.name + "/default"
			if faults != nil {
				name = ex.name + "/" + faults[0]
			}
			files := generate(t, ex.name, ex.src, faults...)
			var key strings.Builder
			for _, n := range sortedNames(files) {
				key.WriteString(n + "\x00")
				key.Write(files[n])
				key.WriteString("\x00")
			}
			if seen[key.String()] {
				continue
			}
			seen[key.String()] = true
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				compile(t, gcc, files)
			})
		}
	}
}

// TestCompileExprZoo compiles testdata/exprs.cll, whose expressions would
// make gcc warn if rendered naively, by default and with each fault.
func TestCompileExprZoo(t *testing.T) {
	gcc := needGCC(t)
	src, err := os.ReadFile(filepath.Join("testdata", "exprs.cll"))
	if err != nil {
		t.Fatal(err)
	}
	compile(t, gcc, generate(t, "exprs", src))
	var all []string
	for _, f := range cgen.Faults() {
		all = append(all, f.Name)
	}
	compile(t, gcc, generate(t, "exprs", src, all...))
}

// TestGenerateRefusesUncheckedInput: a program with an info that is not the
// checker's is refused with an error, not a panic or a half output.
func TestGenerateRefusesUncheckedInput(t *testing.T) {
	if files, err := cgen.Generate(nil, nil); err == nil || files != nil {
		t.Errorf("Generate(nil, nil): files %v, error %v", files != nil, err)
	}
	src := readExample(t, "boiler")
	prog, err := parser.Parse("boiler.cll", src)
	if err != nil {
		t.Fatal(err)
	}
	info, err := check.Check(prog)
	if err != nil {
		t.Fatal(err)
	}
	for name, broken := range map[string]*check.Info{
		"no types":    {Entities: info.Entities, Types: map[ast.Expr]check.Type{}},
		"no entities": {Entities: map[string]*check.Entity{}, Types: info.Types},
	} {
		files, err := cgen.Generate(prog, broken)
		if err == nil || files != nil {
			t.Errorf("%s: files %v, error %v", name, files != nil, err)
		}
	}
}
