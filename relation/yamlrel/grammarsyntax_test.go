package yamlrel

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"github.com/mcpt-tool/mcpt/relation"
)

const enumGrammar = `%start file;
%comment "//" "\n";
%kind enum ename;
%kind value ename;
ename = [A-Z] [a-z]{2,5};
file  = enum{1,3};
enum  = "\nenum " @new(enum) " " body;
body  = "{" (@new(value) ("," @new(value)){0,5} ","?)? "}";
`

const grammarRelYAML = `syntax: ../lang/enums.grammar
regions:
  enum:
    node: [body]
    header: '^enum (?P<name>\w+)$'
    sep: ','
kinds:
  member: {region: enum, node: [value], match: '^(?P<name>\w+)$'}
relations:
  - name: add-member
    doc: Add a member.
    spots: {boundaries: enum}
    fresh: [n]
    insert: '{{.n}}'
    checks:
      - equivalence: {}
`

func grammarFS(rel, gram string) fstest.MapFS {
	return fstest.MapFS{
		"pack/rels/rel.yaml":      {Data: []byte(rel)},
		"pack/rels/other.yaml":    {Data: []byte("syntax: ../lang/enums.grammar\n")},
		"pack/lang/enums.grammar": {Data: []byte(gram)},
		"pack/lang/other.grammar": {Data: []byte(gram)},
	}
}

// A relation file names a grammar file as its parser: the spots come from
// the grammar's tree, in every layout of the same enums.
func TestSyntaxGrammarFile(t *testing.T) {
	rels, err := Load(grammarFS(grammarRelYAML, enumGrammar), "pack/rels/rel.yaml", "pack/rels/other.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := "body of Color, before Red|body of Color, between Red and Green|body of Color, after Green"
	for _, src := range []string{
		"enum Color {\n  Red,\n  Green\n}\n",
		"enum Color { Red, Green, }",
		"// c\r\nenum Color\r\n{\r\n\t// red\r\n\tRed, // r\r\n\tGreen\r\n}\r\n",
	} {
		ss, err := rels[0].Spots(context.Background(), relation.Input{Name: "x.enums", Src: []byte(src)})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range ss {
			got = append(got, s.Desc)
		}
		if g := strings.Join(got, "|"); g != want {
			t.Errorf("spots of %q:\n%s\nwant\n%s", src, g, want)
		}
	}
	if _, err := rels[0].Spots(context.Background(), relation.Input{Name: "x.enums", Src: []byte("enum Color { Red Green }")}); err == nil {
		t.Error("an input the grammar does not read gave no error")
	}
}

// Loading the relations again reuses the parser of the same grammar file.
func TestSyntaxGrammarCached(t *testing.T) {
	fsys := grammarFS(grammarRelYAML, enumGrammar)
	var parsers []any
	for range 2 {
		l := newLoader(fsys)
		l.loadFile("pack/rels/rel.yaml", "rel.yaml", yamlpos.Pos{})
		if err := l.errs.Err(); err != nil {
			t.Fatal(err)
		}
		parsers = append(parsers, l.d.syntax.parser)
	}
	if parsers[0] != parsers[1] {
		t.Error("the grammar file was compiled twice")
	}
}
