package check_test

import (
	"errors"
	"testing"

	"github.com/mcpt-tool/mcpt/cll/ast"
	"github.com/mcpt-tool/mcpt/cll/check"
	"github.com/mcpt-tool/mcpt/cll/parser"
	"github.com/mcpt-tool/mcpt/cll/token"
)

// FuzzParseCheck runs the front end on arbitrary sources: it must never
// panic, its errors must be positioned ErrorLists in source order, and an
// accepted program must have a valid type for every expression.
func FuzzParseCheck(f *testing.F) {
	f.Add(tricky)
	for _, table := range errorCaseTables {
		for _, tc := range table {
			f.Add(tc.src)
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		prog, err := parser.Parse("f.cll", []byte(src))
		if prog == nil {
			t.Fatal("Parse returned no program")
		}
		if err != nil {
			checkErrorList(t, err)
			return
		}
		info, err := check.Check(prog)
		if err != nil {
			checkErrorList(t, err)
			return
		}
		var walk func(x ast.Expr)
		walk = func(x ast.Expr) {
			if ty := info.Types[x]; ty.Kind == check.Invalid {
				t.Fatalf("expression at %s has no type", x.Start())
			}
			switch x := x.(type) {
			case *ast.Paren:
				walk(x.X)
			case *ast.Unary:
				walk(x.X)
			case *ast.Binary:
				walk(x.X)
				walk(x.Y)
			}
		}
		var stmts func([]ast.Stmt)
		stmts = func(list []ast.Stmt) {
			for _, s := range list {
				switch s := s.(type) {
				case *ast.IfStmt:
					for i, c := range s.Conds {
						walk(c)
						stmts(s.Thens[i])
					}
					stmts(s.Else)
				case *ast.SetStmt:
					walk(s.Value)
				}
			}
		}
		stmts(prog.Init)
		stmts(prog.Cycle)
	})
}

func checkErrorList(t *testing.T, err error) {
	t.Helper()
	var list token.ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		t.Fatalf("error %v is not a non-empty ErrorList", err)
	}
	for i, e := range list {
		if !e.Pos.IsValid() || e.Msg == "" {
			t.Fatalf("error %d without position or message: %v", i, e)
		}
		if i > 0 && e.Pos.Offset < list[i-1].Pos.Offset {
			t.Fatalf("errors out of order: %v", list)
		}
	}
}
