package yamlrel

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/tree"
)

// TestValueTypes: lists built by list, concat and select go where lists of
// strings are expected (an item standing for its name), numbers held in
// strings go where numbers are, and lists of dicts where lists of items are.
func TestValueTypes(t *testing.T) {
	r := loadExt(t, `  - name: types
    doc: Value types.
    spots: {boundaries: struct}
    fresh: [N]
    let:
      - K: '{{len .region.items}}'
      - lists: '{{join "," (list "a" "b")}}|{{join "," (concat (list "c") (strings "d"))}}|{{join "," (select "type" "^i" .region.items)}}'
      - ends: '{{first (select "type" "string" .region.items)}}/{{last .region.items}}/{{sortstrings (list "y" "x")}}'
      - sums: '{{add .K 1}}/{{mul .K "2"}}/{{sub "10" .K}}/{{repeat "-" .K}}'
      - items: '{{join "," (pluck "n" (sortby "n" (list (dict "n" "2") (dict "n" "10"))))}}'
      - found: '{{has (select "type" "i32" .region.items) "qty"}}/{{indexof (list "a" "b") "b"}}/{{alt (list "a.b")}}'
    insert: '  9: i32 {{.N}}'
    checks:
      - equivalence: {}
`)
	in := relation.Input{Name: "shop.idl", Src: []byte(idlSrc)}
	spots, err := r.Spots(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	fu, err := r.Mutate(context.Background(), in, spots[0], rngFor(1)) // start of Item
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{
		"lists": "a,b|c,d|qty,price",
		"ends":  "name/name/[x y]",
		"sums":  "4/6/7/---",
		"items": "2,10",
		"found": `true/1/(?:a\.b)`,
	} {
		if got := fu.Bindings[k]; got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	r = loadExt(t, `  - name: bad
    doc: A list that is not one of items.
    spots: {boundaries: struct}
    let:
      - x: '{{pluck "n" (list "a")}}'
    insert: '  9: i32 X'
    checks:
      - equivalence: {}
`)
	spots, _ = r.Spots(context.Background(), in)
	if _, err := r.Mutate(context.Background(), in, spots[0], rngFor(1)); err == nil || !strings.Contains(err.Error(), "is not an item") {
		t.Errorf("pluck of strings: %v", err)
	}
}

// TestWholeRegion: a whole region has boundaries from the first line of
// the input, with no from line.
func TestWholeRegion(t *testing.T) {
	dir := write(t, map[string]string{"rel.yaml": `regions:
  file: {whole: true}
kinds:
  const: {region: file, match: '^const (?P<name>\w+)'}
relations:
  - name: add-const
    doc: Add a constant.
    spots: {boundaries: file}
    fresh: [N]
    insert: 'const {{.N}} {{.region.line}} {{.prev.const}}'
    checks:
      - equivalence: {}
`})
	rels, err := LoadFiles(filepath.Join(dir, "rel.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	in := relation.Input{Name: "c.txt", Src: []byte("const A\nconst B\n")}
	spots, err := rels[0].Spots(context.Background(), in)
	if err != nil || len(spots) != 3 {
		t.Fatalf("spots %v, %v", spots, err)
	}
	if spots[0].Desc != "start of file" || spots[0].Line != 1 {
		t.Errorf("first spot %+v", spots[0])
	}
	fu, err := rels[0].Mutate(context.Background(), in, spots[1], rngFor(1))
	if err != nil {
		t.Fatal(err)
	}
	if want := "const A\nconst " + fu.Bindings["N"] + " 0 A\nconst B\n"; string(fu.Src) != want {
		t.Errorf("follow-up %q, want %q", fu.Src, want)
	}
	for _, bad := range []string{"{whole: yes}", "{whole: true, from: '^x'}"} {
		dir := write(t, map[string]string{"rel.yaml": "regions:\n  file: " + bad + "\nrelations: []\n"})
		if _, err := LoadFiles(filepath.Join(dir, "rel.yaml")); err == nil || !strings.Contains(err.Error(), "rel.yaml:2:") {
			t.Errorf("%s: error %v", bad, err)
		}
	}
}

// forEachRel renumbers the slot of every field after the spot, one edit
// per field, and reads the field count from o instead of predicting it.
const forEachRel = `  - name: add-field
    doc: Add a field.
    spots: {boundaries: struct}
    fresh: [N]
    let:
      - S: '{{.region.name}}'
    insert: '  9: i32 {{.N}}'
    checks:
      - difference:
          name: gen
          file: gen.h
          read:
            - {name: count, at: [{re: '^static const int {{.S}}_fields = (\d+);'}]}
            - {name: first, at: ['struct {{.S}} {', {re: '// slot (\d+)$'}]}
          edits:
            - insert: '  int32_t {{.N}}; // slot {{add .o.first .region.index}}'
              where:
                - after: ['struct {{.S}} {', {re: '^  \S.* {{.prev.field}};'}]
                  when: '{{.prev.field}}'
                - after: ['struct {{.S}} {']
            - for_each: {as: F, among: region.after}
              substitute: {re: '// slot (\d+)$', with: '// slot {{add .F.index (add .o.first 1)}}'}
              where:
                - at: ['struct {{.S}} {', {re: '^  \S.* {{.F.name}};'}]
            - substitute: {re: '= (\d+);', with: '= {{add .o.count 1}};'}
              where:
                - at: [{re: '^static const int {{.S}}_fields'}]
`

// TestForEachAndRead: the edit repeated once per field after the spot,
// values read from o, and a value o lacks failing the check.
func TestForEachAndRead(t *testing.T) {
	r := loadExt(t, forEachRel)
	in := relation.Input{Name: "shop.idl", Src: []byte(idlSrc)}
	spots, _ := r.Spots(context.Background(), in)
	fu, err := r.Mutate(context.Background(), in, spots[1], rngFor(1)) // after qty
	if err != nil {
		t.Fatal(err)
	}
	n := fu.Bindings["N"]
	follow := genFollow[:strings.Index(genFollow, "// field")]
	o := tree.Tree{"gen.h": []byte(genBase)}
	good := tree.Tree{"gen.h": []byte(strings.ReplaceAll(follow, "zzz", n))}
	if fails := fu.Check(o, good); len(fails) != 0 {
		t.Fatalf("false alarm: %+v", fails)
	}
	for _, tc := range []struct{ old, new string }{
		{"char * name; // slot 3", "char * name; // slot 2"},
		{"Item_fields = 4", "Item_fields = 3"},
	} {
		bad := tree.Tree{"gen.h": []byte(strings.Replace(string(good["gen.h"]), tc.old, tc.new, 1))}
		if fails := fu.Check(o, bad); len(fails) != 1 || fails[0].Checker != "gen" {
			t.Errorf("%s: want one failure of gen, got %+v", tc.new, fails)
		}
	}
	noCount := tree.Tree{"gen.h": []byte(strings.Replace(genBase, "static const int Item_fields = 3;\n", "", 1))}
	fails := fu.Check(noCount, good)
	if len(fails) != 1 || !strings.Contains(fails[0].Message, "read count: no line of gen.h in o") {
		t.Errorf("a value o lacks: %+v", fails)
	}
	for _, bad := range []struct{ from, to, want string }{
		{"{re: '^static const int {{.S}}_fields = (\\d+);'}", "'static const'", "last matcher is {re: …}"},
		{"as: F,", "as: 1F,", "is not an identifier"},
	} {
		dir := write(t, map[string]string{"defs.yaml": idlDefs, "rel.yaml": "include: [defs.yaml]\nrelations:\n" + strings.Replace(forEachRel, bad.from, bad.to, 1)})
		if _, err := LoadFiles(filepath.Join(dir, "rel.yaml")); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: error %v", bad.to, err)
		}
	}
}

// TestChoicesSeeLets: a let that uses no choice is computed before the
// choices, which can use it; a let that uses a choice after them.
func TestChoicesSeeLets(t *testing.T) {
	r := loadExt(t, `  - name: add-field
    doc: Add a field.
    spots: {boundaries: struct}
    fresh: [N]
    choose:
      - {name: T, among: 'tables.{{.which}}'}
      - {name: init, options: ['{{.S}}']}
    let:
      - ctype: '{{.T.c}}'
      - which: '{{if eq .region.name "Item"}}types{{else}}texts{{end}}'
      - S: '{{.region.name}}'
    insert: '  9: {{.T.idl}} {{.N}}'
    checks:
      - equivalence: {}
`)
	in := relation.Input{Name: "shop.idl", Src: []byte(idlSrc)}
	spots, _ := r.Spots(context.Background(), in)
	fu, err := r.Mutate(context.Background(), in, spots[len(spots)-1], rngFor(1)) // in Tag
	if err != nil {
		t.Fatal(err)
	}
	if b := fu.Bindings; b["T.idl"] != "string" || b["ctype"] != "char *" || b["init"] != "Tag" {
		t.Errorf("bindings %v", b)
	}
}

// TestBlockScalars: an insert written |2- inserts its lines; |2+ keeps the
// blank line after the block and inserts it too.
func TestBlockScalars(t *testing.T) {
	const rel = `  - name: add-field
    doc: Add a field.
    spots: {boundaries: struct}
    fresh: [N]
    insert: '  9: i32 {{.N}}'
    checks:
      - difference:
          file: gen.h
          edits:
            - insert: |2-
                  int32_t {{.N}};
                  // new

              where:
                - after: ['struct Item {']
`
	in := relation.Input{Name: "shop.idl", Src: []byte(idlSrc)}
	predict := func(chomp string) string {
		r := loadExt(t, strings.Replace(rel, "|2-", chomp, 1))
		spots, _ := r.Spots(context.Background(), in)
		fu, err := r.Mutate(context.Background(), in, spots[0], rngFor(1))
		if err != nil {
			t.Fatal(err)
		}
		d, ok := fu.Checks[0].(*oracle.Difference)
		if !ok {
			t.Fatalf("checker %T", fu.Checks[0])
		}
		p, err := d.Predict("struct Item {\n};\n")
		if err != nil {
			t.Fatal(err)
		}
		return strings.ReplaceAll(p, fu.Bindings["N"], "N")
	}
	if got, want := predict("|2-"), "struct Item {\n  int32_t N;\n  // new\n};\n"; got != want {
		t.Errorf("|2-: %q, want %q", got, want)
	}
	if got, want := predict("|2+"), "struct Item {\n  int32_t N;\n  // new\n\n};\n"; got != want {
		t.Errorf("|2+: %q, want %q", got, want)
	}
}

// TestReadFromFollowUp: a value read from o′ (in: o2), here the first
// slot of the struct as the follow-up's output has it, is .o2.NAME; the
// prediction holds when o′ is right, fails when a slot is wrong, and a
// value o′ lacks fails the check naming o′.
func TestReadFromFollowUp(t *testing.T) {
	rel := strings.Replace(forEachRel, "- {name: first, at:", "- {name: first, in: o2, at:", 1)
	rel = strings.ReplaceAll(rel, ".o.first", ".o2.first")
	r := loadExt(t, rel)
	in := relation.Input{Name: "shop.idl", Src: []byte(idlSrc)}
	spots, _ := r.Spots(context.Background(), in)
	fu, err := r.Mutate(context.Background(), in, spots[1], rngFor(1))
	if err != nil {
		t.Fatal(err)
	}
	follow := strings.ReplaceAll(genFollow[:strings.Index(genFollow, "// field")], "zzz", fu.Bindings["N"])
	o := tree.Tree{"gen.h": []byte(genBase)}
	if fails := fu.Check(o, tree.Tree{"gen.h": []byte(follow)}); len(fails) != 0 {
		t.Fatalf("false alarm: %+v", fails)
	}
	bad := tree.Tree{"gen.h": []byte(strings.Replace(follow, "char * name; // slot 3", "char * name; // slot 2", 1))}
	if fails := fu.Check(o, bad); len(fails) != 1 || fails[0].Checker != "gen" {
		t.Errorf("a wrong slot: want one failure of gen, got %+v", fails)
	}
	noSlot := tree.Tree{"gen.h": []byte(regexp.MustCompile(`// slot \d+`).ReplaceAllString(follow, ""))}
	if fails := fu.Check(o, noSlot); len(fails) != 1 || !strings.Contains(fails[0].Message, "read first: no line of gen.h in o′") {
		t.Errorf("a value o′ lacks: %+v", fails)
	}
	dir := write(t, map[string]string{"defs.yaml": idlDefs, "rel.yaml": "include: [defs.yaml]\nrelations:\n" + strings.Replace(rel, "in: o2", "in: o3", 1)})
	if _, err := LoadFiles(filepath.Join(dir, "rel.yaml")); err == nil || !strings.Contains(err.Error(), `in is o or o2, found "o3"`) {
		t.Errorf("in: o3: error %v", err)
	}
}
