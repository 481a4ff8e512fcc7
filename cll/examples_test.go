package cll_test

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/cll/ast"
	"github.com/mcpt-tool/mcpt/cll/parser"
)

// TestExamplesCoverLanguage checks that the shipped examples together use
// every construct of the grammar and every operator, and that each, but the
// traffic light of docs/cll.md, keeps to one declaration, statement or
// entry per line and to 30–150 lines; none uses a name reserved for
// mutations (Zq…).
func TestExamplesCoverLanguage(t *testing.T) {
	used := map[string]bool{}
	for name, src := range exampleSources(t) {
		prog, err := parser.Parse(name, src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		lines := bytes.Count(src, []byte("\n"))
		if name != "traffic.cll" && (lines < 30 || lines > 150) {
			t.Errorf("%s has %d lines, want 30–150", name, lines)
		}
		if regexp.MustCompile(`\bZq`).Match(src) {
			t.Errorf("%s uses a name starting with Zq", name)
		}
		if name != "traffic.cll" { // docs/cll.md's example has one-line ifs
			onePerLine(t, name, prog)
		}
		for _, d := range prog.Decls {
			declUse(used, d)
		}
		for _, s := range append(append([]ast.Stmt{}, prog.Init...), prog.Cycle...) {
			stmtUse(used, s, 0)
		}
		for _, e := range prog.Config {
			switch e := e.(type) {
			case *ast.ParamEntry:
				used["entry "+litKind(e.Value)] = true
			case *ast.CycleTimeEntry:
				used["cycle time"] = true
			}
		}
	}
	want := []string{
		"states", "enumeration", "command", "command list", "parameter Boolean", "parameter Integer",
		"variable Boolean", "variable Boolean = literal", "variable Integer", "variable Integer = literal",
		"variable Real", "variable Real = literal", "variable enumeration", "variable enumeration = literal",
		"variable Integer = negative", "variable Real = negative", "timer", "input event",
		"attribute String", "attribute Integer",
		"if", "elif", "else", "nested if", "send", "transition to state", "transition to next",
		"transition to previous", "set", "start", "stop",
		"expired", "state", "true/false", "integer", "real", "parentheses", "name",
		"or", "and", "not", "=", "<>", "<", "<=", ">", ">=", "+", "-", "*", "/", "mod", "unary -",
		"entry Boolean", "entry Integer", "cycle time",
	}
	var missing []string
	for _, w := range want {
		if !used[w] {
			missing = append(missing, w)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("no example uses: %s", strings.Join(missing, ", "))
	}
}

// onePerLine reports two declarations, statements or entries on one line.
func onePerLine(t *testing.T, name string, prog *ast.Program) {
	t.Helper()
	seen := map[int]bool{}
	mark := func(line int) {
		if seen[line] {
			t.Errorf("%s:%d: more than one declaration, statement or entry", name, line)
		}
		seen[line] = true
	}
	for _, d := range prog.Decls {
		mark(declPos(d).Line)
	}
	var stmts func([]ast.Stmt)
	stmts = func(list []ast.Stmt) {
		for _, s := range list {
			mark(stmtPos(s).Line)
			if is, ok := s.(*ast.IfStmt); ok {
				for _, body := range append(is.Thens, is.Else) {
					stmts(body)
				}
			}
		}
	}
	stmts(prog.Init)
	stmts(prog.Cycle)
	for _, e := range prog.Config {
		switch e := e.(type) {
		case *ast.ParamEntry:
			mark(e.Name.Pos.Line)
		case *ast.CycleTimeEntry:
			mark(e.Pos.Line)
		}
	}
}

func declPos(d ast.Decl) (pos struct{ Line int }) {
	switch d := d.(type) {
	case *ast.StatesDecl:
		pos.Line = d.Pos.Line
	case *ast.EnumDecl:
		pos.Line = d.Pos.Line
	case *ast.CommandDecl:
		pos.Line = d.Pos.Line
	case *ast.ParamDecl:
		pos.Line = d.Pos.Line
	case *ast.VarDecl:
		pos.Line = d.Pos.Line
	case *ast.TimerDecl:
		pos.Line = d.Pos.Line
	case *ast.EventDecl:
		pos.Line = d.Pos.Line
	case *ast.AttrDecl:
		pos.Line = d.Pos.Line
	}
	return pos
}

func stmtPos(s ast.Stmt) (pos struct{ Line int }) {
	switch s := s.(type) {
	case *ast.IfStmt:
		pos.Line = s.Pos.Line
	case *ast.SendStmt:
		pos.Line = s.Pos.Line
	case *ast.TransitionStmt:
		pos.Line = s.Pos.Line
	case *ast.SetStmt:
		pos.Line = s.Pos.Line
	case *ast.StartStmt:
		pos.Line = s.Pos.Line
	case *ast.StopStmt:
		pos.Line = s.Pos.Line
	}
	return pos
}

func litKind(l ast.Literal) string {
	switch l.Kind {
	case ast.LitBool:
		return "Boolean"
	case ast.LitInt:
		return "Integer"
	}
	return fmt.Sprint(l.Kind)
}

func declUse(used map[string]bool, d ast.Decl) {
	switch d := d.(type) {
	case *ast.StatesDecl:
		used["states"] = true
	case *ast.EnumDecl:
		used["enumeration"] = true
	case *ast.CommandDecl:
		used["command"] = true
		if len(d.Names) > 1 {
			used["command list"] = true
		}
	case *ast.ParamDecl:
		used["parameter "+d.Type.Name] = true
	case *ast.VarDecl:
		typ := d.Type.Name
		if !d.Type.Builtin {
			typ = "enumeration"
		}
		if d.Init == nil {
			used["variable "+typ] = true
		} else {
			used["variable "+typ+" = literal"] = true
			if d.Init.Neg {
				used["variable "+typ+" = negative"] = true
			}
		}
	case *ast.TimerDecl:
		used["timer"] = true
	case *ast.EventDecl:
		used["input event"] = true
	case *ast.AttrDecl:
		used["attribute "+d.Type.Name] = true
	}
}

func stmtUse(used map[string]bool, s ast.Stmt, depth int) {
	switch s := s.(type) {
	case *ast.IfStmt:
		used["if"] = true
		if depth > 0 {
			used["nested if"] = true
		}
		if len(s.Conds) > 1 {
			used["elif"] = true
		}
		if s.HasElse {
			used["else"] = true
		}
		for _, c := range s.Conds {
			exprUse(used, c)
		}
		for _, body := range append(s.Thens, s.Else) {
			for _, b := range body {
				stmtUse(used, b, depth+1)
			}
		}
	case *ast.SendStmt:
		used["send"] = true
	case *ast.TransitionStmt:
		used[map[ast.TransitionKind]string{ast.ToState: "transition to state", ast.ToNext: "transition to next", ast.ToPrevious: "transition to previous"}[s.Kind]] = true
	case *ast.SetStmt:
		used["set"] = true
		exprUse(used, s.Value)
	case *ast.StartStmt:
		used["start"] = true
	case *ast.StopStmt:
		used["stop"] = true
	}
}

func exprUse(used map[string]bool, x ast.Expr) {
	switch x := x.(type) {
	case *ast.IntLit:
		used["integer"] = true
	case *ast.RealLit:
		used["real"] = true
	case *ast.BoolLit:
		used["true/false"] = true
	case *ast.StateExpr:
		used["state"] = true
	case *ast.Name:
		used["name"] = true
	case *ast.Expired:
		used["expired"] = true
	case *ast.Paren:
		used["parentheses"] = true
		exprUse(used, x.X)
	case *ast.Unary:
		if x.Op == "-" {
			used["unary -"] = true
		} else {
			used[x.Op] = true
		}
		exprUse(used, x.X)
	case *ast.Binary:
		used[x.Op] = true
		exprUse(used, x.X)
		exprUse(used, x.Y)
	}
}

// TestTrafficIsDocExample checks that examples/cll/traffic.cll is the
// program docs/cll.md shows.
func TestTrafficIsDocExample(t *testing.T) {
	doc, err := os.ReadFile("../docs/cll.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)## The language in one example\\s*```\\n(.*?)```").FindSubmatch(doc)
	if m == nil {
		t.Fatal("no program under \"The language in one example\" in docs/cll.md")
	}
	if got := exampleSources(t)["traffic.cll"]; !bytes.Equal(got, m[1]) {
		t.Errorf("traffic.cll differs from the example of docs/cll.md:\n%s\nwant:\n%s", got, m[1])
	}
}
