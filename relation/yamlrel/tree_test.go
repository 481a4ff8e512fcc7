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

// TestTreeUnknownSyntax: the list of parsers that the message names is
// not fixed (a test registers its own), so this case is no golden
// archive; testdata/errors/tree.txtar has the other mistakes.
func TestTreeUnknownSyntax(t *testing.T) {
	_, err := LoadFiles(write(t, map[string]string{"rel.yaml": strings.Replace(treeRelYAML, "syntax: typescript", "syntax: cobol", 1)}) + "/rel.yaml")
	if want := `rel.yaml:1:9: syntax "cobol": no such parser in this mcpt (it has: `; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error = %v, want %q", err, want)
	}
}
