package grammar_test

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/grammar"
)

func mustParse(t testing.TB, src string) *grammar.Grammar {
	t.Helper()
	g, err := grammar.Parse("g", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// nesting is the deepest parenthesis nesting of s.
func nesting(s []byte) int {
	depth, deepest := 0, 0
	for _, c := range s {
		switch c {
		case '(':
			depth++
			deepest = max(deepest, depth)
		case ')':
			depth--
		}
	}
	return deepest
}

// TestDepthLimit checks that a grammar that almost always recurses still
// terminates: beyond the depth limit only the shortest alternative is taken.
func TestDepthLimit(t *testing.T) {
	g := mustParse(t, `%depth 4;
e = 1000: "(" e " + " e ")" | 1: "x";`)
	reached := 0
	for i := range 50 {
		src, err := g.Derive(grammar.NewStream(uint64(i)))
		if err != nil {
			t.Fatal(err)
		}
		// Depths 1 to 4 choose freely; from 5 on only "x".
		if n := nesting(src); n > 4 {
			t.Fatalf("nesting %d beyond the depth limit 4: %s", n, src)
		} else if n == 4 {
			reached++
		}
	}
	if reached < 45 {
		t.Errorf("only %d of 50 programs reached the depth limit; weights ignored?", reached)
	}
}

// TestDepthLimitFallback checks that beyond the depth limit an alternative
// that fails at run time (a reference to a kind with no names) gives way to
// the next shortest.
func TestDepthLimitFallback(t *testing.T) {
	g := mustParse(t, `%depth 2;
%kind k w;
s = e;
e = 100: "(" e ")" | @ref(k) | "zz";
w = "w";`)
	re := regexp.MustCompile(`^\(*zz\)*$`)
	for i := range 30 {
		src, err := g.Derive(grammar.NewStream(uint64(i)))
		if err != nil {
			t.Fatal(err)
		}
		if !re.Match(src) || nesting(src) > 2 {
			t.Fatalf("got %q", src)
		}
	}
}

// TestFreshNames checks that fresh names never fold alike (case and
// underscores aside) and are never reserved, even in a tiny name space;
// when it runs out, @new fails and the repetition stops short.
func TestFreshNames(t *testing.T) {
	g := mustParse(t, `%kind a name;
%kind b name;
%reserve ab BA;
s = ((@new(a) | @new(b)) " "){0,40};
name = [aAbB] [aAbB_] [ab]?;`)
	// Folded ("_" drops out): {a,b}, {a,b}^2 and {a,b}^3 minus ab and ba
	// leaves 12 names.
	sawAll := false
	for i := range 200 {
		src, err := g.Derive(grammar.NewStream(uint64(i)))
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, n := range strings.Fields(string(src)) {
			key := strings.ReplaceAll(strings.ToLower(n), "_", "")
			if seen[key] {
				t.Fatalf("%q folds like an earlier name in %q", n, src)
			}
			if key == "ab" || key == "ba" {
				t.Fatalf("reserved name %q in %q", n, src)
			}
			seen[key] = true
		}
		if len(seen) > 12 {
			t.Fatalf("%d names from a space of 12", len(seen))
		}
		sawAll = sawAll || len(seen) == 12
	}
	if !sawAll {
		t.Error("no program used the whole name space")
	}
}

// TestBindings checks tags, references by tag, @take and rule variants.
func TestBindings(t *testing.T) {
	g := mustParse(t, `%kind k n;
s = decl{3,6} "|" use{5} "|" take{0,8} "|" pick<A> pick<B> pick<C>;
decl = $T=("x" | "y") @new(k, $T) ":" $T " ";
use = $X=@ref(k, x) $X ":" $X.tag " " | "none ";
take = $X=@take(k) $X " ";
pick<A> = "a";
pick<$P> = "(" $P ")";
n = [A-Z] [a-z]{3};`)
	for i := range 100 {
		src, err := g.Derive(grammar.NewStream(uint64(i)))
		if err != nil {
			t.Fatal(err)
		}
		parts := strings.Split(string(src), "|")
		tags := map[string]string{}
		for _, f := range strings.Fields(parts[0]) {
			name, tag, _ := strings.Cut(f, ":")
			tags[name] = tag
		}
		for _, f := range strings.Fields(parts[1]) {
			if f == "none" {
				continue
			}
			name, tag, _ := strings.Cut(f, ":")
			if tag != "x" || tags[name] != "x" {
				t.Fatalf("@ref(k, x) gave %s (declared %q) in %q", f, tags[name], src)
			}
		}
		taken := map[string]bool{}
		for _, f := range strings.Fields(parts[2]) {
			if taken[f] || tags[f] == "" {
				t.Fatalf("@take gave %s twice or undeclared in %q", f, src)
			}
			taken[f] = true
		}
		if parts[3] != "a(B)(C)" {
			t.Fatalf("variants: got %q, want a(B)(C)", parts[3])
		}
	}
}

// TestIndent checks that @indent indents every line it starts, and leaves
// empty lines empty.
func TestIndent(t *testing.T) {
	g := mustParse(t, `%indent "..";
s = "a" @indent("\nb" @indent("\nc\n") "\nd") "\ne";`)
	src, err := g.Derive(grammar.NewStream(1))
	if err != nil {
		t.Fatal(err)
	}
	if want := "a\n..b\n....c\n\n..d\ne"; string(src) != want {
		t.Errorf("got %q, want %q", src, want)
	}
}

// TestReplay checks that a recorded stream derives the same program, and
// that any record, however damaged, still derives one.
func TestReplay(t *testing.T) {
	g := cllGrammar(t)
	b, err := grammar.Generate(g, grammar.Options{N: 50, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range b.Programs {
		src, err := g.Derive(grammar.Replay(p.Choices))
		if err != nil || !bytes.Equal(src, p.Source) {
			t.Fatalf("replay of attempt %d: err %v, differs: %v", p.Attempt, err, !bytes.Equal(src, p.Source))
		}
		src, err = g.Derive(grammar.NewStream(p.Seed))
		if err != nil || !bytes.Equal(src, p.Source) {
			t.Fatalf("NewStream(%d) does not derive attempt %d again", p.Seed, p.Attempt)
		}
		// Truncated, scrambled and out-of-range records still derive.
		for _, c := range [][]int{nil, p.Choices[:len(p.Choices)/2], reversed(p.Choices), huge(len(p.Choices))} {
			if _, err := g.Derive(grammar.Replay(c)); err != nil {
				t.Fatalf("damaged record of attempt %d: %v", p.Attempt, err)
			}
		}
	}
}

func reversed(c []int) []int {
	r := make([]int, len(c))
	for i, v := range c {
		r[len(c)-1-i] = v
	}
	return r
}

func huge(n int) []int {
	r := make([]int, n)
	for i := range r {
		r[i] = 1 << 40
	}
	return r
}

// TestStreamRecord checks the stream's own contract.
func TestStreamRecord(t *testing.T) {
	s := grammar.Replay([]int{2, 7, -1, 1})
	got := []int{s.Draw(3), s.Draw(5), s.Draw(4), s.Draw(1), s.Draw(2), s.Draw(9)}
	if want := []int{2, 0, 0, 0, 1, 0}; !equal(got, want) {
		t.Errorf("draws %v, want %v", got, want)
	}
	// Draws of one value are not recorded; out-of-range values record as 0.
	if want := []int{2, 0, 0, 1, 0}; !equal(s.Choices(), want) {
		t.Errorf("record %v, want %v", s.Choices(), want)
	}
	a, b := grammar.NewStream(9), grammar.NewStream(9)
	for range 100 {
		if a.Draw(1000) != b.Draw(1000) {
			t.Fatal("same seed, different draws")
		}
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestStepBudget checks that a derivation that backs out exponentially
// gives up with an error rather than running on.
func TestStepBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString("%start a0;\n%kind k w;\nw = \"w\";\n")
	for i := range 40 {
		fmt.Fprintf(&b, "a%d = a%d | a%d;\n", i, i+1, i+1)
	}
	b.WriteString("a40 = @ref(k);\n") // no name of k is ever declared
	g := mustParse(t, b.String())
	_, err := g.Derive(grammar.NewStream(1))
	if err == nil || errors.Is(err, grammar.ErrNoDerivation) {
		t.Fatalf("got %v, want the step budget error", err)
	}
	// A derivation that fails quickly says so.
	g = mustParse(t, "%kind k w;\nw = \"w\";\ns = \"x\" | @ref(k) \"y\";\nt = s @ref(k);\n%start t;")
	if _, err := g.Derive(grammar.NewStream(1)); !errors.Is(err, grammar.ErrNoDerivation) {
		t.Fatalf("got %v, want ErrNoDerivation", err)
	}
}

// TestDocExample runs the first example of docs/grammar.md.
func TestDocExample(t *testing.T) {
	g := mustParse(t, `# A list of assignments to declared variables.
%kind var name;

program = "vars" @indent(decl{1,4}) "\nbegin" @indent(assign{0,5}) "\nend\n";
decl    = "\n" @new(var);
assign  = "\n" $V=@ref(var) $V " := " expr ";";
expr    = 3: [0-9] | 1: $V=@ref(var) $V | 1: "(" expr " + " expr ")";
name    = [a-z] [a-z0-9]{1,5};`)
	re := regexp.MustCompile(`^vars(\n  [a-z][a-z0-9]{1,5}){1,4}\nbegin(\n  [a-z0-9]+ := [^;\n]+;){0,5}\nend\n$`)
	for i := range 20 {
		src, err := g.Derive(grammar.NewStream(uint64(i)))
		if err != nil {
			t.Fatal(err)
		}
		if !re.Match(src) {
			t.Fatalf("got %q", src)
		}
	}
}
