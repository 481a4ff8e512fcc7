package yamlrel

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/syntax"
	"github.com/mcpt-tool/mcpt/syntax/lang"
	"github.com/mcpt-tool/mcpt/syntax/tsgrammar/typescript"
	"github.com/mcpt-tool/mcpt/tree"
)

// tsParsers offer the tree-sitter TypeScript grammar, as the mcpt command
// built with -tags typescript does.
var tsParsers = func() *syntax.Parsers {
	ps, err := syntax.NewParsers(typescript.Parser)
	if err != nil {
		panic(err)
	}
	return ps
}()

// withTS is the set of parsers of a load given tsParsers: mcpt's own
// grammars and the TypeScript one.
func withTS(t *testing.T) *syntax.Parsers {
	t.Helper()
	ps, err := lang.With(tsParsers)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

const treeRelYAML = `syntax: typescript
fresh: 'Zq[a-z]{6}'
regions:
  enum:
    node: [enum_body]
    header: '^export enum (?P<name>[\w$]+)$'
kinds:
  member:
    region: enum
    node: [property_identifier, enum_assignment]
    match: '^(?P<name>[\w$]+)( = (?P<init>.+))?$'
relations:
  - name: add-member
    doc: Add a member.
    spots:
      boundaries: enum
      except: ['{{if eq .region.name "Skipped"}}yes{{end}}']
    fresh: [n]
    let:
      - nx: '{{.next.member}}'
      - cnt: '{{.region.count.member}}'
    insert: '{{.n}}'
    checks:
      - equivalence: {except: ['*.js']}
      - difference:
          file: x.js
          edits:
            - insert: '{{.region.name}} {{.prev.member}} {{.next.member}} {{.region.count.member}} {{.region.index}}'
              where: [{end: true}]
`

func treeSpotsOf(t *testing.T, r *relation.Relation, src string) []string {
	t.Helper()
	ss, err := r.Spots(context.Background(), relation.Input{Name: "x.ts", Src: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range ss {
		out = append(out, s.Desc)
	}
	return out
}

// A tree region's spots are the same in every layout of the same enums.
func TestTreeRegionLayouts(t *testing.T) {
	r := loadFiles(t, map[string]string{"rel.yaml": treeRelYAML})[0]
	want := "enum_body of Color, before Red|enum_body of Color, between Red and Green|enum_body of Color, after Green"
	for _, src := range []string{
		"// c\nexport enum Color {\n  Red,\n  Green = 4,\n}\nexport enum Skipped { A }\nexport const enum K { A }\n",
		"export enum Color { Red, Green = 4 }\nexport enum Skipped { A }\n",
		"export enum Color\r\n{\r\n\t/** red */\r\n\tRed, // r\r\n\tGreen = 4\r\n}\r\n",
	} {
		if got := strings.Join(treeSpotsOf(t, r, src), "|"); got != want {
			t.Errorf("spots of %q:\n%s\nwant\n%s", src, got, want)
		}
	}
}

// TestTreeUnknownSyntax: a syntax: that names no parser of the load says
// which there are; one that names a parser of a language mcpt knows, not
// linked into the program, says how to link it.
func TestTreeUnknownSyntax(t *testing.T) {
	dir := write(t, map[string]string{"rel.yaml": strings.Replace(treeRelYAML, "syntax: typescript", "syntax: cobol", 1), "ts.yaml": treeRelYAML})
	_, err := LoadFilesWith(Options{Parsers: tsParsers}, dir+"/rel.yaml")
	if want := `rel.yaml:1:9: syntax: no parser "cobol" in this mcpt (it has: cll, flatbuffers, protobuf, thrift, typescript; a grammar file is named by its path, ending in .grammar)`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error = %v, want %q", err, want)
	}
	if _, err := LoadFilesWith(Options{Parsers: tsParsers}, dir+"/ts.yaml"); err != nil {
		t.Errorf("with the TypeScript grammar: %v", err)
	}
	_, err = LoadFiles(dir + "/ts.yaml")
	if want := `ts.yaml:1:9: syntax: no parser "typescript": this mcpt was built without the TypeScript grammar: rebuild it with -tags typescript`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error = %v, want %q", err, want)
	} else if strings.Contains(err.Error(), "needs the parser") {
		t.Errorf("the regions' errors follow the one of syntax: %v", err)
	}
}

const nestedRelYAML = `syntax: typescript
regions:
  top: {node: [enum_body], header: '^export enum (?P<name>\w+)$', outside: [internal_module]}
  any: {node: [enum_body], header: '^export enum (?P<name>\w+)$'}
kinds:
  member: {region: any, match: '^(?P<name>\w+)$'}
relations:
  - name: top
    doc: Add a member to a top-level enum.
    spots: {boundaries: top}
    fresh: [n]
    text: '{{.n}}'
    checks: [{equivalence: {}}]
  - name: any
    doc: Add a member to any enum.
    spots: {boundaries: any, if: '{{.region.outer}}'}
    fresh: [n]
    text: '{{.n}}'
    checks: [{equivalence: {}}]
`

// A list inside a node of a type outside names is no instance of the
// region; .region.outer names the declarations a list's declaration is in.
func TestTreeOutsideAndOuter(t *testing.T) {
	rels := loadFiles(t, map[string]string{"rel.yaml": nestedRelYAML})
	src := "export enum A { X }\nexport namespace N {\n  export namespace M {\n    export enum B { Y }\n  }\n}\n"
	if got := strings.Join(treeSpotsOf(t, rels[0], src), "|"); got != "enum_body of A, before X|enum_body of A, after X" {
		t.Errorf("spots of top: %s", got)
	}
	in := relation.Input{Name: "x.ts", Src: []byte(src)}
	ss, err := rels[1].Spots(context.Background(), in)
	if err != nil || len(ss) != 2 {
		t.Fatalf("spots of any (outer set, nested enums only): %d, %v", len(ss), err)
	}
	fu, err := rels[1].Mutate(context.Background(), in, ss[0], rngFor(1))
	if err != nil {
		t.Fatal(err)
	}
	if b := fu.Bindings; b["region.outer"] != "N.M" || b["region.name"] != "B" {
		t.Errorf("bindings: %v", b)
	}
}

const lateEditRelYAML = `syntax: typescript
regions:
  enum: {node: [enum_body], header: '^export enum (?P<name>\w+)$'}
kinds:
  member: {region: enum, match: '^(?P<name>\w+)$'}
relations:
  - name: add
    doc: Add a member; o's line "stale" goes.
    spots: {boundaries: enum}
    fresh: [n]
    text: '{{.n}}'
    checks:
      - difference:
          file: x.txt
          edits:
            - insert: '{{.n}}'
              where: [{end: true}]
            - delete: true
              if: '{{index .out "x.txt" | printf "%s" | match "(?m)^stale$"}}'
              where: [{at: [stale]}]
`

// An edit whose when reads .out is rendered when the check runs: an edit
// for a line that o may or may not have.
func TestTreeEditReadsOut(t *testing.T) {
	r := loadFiles(t, map[string]string{"rel.yaml": lateEditRelYAML})[0]
	in := relation.Input{Name: "x.ts", Src: []byte("export enum A { X }\n")}
	ss, _ := r.Spots(context.Background(), in)
	fu, err := r.Mutate(context.Background(), in, ss[0], rngFor(1))
	if err != nil {
		t.Fatal(err)
	}
	n := fu.Bindings["n"]
	for _, c := range []struct {
		o, o2 string
		fails bool
	}{
		{"a\nstale\n", "a\n" + n + "\n", false},
		{"a\n", "a\n" + n + "\n", false},
		{"a\nstale\n", "a\nstale\n" + n + "\n", true},
	} {
		fails := fu.Check(tree.Tree{"x.txt": []byte(c.o)}, tree.Tree{"x.txt": []byte(c.o2)})
		if (len(fails) > 0) != c.fails {
			t.Errorf("o %q, o′ %q: failures %+v", c.o, c.o2, fails)
		}
	}
}

// cloneInnerRelYAML copies a type alias with fresh inner names, as the
// relations mcpt infers from TypeScript seeds do.
const cloneInnerRelYAML = `syntax: typescript
fresh_pattern: 'zq[a-z]{6}'
regions:
  program: {node: [program], members: [type_alias_declaration]}
  object_type: {node: [object_type], members: [property_signature]}
kinds:
  type_alias: {region: program, node: [type_alias_declaration], fields: {name: [type_identifier]}}
  property: {region: object_type, node: [property_signature], fields: {name: [property_identifier]}}
relations:
  - name: copy-alias
    doc: A copy of a type alias.
    spots: {boundaries: program}
    fresh: [n]
    clone: {kind: type_alias, name: '{{likecase .clone.of .n}}', from: before, inner: fresh}
    checks: [{locality: {}}]
`

// A copy with fresh inner names renames the names its kinds declare (an
// object type's properties) and keeps the names of the types it uses:
// Array of Array<…> and Props of Ns.Props are names of nodes no kind
// declares (generic_type, nested_type_identifier), and the compiler
// rejects a copy that renames them (zod's $ZSFObjectProperties, copied
// as Zqtdpkji<{…}>: "Cannot find name").
func TestCloneInnerKeepsUses(t *testing.T) {
	rels := loadFiles(t, map[string]string{"rel.yaml": cloneInnerRelYAML})
	src := "namespace Ns { export type Props = { a: string }; }\ntype Obj = Array<{ key: string; value: Ns.Props }>;\ntype Other = string;\n"
	in := relation.Input{Name: "x.ts", Src: []byte(src)}
	ss, err := rels[0].Spots(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	var fu *relation.FollowUp
	for _, s := range ss {
		if strings.Contains(s.Desc, "between Obj and Other") {
			if fu, err = rels[0].Mutate(context.Background(), in, s, rngFor(1)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if fu == nil {
		t.Fatalf("no spot between Obj and Other: %q", treeSpotsOf(t, rels[0], src))
	}
	got := string(fu.Src)
	copyLine := ""
	for _, l := range strings.Split(got, "\n") {
		if strings.HasPrefix(l, "type Zq") {
			copyLine = l
		}
	}
	if !strings.Contains(copyLine, " = Array<{ zq") || !strings.Contains(copyLine, ": Ns.Props }>;") || strings.Contains(copyLine, "key") || strings.Contains(copyLine, "value:") {
		t.Errorf("the copy: %q, want Array and Ns.Props kept, key and value fresh\n%s", copyLine, got)
	}
}
