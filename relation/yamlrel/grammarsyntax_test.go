package yamlrel

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/tree"
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
    list: [body]
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
		l := &loader{d: newDefs(), seen: map[string]bool{}, fsys: fsys}
		l.loadFile("pack/rels/rel.yaml", "rel.yaml", yamlpos.Pos{})
		if err := l.errs.Err(); err != nil {
			t.Fatal(err)
		}
		parsers = append(parsers, l.d.parser)
	}
	if parsers[0] != parsers[1] {
		t.Error("the grammar file was compiled twice")
	}
}

func TestSyntaxGrammarErrors(t *testing.T) {
	for _, c := range []struct {
		name, rel, gram, want string
	}{
		{"missing", "syntax: nothere.grammar\n", enumGrammar, `rel.yaml:1:9: syntax "nothere.grammar": cannot read the grammar`},
		{"outside", "syntax: ../../../x.grammar\n", enumGrammar, `rel.yaml:1:9: syntax "../../../x.grammar": the grammar is not among the relation files`},
		{"bad grammar", grammarRelYAML, "file = undefined;\n", `rel.yaml:1:9: syntax "../lang/enums.grammar": ` + "pack/lang/enums.grammar:1:8"},
		{"two grammars", "syntax: ../lang/other.grammar\ninclude: [other.yaml]\n", enumGrammar, `rel.yaml:1:9: syntax "../lang/other.grammar": the relations already use "pack/lang/enums.grammar"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load(grammarFS(c.rel, c.gram), "pack/rels/rel.yaml")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one with %q", err, c.want)
			}
		})
	}
}

// A list of one member shows no separator: the region's sep is the one the
// inserted member takes.
func TestSyntaxGrammarSep(t *testing.T) {
	fu := mutateGrammar(t, grammarRelYAML, "enum Color {\n  Red\n}\n", 1)
	if got := string(fu.Src); !regexp.MustCompile(`^enum Color \{\n  Red,\n  Zq[a-z]{6}\n\}\n$`).MatchString(got) {
		t.Errorf("follow-up:\n%s", got)
	}
}

const outRelYAML = `syntax: ../lang/enums.grammar
regions:
  enum: {list: [body], header: '^enum (?P<name>\w+)$', sep: ','}
kinds:
  member: {region: enum, node: [value], match: '^(?P<name>\w+)$'}
let:
  - of: '^enum %s$'
relations:
  - name: add-member
    doc: Add a member.
    spots: {boundaries: enum}
    fresh: [n]
    insert: '{{.n}}'
    checks:
      - equivalence: {except: ['{{holding (printf .of .region.name) .out}}', '{{dir (holding "^enum " .out)}}/{{.n}}.txt']}
      - created: {file: '{{dir (holding "^enum " .out)}}/{{.n}}.txt', content: "{{.n}}\n"}
      - difference:
          file: '{{holding (printf .of .region.name) .out}}'
          edits:
            - insert: '  {{.n}}'
              where: [{end: true}]
`

// Checks whose file names use .out find the files in the base output:
// the generator's directory is nobody's guess.
func TestFilesFoundInOutput(t *testing.T) {
	fu := mutateGrammar(t, outRelYAML, "enum Color { Red }\n", 1)
	n := fu.Bindings["n"]
	o := tree.Tree{"gen/my-enums/color.txt": []byte("enum Color\n  Red\n"), "gen/index.txt": []byte("color\n")}
	good := tree.Tree{"gen/my-enums/color.txt": []byte("enum Color\n  Red\n  " + n + "\n"), "gen/index.txt": o["gen/index.txt"], "gen/my-enums/" + n + ".txt": []byte(n + "\n")}
	if fails := fu.Check(o, good); len(fails) != 0 {
		t.Fatalf("false alarm: %+v", fails)
	}
	bad := tree.Tree{"gen/my-enums/color.txt": o["gen/my-enums/color.txt"], "gen/index.txt": o["gen/index.txt"], "gen/" + n + ".txt": []byte(n + "\n")}
	var got []string
	for _, f := range fu.Check(o, bad) {
		got = append(got, f.Checker)
	}
	slices.Sort(got)
	if want := []string{"created:gen/my-enums/" + n + ".txt", "difference:gen/my-enums/color.txt", "equivalence"}; !slices.Equal(got, want) {
		t.Errorf("failed checkers %v, want %v", got, want)
	}
}

// A list node of mcpt's grammar notation may hold its declaration too
// (`enum Color : int { … }`): its brackets are its braces, its header the
// text before them, and it is named by the name it declares. A doc comment
// before a member is the member's (leading), not part of its text.
func TestSyntaxGrammarFlatList(t *testing.T) {
	const gram = `%start file;
%comment "//" "\n";
%kind enum ename;
%kind value ename;
ename = [A-Z] [a-z]{2,5};
file  = enum{1,3};
enum  = "\nenum " @new(enum) " : int {" (@new(value) ("," @new(value)){0,5} ","?)? "}";
`
	const rel = `syntax: ../lang/enums.grammar
regions:
  enum: {list: [enum], header: '^enum (?P<name>\w+) : (?P<type>\w+)$'}
kinds:
  member: {region: enum, node: [value], match: '^(?P<name>\w+)$'}
relations:
  - name: add-member
    doc: Add a member.
    spots: {boundaries: enum, when: '{{.region.type}}{{range .region.items}}{{.name}}{{range .leading}}{{.}}{{end}}{{end}}'}
    fresh: [n]
    insert: '{{.n}}'
    checks: [{equivalence: {}}]
`
	rels, err := Load(grammarFS(rel, gram), "pack/rels/rel.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{"enum Color : int { Red, Green }", "enum Color : int\n{\n  /// the red\n  Red,\n  Green,\n}\n"} {
		ss, err := rels[0].Spots(context.Background(), relation.Input{Name: "x.enums", Src: []byte(src)})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range ss {
			got = append(got, s.Desc)
		}
		if want := "enum Color, before Red|enum Color, between Red and Green|enum Color, after Green"; strings.Join(got, "|") != want {
			t.Errorf("spots of %q: %s, want %s", src, strings.Join(got, "|"), want)
		}
	}
}

// mutateGrammar loads the relation file rel (over enumGrammar) and mutates
// src at the spot with index spot.
func mutateGrammar(t *testing.T, rel, src string, spot int) *relation.FollowUp {
	t.Helper()
	rels, err := Load(grammarFS(rel, enumGrammar), "pack/rels/rel.yaml")
	if err != nil {
		t.Fatal(err)
	}
	in := relation.Input{Name: "x.enums", Src: []byte(src)}
	ss, err := rels[0].Spots(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	fu, err := rels[0].Mutate(context.Background(), in, ss[spot], rngFor(1))
	if err != nil {
		t.Fatal(err)
	}
	return fu
}

// A comment that ends a member's line belongs to that member, although the
// grammar notation attaches it to the member after it: a new member goes
// after the comment, not between the member and its comment.
func TestSyntaxGrammarTrailingComment(t *testing.T) {
	rels, err := Load(grammarFS(grammarRelYAML, enumGrammar), "pack/rels/rel.yaml", "pack/rels/other.yaml")
	if err != nil {
		t.Fatal(err)
	}
	in := relation.Input{Name: "x.enums", Src: []byte("enum Color {\n  Red, // r\n  // g\n  Green\n}\n")}
	ss, err := rels[0].Spots(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	fu, err := rels[0].Mutate(context.Background(), in, ss[1], rngFor(1))
	if err != nil {
		t.Fatal(err)
	}
	want := "enum Color {\n  Red, // r\n  N,\n  // g\n  Green\n}\n"
	if got := strings.ReplaceAll(string(fu.Src), fu.Bindings["n"], "N"); got != want {
		t.Errorf("insert at %s:\n%q\nwant\n%q", ss[1].Desc, got, want)
	}
}

// A member whose doc comment the grammar attaches inside it (to the rule
// it wraps) is matched by its kind without the comment.
func TestSyntaxGrammarWrappedComment(t *testing.T) {
	gram := strings.Replace(enumGrammar, "file  = enum{1,3};", "file  = top{1,3};\ntop = enum;", 1)
	rel := `syntax: ../lang/enums.grammar
regions:
  file: {list: [file], members: [top]}
kinds:
  decl: {region: file, match: '^enum (?P<name>\w+)'}
relations:
  - name: add-enum
    doc: Add an enum.
    spots: {boundaries: file}
    fresh: [n]
    insert: 'enum {{.n}} {}'
    checks:
      - equivalence: {}
`
	rels, err := Load(grammarFS(rel, gram), "pack/rels/rel.yaml")
	if err != nil {
		t.Fatal(err)
	}
	in := relation.Input{Name: "x.enums", Src: []byte("// doc\nenum Color { Red }\n\n// doc\nenum Size { Big }\n")}
	ss, err := rels[0].Spots(context.Background(), in)
	if err != nil || len(ss) != 3 {
		t.Fatalf("spots %v, %v", ss, err)
	}
	fu, err := rels[0].Mutate(context.Background(), in, ss[2], rngFor(1))
	if err != nil {
		t.Fatal(err)
	}
	if got := fu.Bindings["prev.decl"]; got != "Size" {
		t.Errorf("prev.decl = %q, want Size (the kind did not match a member with its doc comment)", got)
	}
}
