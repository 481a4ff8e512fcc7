package yamlrel

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/relation"
)

// write puts files in a temporary directory and returns its path.
func write(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// loadFiles writes files to a new directory and loads its rel.yaml, with
// the TypeScript grammar among the parsers.
func loadFiles(t *testing.T, files map[string]string) []*relation.Relation {
	t.Helper()
	rels, err := LoadFilesWith(Options{Parsers: tsParsers}, filepath.Join(write(t, files), "rel.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return rels
}

const defsYAML = `skip: '^\s*(//.*)?$'
captures:
  logic: '^logic (\w+)'
regions:
  decls: {from: '^declarations', to: '^init'}
kinds:
  timer: {region: decls, match: '^\s*timer\s+(?P<name>\w+)'}
  states: {region: decls, match: '^\s*states\s+(?P<names>[\w, ]*)', list: names}
`

const relYAMLText = `include: [defs.yaml]
relations:
  - name: add-timer
    doc: Add a timer.
    spots: {boundaries: decls}
    fresh: [N]
    insert: '  timer {{.N}}'
    checks:
      - equivalence: {except: ['{{snake .logic}}.h']}
      - difference:
          file: '{{snake .logic}}.h'
          edits:
            - insert: 'timer_t t_{{snake .N}};'
              where:
                - {when: '{{.prev.timer}}', after: ['timer_t t_{{snake .prev.timer}};']}
                - after: ['struct {']
`

const program = `logic Door
declarations
  states Closed, Open
  timer Hold
  // a comment
  timer Alarm
init
cycle
`

func load(t *testing.T) *relation.Relation {
	t.Helper()
	rels := loadFiles(t, map[string]string{"defs.yaml": defsYAML, "rel.yaml": relYAMLText})
	if len(rels) != 1 {
		t.Fatalf("%d relations", len(rels))
	}
	return rels[0]
}

func TestMutate(t *testing.T) {
	r := load(t)
	in := relation.Input{Name: "door.cll", Src: []byte(program)}
	spots, _ := r.Spots(context.Background(), in)
	fu, err := r.Mutate(context.Background(), in, spots[2], rngFor(3))
	if err != nil {
		t.Fatal(err)
	}
	n := fu.Bindings["N"]
	want := strings.Replace(program, "  timer Hold\n", "  timer Hold\n  timer "+n+"\n", 1)
	if string(fu.Src) != want {
		t.Errorf("follow-up\n%s\nwant\n%s", fu.Src, want)
	}
	if fu.Bindings["prev.timer"] != "Hold" || fu.Bindings["logic"] != "Door" {
		t.Errorf("bindings %v", fu.Bindings)
	}
	again, _ := r.Mutate(context.Background(), in, spots[2], rngFor(3))
	if string(again.Src) != string(fu.Src) {
		t.Error("the same rng state gave another follow-up")
	}
	other, _ := r.Mutate(context.Background(), in, spots[2], rngFor(4))
	if other.Bindings["N"] == n {
		t.Error("another rng state gave the same fresh name")
	}
	if len(fu.Checks) != 2 {
		t.Fatalf("%d checks", len(fu.Checks))
	}
	if _, err := r.Mutate(context.Background(), in, relation.Spot{Index: 9}, rngFor(1)); err == nil || !strings.Contains(err.Error(), "no spot 9") {
		t.Errorf("bad spot: %v", err)
	}
}

func TestFreshNamesAvoidTheInput(t *testing.T) {
	fp, err := relation.ParseFreshPattern("Zq[a-b]{10}")
	if err != nil {
		t.Fatal(err)
	}
	src := []byte("ZQAAAAAAAAAA zq_bbbbbbbbbb")
	taken := map[string]bool{}
	for i := range 50 {
		n, err := fp.Fresh(rngFor(uint64(i)), src, taken)
		if err != nil {
			t.Fatal(err)
		}
		if strings.EqualFold(n, "Zqaaaaaaaaaa") || relation.Snake(n) == "zq_bbbbbbbbbb" {
			t.Fatalf("%s occurs in the input", n)
		}
	}
	if len(taken) == 0 {
		t.Fatal("names not recorded as taken")
	}
}
