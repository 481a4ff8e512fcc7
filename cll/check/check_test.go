package check_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/cll/ast"
	"github.com/mcpt-tool/mcpt/cll/check"
	"github.com/mcpt-tool/mcpt/cll/parser"
	"github.com/mcpt-tool/mcpt/cll/token"
)

// frontEnd runs the parser and, when it succeeds, the checker on src, and
// returns the errors as "file:line:col: message" lines.
func frontEnd(src string) (*ast.Program, *check.Info, []string) {
	prog, err := parser.Parse("f.cll", []byte(src))
	var info *check.Info
	if err == nil {
		info, err = check.Check(prog)
	}
	if err == nil {
		return prog, info, nil
	}
	var list token.ErrorList
	if !errors.As(err, &list) {
		return prog, info, []string{"not an ErrorList: " + err.Error()}
	}
	var out []string
	for _, e := range list {
		out = append(out, e.Error())
	}
	return prog, info, out
}

type errorCase struct {
	name string
	src  string
	want []string // every error, in order
}

func runErrorCases(t *testing.T, cases []errorCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, got := frontEnd(tc.src)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("errors:\n%s\nwant:\n%s\nsource:\n%s",
					strings.Join(got, "\n"), strings.Join(tc.want, "\n"), tc.src)
			}
		})
	}
}

// TestSyntaxAndLexicalErrors covers the errors of the first and last items
// of CLL through the whole front end.
func TestSyntaxAndLexicalErrors(t *testing.T) { runErrorCases(t, syntaxAndLexicalErrorsCases) }

var syntaxAndLexicalErrorsCases = []errorCase{
	{"syntax", `logic L
declarations
  states A
init
cycle
  if true send A end
configuration
  cycle time 1 s
`, []string{`f.cll:6:11: expected "then", found "send"`}},
	{"invalid escape", `logic L
declarations
  states A
  attribute T : String = "a\xb"
init
cycle
configuration
  cycle time 1 s
`, []string{`f.cll:4:28: invalid escape sequence "\x"`}},
	{"unterminated string", `logic L
declarations
  states A
  attribute T : String = "ab
init
cycle
configuration
  cycle time 1 s
`, []string{`f.cll:4:26: unterminated string`}},
	{"identifier too long", `logic L
declarations
  states A, ` + strings.Repeat("B", 65) + `
init
cycle
configuration
  cycle time 1 s
`, []string{`f.cll:3:13: identifier longer than 64 characters`}},
	{"character that starts no token", `logic L
declarations
  states A
init
cycle
  set x = 1 % 2
configuration
  cycle time 1 s
`, []string{`f.cll:6:13: invalid character '%'`}},
}

func TestStatesDeclaration(t *testing.T) { runErrorCases(t, statesDeclarationCases) }

var statesDeclarationCases = []errorCase{
	{"missing", `logic L
declarations
  command C
init
cycle
  send C
configuration
  cycle time 1 s
`, []string{`f.cll:2:1: missing "states" declaration`}},
	{"twice", `logic L
declarations
  states A
  command C
  states B
init
cycle
configuration
  cycle time 1 s
`, []string{`f.cll:5:3: more than one "states" declaration (first at f.cll:3:3)`}},
}

func TestDeclaredTwice(t *testing.T) { runErrorCases(t, declaredTwiceCases) }

var declaredTwiceCases = []errorCase{
	{"state and command", `logic L
declarations
  command Go
  states Stop, Go
init
cycle
configuration
  cycle time 1 s
`, []string{`f.cll:4:16: "Go" declared twice (first at f.cll:3:11)`}},
	{"values of two enumerations", `logic L
declarations
  states A
  enumeration E { X, Y }
  enumeration F { Y }
init
cycle
configuration
  cycle time 1 s
`, []string{`f.cll:5:19: "Y" declared twice (first at f.cll:4:22)`}},
	{"same list", `logic L
declarations
  states A, B, A
init
cycle
configuration
  cycle time 1 s
`, []string{`f.cll:3:16: "A" declared twice (first at f.cll:3:10)`}},
	{"logic name is not in the namespace", `logic L
declarations
  states L
init
cycle
configuration
  cycle time 1 s
`, nil},
}

func TestSameCForm(t *testing.T) { runErrorCases(t, sameCFormCases) }

var sameCFormCases = []errorCase{
	{"camel and snake", `logic L
declarations
  states A
  variable CameraOn : Boolean
  timer camera_on
init
cycle
configuration
  cycle time 1 s
`, []string{`f.cll:5:9: "camera_on" and "CameraOn" (at f.cll:4:12) have the same C form "camera_on"`}},
	{"acronym", `logic L
declarations
  states HTTPServer, HttpServer
init
cycle
configuration
  cycle time 1 s
`, []string{`f.cll:3:22: "HttpServer" and "HTTPServer" (at f.cll:3:10) have the same C form "http_server"`}},
}

func TestGeneratedIdentifierCollision(t *testing.T) {
	runErrorCases(t, generatedIdentifierCollisionCases)
}

var generatedIdentifierCollisionCases = []errorCase{
	{"two enumerations", `logic P
declarations
  states A
  enumeration Foo { BarX }
  enumeration FooBar { X }
init
cycle
configuration
  cycle time 1 s
`, []string{`f.cll:5:24: C identifier "P_FOO_BAR_X" of "X" collides with that of "BarX" (at f.cll:4:21)`}},
	{"same declaration", `logic P
declarations
  states A
  enumeration Mode { On, Count }
init
cycle
configuration
  cycle time 1 s
`, []string{`f.cll:4:26: C identifier "P_MODE_COUNT" of "Count" collides with that of "Mode" (at f.cll:4:15)`}},
	{"enumeration and command", `logic P
declarations
  states A
  command Name
  enumeration Cmd { X }
init
cycle
configuration
  cycle time 1 s
`, []string{`f.cll:5:15: C identifier "p_cmd_name" of "Cmd" collides with that of "Name" (at f.cll:4:11)`}},
	{"enumeration and parameter getter", `logic P
declarations
  states A
  enumeration Config2 { X }
  configuration parameter T : Boolean
init
cycle
configuration
  cycle time 1 s
`, []string{`f.cll:5:27: C identifier "p_config_t" of "T" collides with a fixed one`}},
	{"attribute and enumeration", `logic P
declarations
  states A
  attribute Y : Integer = 1
  enumeration Attr { Y2, Z }
  attribute Count : Integer = 2
init
cycle
configuration
  cycle time 1 s
`, []string{`f.cll:6:13: C identifier "P_ATTR_COUNT" of "Count" collides with that of "Attr" (at f.cll:5:15)`}},
}

func TestFixedIdentifierCollision(t *testing.T) { runErrorCases(t, fixedIdentifierCollisionCases) }

var fixedIdentifierCollisionCases = []errorCase{
	{"state Count", `logic P
declarations
  states A, Count
init
cycle
configuration
  cycle time 1 s
`, []string{`f.cll:3:13: C identifier "P_STATE_COUNT" of "Count" collides with a fixed one`}},
	{"enumeration Timer", `logic P
declarations
  states A
  enumeration Timer { X }
init
cycle
configuration
  cycle time 1 s
`, []string{`f.cll:4:15: C identifier "p_timer_t" of "Timer" collides with a fixed one`}},
	{"include guard", `logic P
declarations
  states A
  enumeration Types { H }
init
cycle
configuration
  cycle time 1 s
`, []string{`f.cll:4:23: C identifier "P_TYPES_H" of "H" collides with a fixed one`}},
	{"helper", `logic P
declarations
  states A
  enumeration End { Cycle2 }
  enumeration EndCycle { X }
init
cycle
configuration
  cycle time 1 s
`, nil},
	{"cycle time macro", `logic Tl
declarations
  states A
  enumeration CycleTime { Ms }
init
cycle
configuration
  cycle time 1 s
`, []string{`f.cll:4:27: C identifier "TL_CYCLE_TIME_MS" of "Ms" collides with a fixed one`}},
	{"stdint typedef", `logic Int
declarations
  states A
  enumeration Least8 { X }
init
cycle
configuration
  cycle time 1 s
`, []string{`f.cll:4:15: C identifier "int_least8_t" of "Least8" collides with a fixed one`}},
	{"stdint macro", `logic Uint
declarations
  states A
  enumeration Fast16 { Max }
init
cycle
configuration
  cycle time 1 s
`, []string{
		`f.cll:4:15: C identifier "uint_fast16_t" of "Fast16" collides with a fixed one`,
		`f.cll:4:24: C identifier "UINT_FAST16_MAX" of "Max" collides with a fixed one`,
	}},
	{"members do not meet file scope", `logic V
declarations
  states A
  variable StateT : Boolean
  timer ConfigT
  input event CtxT
init
cycle
configuration
  cycle time 1 s
`, nil},
}

func TestReservedCForm(t *testing.T) { runErrorCases(t, reservedCFormCases) }

var reservedCFormCases = []errorCase{
	{"struct members and stdbool", `logic L
declarations
  states A, State
  variable NextState : Boolean
  timer TransitionPending
  configuration parameter CycleTimeMs : Integer
  command Bool, True
  input event False
init
cycle
configuration
  cycle time 1 s
`, []string{
		`f.cll:3:13: C form "state" of "State" is reserved`,
		`f.cll:4:12: C form "next_state" of "NextState" is reserved`,
		`f.cll:5:9: C form "transition_pending" of "TransitionPending" is reserved`,
		`f.cll:6:27: C form "cycle_time_ms" of "CycleTimeMs" is reserved`,
		`f.cll:7:11: C form "bool" of "Bool" is reserved`,
		`f.cll:7:17: C form "true" of "True" is reserved`,
		`f.cll:8:15: C form "false" of "False" is reserved`,
	}},
	{"C99 keywords", `logic L
declarations
  states A, Int, Restrict
  enumeration E { Volatile, Inline }
init
cycle
configuration
  cycle time 1 s
`, []string{
		`f.cll:3:13: C form "int" of "Int" is a C keyword`,
		`f.cll:3:18: C form "restrict" of "Restrict" is a C keyword`,
		`f.cll:4:19: C form "volatile" of "Volatile" is a C keyword`,
		`f.cll:4:29: C form "inline" of "Inline" is a C keyword`,
	}},
}

func TestUndefinedName(t *testing.T) { runErrorCases(t, undefinedNameCases) }

var undefinedNameCases = []errorCase{
	{"everywhere", `logic L
declarations
  states A
  variable V : Color = Red
init
  send Beep
  transition to Nowhere
cycle
  set W = X + 1
  start T1 for 1 s
  stop T2
  if T3 expired then end
configuration
  P = 1
  cycle time 1 s
`, []string{
		`f.cll:4:16: undefined name "Color"`,
		`f.cll:4:24: undefined name "Red"`,
		`f.cll:6:8: undefined name "Beep"`,
		`f.cll:7:17: undefined name "Nowhere"`,
		`f.cll:9:7: undefined name "W"`,
		`f.cll:9:11: undefined name "X"`,
		`f.cll:10:9: undefined name "T1"`,
		`f.cll:11:8: undefined name "T2"`,
		`f.cll:12:6: undefined name "T3"`,
		`f.cll:14:3: undefined name "P"`,
	}},
}

func TestWrongKind(t *testing.T) { runErrorCases(t, wrongKindCases) }

var wrongKindCases = []errorCase{
	{"statements", `logic L
declarations
  states A
  command C
  variable V : Integer
  timer T
  configuration parameter P : Integer
init
  send V
  set C = 1
  set P = 1
  transition to C
cycle
  start V for 1 s
  stop A
  if V expired then end
configuration
  cycle time 1 s
`, []string{
		`f.cll:9:8: "V" is a variable, not a command`,
		`f.cll:10:7: "C" is a command, not a variable`,
		`f.cll:11:7: "P" is a configuration parameter, not a variable`,
		`f.cll:12:17: "C" is a command, not a state`,
		`f.cll:14:9: "V" is a variable, not a timer`,
		`f.cll:15:8: "A" is a state, not a timer`,
		`f.cll:16:6: "V" is a variable, not a timer`,
	}},
	{"values", `logic L
declarations
  states A
  command C
  variable V : Integer
  timer T
  enumeration E { X }
  attribute S : String = "s"
init
  set V = C
  set V = T
  set V = E
  set V = S
cycle
configuration
  cycle time 1 s
`, []string{
		`f.cll:10:11: "C" is a command, not a value`,
		`f.cll:11:11: "T" is a timer, not a value`,
		`f.cll:12:11: "E" is an enumeration, not a value`,
		`f.cll:13:11: "S" is a String attribute, not a value`,
	}},
	{"declarations and configuration", `logic L
declarations
  states A
  command C
  variable V : C
  enumeration E { X }
  variable W : E = C
init
cycle
configuration
  V = 1
  cycle time 1 s
`, []string{
		`f.cll:5:16: "C" is a command, not an enumeration`,
		`f.cll:7:20: "C" is a command, not an enumeration value`,
		`f.cll:11:3: "V" is a variable, not a configuration parameter`,
	}},
}

func TestTypeErrors(t *testing.T) { runErrorCases(t, typeErrorsCases) }

var typeErrorsCases = []errorCase{
	{"operations", `logic L
declarations
  states A
  enumeration E { X, Y }
  enumeration F { Z }
  variable I : Integer
  variable R : Real
  variable B : Boolean
init
  set B = I + B
  set B = B + B
  set I = R mod 2
  set I = B mod I
  set B = I and B
  set B = I or I
  set B = not I
  set I = - B
  set B = X = Z
  set B = B < B
  set B = X < Z
  set B = I = B
  set B = state >= X
cycle
configuration
  cycle time 1 s
`, []string{
		`f.cll:10:13: mismatched types Integer and Boolean in "+"`,
		`f.cll:11:13: operator "+" needs Integer or Real, found Boolean`,
		`f.cll:12:13: operator "mod" needs Integer, found Real`,
		`f.cll:13:13: mismatched types Boolean and Integer in "mod"`,
		`f.cll:14:13: mismatched types Integer and Boolean in "and"`,
		`f.cll:15:13: operator "or" needs Boolean, found Integer`,
		`f.cll:16:11: operator "not" needs Boolean, found Integer`,
		`f.cll:17:11: operator "-" needs Integer or Real, found Boolean`,
		`f.cll:18:13: mismatched types E and F in "="`,
		`f.cll:19:13: operator "<" needs numbers or enumeration values, found Boolean`,
		`f.cll:20:13: mismatched types E and F in "<"`,
		`f.cll:21:13: mismatched types Integer and Boolean in "="`,
		`f.cll:22:17: mismatched types state and E in ">="`,
	}},
	{"condition", `logic L
declarations
  states A
  variable I : Integer
init
  if true then
  elif (I + 1) then
  end
cycle
  if not true then elif I * 2 then end
configuration
  cycle time 1 s
`, []string{
		`f.cll:7:8: condition must be Boolean, found Integer`,
		`f.cll:10:25: condition must be Boolean, found Integer`,
	}},
	{"assigned value", `logic L
declarations
  states A
  enumeration E { X }
  variable I : Integer
  variable V : E
init
  set I = 1.5
  set V = (A)
  set I = -(1 + 2.0)
cycle
configuration
  cycle time 1 s
`, []string{
		`f.cll:8:11: cannot assign Real to Integer variable "I"`,
		`f.cll:9:11: cannot assign state to E variable "V"`,
		`f.cll:10:11: cannot assign Real to Integer variable "I"`,
	}},
	{"initial value", `logic L
declarations
  states A
  enumeration E { X }
  variable I : Integer = -1.5
  variable B : Boolean = 0
  variable V : E = A
  variable R : Real = true
init
cycle
configuration
  cycle time 1 s
`, []string{
		`f.cll:5:26: cannot use Real as initial value of Integer variable "I"`,
		`f.cll:6:26: cannot use Integer as initial value of Boolean variable "B"`,
		`f.cll:7:20: cannot use state as initial value of E variable "V"`,
		`f.cll:8:23: cannot use Boolean as initial value of Real variable "R"`,
	}},
	{"configuration value", `logic L
declarations
  states A
  configuration parameter P : Integer
  configuration parameter Q : Boolean
init
cycle
configuration
  P = true
  Q = 1
  cycle time 1 s
`, []string{
		`f.cll:9:7: cannot use Boolean as value of Integer parameter "P"`,
		`f.cll:10:7: cannot use Integer as value of Boolean parameter "Q"`,
	}},
}

func TestLiteralRange(t *testing.T) { runErrorCases(t, literalRangeCases) }

var literalRangeCases = []errorCase{
	{"integers", `logic L
declarations
  states A
  variable I : Integer = 2147483648
  variable J : Integer = -2147483649
  variable K : Integer = 99999999999999999999999
  attribute N : Integer = 2147483648
init
  set I = -2147483648
cycle
configuration
  cycle time 1 s
`, []string{
		`f.cll:4:26: integer literal out of range`,
		`f.cll:5:26: integer literal out of range`,
		`f.cll:6:26: integer literal out of range`,
		`f.cll:7:27: integer literal out of range`,
		`f.cll:9:12: integer literal out of range`,
	}},
	{"reals", `logic L
declarations
  states A
  variable R : Real = -` + strings.Repeat("9", 400) + `.0
init
  set R = ` + strings.Repeat("9", 400) + `.5
cycle
configuration
  cycle time 1 s
`, []string{
		`f.cll:4:23: real literal out of range`,
		`f.cll:6:11: real literal out of range`,
	}},
}

func TestDurationRange(t *testing.T) { runErrorCases(t, durationRangeCases) }

var durationRangeCases = []errorCase{
	{"start and cycle time", `logic L
declarations
  states A
  timer T
init
  start T for 2147484 s
  start T for 2147483648 ms
  start T for 2147483647 ms
cycle
configuration
  cycle time 99999999999999999999 s
`, []string{
		`f.cll:6:15: duration out of range (at most 2147483647 ms)`,
		`f.cll:7:15: duration out of range (at most 2147483647 ms)`,
		`f.cll:11:14: duration out of range (at most 2147483647 ms)`,
	}},
}

func TestConfiguration(t *testing.T) { runErrorCases(t, configurationCases) }

var configurationCases = []errorCase{
	{"duplicate entry", `logic L
declarations
  states A
  configuration parameter P : Integer
init
cycle
configuration
  P = 1
  cycle time 1 s
  P = 2
`, []string{`f.cll:10:3: duplicate configuration entry for "P" (first at f.cll:8:3)`}},
	{"missing cycle time", `logic L
declarations
  states A
init
cycle
configuration
`, []string{`f.cll:6:1: missing "cycle time"`}},
	{"repeated cycle time", `logic L
declarations
  states A
init
cycle
configuration
  cycle time 1 s
  cycle time 2 s
`, []string{`f.cll:8:3: "cycle time" given twice (first at f.cll:7:3)`}},
	{"zero cycle time", `logic L
declarations
  states A
init
cycle
configuration
  cycle time 0 ms
`, []string{`f.cll:7:14: cycle time must be greater than 0`}},
}

// TestErrorsInSourceOrder checks that errors found by different rules come
// out sorted by position.
func TestErrorsInSourceOrder(t *testing.T) { runErrorCases(t, errorsInSourceOrderCases) }

var errorsInSourceOrderCases = []errorCase{
	{"mixed", `logic L
declarations
  states A
  variable X : Integer = true
  command X
init
  send Y
cycle
configuration
`, []string{
		`f.cll:4:26: cannot use Boolean as initial value of Integer variable "X"`,
		`f.cll:5:11: "X" declared twice (first at f.cll:4:12)`,
		`f.cll:7:8: undefined name "Y"`,
		`f.cll:9:1: missing "cycle time"`,
	}},
}

// tricky is a valid program that leans on the corners of the rules.
const tricky = `// Declarations may refer to those below them.
logic TrafficLight
declarations
  variable cur : Mode = Night
  variable s : Integer = -2147483648
  variable ratio : Real = 3
  variable r2 : Real = -0.5
  variable flag : Boolean
  enumeration Mode { Day, Night }
  states Red, Green, Yellow
  timer ms
  configuration parameter Installed : Boolean
  configuration parameter Limit : Integer
  attribute Name : String = "tl \"one\"\n"
  attribute Max : Integer = 2147483647
  input event Button
  command Beep, Stop2
init
  transition to Red
  set s = s + 1
  start ms for 3s
  start ms for 0 ms
cycle
  if state = Red and cur < Night then
    send Beep
  elif state >= Green or Button then
    set ratio = s / 2 + ratio * 2
    set ratio = 1
    set s = -s mod 3
  else
    set flag = not flag and (ms expired)
  end
  if Installed and s <= Limit and Max > s and 1 = 1.0 and cur <> Day then
    transition to next
  end
  set cur = Day
  transition to previous
configuration
  Limit = -2147483648
  Installed = true
  cycle time 10 ms
`

func TestAccepted(t *testing.T) {
	prog, info, errs := frontEnd(tricky)
	if errs != nil {
		t.Fatalf("unexpected errors:\n%s", strings.Join(errs, "\n"))
	}
	for name, want := range map[string]check.Entity{
		"cur":       {Kind: check.Var, Name: "cur", Type: check.Type{Kind: check.EnumType, Enum: "Mode"}, Index: 0},
		"ratio":     {Kind: check.Var, Name: "ratio", Type: check.Type{Kind: check.Real}, Index: 2},
		"Night":     {Kind: check.EnumValue, Name: "Night", Type: check.Type{Kind: check.EnumType, Enum: "Mode"}, Index: 1},
		"Yellow":    {Kind: check.State, Name: "Yellow", Type: check.Type{Kind: check.StateType}, Index: 2},
		"ms":        {Kind: check.Timer, Name: "ms", Index: 0},
		"Installed": {Kind: check.Param, Name: "Installed", Type: check.Type{Kind: check.Bool}, Index: 0},
		"Max":       {Kind: check.Attr, Name: "Max", Type: check.Type{Kind: check.Int}, Index: 1},
		"Button":    {Kind: check.Event, Name: "Button", Type: check.Type{Kind: check.Bool}},
		"Stop2":     {Kind: check.Command, Name: "Stop2", Index: 1},
		"Mode":      {Kind: check.Enum, Name: "Mode"},
	} {
		e := info.Entities[name]
		if e == nil {
			t.Errorf("no entity %q", name)
			continue
		}
		got := *e
		got.Decl = nil
		if got != want {
			t.Errorf("entity %q = %+v, want %+v", name, got, want)
		}
	}
	if n := len(info.Entities); n != 19 {
		t.Errorf("%d entities, want 19", n)
	}
	// Every expression of init and cycle has a valid type.
	n := 0
	var walk func(x ast.Expr)
	walk = func(x ast.Expr) {
		n++
		if t0, ok := info.Types[x]; !ok || t0.Kind == check.Invalid {
			t.Errorf("expression at %s has type %v, %v", x.Start(), t0, ok)
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
	if n != len(info.Types) {
		t.Errorf("walked %d expressions, Types has %d", n, len(info.Types))
	}
	// Promotion: s / 2 + ratio * 2 is Real, s / 2 stays Integer.
	set := prog.Cycle[0].(*ast.IfStmt).Thens[1][0].(*ast.SetStmt)
	sum := set.Value.(*ast.Binary)
	if got := info.Types[sum]; got.Kind != check.Real {
		t.Errorf("type of the sum = %v, want Real", got)
	}
	if got := info.Types[sum.X]; got.Kind != check.Int {
		t.Errorf("type of s / 2 = %v, want Integer", got)
	}
}

// TestTrafficLight checks the example of docs/cll.md.
func TestTrafficLight(t *testing.T) {
	src := `logic TrafficLight

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
	if _, _, errs := frontEnd(src); errs != nil {
		t.Fatalf("unexpected errors:\n%s", strings.Join(errs, "\n"))
	}
}

func TestCForm(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		// The examples of docs/cll.md (Names and their C forms).
		{"CameraOn", "camera_on"},
		{"HTTPServer", "http_server"},
		{"Step2Done", "step2_done"},
		{"max_count", "max_count"},
		{"X1", "x1"},
		{"X1Go", "x1_go"},
		{"HTTPSignalBox2", "http_signal_box2"},
		{"Foo_Bar", "foo_bar"},
		// And a few more.
		{"TrafficLight", "traffic_light"},
		{"A", "a"},
		{"AB", "ab"},
		{"ABc", "a_bc"},
		{"aB", "a_b"},
		{"Count", "count"},
		{"x_Y", "x_y"},
		{"A1B2", "a1_b2"},
	} {
		if got := check.CForm(tc.in); got != tc.want {
			t.Errorf("CForm(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := check.UpperCForm("HTTPSignalBox2"); got != "HTTP_SIGNAL_BOX2" {
		t.Errorf("UpperCForm = %q", got)
	}
}

// errorCaseTables are all the tables above, for the fuzz seeds.
var errorCaseTables = [][]errorCase{
	syntaxAndLexicalErrorsCases,
	statesDeclarationCases,
	declaredTwiceCases,
	sameCFormCases,
	generatedIdentifierCollisionCases,
	fixedIdentifierCollisionCases,
	reservedCFormCases,
	undefinedNameCases,
	wrongKindCases,
	typeErrorsCases,
	literalRangeCases,
	durationRangeCases,
	configurationCases,
	errorsInSourceOrderCases,
}

// TestLongChains: a chain of a million operators, a tree a million deep to
// the left, is checked in a loop (it overflowed the stack), with each
// operand typed; a type error in the middle of a chain is reported.
func TestLongChains(t *testing.T) {
	const n = 1_000_000
	hdr := "logic L\ndeclarations\n  states A\n  variable I : Integer\n  variable B : Boolean\ninit\ncycle\n"
	ftr := "\nconfiguration\n  cycle time 1 s\n"
	terms := make([]string, n)
	for i := range terms {
		terms[i] = "I"
	}
	prog, info, errs := frontEnd(hdr + "  set I = " + strings.Join(terms, " + ") + ftr)
	if errs != nil {
		t.Fatal(errs)
	}
	x := prog.Cycle[0].(*ast.SetStmt).Value
	if got := len(info.Types); got != 2*n-1 {
		t.Errorf("%d typed expressions, want %d", got, 2*n-1)
	}
	if info.Types[x].Kind != check.Int {
		t.Errorf("chain typed %v", info.Types[x])
	}
	terms = terms[:1000]
	terms[500] = "B"
	_, _, errs = frontEnd(hdr + "  set I = " + strings.Join(terms, " + ") + ftr)
	col := len("  set I = ") + 1 + 500*len("I + ") - 2
	if want := []string{fmt.Sprintf("f.cll:8:%d: mismatched types Integer and Boolean in \"+\"", col)}; strings.Join(errs, "\n") != want[0] {
		t.Errorf("errors %q, want %q", errs, want)
	}
}
