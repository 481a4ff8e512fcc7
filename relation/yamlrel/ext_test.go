package yamlrel

import (
	"context"
	"github.com/mcpt-tool/mcpt/internal/namecase"
	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/tree"
)

// An IDL small enough to predict its "generated code" by hand: each struct
// becomes a C-like struct whose members carry their slot numbers.
const idlDefs = `skip: '^\s*(#.*)?$'
regions:
  file: {from: '^module\b', to: '[^\s\S]'}
  struct: {from: '^struct (?P<name>\w+) \{$', to: '^\}'}
kinds:
  decl: {region: file, match: '^struct (?P<name>\w+)'}
  field:
    region: struct
    match: '^\s+(?P<id>\d+): (?P<type>\w+) (?P<name>\w+)(?P<opt> optional)?$'
    let:
      - wide: '{{if eq .type "i64"}}yes{{end}}'
      # second round: sees the first round's lets of every field
      - wides: '{{len (select "wide" "." .decls.field)}}'
tables:
  types:
    - {idl: i32, c: int32_t}
    - {idl: i64, c: int64_t}
  texts:
    - {idl: string, c: 'char *'}
`

const idlSrc = `module shop
struct Item {
  1: i32 qty
  2: i64 price optional
  # a comment
  3: string name
}
struct Tag {
  1: string label
}
`

func loadExt(t *testing.T, rel string) *relation.Relation {
	t.Helper()
	rels := loadFiles(t, map[string]string{"defs.yaml": idlDefs, "rel.yaml": "include: [defs.yaml]\nrelations:\n" + rel})
	return rels[0]
}

func TestRegionScopeAndKindLets(t *testing.T) {
	r := loadExt(t, `  - name: add-field
    doc: Add a field.
    spots:
      boundaries: struct
      when: '{{lt .region.index 3}}'   # not after the third field
    fresh: [N]
    choose:
      - {name: w, options: [types]}
      - {name: T, among: 'tables.{{.w}}'}
    let:
      - K: '{{add (maxint (pluck "id" .region.items) 0) 1}}'
      - shape: '{{.region.name}}:{{.region.index}}:{{join "," .region.names.field}}:{{.region.last.field}}:{{.region.count.field}}:{{len .region.before}}/{{len .region.after}}'
      - wides: '{{range .region.items}}{{.name}}={{.wide}}{{.wides}} {{end}}'
      - opt: '{{range .region.items}}[{{.opt}}]{{end}}'
      - stem: '{{.input.stem}}'
    insert: '  {{.K}}: {{.T.idl}} {{.N}}'
    checks:
      - equivalence: {}
`)
	in := relation.Input{Name: "shop.idl", Src: []byte(idlSrc)}
	spots, err := r.Spots(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	// Item has four boundaries, one of which (after the third field) the
	// condition drops; Tag has two.
	var descs []string
	for _, s := range spots {
		descs = append(descs, s.Desc)
	}
	want := []string{"start of struct", "after field qty", "after field price", "start of struct", "after field label (end of struct)"}
	if !slices.Equal(descs, want) {
		t.Fatalf("spots %q, want %q", descs, want)
	}
	fu, err := r.Mutate(context.Background(), in, spots[2], rngFor(1))
	if err != nil {
		t.Fatal(err)
	}
	b := fu.Bindings
	if b["shape"] != "Item:2:qty,price,name:name:3:2/1" {
		t.Errorf("shape %q", b["shape"])
	}
	// wide is the first round, wides (a count over all fields) the second
	if b["wides"] != "qty=1 price=yes1 name=1 " {
		t.Errorf("wides %q", b["wides"])
	}
	if b["opt"] != "[][ optional][]" {
		t.Errorf("groups that did not match should be empty: %q", b["opt"])
	}
	if b["K"] != "4" || b["stem"] != "shop" || b["T.idl"] == "" || b["region.index"] != "2" {
		t.Errorf("bindings %v", b)
	}
	if _, ok := b["input.text"]; ok {
		t.Error("the input text is context, not a binding")
	}
	if !strings.Contains(string(fu.Src), "  2: i64 price optional\n  4: "+b["T.idl"]+" "+b["N"]+"\n  # a comment\n") {
		t.Errorf("follow-up\n%s", fu.Src)
	}
}

func TestReservedRegionGroup(t *testing.T) {
	dir := write(t, map[string]string{"rel.yaml": `regions:
  s: {from: '^struct (?P<items>\w+)', to: '^\}'}
relations: []
`})
	_, err := LoadFiles(filepath.Join(dir, "rel.yaml"))
	if err == nil || !strings.Contains(err.Error(), `region group "items" is reserved`) {
		t.Fatalf("error %v", err)
	}
}

// The generated code of idlSrc, and what it must become when a field
// zzz is added to Item after qty.
const genBase = `struct Item {
  int32_t qty; // slot 0
  int64_t price; // slot 1
  char * name; // slot 2
};
static const int Item_fields = 3;
struct Tag {
  char * label; // slot 0
};
`

const genFollow = `struct Item {
  int32_t qty; // slot 0
  int32_t zzz; // slot 1
  int64_t price; // slot 2
  char * name; // slot 3
};
static const int Item_fields = 4;
struct Tag {
  char * label; // slot 0
};
// field zzz
`

const editRel = `  - name: add-field
    doc: Add a field.
    spots: {boundaries: struct}
    fresh: [N]
    let:
      - S: '{{.region.name}}'
    insert: '  9: i32 {{.N}}'
    checks:
      - equivalence: {except: ['gen.h', '{{.N}}.h']}
      - created: {name: new-header, file: '{{.N}}.h', content: "int {{.N}};\n"}
      - difference:
          name: gen
          file: gen.h
          edits:
            - insert: '  int32_t {{.N}}; // slot {{.region.index}}'
              where:
                - after: ['struct {{.S}} {', {re: '^  \S.* {{.prev.field}};'}]
            - renumber: {re: '// slot (\d+)$', by: '1'}
              when: '{{.next.field}}'
              where:
                - at: ['struct {{.S}} {', {re: '^  \S.* {{.next.field}};'}]
              through: ['};']
            - substitute: {re: '= (\d+);', with: '= {{add (len .region.items) 1}};'}
              where:
                - at: [{re: '^static const int {{.S}}_fields'}]
            - insert: '// field {{.N}}'
              where:
                - end: true
            - delete: true
              when: 'false'
              where:
                - at: ['never there']
`

func TestEditsOverRanges(t *testing.T) {
	r := loadExt(t, editRel)
	in := relation.Input{Name: "shop.idl", Src: []byte(idlSrc)}
	spots, _ := r.Spots(context.Background(), in)
	fu, err := r.Mutate(context.Background(), in, spots[1], rngFor(1)) // after qty
	if err != nil {
		t.Fatal(err)
	}
	n := fu.Bindings["N"]
	o := tree.Tree{"gen.h": []byte(genBase)}
	good := tree.Tree{"gen.h": []byte(strings.ReplaceAll(genFollow, "zzz", n)), n + ".h": []byte("int " + n + ";\n")}
	if fails := fu.Check(o, good); len(fails) != 0 {
		t.Fatalf("false alarm: %+v", fails)
	}
	// A slot not shifted, a count not updated, a header not created: each
	// is a failure of its checker.
	for _, tc := range []struct {
		name, old, new, checker string
	}{
		{"slot", "char * name; // slot 3", "char * name; // slot 2", "gen"},
		{"count", "Item_fields = 4", "Item_fields = 3", "gen"},
	} {
		bad := tree.Tree{"gen.h": []byte(strings.Replace(string(good["gen.h"]), tc.old, tc.new, 1)), n + ".h": good[n+".h"]}
		fails := fu.Check(o, bad)
		if len(fails) != 1 || fails[0].Checker != tc.checker {
			t.Errorf("%s: want one failure of %s, got %+v", tc.name, tc.checker, fails)
		}
	}
	fails := fu.Check(o, tree.Tree{"gen.h": good["gen.h"]})
	if len(fails) != 1 || fails[0].Checker != "new-header" {
		t.Errorf("missing header: %+v", fails)
	}
}

func TestEditErrors(t *testing.T) {
	for _, tc := range []struct{ name, from, to, want string }{
		{"through on insert", "            - insert: '// field {{.N}}'\n              where:\n                - end: true", "            - insert: '// field {{.N}}'\n              through: ['x']\n              where:\n                - end: true", "an insert has no range"},
		{"end with a path", "                - end: true", "                - {end: true, after: ['x']}", "end: true places an insert at the end"},
		{"renumber without by", "by: '1'", "by: ''", "renumber needs by"},
		{"two checks in one", "      - created: {name: new-header", "      - equivalence: {}\n        created: {name: new-header", "a check names one checker kind: equivalence or created, not both"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rel := strings.Replace(editRel, tc.from, tc.to, 1)
			if rel == editRel {
				t.Fatal("replacement did not apply")
			}
			dir := write(t, map[string]string{"defs.yaml": idlDefs, "rel.yaml": "include: [defs.yaml]\nrelations:\n" + rel})
			_, err := LoadFiles(filepath.Join(dir, "rel.yaml"))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestListFuncs(t *testing.T) {
	items := []map[string]any{
		{"name": "A", "value": ""}, {"name": "B", "value": "5"}, {"name": "C", "value": ""}, {"name": "D", "value": "0x10"},
	}
	vals, err := numbering("value", 0, items)
	if err != nil || !slices.Equal(vals, []int{0, 5, 6, 16}) {
		t.Errorf("numbering %v %v", vals, err)
	}
	lead, _ := until("value", ".", items[2:])
	if len(lead) != 1 || lead[0]["name"] != "C" {
		t.Errorf("until %v", lead)
	}
	sel, _ := filter("value", ".", items, true)
	names, _ := pluck("name", sel)
	if !slices.Equal(names, []string{"B", "D"}) {
		t.Errorf("select %v", names)
	}
	if m, _ := extreme([]string{"3", "", "12", "-4"}, nil, func(a, b int) bool { return a > b }); m != 12 {
		t.Errorf("maxint %d", m)
	}
	if _, err := extreme([]string{}, nil, func(a, b int) bool { return a > b }); err == nil {
		t.Error("maxint of nothing without a default")
	}
	if got := alt([]string{"a.b", "c"}); got != `(?:a\.b|c)` {
		t.Errorf("alt %q", got)
	}
	if got := alt(nil); regexpMatches(got, "") || regexpMatches(got, "x") {
		t.Errorf("alt of nothing matches: %q", got)
	}
	joined, err := concat(items[:1], []any{map[string]any{"name": "N", "value": ""}}, items[1:2])
	if list, ok := joined.([]map[string]any); err != nil || !ok || len(list) != 3 || list[1]["name"] != "N" {
		t.Errorf("concat %v %v", joined, err)
	}
	if namecase.Pascal("max_speed") != "MaxSpeed" || namecase.Camel("max_speed") != "maxSpeed" {
		t.Error("pascal / camel")
	}
	for s, want := range map[string]bool{"": false, " 0 ": false, "false": false, "[]": false, "map[]": false, "yes": true, "[x]": true} {
		if truthy(s) != want {
			t.Errorf("truthy(%q) = %v", s, !want)
		}
	}
}

// TestSortAndIndex: numeric sort, sort by key, index-of, through templates
// as a relation writes them.
func TestSortAndIndex(t *testing.T) {
	items := []map[string]any{{"name": "a", "id": "10"}, {"name": "b", "id": "9"}, {"name": "c", "id": "-1"}}
	for src, want := range map[string]string{
		`{{sortints (strings "10" "9" "-1")}}`:         "[-1 9 10]",
		`{{pluck "name" (sortby "id" .items)}}`:        "[c b a]",
		`{{pluck "name" (sortby "name" .items)}}`:      "[a b c]",
		`{{indexof (pluck "name" .items) "b"}}`:        "1",
		`{{indexof (pluck "name" .items) "z"}}`:        "-1",
		`{{last (pluck "name" (sortby "id" .items))}}`: "a",
		`{{index (sortints (pluck "id" .items)) 0}}`:   "-1",
		`{{indexof (sortints (pluck "id" .items)) 9}}`: "1",
	} {
		tm, err := mkTmpl(yamlpos.String{Value: src})
		if err != nil {
			t.Fatal(err)
		}
		got, err := tm.render(context.Background(), map[string]any{"items": items})
		if err != nil || got != want {
			t.Errorf("%s = %q, %v; want %q", src, got, err, want)
		}
	}
}

func regexpMatches(re, s string) bool {
	rx, err := cachedRE(re)
	return err == nil && rx.MatchString(s)
}

// A check with when is left out of the test cases where when renders
// empty: the header is created only for a field added to Item.
func TestCheckWhen(t *testing.T) {
	r := loadExt(t, strings.Replace(editRel, "      - created: {", "      - when: '{{eq .S \"Item\"}}'\n        created: {", 1))
	in := relation.Input{Name: "shop.idl", Src: []byte(idlSrc)}
	spots, _ := r.Spots(context.Background(), in)
	for i, want := range map[int]int{1: 3, 4: 2} { // after qty (Item), in Tag
		fu, err := r.Mutate(context.Background(), in, spots[i], rngFor(1))
		if err != nil {
			t.Fatal(err)
		}
		if len(fu.Checks) != want {
			t.Errorf("spot %d (%s): %d checks, want %d", i, spots[i].Desc, len(fu.Checks), want)
		}
	}
}
