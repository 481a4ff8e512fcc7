package yamlrel

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/relation"
	_ "github.com/mcpt-tool/mcpt/syntax/tsgrammar/typescript"
)

const treeRelYAML = `syntax: typescript
fresh: 'Zq[a-z]{6}'
regions:
  enum:
    list: [enum_body]
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

func TestTreeMutateFollowsLayout(t *testing.T) {
	r := loadFiles(t, map[string]string{"rel.yaml": treeRelYAML})[0]
	for _, c := range []struct {
		src  string
		spot int
		want string
	}{
		{"export enum Color { Red, Green = 4 }\n", 2, "export enum Color { Red, Green = 4, N }\n"},
		{"export enum Color {\n\tRed,\n\tGreen = 4,\n}\n", 1, "export enum Color {\n\tRed,\n\tN,\n\tGreen = 4,\n}\n"},
	} {
		in := relation.Input{Name: "x.ts", Src: []byte(c.src)}
		ss, err := r.Spots(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		fu, err := r.Mutate(context.Background(), in, ss[c.spot], rngFor(1))
		if err != nil {
			t.Fatal(err)
		}
		got := strings.ReplaceAll(string(fu.Src), fu.Bindings["n"], "N")
		if got != c.want {
			t.Errorf("follow-up of %q at %s:\n%q\nwant\n%q", c.src, ss[c.spot].Desc, got, c.want)
		}
	}
}

func TestTreeBindings(t *testing.T) {
	r := loadFiles(t, map[string]string{"rel.yaml": treeRelYAML})[0]
	in := relation.Input{Name: "x.ts", Src: []byte("export enum Color { Red, Green = 4, Blue }\n")}
	ss, _ := r.Spots(context.Background(), in)
	fu, err := r.Mutate(context.Background(), in, ss[2], rngFor(1))
	if err != nil {
		t.Fatal(err)
	}
	b := fu.Bindings
	if b["region.name"] != "Color" || b["prev.member"] != "Green" || b["nx"] != "Blue" || b["cnt"] != "3" || b["region.index"] != "2" {
		t.Errorf("bindings at %s: %v", ss[2].Desc, b)
	}
}

func TestTreeErrors(t *testing.T) {
	for _, c := range []struct {
		files map[string]string
		want  string
	}{
		{map[string]string{"rel.yaml": strings.Replace(treeRelYAML, "syntax: typescript", "syntax: cobol", 1)}, `rel.yaml:1:9: syntax "cobol": no such parser in this mcpt (it has: `},
		{map[string]string{"rel.yaml": strings.Replace(treeRelYAML, "syntax: typescript\n", "", 1)}, "rel.yaml:4:12: region enum: a region with list needs the parser named by syntax:"},
		{map[string]string{"rel.yaml": strings.Replace(treeRelYAML, "(?P<name>[\\w$]+)$'", "(?P<name>[\\w$]+$'", 1)}, "rel.yaml:6:13: bad pattern"},
	} {
		_, err := LoadFiles(write(t, c.files) + "/rel.yaml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error = %v, want %q", err, c.want)
		}
	}
	r := loadFiles(t, map[string]string{"rel.yaml": treeRelYAML})[0]
	_, err := r.Spots(context.Background(), relation.Input{Name: "bad.ts", Src: []byte("export enum A {\n  X,\n  = 3\n}\n")})
	if err == nil || !strings.HasPrefix(err.Error(), "bad.ts:") {
		t.Errorf("a seed that does not parse: error %v, want it at bad.ts:line:col", err)
	}
}

func TestTreeClone(t *testing.T) {
	yml := strings.Replace(treeRelYAML, "    insert: '{{.n}}'", "    clone: {name: '{{.n}}', value: '{{add (len .region.items) 10}}'}", 1)
	r := loadFiles(t, map[string]string{"rel.yaml": yml})[0]
	in := relation.Input{Name: "x.ts", Src: []byte("export enum Color {\n  Red = 1,\n  /** g */\n  Green = 4,\n}\n")}
	ss, _ := r.Spots(context.Background(), in)
	for i, want := range []string{
		"export enum Color {\n  N = 12,\n  Red = 1,\n  /** g */\n  Green = 4,\n}\n",
		"export enum Color {\n  Red = 1,\n  N = 12,\n  /** g */\n  Green = 4,\n}\n",
	} {
		fu, err := r.Mutate(context.Background(), in, ss[i], rngFor(1))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.ReplaceAll(string(fu.Src), fu.Bindings["n"], "N"); got != want {
			t.Errorf("clone at %s:\n%q\nwant\n%q", ss[i].Desc, got, want)
		}
		if fu.Bindings["clone.of"] != "Red" {
			t.Errorf("clone.of = %q, want Red", fu.Bindings["clone.of"])
		}
	}
	for _, c := range []struct{ yml, want string }{
		{strings.Replace(yml, "    fresh: [n]", "    insert: x\n    fresh: [n]", 1), "text or clone, not both"},
		{strings.Replace(yml, "name: '{{.n}}', ", "", 1), "clone needs a name"},
	} {
		_, err := LoadFiles(write(t, map[string]string{"rel.yaml": c.yml}) + "/rel.yaml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error = %v, want %q", err, c.want)
		}
	}
}
