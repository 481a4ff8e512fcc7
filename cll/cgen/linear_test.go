package cgen_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/cll/ast"
	"github.com/mcpt-tool/mcpt/cll/cgen"
	"github.com/mcpt-tool/mcpt/cll/check"
	"github.com/mcpt-tool/mcpt/cll/parser"
)

// shapes are programs of size n that made the generator quadratic: long
// chains of one operator (trees as deep as they are long) and deep nesting.
// The nesting is built past the parser's limit, by hand, to show that the
// generator holds whatever tree it gets.
var shapes = []struct {
	name  string
	build func(tb testing.TB, n int) *ast.Program
}{
	{"plus", chain("I", " + ")},
	{"times", chain("I", " * ")},
	{"or", chain("B", " or ")},
	{"real-plus", chain("R", " + ")},
	{"real-div", chain("R", " / ")},
	{"unary", nest("I", func(x ast.Expr) ast.Expr { return &ast.Unary{Op: "-", X: x} })},
	{"not", nest("B", func(x ast.Expr) ast.Expr { return &ast.Unary{Op: "not", X: x} })},
	{"paren-plus", nest("I", func(x ast.Expr) ast.Expr {
		return &ast.Binary{X: &ast.Paren{X: x}, Op: "+", Y: &ast.IntLit{Value: 1}}
	})},
	{"compare", nest("B", func(x ast.Expr) ast.Expr {
		return &ast.Binary{X: &ast.Paren{X: x}, Op: "=", Y: &ast.BoolLit{Value: true}}
	})},
}

// setProgram parses a program whose cycle sets the variable named by
// value's first letter to value.
func setProgram(tb testing.TB, value string) *ast.Program {
	tb.Helper()
	src := "logic L\ndeclarations\n  states A\n  variable I : Integer\n  variable B : Boolean\n  variable R : Real\n" +
		"init\ncycle\n  set " + value[:1] + " = " + value + "\nconfiguration\n  cycle time 1 s\n"
	prog, err := parser.Parse("f.cll", []byte(src))
	if err != nil {
		tb.Fatal(err)
	}
	return prog
}

// chain builds set V = V op V op … with n operands.
func chain(v, op string) func(testing.TB, int) *ast.Program {
	return func(tb testing.TB, n int) *ast.Program {
		return setProgram(tb, v+strings.Repeat(op+v, n-1))
	}
}

// nest builds set V = wrap(wrap(… V)) with n wraps.
func nest(v string, wrap func(ast.Expr) ast.Expr) func(testing.TB, int) *ast.Program {
	return func(tb testing.TB, n int) *ast.Program {
		prog := setProgram(tb, v)
		s := prog.Cycle[0].(*ast.SetStmt)
		for range n {
			s.Value = wrap(s.Value)
		}
		return prog
	}
}

// generateProgram checks and renders prog, and returns the size of p.c and
// the bytes the rendering allocated.
func generateProgram(tb testing.TB, prog *ast.Program) (size int, alloc uint64) {
	tb.Helper()
	info, err := check.Check(prog)
	if err != nil {
		tb.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	files, err := cgen.Generate(prog, info)
	runtime.ReadMemStats(&after)
	if err != nil {
		tb.Fatal(err)
	}
	return len(files["l.c"]), after.TotalAlloc - before.TotalAlloc
}

// TestLinearGeneration: ten times the chain or the nesting gives about ten
// times the C and takes about ten times the memory to render, not a
// hundred (rendering copied each operand's text once per enclosing level:
// 100,000 unary minus took 11 s). Memory, not time, so that the load of the
// machine cannot change the verdict; buffers that grow by doubling put the
// ratio anywhere from 5 to 20.
func TestLinearGeneration(t *testing.T) {
	const n = 1000
	for _, s := range shapes {
		size1, alloc1 := generateProgram(t, s.build(t, n))
		size10, alloc10 := generateProgram(t, s.build(t, 10*n))
		sizeRatio := float64(size10) / float64(size1)
		allocRatio := float64(alloc10) / float64(alloc1)
		t.Logf("%-10s p.c %8d → %9d bytes (×%.1f), allocated %9d → %10d bytes (×%.1f)",
			s.name, size1, size10, sizeRatio, alloc1, alloc10, allocRatio)
		if sizeRatio > 12 || allocRatio > 30 {
			t.Errorf("%s: ×10 input gives ×%.1f output and ×%.1f memory, want about ×10", s.name, sizeRatio, allocRatio)
		}
	}
}

// BenchmarkShapes renders each shape at 10,000 and 100,000: the time per
// operation grows tenfold, not a hundredfold.
func BenchmarkShapes(b *testing.B) {
	for _, s := range shapes {
		for _, n := range []int{10_000, 100_000} {
			b.Run(fmt.Sprintf("%s/%dk", s.name, n/1000), func(b *testing.B) {
				prog := s.build(b, n)
				info, err := check.Check(prog)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					if _, err := cgen.Generate(prog, info); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
