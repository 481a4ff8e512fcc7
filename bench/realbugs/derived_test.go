package realbugs

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/relation/semrel"
)

// TestRunDerived: with Derived, a bug runs its derived configuration in
// place of its pack, and a bug whose pack has none is a row that says
// so, counted in the table but not run. The fake transpiler is that of
// TestRunWithoutSemantic (1.0.0 writes every `= 1;` as `= 2;`); the
// pack's relation checks locality alone, which the bug keeps, and the
// derived configuration's adds js-shape, which sees it.
func TestRunDerived(t *testing.T) {
	root, write := fakeJSGen(t)
	config := func(rel string) string {
		return `transpiler:
  command: [node_modules/.bin/jsgen, '{input}', '{outdir}']
  reject: [1]
seeds:
  files: [m.ts]
relations:
  files: [` + rel + `]
`
	}
	relation := func(checks string) string {
		return `regions:
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
` + checks
	}
	write("pack/mcpt.yaml", config("rel.yaml"))
	write("pack/derived.yaml", config("derived.rel.yaml"))
	write("pack/m.ts", "export const a = 1;\nexport const b = 3;\n")
	write("pack/rel.yaml", relation(""))
	write("pack/derived.rel.yaml", relation(`      - js-shape:
          file: m.js
          module: esm
          added:
            - {name: '{{.n}}', in: export, value: '1'}
`))
	bug := func(id, derived string) {
		write("bench/realbugs/bugs/"+id+"/input.ts", "export const a = 1;\n")
		write("bench/realbugs/bugs/"+id+"/bug.yaml", `tracker: example/jsgen#1
title: a constant of 1 is 2
transpiler: jsgen
packages: [npm:jsgen]
buggy: 1.0.0
fixed: 1.0.1
run: [jsgen, '{input}', '{outdir}']
input: [input.ts]
symptom: the constant is 2
pack: pack/mcpt.yaml
`+derived+`reach: add-const
`)
	}
	bug("jsgen-1", "derived: pack/derived.yaml\n")
	bug("jsgen-2", "")

	tools := &setup.Tools{CheckerKinds: semrel.Kinds}
	cache := &Cache{Dir: t.TempDir()}
	run := func(derived bool) ([]Result, string) {
		t.Helper()
		var log bytes.Buffer
		rows, err := Run(context.Background(), Options{
			Root: root, MaxCases: 4, Cache: cache, Tools: tools, Log: &log,
			Derived: derived, BuggyOnly: true,
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 2 {
			t.Fatalf("rows %+v, want two\n%s", rows, log.String())
		}
		var table bytes.Buffer
		if err := WriteTable(&table, rows); err != nil {
			t.Fatal(err)
		}
		return rows, table.String()
	}

	rows, table := run(false)
	for _, r := range rows {
		if r.Error != "" || r.Found || r.Derived || r.Pack != "pack/mcpt.yaml" {
			t.Errorf("the pack: %+v, want run and not found (locality alone)", r)
		}
	}
	if !strings.Contains(table, "found 0 of 2 bugs (0 %); the fixed releases' campaigns not run") {
		t.Errorf("the table of the packs:\n%s", table)
	}

	rows, table = run(true)
	if r := rows[0]; !r.Found || r.Checker != "js-shape" || !r.Derived || r.Pack != "pack/derived.yaml" {
		t.Errorf("the derived configuration: %+v, want found by js-shape in pack/derived.yaml", r)
	}
	if r := rows[1]; !r.NoDerived || r.Found || r.BuggyCases != 0 || !strings.Contains(r.Error, "the pack pack/mcpt.yaml has no derived configuration") {
		t.Errorf("a bug without a derived configuration: %+v, want not run, saying so", r)
	}
	for _, want := range []string{"no derived configuration", "found 1 of 2 bugs (50 %) with the derived configurations (1 of them without one)"} {
		if !strings.Contains(table, want) {
			t.Errorf("the table with the derived configurations lacks %q:\n%s", want, table)
		}
	}
}
