package semrel

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpt-tool/mcpt/oracle/jsshape"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/yamlrel"
)

// moduleRel adds a constant and checks it with js-shape, the module kind
// taken from the test case's flags, helpers ignored.
const moduleRel = `regions:
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
      - js-shape:
          file: m.js
          module: '{{if eq .flags.format "cjs"}}commonjs{{else}}esm{{end}}'
          ignore: '^__init[0-9]*$'
          added:
            - {name: '{{.n}}', in: export, value: '1'}
`

func loadRel(t *testing.T, body string) (*relation.Relation, error) {
	t.Helper()
	rels, err := yamlrel.LoadWith(yamlrel.Options{CheckerKinds: Kinds}, fstest.MapFS{"rel.yaml": {Data: []byte(body)}}, "rel.yaml")
	if err != nil {
		return nil, err
	}
	return rels[0], nil
}

// TestJSShapeModuleTemplate: module may be a template, rendered for each
// follow-up (the combination of flags says how the output loads); a
// value that renders no module kind is the mutation's error, a literal
// one is refused at load, as is an ignore pattern that does not compile.
func TestJSShapeModuleTemplate(t *testing.T) {
	r, err := loadRel(t, moduleRel)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, c := range []struct{ format, want string }{{"cjs", "commonjs"}, {"esm", "esm"}, {"", "esm"}} {
		in := relation.Input{Name: "m.ts", Src: []byte("export const a = 0;\n"), Flags: map[string]string{"format": c.format}}
		spots, err := r.Spots(ctx, in)
		if err != nil || len(spots) == 0 {
			t.Fatalf("spots %v, %v", spots, err)
		}
		fu, err := r.Mutate(ctx, in, spots[0], rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		chk, ok := fu.Checks[0].(*jsshape.Check)
		if !ok {
			t.Fatalf("the check is a %T", fu.Checks[0])
		}
		if chk.Module != c.want || chk.Ignore == nil || chk.Ignore.String() != "^__init[0-9]*$" {
			t.Errorf("format=%s: module %q, ignore %v; want %q", c.format, chk.Module, chk.Ignore, c.want)
		}
	}
	bad := strings.Replace(moduleRel, `module: '{{if eq .flags.format "cjs"}}commonjs{{else}}esm{{end}}'`, `module: '{{.flags.format}}'`, 1)
	if r, err = loadRel(t, bad); err != nil {
		t.Fatal(err)
	}
	in := relation.Input{Name: "m.ts", Src: []byte("export const a = 0;\n"), Flags: map[string]string{"format": "umd"}}
	spots, _ := r.Spots(ctx, in)
	if _, err := r.Mutate(ctx, in, spots[0], rand.New(rand.NewPCG(1, 2))); err == nil || !strings.Contains(err.Error(), `module "umd": want esm, commonjs or auto`) {
		t.Errorf("a module rendered umd: %v", err)
	}
	for _, c := range []struct{ from, to, want string }{
		{`module: '{{if eq .flags.format "cjs"}}commonjs{{else}}esm{{end}}'`, `module: umd`, `rel.yaml:14:19: js-shape: module "umd": want esm, commonjs or auto`},
		{`ignore: '^__init[0-9]*$'`, `ignore: '^__init[0-9'`, `rel.yaml:15:19: js-shape: ignore: error parsing regexp`},
	} {
		if _, err := loadRel(t, strings.Replace(moduleRel, c.from, c.to, 1)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v\nwant %s", c.to, err, c.want)
		}
	}
}
