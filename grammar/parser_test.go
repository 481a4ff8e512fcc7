package grammar_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/grammar"
	"github.com/mcpt-tool/mcpt/syntax"
)

func mustParser(t testing.TB, src string) *grammar.Parser {
	t.Helper()
	g, err := grammar.Parse("t.grammar", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return grammar.NewParser(g)
}

// dump prints a tree as nested kinds with texts of leaves.
func dump(tr *syntax.Tree) string {
	var b strings.Builder
	var rec func(n *syntax.Node, depth int)
	rec = func(n *syntax.Node, depth int) {
		if !n.Named {
			return
		}
		fmt.Fprintf(&b, "%s%s", strings.Repeat("  ", depth), n.Kind)
		if n.Field != "" {
			fmt.Fprintf(&b, "(%s)", n.Field)
		}
		named := 0
		for _, c := range n.Children {
			if c.Named {
				named++
			}
		}
		if named == 0 {
			fmt.Fprintf(&b, " %q", n.Text(tr.Src))
		}
		b.WriteByte('\n')
		for _, c := range n.Children {
			rec(c, depth+1)
		}
	}
	rec(tr.Root, 0)
	return b.String()
}

func TestParseCLLExamples(t *testing.T) {
	g, err := grammar.ParseFile("../examples/cll/cll.grammar")
	if err != nil {
		t.Fatal(err)
	}
	p := grammar.NewParser(g)
	files, _ := filepath.Glob("../examples/cll/*.cll")
	if len(files) == 0 {
		t.Fatal("no examples")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Parse(filepath.Base(f), src); err != nil {
			t.Errorf("%v", err)
		}
	}
}

// TestParseGeneratedCLL: every program cll.grammar generates parses back,
// and its tree covers it: the root spans the program and every named node
// of a rule lies inside its parent.
func TestParseGeneratedCLL(t *testing.T) {
	g, err := grammar.ParseFile("../examples/cll/cll.grammar")
	if err != nil {
		t.Fatal(err)
	}
	p := grammar.NewParser(g)
	b, err := grammar.Generate(g, grammar.Options{N: 300, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	for i, prog := range b.Programs {
		tr, err := p.Parse(fmt.Sprintf("seed-%d.cll", i+1), prog.Source)
		if err != nil {
			t.Fatalf("%v\n%s", err, prog.Source)
		}
		if tr.Root.Kind != "program" || tr.Root.Start != 0 || tr.Root.End != len(prog.Source) {
			t.Fatalf("root %s [%d,%d) of a %d-byte program", tr.Root.Kind, tr.Root.Start, tr.Root.End, len(prog.Source))
		}
		syntax.Walk(tr.Root, func(n *syntax.Node) bool {
			if n.Parent != nil && (n.Start < n.Parent.Start || n.End > n.Parent.End) {
				t.Fatalf("%s [%d,%d) outside its parent %s [%d,%d)", n.Kind, n.Start, n.End, n.Parent.Kind, n.Parent.Start, n.Parent.End)
			}
			return true
		})
	}
}

func TestParseTree(t *testing.T) {
	p := mustParser(t, `
%kind var name;
%comment "//" "\n";
%comment "/*" "*/";
program = "vars" @indent(decl{1,4}) "\nbegin" @indent(assign{0,5}) "\nend\n";
decl    = "\n" @new(var) ";";
assign  = "\n" $V=@ref(var) $V " := " expr ";";
expr    = 3: [0-9] | 1: $V=@ref(var) $V | 1: "(" expr " + " expr ")";
name    = [a-z] [a-z0-9]{1,5};
`)
	// Any layout: one line, tabs, CRLF, comments, more items than {1,4}.
	src := "// head\r\nvars a;\tb; /* doc of c */ c;d;e;\r\nbegin a:=(1+b); // trailing\n  c := 2;\nend"
	tr, err := p.Parse("x", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := `program
  comment "// head"
  decl
    var(new) "a"
  decl
    var(new) "b"
  decl
    comment "/* doc of c */"
    var(new) "c"
  decl
    var(new) "d"
  decl
    var(new) "e"
  assign
    var(ref) "a"
    expr
      expr "1"
      expr
        var(ref) "b"
  assign
    comment "// trailing"
    var(ref) "c"
    expr "2"
`
	if got := dump(tr); got != want {
		t.Errorf("tree:\n%s\nwant:\n%s", got, want)
	}
	var decl *syntax.Node
	syntax.Walk(tr.Root, func(n *syntax.Node) bool {
		if n.Kind == "decl" && decl == nil && strings.Contains(n.Text(tr.Src), "c;") {
			decl = n
		}
		return true
	})
	if decl == nil || decl.Text(tr.Src) != "/* doc of c */ c;" {
		t.Errorf("a declaration with its comment spans %q", decl.Text(tr.Src))
	}
}

func TestParseProgramErrors(t *testing.T) {
	p := mustParser(t, `
%kind var name;
program = "vars" decl{1,4} "\nend";
decl    = "\n" @new(var) ";";
name    = [a-z]{1,9};
`[1:])
	tests := []struct{ src, want string }{
		{"vars\n  a;\n  b\nend", `x:4:1: expected ";", found "end"`},
		{"vars\n  a;\nend\nmore", `x:4:1: expected end of file, found "more"`},
		{"varsa; end", `x:1:5: expected white space, found "a"`},
		{"", `x:1:1: expected "vars", found end of file`},
	}
	for _, tt := range tests {
		_, err := p.Parse("x", []byte(tt.src))
		if err == nil || err.Error() != tt.want {
			t.Errorf("Parse(%q) = %v, want %s", tt.src, err, tt.want)
		}
		if _, ok := err.(*syntax.Error); !ok {
			t.Errorf("Parse(%q) error is a %T, not a *syntax.Error", tt.src, err)
		}
	}
}

// TestParseLeftRecursion: a left-recursive rule, direct and through
// another rule, parses, and the tree nests to the left.
func TestParseLeftRecursion(t *testing.T) {
	p := mustParser(t, `
expr = sum;
sum  = sum " - " term | term;
term = [0-9] | "(" expr ")" | call;
call = term "!";
`[1:])
	tr, err := p.Parse("x", []byte("1 - 2 - (3 - 4!)!"))
	if err != nil {
		t.Fatal(err)
	}
	top := tr.Root.Children[0] // sum
	t.Logf("%s", dump(tr))
	if len(top.Children) == 0 || top.Kind != "sum" || top.Children[0].Kind != "sum" || top.Children[0].Text(tr.Src) != "1 - 2" {
		t.Errorf("tree:\n%s", dump(tr))
	}
}

// TestParseWhiteSpace: white space in a literal matches any run of white
// space and comments, none included, but two words never touch.
func TestParseWhiteSpace(t *testing.T) {
	p := mustParser(t, `
%kind t name;
%comment "#" "\n";
program = item{1,3};
item = "\n" "enum " @new(t) " { " @new(t) (", " @new(t)){0,3} " }";
name = [A-Z];
`[1:])
	for _, src := range []string{
		"enum A{B,C}",
		"enum A\n{\n\tB,\n\tC\n}\nenum D { E }",
		"enum A # comment\n{ B }",
	} {
		if _, err := p.Parse("x", []byte(src)); err != nil {
			t.Errorf("Parse(%q): %v", src, err)
		}
	}
	for _, src := range []string{"enumA { B }", "enum A { B C }"} {
		if _, err := p.Parse("x", []byte(src)); err == nil {
			t.Errorf("Parse(%q) succeeded", src)
		}
	}
}

// TestParseBounds: a repetition's maximum is relaxed unless %bounds exact;
// a weight-0 alternative is only read, never derived.
func TestParseBounds(t *testing.T) {
	for _, tt := range []struct {
		dir  string
		want bool
	}{{"", true}, {"%bounds exact;\n", false}} {
		p := mustParser(t, tt.dir+`program = "-"{1,2} | 0: "y";`)
		_, err := p.Parse("x", []byte("- --"))
		if (err == nil) != tt.want {
			t.Errorf("%q: Parse(xxx) = %v", tt.dir, err)
		}
		if _, err := p.Parse("x", []byte("y")); err != nil {
			t.Errorf("%q: Parse(y) = %v", tt.dir, err)
		}
	}
	g, err := grammar.Parse("g", []byte(`program = "x" | 0: "y";`))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		src, err := g.Derive(grammar.NewStream(uint64(i)))
		if err != nil || string(src) != "x" {
			t.Fatalf("derived %q, %v", src, err)
		}
	}
}
