package realbugs

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestRun: the benchmark runs a pack against the buggy and the fixed
// release of a transpiler installed by version, and tells the bug found
// only from a finding whose test case passes on the fixed release. The
// transpiler is cllc, "released" by a fake npm: 1.0.0 with the demo fault
// reverse-enums, 1.0.1 without; 2.0.0 and 2.0.1 both have it (a finding
// both releases share is no find, and the fixed release's findings are
// counted).
func TestRun(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake npm is a shell script")
	}
	bin := t.TempDir()
	cllc := filepath.Join(bin, "cllc")
	build := exec.Command("go", "build", "-o", cllc, "github.com/mcpt-tool/mcpt/cmd/cllc")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building cllc: %v\n%s", err, out)
	}
	npm := filepath.Join(bin, "npm")
	script := `#!/bin/sh
prefix= pkg=
while [ $# -gt 0 ]; do
  case $1 in
  --prefix) prefix=$2; shift ;;
  --*) ;;
  *) pkg=$1 ;;
  esac
  shift
done
mkdir -p "$prefix/node_modules/.bin"
case $pkg in
*@1.0.1) fault= ;;
*) fault='--fault reverse-enums' ;;
esac
printf '#!/bin/sh\nexec %s %s "$@"\n' '` + cllc + `' "$fault" > "$prefix/node_modules/.bin/cllc"
chmod +x "$prefix/node_modules/.bin/cllc"
`
	if err := os.WriteFile(npm, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))

	examples, err := filepath.Abs(filepath.Join("..", "..", "examples", "cll"))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The pack runs cllc from the working directory's node_modules, as the
	// TypeScript pack runs tsc: the benchmark points it at each release.
	write("pack/mcpt.yaml", `transpiler:
  command: [node_modules/.bin/cllc, '{input}', -o, '{outdir}']
  reject: [1]
seeds:
  files: ['`+examples+`/traffic.cll', '`+examples+`/elevator.cll']
relations:
  files: ['`+examples+`/relations/augment-enumeration.yaml']
`)
	for _, b := range []struct{ id, buggy, fixed string }{{"cllc-1", "1.0.0", "1.0.1"}, {"cllc-2", "2.0.0", "2.0.1"}} {
		write("bench/realbugs/bugs/"+b.id+"/input.cll", "logic L\n")
		write("bench/realbugs/bugs/"+b.id+"/bug.yaml", `tracker: example/cllc#1
title: enumerators in reverse order
transpiler: cllc
packages: [npm:cllc]
buggy: `+b.buggy+`
fixed: `+b.fixed+`
run: [cllc, '{input}', -o, '{outdir}']
input: [input.cll]
symptom: the enumerators come out reversed
pack: pack/mcpt.yaml
reach: augment-enumeration
`)
	}
	// The fault of 2.0.1 is a known bug there, for the order check only,
	// told by its message and its diff: every finding of its group keeps
	// the diff, beyond the findings a campaign gives a bundle.
	write("bench/realbugs/known.yaml", `- transpiler: cllc
  what: enumerators in reverse order
  releases: '>=2.0.1 <2.0.2'
  relations: [augment-enumeration]
  message: 'differs from the predicted difference'
  diff: '(?m)^[-+] '
`)
	var log bytes.Buffer
	rows, err := Run(context.Background(), Options{
		Root: root, MaxCases: 40, Cache: &Cache{Dir: t.TempDir()}, Log: &log,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2:\n%s", len(rows), log.String())
	}
	r := rows[0]
	if r.Error != "" || !r.Found || r.Relation != "augment-enumeration" || r.CasesToFirst < 1 || r.CasesToFirst > 40 {
		t.Errorf("cllc-1: %+v, want found by augment-enumeration\n%s", r, log.String())
	}
	if r.FixedCases != 40 || r.FixedFindings != 0 {
		t.Errorf("cllc-1: the fixed release gave %d of %d test cases with findings, want 0 of 40", r.FixedFindings, r.FixedCases)
	}
	r = rows[1]
	if r.Error != "" || r.Found || r.BuggyShared == 0 || r.BuggyCases != 40 {
		t.Errorf("cllc-2: %+v, want not found, with findings shared by both releases, in 40 test cases", r)
	}
	if r.FixedFindings == 0 || r.FixedKnown != r.FixedFindings || len(r.FixedKnownBugs) != 1 {
		t.Errorf("cllc-2: the fixed release (with the fault) gave %d test cases with findings, %d of a known bug (%v): want all of the one known bug", r.FixedFindings, r.FixedKnown, r.FixedKnownBugs)
	}
	var table bytes.Buffer
	if err := WriteTable(&table, rows); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"cllc-1", "yes, after", "no (40 test cases)", "found 1 of 2 bugs (50 %); 2 of 2 fixed releases run without a false alarm", "enumerators in reverse order (cllc, no report)"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, table.String())
		}
	}

	// A checkout without bench/realbugs/bugs is an error.
	rows, err = Run(context.Background(), Options{Root: t.TempDir(), Cache: &Cache{Dir: t.TempDir()}})
	if err == nil {
		t.Errorf("a root without bugs: no error, rows %+v", rows)
	}
}

// TestLoadNamesTypeScript: a pack run on a TypeScript release the
// benchmark installed gets that release's package in MCPT_TYPESCRIPT, so
// that the TypeScript pack's tsc-worker.js, which node would otherwise
// resolve to the release installed beside it, loads the release under
// test: the configuration reads the installed release with the worker's
// --version. An installation without TypeScript names none.
func TestLoadNamesTypeScript(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node")
	}
	worker, err := os.ReadFile(filepath.Join("..", "..", "examples", "typescript", "tsc-worker.js"))
	if err != nil {
		t.Fatal(err)
	}
	examples, err := filepath.Abs(filepath.Join("..", "..", "examples", "cll"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(p, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pack := t.TempDir()
	write(filepath.Join(pack, "tsc-worker.js"), string(worker))
	// the pack's own release, which node finds first from the worker
	write(filepath.Join(pack, "node_modules", "typescript", "package.json"), `{"name": "typescript", "version": "5.9.3"}`)
	write(filepath.Join(pack, "node_modules", "typescript", "index.js"), `exports.version = "5.9.3";`)
	write(filepath.Join(pack, "mcpt.yaml"), `transpiler:
  worker: [node, tsc-worker.js]
  version: [node, tsc-worker.js, --version]
  arguments: [--outDir, '{outdir}', '{input}']
  reject: [1, 2]
seeds:
  files: ['`+examples+`/traffic.cll']
relations:
  files: ['`+examples+`/relations/augment-enumeration.yaml']
`)
	installed := t.TempDir()
	write(filepath.Join(installed, "node_modules", "typescript", "package.json"), `{"name": "typescript", "version": "3.5.3"}`)
	write(filepath.Join(installed, "node_modules", "typescript", "index.js"), `exports.version = "3.5.3";`)
	bin := filepath.Join(installed, "node_modules", ".bin")
	write(filepath.Join(bin, "tsc"), "#!/bin/sh\n")
	other := t.TempDir() // an installation of something else
	write(filepath.Join(other, "node_modules", ".bin", "cllc"), "#!/bin/sh\n")

	r := &runner{}
	for _, c := range []struct {
		bins []string
		want string
	}{
		{[]string{filepath.Join(other, "node_modules", ".bin"), bin}, "3.5.3"},
		{[]string{filepath.Join(other, "node_modules", ".bin")}, "5.9.3"},
	} {
		s, err := r.load(filepath.Join(pack, "mcpt.yaml"), c.bins, nil)
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		if s.Release != c.want {
			t.Errorf("installed %v: the worker loaded TypeScript %q, want %s", c.bins, s.Release, c.want)
		}
		v, ok := envValue(s.Config.Transpiler.Spec.Env, TypeScriptVar)
		if want := filepath.Join(installed, "node_modules", "typescript"); c.want == "3.5.3" && v != want || c.want != "3.5.3" && ok {
			t.Errorf("installed %v: %s=%q (set: %v)", c.bins, TypeScriptVar, v, ok)
		}
	}
}
