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

// loadFiles writes files to a new directory and loads its rel.yaml.
func loadFiles(t *testing.T, files map[string]string) []*relation.Relation {
	t.Helper()
	rels, err := LoadFiles(filepath.Join(write(t, files), "rel.yaml"))
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

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		name, file, want string
	}{
		{"unknown key", strings.Replace(relYAMLText, "    doc:", "    dock: x\n    doc:", 1), "rel.yaml:4:5: unknown field \"dock\""},
		{"bad template", strings.Replace(relYAMLText, "'  timer {{.N}}'", "'  timer {{.N'", 1), "rel.yaml:7:22: bad template: unclosed action"},
		{"unknown region", strings.Replace(relYAMLText, "boundaries: decls", "boundaries: nowhere", 1), "rel.yaml:5:25: no region named \"nowhere\""},
		{"both after and at", strings.Replace(relYAMLText, "- after: ['struct {']", "- {after: ['struct {'], at: ['x']}", 1), "rel.yaml:16:28: each where item has exactly one of after, before, at"},
		{"unknown kind in choice", strings.Replace(relYAMLText, "    fresh: [N]", "    fresh: [N]\n    choose:\n      - {name: E, from: enumeration}", 1), "rel.yaml:8:25: no kind named \"enumeration\""},
		{"bound twice", strings.Replace(relYAMLText, "fresh: [N]", "fresh: [N, N]", 1), "rel.yaml:6:16: N bound twice (first at rel.yaml:6:13)"},
		{"missing include", strings.Replace(relYAMLText, "defs.yaml", "nodefs.yaml", 1), "rel.yaml:1:11: cannot include:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := write(t, map[string]string{"defs.yaml": defsYAML, "rel.yaml": tc.file})
			_, err := LoadFiles(filepath.Join(dir, "rel.yaml"))
			if err == nil {
				t.Fatal("no error")
			}
			got := strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), "")
			if !strings.HasPrefix(got, tc.want) {
				t.Errorf("error\n  %s\nwant prefix\n  %s", got, tc.want)
			}
		})
	}
}

func TestBadDefinitions(t *testing.T) {
	for _, tc := range []struct{ defsYAML, want string }{
		{strings.Replace(defsYAML, `'^\s*timer\s+(?P<name>\w+)'`, `'^\s*timer\s+(?P<name>\w+'`, 1), "defs.yaml:7:33: bad pattern: error parsing regexp: missing closing ): `^\\s*timer\\s+(?P<name>\\w+`"},
		{strings.Replace(defsYAML, "(?P<name>\\w+)'}", "\\w+'}", 1), "defs.yaml:7:33: kind timer: the pattern needs a group called name, or a list group"},
		{strings.Replace(defsYAML, "list: names", "list: values", 1), "defs.yaml:8:75: kind states: the pattern has no group named \"values\""},
		{defsYAML + "fresh: 'Zq[a-b]{2}'\n", "defs.yaml:9:8: fresh-name pattern \"Zq[a-b]{2}\" gives too few names"},
	} {
		dir := write(t, map[string]string{"defs.yaml": tc.defsYAML, "rel.yaml": relYAMLText})
		_, err := LoadFiles(filepath.Join(dir, "rel.yaml"))
		if err == nil {
			t.Errorf("no error for %q", tc.want)
			continue
		}
		if got := strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), ""); got != tc.want {
			t.Errorf("error\n  %s\nwant\n  %s", got, tc.want)
		}
	}
}

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

func TestSpots(t *testing.T) {
	r := load(t)
	spots, err := r.Spots(context.Background(), relation.Input{Name: "door.cll", Src: []byte(program)})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range spots {
		got = append(got, s.Desc)
	}
	want := []string{"start of decls", "after states Open", "after timer Hold", "after timer Alarm (end of decls)"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("spots %q, want %q", got, want)
	}
	// The spot after Hold is on line 5: the comment below Hold is not part
	// of its declaration, so the new line goes right under it.
	if spots[2].Line != 5 || spots[2].Col != 1 {
		t.Errorf("spot 2 at %d:%d, want 5:1", spots[2].Line, spots[2].Col)
	}
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

func TestListSpots(t *testing.T) {
	dir := write(t, map[string]string{"defs.yaml": defsYAML, "rel.yaml": `include: [defs.yaml]
relations:
  - name: augment-states
    doc: Add a state.
    spots: {lists: [{kind: states}]}
    fresh: [N]
    insert: '{{.N}}'
    checks:
      - equivalence: {}
`})
	rels, err := LoadFiles(filepath.Join(dir, "rel.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	in := relation.Input{Name: "door.cll", Src: []byte(program)}
	spots, _ := rels[0].Spots(context.Background(), in)
	if len(spots) != 3 {
		t.Fatalf("%d spots, want 3", len(spots))
	}
	var lines []string
	for _, s := range spots {
		fu, err := rels[0].Mutate(context.Background(), in, s, rngFor(1))
		if err != nil {
			t.Fatal(err)
		}
		line := strings.Split(string(fu.Src), "\n")[2]
		lines = append(lines, strings.ReplaceAll(line, fu.Bindings["N"], "N"))
		if s.Index == 1 && (fu.Bindings["list.before"] != "Closed" || fu.Bindings["list.after"] != "Open" || fu.Bindings["list.count"] != "2") {
			t.Errorf("bindings %v", fu.Bindings)
		}
	}
	want := []string{"  states N, Closed, Open", "  states Closed, N, Open", "  states Closed, Open, N"}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Errorf("follow-ups %q, want %q", lines, want)
	}
}
