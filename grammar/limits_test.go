package grammar

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/syntax"
)

// packGrammars are the grammars of the packs with the files they read:
// the packs' seeds, generated seeds and the real-world corpus.
var packGrammars = []struct{ grammar, files string }{
	{"../examples/cll/cll.grammar", "../examples/cll/*.cll"},
	{"../examples/thrift/thrift.grammar", "../examples/thrift/*.thrift"},
	{"../examples/thrift/thrift.grammar", "../testdata/corpus/thrift/*.thrift"},
	{"../examples/flatbuffers/fbs.grammar", "../examples/flatbuffers/*.fbs"},
	{"../examples/flatbuffers/fbs.grammar", "../testdata/corpus/flatbuffers/*.fbs"},
	{"../examples/protobuf/proto.grammar", "../examples/protobuf/*.proto"},
	{"../examples/protobuf/proto.grammar", "../examples/protobuf/generated/*.proto"},
	{"../examples/protobuf/proto.grammar", "../testdata/corpus/protobuf/*.proto"},
}

// TestParseLimits: the grammars of the packs read every file they are
// meant to read in a few dozen steps a byte and a memo of a few bytes a
// byte, far below the limits of a parse (stepsPerByte, memoPerByte),
// which stop only grammars that read a program in many ways at once.
func TestParseLimits(t *testing.T) {
	worst, worstFile := 0.0, ""
	mem := 0.0
	for _, pg := range packGrammars {
		g, err := ParseFile(pg.grammar)
		if err != nil {
			t.Fatal(err)
		}
		p := NewParser(g)
		files, _ := filepath.Glob(pg.files)
		if len(files) == 0 {
			t.Fatalf("no file %s", pg.files)
		}
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			m := p.newMatcher(context.Background(), src)
			if _, err := p.parseWith(m, f, []*pinst{p.start}); err != nil {
				t.Errorf("%v", err)
				continue
			}
			if per := float64(m.steps) / float64(len(src)+1); per > worst {
				worst, worstFile = per, f
			}
			if len(src) > 2000 {
				mem = max(mem, float64(m.memoSize)/float64(len(src)))
			}
		}
	}
	t.Logf("at most %.1f steps a byte (%s), %.1f bytes of memo a byte", worst, worstFile, mem)
	if worst*10 > stepsPerByte {
		t.Errorf("%s takes %.1f steps a byte: the budget of %d a byte leaves less than ten times that", worstFile, worst, stepsPerByte)
	}
	if mem*3 > memoPerByte {
		t.Errorf("a memo of %.1f bytes a byte: the limit of %d a byte leaves less than three times that", mem, memoPerByte)
	}
}

// packParser is the parser of a pack grammar.
func packParser(t testing.TB, file string) *Parser {
	t.Helper()
	g, err := ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return NewParser(g)
}

// thriftProgram is a Thrift file of at least size bytes: enums, structs
// and constants, one after another.
func thriftProgram(size int) []byte {
	var b bytes.Buffer
	b.WriteString("namespace cpp big\n\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "/** The %dth. */\nenum E%d {\n  A = 1,\n  B = 2,\n}\n\nstruct S%d {\n  1: i32 a,\n  2: optional string b = \"x\",\n  3: list<E%d> c,\n}\n\nconst i32 C%d = %d // c\n\n", i, i, i, i, i, i)
	}
	return b.Bytes()
}

// TestParseLargeBrokenProgram: a large program with a syntax error at its
// end fails with the error there, as a small one does, and its memo takes
// a few bytes a byte of the program (a parse of 16 MiB ran out of memory
// past 1.6 GB).
func TestParseLargeBrokenProgram(t *testing.T) {
	p := packParser(t, "../examples/thrift/thrift.grammar")
	const tail = "struct Broken {\n  1: i32 a,\n  2 i32 b,\n}\n"
	small := append(thriftProgram(100), tail...)
	_, err := p.Parse("small.thrift", small)
	if err == nil || !strings.Contains(err.Error(), `expected ":", found "i32"`) {
		t.Fatalf("the small program: %v", err)
	}
	src := append(thriftProgram(512<<10), tail...)
	m := p.newMatcher(context.Background(), src)
	_, err = p.parseWith(m, "big.thrift", []*pinst{p.start})
	want := fmt.Sprintf(`big.thrift:%d:5: expected ":", found "i32"`, bytes.Count(src, []byte("\n"))-1)
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %s", err, want)
	}
	if per := float64(m.memoSize) / float64(len(src)); per > 16 {
		t.Errorf("the memo takes %.1f bytes a byte of the program", per)
	}
	if per := float64(m.steps) / float64(len(src)); per > 100 {
		t.Errorf("the parse takes %.1f steps a byte of the program", per)
	}
}

// ambiguous is a grammar that reads a sum of n terms in Catalan(n) ways:
// left-recursive and ambiguous.
const ambiguous = `program = expr;
expr = expr " + " expr | expr " * " expr | "(" expr ")" | [0-9];
`

// TestParseAmbiguousGrammarStops: a grammar that reads a program in many
// ways at once (a 2 KB sum took 70 s and gigabytes) stops after a number
// of steps proportional to the program, with an error that says why; one
// that reads it in few ways reads it.
func TestParseAmbiguousGrammarStops(t *testing.T) {
	p := textParser(t, ambiguous)
	if _, err := p.Parse("small.txt", []byte("1 + 2 * (3 + 4)")); err != nil {
		t.Fatalf("a small program: %v", err)
	}
	src := []byte(strings.Repeat("1 + ", 700) + "1")
	m := p.newMatcher(context.Background(), src)
	_, err := p.parseWith(m, "sum.txt", []*pinst{p.start})
	if err == nil || !strings.Contains(err.Error(), "cannot parse with t.grammar: over ") || !strings.Contains(err.Error(), "the grammar is too ambiguous") {
		t.Fatalf("error %v", err)
	}
	if _, ok := err.(*syntax.Error); !ok {
		t.Errorf("the error is a %T, not a *syntax.Error", err)
	}
	if m.steps > m.budget+int64(len(src))*2 {
		t.Errorf("%d steps, over the budget of %d", m.steps, m.budget)
	}
	// The same through the memory it would take.
	m = p.newMatcher(context.Background(), src)
	m.memoMax = m.memoSize + 1<<16
	if _, err := p.parseWith(m, "sum.txt", []*pinst{p.start}); err == nil || !strings.Contains(err.Error(), "of memo (48 bytes a byte of the program)") {
		t.Fatalf("error %v", err)
	}
}

// TestParseDepthLimit: rules nested deeper than maxDepth stop the parse
// where they do, with an error, not the Go runtime out of stack.
func TestParseDepthLimit(t *testing.T) {
	p := textParser(t, `e = "(" e ")" | "x";`)
	deep := func(n int) []byte {
		return []byte(strings.Repeat("(", n) + "x" + strings.Repeat(")", n))
	}
	if _, err := p.Parse("ok", deep(maxDepth-10)); err != nil {
		t.Fatalf("%d levels: %v", maxDepth-10, err)
	}
	want := fmt.Sprintf("deep:1:%d: cannot parse with t.grammar: rules nest deeper than %d here", maxDepth+1, maxDepth)
	if _, err := p.Parse("deep", deep(5*maxDepth)); err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

// lateCtx is a context that is done, but whose Err says so only from its
// second call: the parse starts, and then finds it done.
type lateCtx struct {
	context.Context
	calls int
}

func (c *lateCtx) Err() error {
	if c.calls++; c.calls == 1 {
		return nil
	}
	return context.Canceled
}

// TestParseContext: a parse stops with its context's error when the
// context is done, before it starts or while it reads.
func TestParseContext(t *testing.T) {
	p := textParser(t, ambiguous)
	src := []byte(strings.Repeat("1 + ", 700) + "1")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m := p.newMatcher(ctx, src)
	if _, err := p.parseWith(m, "sum.txt", []*pinst{p.start}); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled context: %v", err)
	}
	if m.steps > 1<<17 {
		t.Errorf("a parse under a cancelled context took %d steps", m.steps)
	}
	if _, err := p.ParseContext(&lateCtx{Context: ctx}, "sum.txt", src); !errors.Is(err, context.Canceled) {
		t.Errorf("a context done while the parse reads: %v", err)
	}
}

// TestPruningChangesNothing: leaving out the calls of rules that cannot
// start where they are called (matcher.pruned) changes no tree and no
// message, on the files the packs' grammars read and on each of them cut
// short and with bytes changed.
func TestPruningChangesNothing(t *testing.T) {
	defer func() { pruneCalls = true }()
	outcome := func(p *Parser, src []byte) string {
		tr, err := p.Parse("x", src)
		if err != nil {
			return err.Error()
		}
		var b strings.Builder
		syntax.Walk(tr.Root, func(n *syntax.Node) bool {
			fmt.Fprintf(&b, "%s|%s|%v|%d-%d/", n.Kind, n.Field, n.Named, n.Start, n.End)
			return true
		})
		return b.String()
	}
	cases, errs := 0, 0
	for _, pg := range packGrammars {
		p := packParser(t, pg.grammar)
		files, _ := filepath.Glob(pg.files)
		if len(files) > 5 {
			files = files[:5] // (the quick tier stays quick)
		}
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			variants := [][]byte{src}
			for k := 1; k < 4; k++ {
				at := len(src) * k / 4
				variants = append(variants, src[:at])
				for _, c := range []byte("};x/\"") {
					v := bytes.Clone(src)
					v[at] = c
					variants = append(variants, v)
				}
			}
			for i, v := range variants {
				pruneCalls = true
				got := outcome(p, v)
				pruneCalls = false
				if want := outcome(p, v); got != want {
					t.Fatalf("%s, variant %d: pruned and not pruned differ:\n%.300s\n%.300s", f, i, got, want)
				}
				cases++
				if !strings.Contains(got, "|") {
					errs++
				}
			}
		}
	}
	t.Logf("%d programs, %d of them with errors", cases, errs)
}

// textParser is the parser of the grammar src, named t.grammar.
func textParser(t testing.TB, src string) *Parser {
	t.Helper()
	g, err := Parse("t.grammar", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return NewParser(g)
}
