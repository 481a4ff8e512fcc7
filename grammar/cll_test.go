package grammar_test

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/cll"
	"github.com/mcpt-tool/mcpt/cll/ast"
	"github.com/mcpt-tool/mcpt/cll/parser"
	"github.com/mcpt-tool/mcpt/grammar"
)

// The tests of this file run examples/cll/cll.grammar and judge its
// programs with the reference CLL transpiler.

func cllGrammar(t testing.TB) *grammar.Grammar {
	t.Helper()
	g, err := grammar.ParseFile("../examples/cll/cll.grammar")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func transpiles(src []byte) error {
	_, err := cll.Transpile("seed.cll", src)
	return err
}

// TestCLLValidity checks that at least 95% of 1,000 programs are accepted
// by the reference transpiler (the grammar aims at all of them), and shows
// every rejection.
func TestCLLValidity(t *testing.T) {
	g := cllGrammar(t)
	b, err := grammar.Generate(g, grammar.Options{N: 1000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Programs) != 1000 {
		t.Fatalf("%d programs (generated %d, failed %d, duplicates %d)", len(b.Programs), b.Generated, b.Failed, b.Duplicates)
	}
	rejected := 0
	for _, p := range b.Programs {
		if err := transpiles(p.Source); err != nil {
			rejected++
			if rejected <= 5 {
				t.Logf("rejected (attempt %d, seed %d): %v\n%s", p.Attempt, p.Seed, err, p.Source)
			}
		}
	}
	t.Logf("%d of 1000 programs accepted", 1000-rejected)
	if rejected > 50 {
		t.Errorf("%d of 1000 programs rejected, want at most 50", rejected)
	}
}

// TestCLLZeroStream checks that the all-zero stream, which every exhausted
// record ends in, derives a valid program.
func TestCLLZeroStream(t *testing.T) {
	g := cllGrammar(t)
	src, err := g.Derive(grammar.Replay(nil))
	if err != nil {
		t.Fatal(err)
	}
	if err := transpiles(src); err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
}

// TestCLLCoverage checks that 300 programs use every alternative of the
// grammar.
func TestCLLCoverage(t *testing.T) {
	g := cllGrammar(t)
	b, err := grammar.Generate(g, grammar.Options{N: 300, Seed: 2, Accept: func(src []byte) bool { return transpiles(src) == nil }})
	if err != nil {
		t.Fatal(err)
	}
	c := b.Coverage
	t.Logf("coverage %d/%d", c.Used, c.Total)
	if c.Used != c.Total || c.Total != g.Alternatives() || len(c.Unused) != 0 {
		t.Errorf("coverage %d/%d; unused:\n%s", c.Used, c.Total, strings.Join(c.Unused, "\n"))
	}
}

// TestCLLSizes checks that program sizes spread from about ten lines to a
// few hundred.
func TestCLLSizes(t *testing.T) {
	g := cllGrammar(t)
	b, err := grammar.Generate(g, grammar.Options{N: 300, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, p := range b.Programs {
		lines = append(lines, p.Lines())
	}
	sort.Ints(lines)
	lo, mid, hi := lines[0], lines[len(lines)/2], lines[len(lines)-1]
	t.Logf("lines: min %d, median %d, max %d", lo, mid, hi)
	if lo > 15 || hi < 200 {
		t.Errorf("lines: min %d (want <= 15), max %d (want >= 200)", lo, hi)
	}
}

// TestCLLLayout checks the conventions the relations rely on: lines
// indented, no name starting with Zq, no trailing blanks.
func TestCLLLayout(t *testing.T) {
	g := cllGrammar(t)
	b, err := grammar.Generate(g, grammar.Options{N: 200, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range b.Programs {
		for i, line := range strings.Split(string(p.Source), "\n") {
			if strings.TrimRight(line, " \t") != line {
				t.Fatalf("attempt %d line %d has trailing blanks: %q", p.Attempt, i+1, line)
			}
			words := strings.FieldsFunc(line, func(r rune) bool {
				return !(r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9')
			})
			for _, w := range words {
				if strings.HasPrefix(w, "Zq") {
					t.Fatalf("attempt %d line %d: name %s starts with Zq: %q", p.Attempt, i+1, w, line)
				}
			}
			if line != "" && line[0] == ' ' && !strings.HasPrefix(line, "  ") {
				t.Fatalf("attempt %d line %d badly indented: %q", p.Attempt, i+1, line)
			}
		}
	}
}

// TestGenerateDeterministic checks that a batch depends on the seed only,
// not on the number of workers.
func TestGenerateDeterministic(t *testing.T) {
	g := cllGrammar(t)
	accept := func(src []byte) bool { return transpiles(src) == nil }
	a, err := grammar.Generate(g, grammar.Options{N: 60, Seed: 42, Accept: accept})
	if err != nil {
		t.Fatal(err)
	}
	b, err := grammar.Generate(g, grammar.Options{N: 60, Seed: 42, Accept: accept, Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	c, err := grammar.Generate(g, grammar.Options{N: 60, Seed: 43})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Programs) != 60 || len(b.Programs) != 60 {
		t.Fatalf("%d and %d programs", len(a.Programs), len(b.Programs))
	}
	for i := range a.Programs {
		pa, pb := a.Programs[i], b.Programs[i]
		if !bytes.Equal(pa.Source, pb.Source) || !slices.Equal(pa.Choices, pb.Choices) || pa.Seed != pb.Seed {
			t.Fatalf("program %d differs between runs with the same seed", i)
		}
	}
	if a.Coverage.Used != b.Coverage.Used || a.Generated != b.Generated {
		t.Errorf("counts differ: %+v vs %+v", a.Coverage, b.Coverage)
	}
	same := 0
	for i := range a.Programs {
		if bytes.Equal(a.Programs[i].Source, c.Programs[i].Source) {
			same++
		}
	}
	if same > 0 {
		t.Errorf("%d programs identical across seeds 42 and 43", same)
	}
}

// TestGenerateCounts checks the counts of duplicates and rejections.
func TestGenerateCounts(t *testing.T) {
	g := mustParse(t, `s = "a" | "b" | "c";`)
	b, err := grammar.Generate(g, grammar.Options{N: 5, Seed: 1, MaxAttempts: 40,
		Accept: func(src []byte) bool { return string(src) != "c" }})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range b.Programs {
		got = append(got, string(p.Source))
	}
	sort.Strings(got)
	if strings.Join(got, ",") != "a,b" || b.Generated != 40 || b.Accepted != 2 || b.Rejected != 1 || b.Duplicates != 37 {
		t.Errorf("programs %v, counts %+v", got, b)
	}
	if b.Coverage.Used != 2 || b.Coverage.Total != 3 || len(b.Coverage.Unused) != 1 || !strings.HasPrefix(b.Coverage.Unused[0], "g:1:17: s alternative 3") {
		t.Errorf("coverage %+v", b.Coverage)
	}
}

// TestShrink checks that shrinking finds the smallest program that keeps a
// property.
func TestShrink(t *testing.T) {
	g := mustParse(t, `s = item{0,20};
item = [0-9] " ";`)
	has7 := func(src []byte) bool { return bytes.Contains(src, []byte("7")) }
	for seed := range uint64(20) {
		s := grammar.NewStream(seed)
		src, err := g.Derive(s)
		if err != nil {
			t.Fatal(err)
		}
		if !has7(src) {
			continue
		}
		small := grammar.Shrink(g, s.Choices(), has7)
		got, err := g.Derive(grammar.Replay(small))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != "7 " {
			t.Errorf("seed %d: %q shrank to %q (record %v), want \"7 \"", seed, src, got, small)
		}
	}
	// A record whose program does not keep comes back unchanged.
	rec := []int{3, 1, 2, 3}
	if got := grammar.Shrink(g, rec, has7); !slices.Equal(got, rec) {
		t.Errorf("got %v", got)
	}
}

// TestShrinkCLL shrinks CLL programs that use "mod" to small valid ones.
func TestShrinkCLL(t *testing.T) {
	g := cllGrammar(t)
	keep := func(src []byte) bool {
		return bytes.Contains(src, []byte(" mod ")) && transpiles(src) == nil
	}
	b, err := grammar.Generate(g, grammar.Options{N: 3, Seed: 5, Accept: keep})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range b.Programs {
		small := grammar.Shrink(g, p.Choices, keep)
		src, err := g.Derive(grammar.Replay(small))
		if err != nil || !keep(src) {
			t.Fatalf("shrunk record does not keep: %v\n%s", err, src)
		}
		lines := bytes.Count(src, []byte("\n"))
		t.Logf("%d lines (record %d) shrank to %d lines (record %d)", p.Lines(), len(p.Choices), lines, len(small))
		if lines > 16 || len(small) >= len(p.Choices) {
			t.Errorf("shrunk to %d lines, record %d of %d:\n%s", lines, len(small), len(p.Choices), src)
		}
	}
}

// TestWriteDir checks the names and contents of written programs, and that
// no temporary file is left behind.
func TestWriteDir(t *testing.T) {
	g := cllGrammar(t)
	b, err := grammar.Generate(g, grammar.Options{N: 3, Seed: 6})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "seeds")
	for range 2 { // the second time overwrites
		paths, err := b.WriteDir(dir, "cll")
		if err != nil {
			t.Fatal(err)
		}
		if len(paths) != 3 {
			t.Fatalf("paths %v", paths)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "seed-0001.cll seed-0002.cll seed-0003.cll" {
		t.Fatalf("files %v", names)
	}
	for i, p := range b.Programs {
		data, err := os.ReadFile(filepath.Join(dir, names[i]))
		if err != nil || !bytes.Equal(data, p.Source) {
			t.Errorf("%s: %v, content differs", names[i], err)
		}
	}
}

// TestCLLReachesRareConstructs: the 300 seeds of generated.yaml hold what a
// seed laid out one item per line never shows the front end: comments on
// lines of their own and after an item, tabs, two statements or two
// configuration entries on a line, a variable declared before its
// enumeration, names up to the 64-character limit, long strings, large
// durations and reals with many digits. Each is counted, and each must
// appear in several seeds.
func TestCLLReachesRareConstructs(t *testing.T) {
	g := cllGrammar(t)
	b, err := grammar.Generate(g, grammar.Options{N: 300, Seed: 1, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	constructs := map[string]*regexp.Regexp{
		"comment line":          regexp.MustCompile(`(?m)^\s*//`),
		"comment after an item": regexp.MustCompile(`(?m)^\s*[a-z][^"\n]* //`),
		"tab":                   regexp.MustCompile(`\t`),
		"two statements":        regexp.MustCompile(`(?m)^\s*(send|set|start|stop|transition)\b[^\n/]*[\w)] (send|set|start|stop|transition) `),
		"two entries":           regexp.MustCompile(`(?m)^\s*\w+ = [-\w.]+ \w+ = `),
		"long name":             regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9_]{54,63}\b`),
		"long string":           regexp.MustCompile(`"([^"\\\n]|\\.){100,}"`),
		"large duration":        regexp.MustCompile(`\b([0-9]{7,} ?ms|[0-9]{7,} ?s)\b`),
		"many digits":           regexp.MustCompile(`\b[0-9.]{21,}\b`),
	}
	seen := map[string]int{}
	for _, p := range b.Programs {
		for name, re := range constructs {
			if re.Match(p.Source) {
				seen[name]++
			}
		}
		if forwardReference(t, p.Source) {
			seen["forward reference"]++
		}
	}
	t.Logf("seeds holding each construct: %v", seen)
	for _, name := range append(slices.Sorted(maps.Keys(constructs)), "forward reference") {
		if seen[name] < 3 {
			t.Errorf("%s: in %d of 300 seeds, want at least 3", name, seen[name])
		}
	}
}

// forwardReference reports whether src declares a variable before the
// enumeration that is its type.
func forwardReference(t *testing.T, src []byte) bool {
	prog, err := parser.Parse("seed.cll", src)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	declared := map[string]bool{}
	for _, d := range prog.Decls {
		switch d := d.(type) {
		case *ast.EnumDecl:
			declared[d.Name.Name] = true
		case *ast.VarDecl:
			if !d.Type.Builtin && !declared[d.Type.Name] {
				return true
			}
		}
	}
	return false
}
