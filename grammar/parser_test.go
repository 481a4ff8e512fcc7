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

// TestParseRepetitionMostItems: where an item may also hold two, an
// unbounded repetition reads the fewest items, or with %repetitions most
// the most, each the shortest: two words on two lines are then two items,
// not one item of two words.
func TestParseRepetitionMostItems(t *testing.T) {
	for _, tt := range []struct{ dir, want string }{
		{"", "ab cd|ef gh"},
		{"%repetitions fewest;\n", "ab cd|ef gh"},
		{"%repetitions most;\n", "ab|cd|ef|gh"},
	} {
		p := mustParser(t, tt.dir+`program = item{1,5};
item = "\n" w | "\n" w " " w;
w = [a-z]{1,8};`)
		tr, err := p.Parse("x", []byte("ab cd\nef gh"))
		if err != nil {
			t.Fatal(err)
		}
		var items []string
		for _, c := range tr.Root.Children {
			if c.Kind == "item" {
				items = append(items, c.Text(tr.Src))
			}
		}
		if strings.Join(items, "|") != tt.want {
			t.Errorf("%q: items %q, want %q", tt.dir, items, tt.want)
		}
	}
	if _, err := grammar.Parse("g", []byte("%repetitions many;\nprogram = \"x\";")); err == nil || !strings.Contains(err.Error(), "unknown repetitions mode many") {
		t.Errorf("a bad mode: %v", err)
	}
}

// TestParseBodiesAsRuns: the statements of a body and of each branch of a
// conditional are lists of their own (syntax.ListSpec.Runs), an empty body
// is an empty list, and a statement goes where each spot says.
func TestParseBodiesAsRuns(t *testing.T) {
	p := mustParser(t, `%start program;
%repetitions most;
%kind var w;
w = [a-z];
program = "init" @indent(body) "\ncycle" @indent(body) "\n";
body = stmt{0,5};
stmt = "\n" simple | "\n" cond;
simple = "set " @new(var);
cond = "if " @ref(var) " then" @indent(stmt{0,3}) ("\nelse" @indent(stmt{0,3}))? "\nend";`)
	src := []byte("init\ncycle\n  if a then set b set c else set d end\n")
	tr, err := p.Parse("x", src)
	if err != nil {
		t.Fatal(err)
	}
	ls := syntax.Lists(tr, syntax.ListSpec{Lists: []string{"body", "cond"}, Members: []string{"stmt"}, Runs: true})
	var got []string
	for _, l := range ls {
		var ms []string
		for _, m := range l.Members {
			ms = append(ms, m.Text())
		}
		got = append(got, l.Name+": "+strings.Join(ms, "; "))
	}
	want := []string{"body: ", "body: if a then set b set c else set d end", "cond then: set b; set c", "cond else: set d"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("lists\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, tt := range []struct {
		list, spot int
		desc, out  string
	}{
		{0, 0, "body, empty", "init\n  set z\ncycle\n  if a then set b set c else set d end\n"},
		{2, 1, "cond then, between b and c", "init\ncycle\n  if a then set b set z set c else set d end\n"},
		{3, 1, "cond else, after d", "init\ncycle\n  if a then set b set c else set d set z end\n"},
	} {
		sp := ls[tt.list].Spots()[tt.spot]
		if sp.Desc != tt.desc {
			t.Errorf("spot %d of list %d: %q, want %q", tt.spot, tt.list, sp.Desc, tt.desc)
		}
		if out := string(sp.Insert("set z").Apply(src)); out != tt.out {
			t.Errorf("%s: %q, want %q", tt.desc, out, tt.out)
		}
	}
}

// TestParseAs: a fragment is read as one node of a rule (a declaration a
// mutation inserts), with the comments before it; a fragment of another
// rule, and a rule the grammar has not, are errors.
func TestParseAs(t *testing.T) {
	g, err := grammar.ParseFile("../examples/cll/cll.grammar")
	if err != nil {
		t.Fatal(err)
	}
	p := grammar.NewParser(g)
	tr, err := p.ParseAs("x", "decl", []byte("// new\nenumeration Col { Red, Green }"))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Root.Kind != "decl" || !strings.Contains(dump(tr), "enumeration\n") || !strings.Contains(dump(tr), `value(new) "Green"`) {
		t.Errorf("tree:\n%s", dump(tr))
	}
	if _, err := p.ParseAs("x", "decl", []byte("set V = 1")); err == nil {
		t.Error("a statement read as a declaration")
	}
	if _, err := p.ParseAs("x", "stmt", []byte("set V = 1")); err != nil {
		t.Errorf("a statement: %v", err)
	}
	if _, err := p.ParseAs("x", "nosuchrule", []byte("x")); err == nil || !strings.Contains(err.Error(), "no rule nosuchrule") {
		t.Errorf("an unknown rule: %v", err)
	}
}
