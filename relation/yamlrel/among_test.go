package yamlrel

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/snapshot"
)

const amongYAMLFile = `tables:
  number: [{c: int}, {c: long}]
  text: [{c: char}, {c: wchar}]
regions: {decls: {from: '^declarations', to: '^init'}}
kinds: {item: {region: decls, match: '^  item (?P<names>[\w, ]+)', list: names}}
relations:
  - name: r
    doc: d.
    spots: {boundaries: decls}
    fresh: [N]
    choose:
      - {name: E, kind: item}
      - {name: V, among: NAMES}
      - {name: w, options: [number, text]}
      - {name: T, among: TABLE}
      - {name: U, among: FIXED}
    text: '  x {{.N}} {{.V}} {{.T.c}} {{.U.c}}'
    checks: [{equivalence: {}}]
`

// TestAmongSpellings: among written as a dotted path or a template
// rendering one loads with a warning at the value naming the template to
// write, and draws what the template draws.
func TestAmongSpellings(t *testing.T) {
	load := func(names, table, fixed string) (*relation.Relation, []string) {
		t.Helper()
		src := strings.NewReplacer("NAMES", names, "TABLE", table, "FIXED", fixed).Replace(amongYAMLFile)
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "rel.yaml"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		r := snapshot.NewReader()
		name, err := r.FSName(filepath.Join(dir, "rel.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		var warns []string
		rels, err := LoadWith(Options{Warn: func(w string) { warns = append(warns, w[strings.Index(w, "rel.yaml:"):]) }}, r.FS(), name)
		if err != nil {
			t.Fatal(err)
		}
		return rels[0], warns
	}
	newRel, warns := load(`'{{.E.names}}'`, `'{{index .tables .w}}'`, `'{{index .tables "text"}}'`)
	if len(warns) != 0 {
		t.Errorf("the templates warn: %q", warns)
	}
	oldRel, warns := load(`E.names`, `'tables.{{.w}}'`, `tables.text`)
	want := []string{
		`rel.yaml:13:26: among: E.names is deprecated: write '{{.E.names}}' (the old spelling loads the same)`,
		`rel.yaml:15:26: among: tables.{{.w}} is deprecated: write '{{index .tables .w}}' (the old spelling loads the same)`,
		`rel.yaml:16:26: among: tables.text is deprecated: write '{{.tables.text}}' (the old spelling loads the same)`,
	}
	if strings.Join(warns, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant\n%s", strings.Join(warns, "\n"), strings.Join(want, "\n"))
	}
	in := relation.Input{Name: "a.x", Src: []byte("declarations\n  item A, B, C\n  item D\ninit\n")}
	ctx := context.Background()
	spots, err := newRel.Spots(ctx, in)
	if err != nil || len(spots) == 0 {
		t.Fatalf("spots: %v, %v", spots, err)
	}
	drawn := map[string]bool{}
	for _, s := range spots {
		for seed := range uint64(8) {
			a, err := newRel.Mutate(ctx, in, s, rngFor(seed))
			if err != nil {
				t.Fatal(err)
			}
			b, err := oldRel.Mutate(ctx, in, s, rngFor(seed))
			if err != nil {
				t.Fatal(err)
			}
			if string(a.Src) != string(b.Src) || !maps.Equal(a.Bindings, b.Bindings) {
				t.Errorf("spot %d, seed %d: the old spelling draws\n%s%v\nthe template\n%s%v", s.Index, seed, b.Src, b.Bindings, a.Src, a.Bindings)
			}
			drawn[a.Bindings["T.c"]] = true
		}
	}
	if len(drawn) < 3 {
		t.Errorf("the table choice drew only %v", drawn)
	}
}
