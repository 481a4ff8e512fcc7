package infer

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/numlit"
	"github.com/mcpt-tool/mcpt/relation/yamlrel"
	"github.com/mcpt-tool/mcpt/syntax"
	"github.com/mcpt-tool/mcpt/syntax/lang"
	"github.com/mcpt-tool/mcpt/tree"
)

const thriftSeed = `struct User {
  1: string display_name,
  2: i32 age,
}

struct Group {
  1: string title,
  2: list<User> members,
}

enum Color {
  RED = 1,
  GREEN = 2,
}
`

// parseThrift reads src with the thrift language's parser.
func parseThrift(t *testing.T, src string) *syntax.Tree {
	t.Helper()
	l, ok := lang.Of("x.thrift")
	if !ok {
		t.Fatal("no language for .thrift")
	}
	p, err := l.Parser(nil)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := p.Parse("x.thrift", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func listOf(lists []*List, typ string) *List {
	for _, l := range lists {
		if l.Type == typ {
			return l
		}
	}
	return nil
}

func kindOf(l *List, node string) *Kind {
	for _, k := range l.Kinds {
		if k.Node == node {
			return k
		}
	}
	return nil
}

// Structure finds the top-level definitions, a struct's fields (whose
// ids no two fields of a struct share: a copy takes a fresh one) and an
// enum's values.
func TestStructure(t *testing.T) {
	lists := Structure([]*syntax.Tree{parseThrift(t, thriftSeed)}, numlit.Decimal)
	var types []string
	for _, l := range lists {
		types = append(types, l.Type)
	}
	doc := listOf(lists, "document")
	if doc == nil || !doc.Root {
		t.Fatalf("no root list document among %v", types)
	}
	for _, k := range []string{"struct", "enum_def"} {
		if kindOf(doc, k) == nil {
			t.Errorf("document: no kind %s", k)
		}
	}
	if st := kindOf(doc, "struct"); st != nil && !st.Inner {
		t.Error("a struct declares names inside it: Inner is false")
	}
	var fields *Kind
	for _, l := range lists {
		if k := kindOf(l, "field"); k != nil {
			fields = k
		}
	}
	if fields == nil {
		t.Fatalf("no list holds fields (lists %v)", types)
	}
	if len(fields.Numbers) == 0 {
		t.Error("fields: their ids are not numbers a copy takes fresh")
	}
}

// Learn finds the name forms the output writes the seed's names in (a
// form is the generator's for three names at least), and
// the relations of the pack it makes load as relation files and have
// spots on the seed: what mcpt infer writes is what runs.
func TestPackLoads(t *testing.T) {
	tr := parseThrift(t, thriftSeed)
	lists := Structure([]*syntax.Tree{tr}, numlit.Decimal)
	out := tree.Tree{"gen/x.h": []byte(`class User {
  std::string display_name;
  int32_t age;
  void setDisplayName(std::string v);
  int32_t getAge();
};
class Group {
  std::string title;
  std::vector<User> members;
  std::string getTitle();
  void setMembers(std::vector<User> v);
};
enum Color { COLOR_RED = 1, COLOR_GREEN = 2 };
`)}
	h := Learn([]Sample{{Tree: tr, Output: out}}, lists, numlit.Decimal)
	if !slices.Contains(h.Forms, "written") || !slices.Contains(h.Forms, "pascal") {
		t.Errorf("forms %v: want written (display_name) and pascal (DisplayName)", h.Forms)
	}
	p := &Pack{Syntax: "thrift", Numbers: "decimal", Lists: lists, Habits: h, Seeds: 1, Left: map[string]string{}, notes: map[string][]string{}}
	names, files := p.Files()
	fsys := fstest.MapFS{}
	for _, n := range names {
		fsys[n] = &fstest.MapFile{Data: files[n]}
	}
	rels, err := yamlrel.LoadWith(yamlrel.Options{Generic: h.Generic}, fsys, names...)
	if err != nil {
		for _, n := range names {
			t.Logf("%s:\n%s", n, files[n])
		}
		t.Fatal(err)
	}
	if len(rels) != len(p.Relations()) {
		t.Errorf("%d relations loaded, the pack has %d", len(rels), len(p.Relations()))
	}
	spots := 0
	for _, r := range rels {
		ss, err := r.Spots(context.Background(), relation.Input{Name: "x.thrift", Src: []byte(thriftSeed)})
		if err != nil {
			t.Fatalf("%s: %v", r.Name, err)
		}
		spots += len(ss)
	}
	if spots == 0 {
		t.Error("the inferred relations have no spot on the seed they were inferred from")
	}
}

// A line that holds a serialized blob (protoc's Python descriptor) is a
// table of its own: every declaration more changes it.
func TestLearnBlob(t *testing.T) {
	tr := parseThrift(t, thriftSeed)
	tr2 := parseThrift(t, "struct Other {\n  1: i32 id,\n  2: i32 size,\n}\n")
	blob := func(s string) []byte {
		return []byte("x = 1\nDESCRIPTOR = _pool.Default().AddSerializedFile(b'" + strings.Repeat(s, 80) + "')\n")
	}
	samples := []Sample{{Tree: tr, Output: tree.Tree{"x_pb2.py": blob(`\n\x05`)}}, {Tree: tr2, Output: tree.Tree{"x_pb2.py": blob(`\x12\x03`)}}}
	lists := Structure([]*syntax.Tree{tr, tr2}, numlit.Decimal)
	h := Learn(samples, lists, numlit.Decimal)
	line := "DESCRIPTOR = _pool.Default().AddSerializedFile(b'" + strings.Repeat(`\x0a`, 90) + "')"
	if !slices.ContainsFunc(h.Tables, func(p string) bool { return regexp.MustCompile(p).MatchString(line) }) {
		t.Errorf("no table pattern matches the descriptor line: %q", h.Tables)
	}
	if slices.ContainsFunc(h.Tables, func(p string) bool { return regexp.MustCompile(p).MatchString("x = 1") }) {
		t.Errorf("a table pattern matches a short line: %q", h.Tables)
	}
}

// A table's rows joined by + (a serialized descriptor written as string
// literals, protoc's Java and Go) make a table whose pattern takes the
// last row too, which has no +.
func TestLearnTableLastRow(t *testing.T) {
	tr := parseThrift(t, thriftSeed)
	tr2 := parseThrift(t, "struct Other {\n  1: i32 id,\n  2: i32 size,\n}\n")
	rows := func(s string) []byte {
		return []byte("String[] data = {\n" + strings.Repeat(`  "\n\022`+s+`\010" +`+"\n", 5) + `  "rotosH\001\210\001"` + "\n};\n")
	}
	samples := []Sample{{Tree: tr, Output: tree.Tree{"A.java": rows("abc")}}, {Tree: tr2, Output: tree.Tree{"A.java": rows("xyz")}}}
	h := Learn(samples, Structure([]*syntax.Tree{tr, tr2}, numlit.Decimal), numlit.Decimal)
	for _, line := range []string{`  "\n\022Master.proto\022" +`, `  "rotosH\001\210\001\001\240\001\001"`} {
		if !slices.ContainsFunc(h.Tables, func(p string) bool { return regexp.MustCompile(p).MatchString(line) }) {
			t.Errorf("no table pattern matches %s: %q", line, h.Tables)
		}
	}
}

// A run of lines each of which holds a declared name as a string (an enum's
// values by name: protoc-c's { "RED", "COLOR__RED", 1 }) is no table: a
// declaration more changes it by its own row only, and a row that comes
// back or goes is a finding.
func TestLearnNoTableOfNames(t *testing.T) {
	tr := parseThrift(t, thriftSeed)
	tr2 := parseThrift(t, "enum Shade {\n  LIGHT = 1,\n  DARK = 2,\n  DIM = 3,\n  PALE = 4,\n}\n")
	rows := func(names ...string) []byte {
		var b strings.Builder
		b.WriteString("static const Values by_name[] = {\n")
		for i, n := range names {
			b.WriteString(`  { "` + n + `", ` + strings.Repeat("1", i+1) + " },\n")
		}
		b.WriteString("};\n")
		return []byte(b.String())
	}
	samples := []Sample{
		{Tree: tr, Output: tree.Tree{"a.c": rows("RED", "GREEN", "User", "Group", "age")}},
		{Tree: tr2, Output: tree.Tree{"b.c": rows("LIGHT", "DARK", "DIM", "PALE", "Shade")}},
	}
	h := Learn(samples, Structure([]*syntax.Tree{tr, tr2}, numlit.Decimal), numlit.Decimal)
	if slices.ContainsFunc(h.Tables, func(p string) bool { return regexp.MustCompile(p).MatchString(`  { "BLUE", 4 },`) }) {
		t.Errorf("a table pattern matches a row of a name: %q", h.Tables)
	}
	if !namesInString(`  { "GREEN", 2 },`, []string{"GREEN"}) || namesInString(`  "\n\022GREEN\020",`, []string{"GREEN"}) {
		t.Error("namesInString: a string that is a name, and only such, names one")
	}
}

// protoc-gen-go's output is gofmt's: the constants of a block and the
// entries of a map aligned in columns, which a longer new name pads anew
// (an enum value copied as ZQIDEAHR_DEAH). The generator's habit is
// learned for its .go files, and the rule it makes writes each run of
// spaces after a word as one; Java's output, unaligned, has none.
func TestLearnColumns(t *testing.T) {
	tr := parseSeed(t, "ours-layout.proto", "syntax = \"proto3\";\nenum Kind { KIND_A = 0; KIND_UNSPECIFIED = 1; KIND_B = 2; }\n")
	tr2 := parseSeed(t, "state.proto", "syntax = \"proto3\";\nenum State { ENABLED = 0; DISABLING = 1; OFF = 2; }\n")
	goOut := func(enum string, values ...string) []byte {
		var b strings.Builder
		b.WriteString("const (\n")
		width := 0
		for _, v := range values {
			width = max(width, len(enum)+1+len(v))
		}
		for i, v := range values {
			fmt.Fprintf(&b, "\t%-*s %s = %d\n", width, enum+"_"+v, enum, i)
		}
		b.WriteString(")\n\n\t" + enum + "_value = map[string]int32{\n")
		for i, v := range values {
			fmt.Fprintf(&b, "\t\t%-*s %d,\n", width-len(enum)+2, `"`+v+`":`, i)
		}
		b.WriteString("\t}\n")
		return []byte(b.String())
	}
	samples := []Sample{
		{Tree: tr, Output: tree.Tree{"ours-layout.pb.go": goOut("Kind", "KIND_A", "KIND_UNSPECIFIED", "KIND_B"), "OursLayout.java": []byte("    KIND_A(0),\n    KIND_UNSPECIFIED(1),\n    KIND_B(2),\n")}},
		{Tree: tr2, Output: tree.Tree{"state.pb.go": goOut("State", "ENABLED", "DISABLING", "OFF"), "State.java": []byte("    ENABLED(0),\n    DISABLING(1),\n    OFF(2),\n")}},
	}
	if got := string(samples[0].Output["ours-layout.pb.go"]); !strings.Contains(got, "\tKind_KIND_A           Kind = 0\n") || !strings.Contains(got, "\t\t\"KIND_A\":           0,\n") {
		t.Fatalf("the output is not protoc-gen-go's:\n%s", got)
	}
	h := Learn(samples, Structure([]*syntax.Tree{tr, tr2}, numlit.Decimal), numlit.Decimal)
	if !slices.Equal(h.Columns, []string{"*.go"}) {
		t.Fatalf("Columns = %q, want [*.go]", h.Columns)
	}
	rule, ok := (&Pack{Habits: h}).ColumnsRule()
	if !ok {
		t.Fatal("no rule for the columns")
	}
	out := oracle.Normalizer{rule}.Apply(tree.Tree{"a.pb.go": []byte("\tKind_KIND_A           Kind = 1\n\t\t\"KIND_A\":           1,\n"), "A.java": []byte("  x  =  1;\n")})
	if got, want := string(out["a.pb.go"]), "\tKind_KIND_A Kind = 1\n\t\t\"KIND_A\": 1,\n"; got != want {
		t.Errorf("normalised:\n%q\nwant\n%q", got, want)
	}
	if got := string(out["A.java"]); got != "  x  =  1;\n" {
		t.Errorf("a file of another extension normalised: %q", got)
	}
	for _, s := range samples {
		delete(s.Output, "ours-layout.pb.go")
		delete(s.Output, "state.pb.go")
	}
	if got := columns(samples); got != nil {
		t.Errorf("Java's enum values: Columns = %q, want none", got)
	}
}
