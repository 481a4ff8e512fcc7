package semrel

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpt-tool/mcpt/oracle/dtsprobe"
	"github.com/mcpt-tool/mcpt/oracle/goprobe"
	"github.com/mcpt-tool/mcpt/oracle/jsshape"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/yamlrel"
)

// head are definitions for the relations of the tests: a line region of
// classes, each line `class NAME`.
const head = `fresh_pattern: 'zq[a-z]{4}'
regions:
  body: {from: '^begin$', to: '^end$'}
kinds:
  class: {region: body, match: '^class (?P<name>\w+)$'}
relations:
  - name: add
    doc: adds a class
    spots: {boundaries: body}
    fresh: [n]
    text: 'class {{.n}}'
    checks:
`

func load(checks string) ([]*relation.Relation, error) {
	fsys := fstest.MapFS{"rel.yaml": {Data: []byte(head + checks)}}
	return yamlrel.LoadWith(yamlrel.Options{CheckerKinds: Kinds}, fsys, "rel.yaml")
}

// TestSpecErrors: every mistake of a spec is an error at its position.
func TestSpecErrors(t *testing.T) {
	for _, c := range []struct{ checks, want string }{
		{"      - js-shape: {}\n", "rel.yaml:13:9: js-shape: file is required"},
		{"      - js-shape: {file: a.js, module: amd}\n", "rel.yaml:13:40: js-shape: module \"amd\": want esm, commonjs or auto"},
		{"      - js-shape: {file: a.js, timeout: soon}\n", "rel.yaml:13:41: js-shape: timeout \"soon\""},
		{"      - js-shape: {file: a.js, added: [{name: x, in: inside}]}\n", `rel.yaml:13:54: js-shape: unknown place "inside"`},
		{"      - js-shape: {file: a.js, added: [{name: x, in: static}]}\n", "rel.yaml:13:54: js-shape: a member in static needs of"},
		{"      - js-shape: {file: a.js, added: [{name: x, in: export, kind: fn}]}\n", `rel.yaml:13:68: js-shape: unknown member kind "fn"`},
		{"      - js-shape: {file: a.js, added: [{in: export}]}\n", "js-shape: every added member needs a name"},
		{"      - js-shape: {file: a.js, added: [{name: '{{.nn}}', in: export}]}\n", `no binding nn`},
		{"      - js-shape: {file: a.js, adds: []}\n", `rel.yaml:13:32: unknown field "adds", did you mean "added"?`},
		{"      - dts-probe: {file: a.d.ts}\n", "rel.yaml:13:9: dts-probe: file (the declaration file) and member"},
		{"      - dts-probe: {file: a.d.ts, member: x, typescript: nowhere}\n", "rel.yaml:13:58: dts-probe: nowhere is no TypeScript package"},
		{"      - go-probe: {file: a.pb.go, element: field}\n", "rel.yaml:13:9: go-probe: file (the .pb.go file) and name"},
		{"      - go-probe: {file: a.pb.go, element: column, name: x}\n", `rel.yaml:13:44: go-probe: unknown element "column"`},
	} {
		_, err := load(c.checks)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", strings.TrimSpace(c.checks), err, c.want)
		}
	}
}

// mutate makes the follow-up of the first spot of a relation with the
// checks, on a seed of two classes.
func mutate(t *testing.T, checks string) *relation.FollowUp {
	t.Helper()
	rels, err := load(checks)
	if err != nil {
		t.Fatal(err)
	}
	in := relation.Input{Name: "m.src", Src: []byte("begin\nclass A\nclass B\nend\n")}
	spots, err := rels[0].Spots(context.Background(), in)
	if err != nil || len(spots) == 0 {
		t.Fatalf("spots %v, %v", spots, err)
	}
	fu, err := rels[0].Mutate(context.Background(), in, spots[1], rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	return fu
}

// TestCheckers: the checkers a follow-up gets, with their templates
// rendered.
func TestCheckers(t *testing.T) {
	ts := t.TempDir()
	if err := os.WriteFile(filepath.Join(ts, "package.json"), []byte("{}"), 0o666); err != nil {
		t.Fatal(err)
	}
	fu := mutate(t, `      - js-shape:
          file: '{{.input.stem}}.js'
          module: commonjs
          timeout: 2s
          added:
            - {name: '{{.n}}', in: '{{if .prev.class}}static{{else}}export{{end}}', of: '{{.prev.class}}', kind: field, value: '0x10', writable: 'false', absent: ''}
            - {name: '', in: export}
      - dts-probe: {file: '{{.input.stem}}.d.ts', member: '{{.n}}', of: '{{.prev.class}}', options: [--strict], typescript: '`+ts+`'}
      - go-probe: {file: '{{.input.stem}}.pb.go', element: enum-value, name: '{{upper .n}}', number: '3', deprecated: 'yes'}
`)
	n := fu.Bindings["n"]
	if len(fu.Checks) != 3 {
		t.Fatalf("%d checks", len(fu.Checks))
	}
	js := fu.Checks[0].(*jsshape.Check)
	if js.File != "m.js" || js.Module != "commonjs" || js.Timeout.String() != "2s" || len(js.Added) != 1 || len(js.Values) != 1 {
		t.Fatalf("js-shape: %+v", js)
	}
	m := js.Added[0]
	if m.Name != n || m.In != jsshape.InStatic || m.Of != "A" || m.Kind != "field" || m.Writable == nil || *m.Writable || m.Absent || js.Values[0] != "0x10" {
		t.Errorf("js-shape member: %+v", m)
	}
	dts := fu.Checks[1].(*dtsprobe.Check)
	if dts.File != "m.d.ts" || dts.Member != n || dts.Of != "A" || len(dts.Options) != 1 || !strings.Contains(string(dts.Source), "class "+n) {
		t.Errorf("dts-probe: %+v", dts)
	}
	if dts.TypeScript != ts {
		t.Errorf("dts-probe: TypeScript %s", dts.TypeScript)
	}
	gp := fu.Checks[2].(*goprobe.Check)
	if gp.File != "m.pb.go" || gp.Element != goprobe.EnumValue || gp.Elem != strings.ToUpper(n) || gp.Number != "3" || gp.Deprecated != "true" || gp.JSON != "" {
		t.Errorf("go-probe: %+v", gp)
	}
}

// TestTemplatedPlace: a place written as a template that renders no place
// is an error of the mutation.
func TestTemplatedPlace(t *testing.T) {
	rels, err := load("      - js-shape: {file: a.js, added: [{name: x, in: '{{.n}}'}]}\n")
	if err != nil {
		t.Fatal(err)
	}
	in := relation.Input{Name: "m.src", Src: []byte("begin\nclass A\nend\n")}
	spots, _ := rels[0].Spots(context.Background(), in)
	if _, err := rels[0].Mutate(context.Background(), in, spots[0], rand.New(rand.NewPCG(1, 2))); err == nil || !strings.Contains(err.Error(), "unknown place") {
		t.Errorf("error %v", err)
	}
}

// TestKindsDoc: docs/relations.md lists the kinds of this package in the
// table Kinds makes; UPDATE_GOLDEN=1 writes it.
func TestKindsDoc(t *testing.T) {
	const begin, end = "<!-- semantic checker kinds: begin -->\n", "<!-- semantic checker kinds: end -->\n"
	var b strings.Builder
	b.WriteString("| kind | checks | spec |\n|---|---|---|\n")
	for _, k := range Kinds {
		what, keys, ok := strings.Cut(k.Doc, "\n")
		if k.Name == "" || k.New == nil || !ok {
			t.Errorf("kind %q: a name, New and a doc of two parts are needed", k.Name)
		}
		b.WriteString("| `" + k.Name + "` | " + what + " | " + strings.ReplaceAll(keys, "|", "\\|") + " |\n")
	}
	path := filepath.Join("..", "..", "docs", "relations.md")
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i, j := strings.Index(string(doc), begin), strings.Index(string(doc), end)
	if i < 0 || j < i {
		t.Fatalf("%s has no section %q … %q", path, begin, end)
	}
	old := string(doc[i+len(begin) : j])
	if old == b.String() {
		return
	}
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(path, []byte(string(doc[:i+len(begin)])+b.String()+string(doc[j:])), 0o666); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the table of semantic checker kinds in %s is not Kinds' (UPDATE_GOLDEN=1 writes it):\n%s", path, b.String())
}

// TestOldNames: js-shape's old neighbour keys, after and before, load as
// prev and next with a warning at each, and node of js-shape and
// dts-probe as nodejs; the new ones load without.
func TestOldNames(t *testing.T) {
	loadWarn := func(checks string) []string {
		var warns []string
		fsys := fstest.MapFS{"rel.yaml": {Data: []byte(head + checks)}}
		if _, err := yamlrel.LoadWith(yamlrel.Options{CheckerKinds: Kinds, Warn: func(w string) { warns = append(warns, w) }}, fsys, "rel.yaml"); err != nil {
			t.Fatal(err)
		}
		return warns
	}
	old := loadWarn("      - js-shape: {file: a.js, added: [{name: x, in: export, after: a, before: b}]}\n")
	want := []string{
		"rel.yaml:13:62: after is deprecated: write prev (the old spelling loads the same)",
		"rel.yaml:13:72: before is deprecated: write next (the old spelling loads the same)",
	}
	if strings.Join(old, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings %q, want %q", old, want)
	}
	if w := loadWarn("      - js-shape: {file: a.js, added: [{name: x, in: export, prev: a, next: b}]}\n"); len(w) > 0 {
		t.Errorf("the new spelling warns: %q", w)
	}
	// node of a region or a kind is node types; the node program is nodejs
	old = loadWarn("      - dts-probe: {file: a.d.ts, member: x, node: node}\n")
	want = []string{"rel.yaml:13:46: node is deprecated: write nodejs (the old spelling loads the same)"}
	if strings.Join(old, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings %q, want %q", old, want)
	}
}
