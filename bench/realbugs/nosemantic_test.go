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

	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/relation/semrel"
)

// TestRunWithoutSemantic: a bug that only js-shape sees is found with
// the semantic checks and not found without them, whose checks are left
// out of the loaded relations (and counted); with BuggyOnly the fixed
// release's campaign is not run and the table says so. The transpiler is
// a shell script "released" by a fake npm: it copies a module, and 1.0.0
// turns every `= 1;` into `= 2;`, base and follow-up alike, so that the
// new constant's line is the only one that changes (locality holds) but
// its value in node is not the 1 it was written with.
func TestRunWithoutSemantic(t *testing.T) {
	root, write := fakeJSGen(t)
	write("pack/mcpt.yaml", `transpiler:
  command: [node_modules/.bin/jsgen, '{input}', '{outdir}']
  reject: [1]
seeds:
  files: [m.ts]
relations:
  files: [rel.yaml]
`)
	write("pack/m.ts", "export const a = 1;\nexport const b = 3;\n")
	write("pack/rel.yaml", `regions:
  file: {whole: true}
kinds:
  const: {region: file, match: '^export const (?P<name>\w+)'}
relations:
  - name: add-const
    doc: Add a constant.
    spots: {boundaries: file}
    fresh: [n]
    text: 'export const {{.n}} = 1;'
    checks:
      - locality: {}
      - js-shape:
          file: m.js
          module: esm
          added:
            - {name: '{{.n}}', in: export, value: '1'}
`)
	write("bench/realbugs/bugs/jsgen-1/input.ts", "export const a = 1;\n")
	write("bench/realbugs/bugs/jsgen-1/bug.yaml", `tracker: example/jsgen#1
title: a constant of 1 is 2
transpiler: jsgen
packages: [npm:jsgen]
buggy: 1.0.0
fixed: 1.0.1
run: [jsgen, '{input}', '{outdir}']
input: [input.ts]
symptom: the constant is 2
pack: pack/mcpt.yaml
reach: add-const
`)
	tools := &setup.Tools{CheckerKinds: semrel.Kinds}
	cache := &Cache{Dir: t.TempDir()}
	run := func(without bool) (Result, string) {
		t.Helper()
		var log bytes.Buffer
		rows, err := Run(context.Background(), Options{
			Root: root, MaxCases: 6, Cache: cache, Tools: tools, Log: &log,
			WithoutSemantic: without, BuggyOnly: without,
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 1 || rows[0].Error != "" {
			t.Fatalf("rows %+v, want one run\n%s", rows, log.String())
		}
		var table bytes.Buffer
		if err := WriteTable(&table, rows); err != nil {
			t.Fatal(err)
		}
		return rows[0], table.String()
	}

	r, table := run(false)
	if !r.Found || r.Checker != "js-shape" || r.WithoutSemantic || r.SemanticLeftOut != 0 {
		t.Errorf("with the semantic checks: %+v, want found by js-shape", r)
	}
	if !strings.Contains(r.Message, " = 2, predicted 1") {
		t.Errorf("the finding's message %q does not give the value 2 node read", r.Message)
	}
	if r.FixedNotRun || r.FixedCases != 6 || r.FixedFindings != 0 {
		t.Errorf("with the semantic checks, the fixed release: %+v, want 6 test cases without findings", r)
	}
	if !strings.Contains(table, "found 1 of 1 bugs (100 %); 1 of 1 fixed releases run without a false alarm") {
		t.Errorf("the table with the semantic checks:\n%s", table)
	}

	r, table = run(true)
	if r.Found || r.BuggyCases != 6 || r.BuggyShared != 0 {
		t.Errorf("without the semantic checks: %+v, want not found in 6 test cases", r)
	}
	// One js-shape check in the relations, compiled and left out.
	if !r.WithoutSemantic || r.SemanticLeftOut != 1 {
		t.Errorf("without the semantic checks: %d left out (marked %v), want 1", r.SemanticLeftOut, r.WithoutSemantic)
	}
	if !r.FixedNotRun || r.FixedCases != 0 {
		t.Errorf("buggy only: the fixed release's campaign ran (%d test cases)", r.FixedCases)
	}
	for _, want := range []string{"no (6 test cases)", "not run", "found 0 of 1 bugs (0 %) without the semantic checks; the fixed releases' campaigns not run"} {
		if !strings.Contains(table, want) {
			t.Errorf("the table without the semantic checks lacks %q:\n%s", want, table)
		}
	}
}

// fakeJSGen puts on the PATH a fake npm whose package jsgen "releases" a
// generator that copies a module to m.js, 1.0.0 turning every `= 1;` into
// `= 2;`, base and follow-up alike (a bug the new constant's line alone
// shows, and only js-shape sees). It returns a temporary root and a
// function that writes a file under it. It skips the test where a shell
// script or node cannot run.
func fakeJSGen(t *testing.T) (string, func(name, content string)) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake npm is a shell script")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("js-shape runs node")
	}
	bin := t.TempDir()
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
*@1.0.0) edit='s/= 1;/= 2;/' ;;
*) edit= ;;
esac
printf '#!/bin/sh\nsed -e "%s" "$1" > "$2/m.js"\n' "$edit" > "$prefix/node_modules/.bin/jsgen"
chmod +x "$prefix/node_modules/.bin/jsgen"
`
	if err := os.WriteFile(filepath.Join(bin, "npm"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))

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
	return root, write
}
