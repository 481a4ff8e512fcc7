package parser

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/cll/ast"
	"github.com/mcpt-tool/mcpt/cll/token"
)

// dump renders a program as one line per declaration, statement and entry,
// with positions as line:col, so that tests can compare shapes.
func dump(p *ast.Program) string {
	var b strings.Builder
	pos := func(p token.Pos) string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }
	id := func(i ast.Ident) string { return i.Name + "@" + pos(i.Pos) }
	ids := func(list []ast.Ident) string {
		var s []string
		for _, i := range list {
			s = append(s, id(i))
		}
		return strings.Join(s, " ")
	}
	lit := func(l ast.Literal) string {
		switch l.Kind {
		case ast.LitInt:
			return fmt.Sprintf("int(%d)@%s", l.Int, pos(l.Pos))
		case ast.LitReal:
			return fmt.Sprintf("real(%s)@%s", l.Text, pos(l.Pos))
		case ast.LitBool:
			return fmt.Sprintf("bool(%v)@%s", l.Bool, pos(l.Pos))
		case ast.LitString:
			return fmt.Sprintf("string(%s)@%s", l.Text, pos(l.Pos))
		}
		return fmt.Sprintf("ident(%s)@%s", l.Text, pos(l.Pos))
	}
	var expr func(x ast.Expr) string
	expr = func(x ast.Expr) string {
		switch x := x.(type) {
		case *ast.IntLit:
			return fmt.Sprint(x.Value)
		case *ast.RealLit:
			return x.Text
		case *ast.BoolLit:
			return fmt.Sprint(x.Value)
		case *ast.StateExpr:
			return "state"
		case *ast.Name:
			return x.Ident.Name
		case *ast.Expired:
			return "(" + x.Timer.Name + " expired@" + pos(x.OpPos) + ")"
		case *ast.Paren:
			return "[" + expr(x.X) + "]"
		case *ast.Unary:
			return "(" + x.Op + "@" + pos(x.OpPos) + " " + expr(x.X) + ")"
		case *ast.Binary:
			return "(" + expr(x.X) + " " + x.Op + "@" + pos(x.OpPos) + " " + expr(x.Y) + ")"
		}
		return fmt.Sprintf("?%T", x)
	}
	var stmts func(indent string, list []ast.Stmt)
	stmts = func(indent string, list []ast.Stmt) {
		for _, s := range list {
			switch s := s.(type) {
			case *ast.IfStmt:
				for i, c := range s.Conds {
					kw := "if"
					if i > 0 {
						kw = "elif"
					}
					fmt.Fprintf(&b, "%s%s %s\n", indent, kw, expr(c))
					stmts(indent+"  ", s.Thens[i])
				}
				if s.HasElse {
					fmt.Fprintf(&b, "%selse\n", indent)
					stmts(indent+"  ", s.Else)
				}
				fmt.Fprintf(&b, "%send@%s\n", indent, pos(s.Pos))
			case *ast.SendStmt:
				fmt.Fprintf(&b, "%ssend@%s %s\n", indent, pos(s.Pos), id(s.Command))
			case *ast.TransitionStmt:
				target := [...]string{"", "next", "previous"}[s.Kind]
				if s.Kind == ast.ToState {
					target = id(s.Target)
				}
				fmt.Fprintf(&b, "%stransition@%s %s\n", indent, pos(s.Pos), target)
			case *ast.SetStmt:
				fmt.Fprintf(&b, "%sset@%s %s %s\n", indent, pos(s.Pos), id(s.Var), expr(s.Value))
			case *ast.StartStmt:
				fmt.Fprintf(&b, "%sstart@%s %s %dms@%s\n", indent, pos(s.Pos), id(s.Timer), s.Duration.MS, pos(s.Duration.Pos))
			case *ast.StopStmt:
				fmt.Fprintf(&b, "%sstop@%s %s\n", indent, pos(s.Pos), id(s.Timer))
			}
		}
	}
	fmt.Fprintf(&b, "logic %s\n", id(p.Logic))
	fmt.Fprintf(&b, "declarations@%s\n", pos(p.Declarations))
	for _, d := range p.Decls {
		switch d := d.(type) {
		case *ast.StatesDecl:
			fmt.Fprintf(&b, "  states@%s %s\n", pos(d.Pos), ids(d.States))
		case *ast.EnumDecl:
			fmt.Fprintf(&b, "  enumeration@%s %s { %s }\n", pos(d.Pos), id(d.Name), ids(d.Values))
		case *ast.CommandDecl:
			fmt.Fprintf(&b, "  command@%s %s\n", pos(d.Pos), ids(d.Names))
		case *ast.ParamDecl:
			fmt.Fprintf(&b, "  parameter@%s %s : %s@%s\n", pos(d.Pos), id(d.Name), d.Type.Name, pos(d.Type.Pos))
		case *ast.VarDecl:
			init := ""
			if d.Init != nil {
				init = " = " + lit(*d.Init)
			}
			fmt.Fprintf(&b, "  variable@%s %s : %s@%s builtin=%v%s\n", pos(d.Pos), id(d.Name), d.Type.Name, pos(d.Type.Pos), d.Type.Builtin, init)
		case *ast.TimerDecl:
			fmt.Fprintf(&b, "  timer@%s %s\n", pos(d.Pos), id(d.Name))
		case *ast.EventDecl:
			fmt.Fprintf(&b, "  event@%s %s\n", pos(d.Pos), id(d.Name))
		case *ast.AttrDecl:
			fmt.Fprintf(&b, "  attribute@%s %s : %s = %s\n", pos(d.Pos), id(d.Name), d.Type.Name, lit(d.Value))
		}
	}
	fmt.Fprintf(&b, "init@%s\n", pos(p.InitPos))
	stmts("  ", p.Init)
	fmt.Fprintf(&b, "cycle@%s\n", pos(p.CyclePos))
	stmts("  ", p.Cycle)
	fmt.Fprintf(&b, "configuration@%s\n", pos(p.ConfigPos))
	for _, e := range p.Config {
		switch e := e.(type) {
		case *ast.ParamEntry:
			fmt.Fprintf(&b, "  %s = %s\n", id(e.Name), lit(e.Value))
		case *ast.CycleTimeEntry:
			fmt.Fprintf(&b, "  cycle time@%s %dms@%s\n", pos(e.Pos), e.Duration.MS, pos(e.Duration.Pos))
		}
	}
	return b.String()
}

const trafficLight = `logic TrafficLight

declarations
  states Red, Green, Yellow
  command EnableCamera, DisableCamera
  command SpeakerOn, SpeakerOff
  configuration parameter CameraInstalled : Boolean

init
  transition to Red

cycle
  if CameraInstalled then
    if state = Red then send EnableCamera else send DisableCamera end
  end
  transition to next
  if state = Yellow then send SpeakerOn else send SpeakerOff end

configuration
  CameraInstalled = false
  cycle time 10 s
`

func TestTrafficLight(t *testing.T) {
	p, err := Parse("tl.cll", []byte(trafficLight))
	if err != nil {
		t.Fatal(err)
	}
	want := `logic TrafficLight@1:7
declarations@3:1
  states@4:3 Red@4:10 Green@4:15 Yellow@4:22
  command@5:3 EnableCamera@5:11 DisableCamera@5:25
  command@6:3 SpeakerOn@6:11 SpeakerOff@6:22
  parameter@7:3 CameraInstalled@7:27 : Boolean@7:45
init@9:1
  transition@10:3 Red@10:17
cycle@12:1
  if CameraInstalled
    if (state =@14:14 Red)
      send@14:25 EnableCamera@14:30
    else
      send@14:48 DisableCamera@14:53
    end@14:5
  end@13:3
  transition@16:3 next
  if (state =@17:12 Yellow)
    send@17:26 SpeakerOn@17:31
  else
    send@17:46 SpeakerOff@17:51
  end@17:3
configuration@19:1
  CameraInstalled@20:3 = bool(false)@20:21
  cycle time@21:3 10000ms@21:14
`
	if got := dump(p); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if p.Logic.Pos.File != "tl.cll" {
		t.Errorf("file = %q", p.Logic.Pos.File)
	}
}

func TestShapes(t *testing.T) {
	src := `logic L declarations
  enumeration E { A, B }
  variable v : E = A
  variable i : Integer = -2147483648
  variable r : Real = -1.25
  variable b : Boolean = true
  timer s
  input event Go
  attribute N : String = "a\"b"
  attribute M : Integer = 7
  states X
init
  start s for 3s
  start s for 3 ms
  stop s
  set i = - - 1 + 2 * 3 mod 4 / (5 - 6)
  set b = not not b or b and i < 2 and s expired
  set b = 1 <= 2
  if b then elif b then else end
  transition to previous
cycle
configuration
  cycle time 2147483648 s
`
	p, err := Parse("f.cll", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := `logic L@1:7
declarations@1:9
  enumeration@2:3 E@2:15 { A@2:19 B@2:22 }
  variable@3:3 v@3:12 : E@3:16 builtin=false = ident(A)@3:20
  variable@4:3 i@4:12 : Integer@4:16 builtin=true = int(-2147483648)@4:26
  variable@5:3 r@5:12 : Real@5:16 builtin=true = real(-1.25)@5:23
  variable@6:3 b@6:12 : Boolean@6:16 builtin=true = bool(true)@6:26
  timer@7:3 s@7:9
  event@8:3 Go@8:15
  attribute@9:3 N@9:13 : String = string(a\"b)@9:26
  attribute@10:3 M@10:13 : Integer = int(7)@10:27
  states@11:3 X@11:10
init@12:1
  start@13:3 s@13:9 3000ms@13:15
  start@14:3 s@14:9 3ms@14:15
  stop@15:3 s@15:8
  set@16:3 i@16:7 ((-@16:11 (-@16:13 1)) +@16:17 (((2 *@16:21 3) mod@16:25 4) /@16:31 [(5 -@16:36 6)]))
  set@17:3 b@17:7 ((not@17:11 (not@17:15 b)) or@17:21 ((b and@17:26 (i <@17:32 2)) and@17:36 (s expired@17:42)))
  set@18:3 b@18:7 (1 <=@18:13 2)
  if b
  elif b
  else
  end@19:3
  transition@20:3 previous
cycle@21:1
configuration@22:1
  cycle time@23:3 2147483648000ms@23:14
`
	if got := dump(p); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestSyntaxErrors checks the first error of each source, position and
// message.
func TestSyntaxErrors(t *testing.T) {
	const head = "logic L\ndeclarations\n  states A\n"
	for _, tc := range []struct{ src, want string }{
		{"", `f.cll:1:1: expected "logic", found end of file`},
		{"logic", `f.cll:1:6: expected identifier, found end of file`},
		{"logic state", `f.cll:1:7: expected identifier, found "state"`},
		{"logic L init", `f.cll:1:9: expected "declarations", found "init"`},
		{head, `f.cll:4:1: expected "init", found end of file`},
		{head + "init cycle", `f.cll:4:11: expected "configuration", found end of file`},
		{head + "  states\n", `f.cll:5:1: expected identifier, found end of file`},
		{head + "  enumeration E { A B }", `f.cll:4:21: expected "," or "}", found identifier "B"`},
		{head + "  enumeration E A", `f.cll:4:17: expected "{", found identifier "A"`},
		{head + "  configuration parameter P : Real", `f.cll:4:31: expected "Boolean" or "Integer", found "Real"`},
		{head + "  variable V : String", `f.cll:4:16: expected type ("Boolean", "Integer", "Real" or an enumeration), found "String"`},
		{head + "  variable V Integer", `f.cll:4:14: expected ":", found "Integer"`},
		{head + "  variable V : Integer = - x", `f.cll:4:28: expected integer or real literal after "-", found identifier "x"`},
		{head + "  variable V : Integer = state", `f.cll:4:26: expected literal, found "state"`},
		{head + "  attribute N : Integer = -1", `f.cll:4:27: expected integer literal, found "-"`},
		{head + "  attribute N : Boolean = true", `f.cll:4:17: expected "String" or "Integer", found "Boolean"`},
		{head + "  input E", `f.cll:4:9: expected "event", found identifier "E"`},
		{head + "  42", `f.cll:4:3: expected declaration, found integer 42`},
		{head + "init\n  set x = 1 +\ncycle", `f.cll:6:1: expected expression, found "cycle"`},
		{head + "init\n  set x 1", `f.cll:5:9: expected "=", found integer 1`},
		{head + "init\n  set x = (1", `f.cll:5:13: expected ")", found end of file`},
		{head + "init\n  set x = 1 = 2 = 3", `f.cll:5:17: expected statement, found "="`},
		{head + "init\n  transition to 3", `f.cll:5:17: expected state, "next" or "previous", found integer 3`},
		{head + "init\n  start T for 3", `f.cll:5:16: expected unit "ms" or "s", found end of file`},
		{head + "init\n  start T for 3 sec", `f.cll:5:17: expected unit "ms" or "s", found identifier "sec"`},
		{head + "init\n  start T for 1.5 s", `f.cll:5:15: expected integer literal, found real 1.5`},
		{head + "init\n  if true then else send A elif", `f.cll:5:28: expected "end", found "elif"`},
		{head + "init\n  if true then send A\ncycle", `f.cll:6:1: expected "elif", "else" or "end", found "cycle"`},
		{head + "init\n  end", `f.cll:5:3: expected "cycle", found "end"`},
		{head + "init cycle time 1 s", `f.cll:4:6: expected "cycle", found "cycle time"`},
		{head + "init cycle configuration parameter P : Integer", `f.cll:4:12: expected "configuration", found "configuration parameter"`},
		{head + "init\n  x", `f.cll:5:3: expected statement, found identifier "x"`},
		{head + "init cycle configuration\n  cycle 1 s", `f.cll:5:9: expected "time", found integer 1`},
		{head + "init cycle configuration\n  P 1", `f.cll:5:5: expected "=", found integer 1`},
		{head + "init cycle configuration\n  P = \"s\"", `f.cll:5:7: expected literal, found string "s"`},
		{head + "init cycle configuration\n  42", `f.cll:5:3: expected configuration entry, found integer 42`},
		{head + "init cycle configuration init", `f.cll:4:26: expected configuration entry, found "init"`},
		{head + "init cycle configuration cycle time 1 s @", `f.cll:4:41: invalid character '@'`},
	} {
		_, err := Parse("f.cll", []byte(tc.src))
		var list token.ErrorList
		if !errors.As(err, &list) || len(list) == 0 {
			t.Errorf("%q: error %v, want an ErrorList", tc.src, err)
			continue
		}
		if got := list[0].Error(); got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

// TestRecovery checks that the parser resumes after an error and reports
// later ones, one per line, in source order.
func TestRecovery(t *testing.T) {
	src := `logic L
declarations
  states A, 1
  command C D
  variable V : Integer
init
  set V = 1 + + 2
  send C
  set = 3
cycle
  if V = 1 then
    send
  end
configuration
  P 1
  cycle time 1 s
`
	_, err := Parse("f.cll", []byte(src))
	want := `f.cll:3:13: expected identifier, found integer 1
f.cll:4:13: expected declaration, found identifier "D"
f.cll:7:15: expected expression, found "+"
f.cll:9:7: expected identifier, found "="
f.cll:13:3: expected identifier, found "end"
f.cll:15:5: expected "=", found integer 1`
	var list token.ErrorList
	errors.As(err, &list)
	var got []string
	for _, e := range list {
		got = append(got, e.Error())
	}
	if strings.Join(got, "\n") != want {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
}

func TestErrorCap(t *testing.T) {
	src := "logic L\ndeclarations\n" + strings.Repeat("  states @\n", 30) + "init cycle configuration cycle time 1 s\n"
	_, err := Parse("f.cll", []byte(src))
	var list token.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %v", err)
	}
	if len(list) != MaxErrors {
		t.Fatalf("%d errors, want %d:\n%v", len(list), MaxErrors, list)
	}
	for i, e := range list {
		if e.Pos.Line != 3+i {
			t.Errorf("error %d at line %d, want %d: %v", i, e.Pos.Line, 3+i, e)
		}
	}
	if got := err.Error(); got != "f.cll:3:10: invalid character '@' (and 9 more errors)" {
		t.Errorf("Error() = %q", got)
	}
}

// TestNeverPanics parses every prefix and a few corruptions of a program.
func TestNeverPanics(t *testing.T) {
	srcs := []string{trafficLight}
	for i := range trafficLight {
		srcs = append(srcs, trafficLight[:i], trafficLight[i:])
		for _, c := range []string{"(", ")", "-", "end", "\"", "if", "\n", "9999999999999999999999"} {
			srcs = append(srcs, trafficLight[:i]+c+trafficLight[i:])
		}
	}
	for _, src := range srcs {
		p, err := Parse("f.cll", []byte(src))
		if p == nil {
			t.Fatalf("nil program for %q", src)
		}
		if err != nil {
			var list token.ErrorList
			if !errors.As(err, &list) || len(list) == 0 || len(list) > MaxErrors {
				t.Fatalf("bad error %v for %q", err, src)
			}
			for i := 1; i < len(list); i++ {
				if list[i].Pos.Offset < list[i-1].Pos.Offset {
					t.Fatalf("errors out of order for %q: %v", src, list)
				}
			}
		}
	}
}

// TestRuntimeErrorsPropagate checks that the parser's recovery lets a
// runtime error, a bug, through.
func TestRuntimeErrorsPropagate(t *testing.T) {
	p := &parser{lines: map[int]bool{}}
	defer func() {
		r := recover()
		if _, ok := r.(runtime.Error); !ok {
			t.Errorf("recovered %v, want a runtime.Error", r)
		}
	}()
	p.item(func() {
		var m map[string]int
		//lint:ignore SA5000 a nil map write is the runtime error under test
		m["x"] = 1
	}, stmtSync)
	t.Error("item returned")
}

// nested returns a program whose cycle sets I to expr, or holds stmts.
func nested(expr, stmts string) string {
	return "logic L\ndeclarations\n  states A\n  variable I : Integer\n  variable B : Boolean\ninit\ncycle\n" +
		"  set I = " + expr + "\n" + stmts + "\nconfiguration\n  cycle time 1 s\n"
}

// TestNestingLimits: nesting up to the limits parses; one level more is an
// error at the token that opens it, and the parse stops there, however deep
// the input goes (half a million parentheses used to overflow the stack).
func TestNestingLimits(t *testing.T) {
	parens := func(n int) string { return strings.Repeat("(", n) + "1" + strings.Repeat(")", n) }
	ifs := func(n int) string {
		return strings.Repeat("if B then ", n) + "send C" + strings.Repeat(" end", n)
	}
	const exprCol = 11 // of the first token of the expression, line 8
	exprMsg := fmt.Sprintf("expression nested too deeply (at most %d levels)", MaxExprDepth)
	ifMsg := fmt.Sprintf("if statements nested too deeply (at most %d levels)", MaxStmtDepth)
	for _, tc := range []struct {
		name, src string
		want      string // the error, or "" for none
	}{
		{"parens at the limit", nested(parens(MaxExprDepth), ""), ""},
		{"parens over", nested(parens(MaxExprDepth+1), ""), fmt.Sprintf("f.cll:8:%d: %s", exprCol+MaxExprDepth, exprMsg)},
		{"500,000 parens", nested(parens(500_000), ""), fmt.Sprintf("f.cll:8:%d: %s", exprCol+MaxExprDepth, exprMsg)},
		{"minus at the limit", nested(strings.Repeat("-", MaxExprDepth)+"I", ""), ""},
		{"1,000,000 minus", nested(strings.Repeat("-", 1_000_000)+"I", ""), fmt.Sprintf("f.cll:8:%d: %s", exprCol+MaxExprDepth, exprMsg)},
		{"not", nested("1", "  set B = "+strings.Repeat("not ", 100_000)+"B"), fmt.Sprintf("f.cll:9:%d: %s", 11+4*MaxExprDepth, exprMsg)},
		{"mixed", nested(strings.Repeat("-(", MaxExprDepth/2)+"-1"+strings.Repeat(")", MaxExprDepth/2), ""), fmt.Sprintf("f.cll:8:%d: %s", exprCol+MaxExprDepth, exprMsg)},
		{"ifs at the limit", nested("1", "  "+ifs(MaxStmtDepth)), ""},
		{"ifs over", nested("1", "  "+ifs(MaxStmtDepth+1)), fmt.Sprintf("f.cll:9:%d: %s", 3+10*MaxStmtDepth, ifMsg)},
		{"10,000 ifs", nested("1", "  "+ifs(10_000)), fmt.Sprintf("f.cll:9:%d: %s", 3+10*MaxStmtDepth, ifMsg)},
		{"long chains are no nesting", nested(strings.Repeat("I + ", 100_000)+"I", "  set B = "+strings.Repeat("B or ", 100_000)+"B"), ""},
	} {
		_, err := Parse("f.cll", []byte(tc.src))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: error %q, want %q", tc.name, got, tc.want)
		}
	}
}
