package cgen

import (
	"strconv"
	"strings"

	"github.com/mcpt-tool/mcpt/cll/ast"
	"github.com/mcpt-tool/mcpt/cll/check"
)

// stmts renders statements at the given indentation depth (four spaces each).
func (g *gen) stmts(w *writer, list []ast.Stmt, depth int) {
	ind := strings.Repeat("    ", depth)
	for _, s := range list {
		switch s := s.(type) {
		case *ast.IfStmt:
			if len(s.Conds) == 0 || len(s.Conds) != len(s.Thens) {
				fail("if statement with %d conditions and %d bodies", len(s.Conds), len(s.Thens))
			}
			for i, c := range s.Conds {
				cond := strip(g.cond(c))
				if i == 0 {
					w.put(ind, "if (", cond, ") {")
				} else {
					w.put(ind, "} else if (", cond, ") {")
				}
				g.stmts(w, s.Thens[i], depth+1)
			}
			if s.HasElse || len(s.Else) > 0 {
				w.put(ind, "} else {")
				g.stmts(w, s.Else, depth+1)
			}
			w.put(ind, "}")
		case *ast.SendStmt:
			g.entity(s.Command.Name, check.Command)
			w.put(ind, g.p, "_cmd_", g.cform(s.Command.Name), "();")
		case *ast.TransitionStmt:
			var target string
			switch s.Kind {
			case ast.ToState:
				g.entity(s.Target.Name, check.State)
				target = g.enumValue("State", s.Target.Name)
			case ast.ToNext:
				target = "(" + g.p + "_state_t)((ctx->state + 1) % " + g.P + "_STATE_COUNT)"
			case ast.ToPrevious:
				target = "(" + g.p + "_state_t)((ctx->state + " + g.P + "_STATE_COUNT - 1) % " + g.P + "_STATE_COUNT)"
			default:
				fail("transition of kind %d", s.Kind)
			}
			w.put(ind, "ctx->next_state = ", target, ";")
			w.put(ind, "ctx->transition_pending = true;")
		case *ast.SetStmt:
			e := g.entity(s.Var.Name, check.Var)
			v := g.expr(s.Value)
			if e.Type.Kind == check.Real && g.typeOf(s.Value).Kind == check.Int {
				v = "(double)" + v
			}
			w.put(ind, "ctx->v_", g.cform(s.Var.Name), " = ", strip(v), ";")
		case *ast.StartStmt:
			g.entity(s.Timer.Name, check.Timer)
			if s.Duration.MS < 0 || s.Duration.MS > maxInt32 {
				fail("duration %d ms out of range", s.Duration.MS)
			}
			t := g.cform(s.Timer.Name)
			w.put(ind, "ctx->t_", t, ".active = true;")
			w.put(ind, "ctx->t_", t, ".remaining_ms = ", strconv.FormatInt(s.Duration.MS, 10), ";")
		case *ast.StopStmt:
			g.entity(s.Timer.Name, check.Timer)
			w.put(ind, "ctx->t_", g.cform(s.Timer.Name), ".active = false;")
		default:
			fail("unknown statement %T", s)
		}
	}
}

// entity returns the declared entity called name, which must be of kind k.
func (g *gen) entity(name string, k check.Kind) *check.Entity {
	e := g.info.Entities[name]
	if e == nil || e.Kind != k {
		fail("%s is not an entity of kind %d", name, k)
	}
	return e
}

// typeOf returns the checked type of x.
func (g *gen) typeOf(x ast.Expr) check.Type {
	t, ok := g.info.Types[x]
	if p, paren := x.(*ast.Paren); !ok && paren {
		return g.typeOf(p.X)
	}
	if !ok || t.Kind == check.Invalid {
		fail("expression at %s has no type", x.Start())
	}
	return t
}

// cond renders a condition, which must be Boolean.
func (g *gen) cond(x ast.Expr) string {
	if g.typeOf(x).Kind != check.Bool {
		fail("condition at %s is not Boolean", x.Start())
	}
	return g.expr(x)
}

// expr renders an expression as C. The result is a primary expression, a
// cast, or wholly parenthesised, so that it can stand as the operand of any
// C operator or cast without more parentheses.
func (g *gen) expr(x ast.Expr) string {
	var b strings.Builder
	g.render(&b, x)
	return b.String()
}

// mode says how an expression is rendered.
type mode uint8

const (
	asValue      mode = iota // as expr renders it
	asUint                   // an Integer as a uint32_t operand (uintOperand)
	asUintChain              // a wrapping + - or * (uintChain)
	asLogicChain             // an and or an or (logicChain)
)

// part is a piece of the C text of an expression: text, or when x is not
// nil the expression x rendered in mode m.
type part struct {
	text string
	x    ast.Expr
	m    mode
}

func text(s string) part          { return part{text: s} }
func sub(x ast.Expr, m mode) part { return part{x: x, m: m} }
func value(x ast.Expr) part       { return sub(x, asValue) }

// render writes the C text of x to b. Each expression expands into parts,
// kept on a stack of their own rather than Go's: the time is linear in the
// size of the output, and neither long operator chains (trees as deep as
// they are long) nor deep nesting make the recursion deep.
func (g *gen) render(b *strings.Builder, x ast.Expr) {
	stack := []part{value(x)}
	var parts []part
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if p.x == nil {
			b.WriteString(p.text)
			continue
		}
		switch p.m {
		case asValue:
			parts = g.value(parts[:0], p.x)
		case asUint:
			parts = g.uintOperand(parts[:0], p.x)
		case asUintChain:
			parts = g.uintChain(parts[:0], chainLink(p.x))
		case asLogicChain:
			parts = g.logicChain(parts[:0], chainLink(p.x))
		}
		for i := len(parts) - 1; i >= 0; i-- {
			stack = append(stack, parts[i])
		}
	}
}

// chainLink returns x, which a chain mode is only given for a binary
// operation.
func chainLink(x ast.Expr) *ast.Binary {
	b, ok := x.(*ast.Binary)
	if !ok {
		fail("operator chain at %s is %T", x.Start(), x)
	}
	return b
}

// value appends the parts of x rendered as expr renders it.
func (g *gen) value(out []part, x ast.Expr) []part {
	switch x := x.(type) {
	case *ast.IntLit:
		return append(out, text(intLit(x.Value)))
	case *ast.RealLit:
		return append(out, text(realLit(x.Text)))
	case *ast.BoolLit:
		return append(out, text(boolLit(x.Value)))
	case *ast.StateExpr:
		return append(out, text("ctx->state"))
	case *ast.Name:
		return append(out, text(g.name(x.Ident.Name)))
	case *ast.Expired:
		g.entity(x.Timer.Name, check.Timer)
		tm := "ctx->t_" + g.cform(x.Timer.Name)
		return append(out, text("("+tm+".active && "+tm+".remaining_ms <= 0)"))
	case *ast.Paren:
		return append(out, value(x.X))
	case *ast.Unary:
		t := g.typeOf(x)
		switch {
		case x.Op == "not" && t.Kind == check.Bool:
			return append(out, text("(!"), value(x.X), text(")"))
		case x.Op == "-" && t.Kind == check.Real:
			return append(out, text("(-"), value(x.X), text(")"))
		case x.Op == "-" && t.Kind == check.Int:
			if lit, ok := unparen(x.X).(*ast.IntLit); ok {
				// The negation of a literal of 0 … 2147483647 cannot wrap.
				return append(out, text("(-"+intLit(lit.Value)+")"))
			}
			return append(out, text("(int32_t)(0u - "), sub(x.X, asUint), text(")"))
		}
		fail("unary %s of type %d", x.Op, t.Kind)
	case *ast.Binary:
		return g.binary(out, x, g.typeOf(x))
	}
	fail("unknown expression %T", x)
	return nil
}

// unparen returns x without its enclosing parentheses.
func unparen(x ast.Expr) ast.Expr {
	for {
		p, ok := x.(*ast.Paren)
		if !ok {
			return x
		}
		x = p.X
	}
}

// name renders an identifier used as a value.
func (g *gen) name(n string) string {
	e := g.info.Entities[n]
	if e == nil {
		fail("undefined name %s", n)
	}
	switch e.Kind {
	case check.Var:
		return "ctx->v_" + g.cform(n)
	case check.Param:
		return g.p + "_config_" + g.cform(n) + "()"
	case check.Event:
		return "ctx->e_" + g.cform(n)
	case check.State:
		return g.enumValue("State", n)
	case check.EnumValue:
		if e.Type.Kind != check.EnumType || e.Type.Enum == "" {
			fail("enumeration value %s without its enumeration", n)
		}
		return g.enumValue(e.Type.Enum, n)
	case check.Attr:
		if e.Type.Kind != check.Int {
			fail("String attribute %s used as a value", n)
		}
		return g.P + "_ATTR_" + g.upper(n)
	}
	fail("%s of kind %d used as a value", n, e.Kind)
	return ""
}

// cOps are the C operators of the binary CLL operators but mod, with the
// spaces around them.
var cOps = map[string]string{
	"=": " == ", "<>": " != ", "<": " < ", "<=": " <= ", ">": " > ", ">=": " >= ",
	"+": " + ", "-": " - ", "*": " * ", "/": " / ", "and": " && ", "or": " || ",
}

func (g *gen) binary(out []part, x *ast.Binary, t check.Type) []part {
	lt, rt := g.typeOf(x.X), g.typeOf(x.Y)
	switch x.Op {
	case "and", "or":
		return append(out, text("("), sub(x, asLogicChain), text(")"))
	case "=", "<>", "<", "<=", ">", ">=":
		return g.comparison(out, x, lt, rt)
	case "+", "-", "*", "/":
		if t.Kind == check.Real {
			open, op := "(", cOps[x.Op]
			if x.Op == "/" {
				g.useRDiv = true
				open, op = g.p+"_rdiv(", ", "
			}
			out = append(out, text(open))
			if lt.Kind == check.Int {
				out = append(out, text("(double)"))
			}
			out = append(out, value(x.X), text(op))
			if rt.Kind == check.Int {
				out = append(out, text("(double)"))
			}
			return append(out, value(x.Y), text(")"))
		}
		if t.Kind != check.Int {
			fail("arithmetic of type %d", t.Kind)
		}
		if x.Op == "/" {
			g.useDiv = true
			return append(out, text(g.p+"_div("), value(x.X), text(", "), value(x.Y), text(")"))
		}
		// Wraparound is defined in uint32_t; converting back is gcc's
		// documented modulo conversion.
		return append(out, text("(int32_t)("), sub(x, asUintChain), text(")"))
	case "mod":
		if t.Kind != check.Int {
			fail("mod of type %d", t.Kind)
		}
		g.useMod = true
		return append(out, text(g.p+"_mod("), value(x.X), text(", "), value(x.Y), text(")"))
	}
	fail("unknown operator %q", x.Op)
	return nil
}

// comparison appends the parts of x, a comparison of operands of types lt
// and rt.
func (g *gen) comparison(out []part, x *ast.Binary, lt, rt check.Type) []part {
	op := cOps[x.Op]
	switch {
	case lt.Kind == check.Real || rt.Kind == check.Real:
		// Promotion to double is C's own.
		return append(out, text("("), value(x.X), text(op), value(x.Y), text(")"))
	case lt.Kind == check.Int:
		// The casts keep gcc from calling x = x a self-comparison; a
		// wrapping operand is such a cast already.
		cast := func(y ast.Expr) part {
			if g.wrapping(y) {
				return text("")
			}
			return text("(int32_t)")
		}
		return append(out, text("("), cast(x.X), value(x.X), text(op), cast(x.Y), value(x.Y), text(")"))
	case lt.Kind == check.Bool && (truthValue(x.X) || truthValue(x.Y)):
		// C gives a truth value the type int, so a cast to int is no
		// conversion and gcc, folding where an operand goes unevaluated
		// (false and …), calls (not B) = (not B) a self-comparison;
		// Booleans are 0 or 1, so the exclusive or says the same.
		return append(out, text("(("), value(x.X), text(" ^ "), value(x.Y), text(")"+op+"0)"))
	case lt.Kind == check.Bool || lt.Kind == check.EnumType || lt.Kind == check.StateType:
		// Enumerations compare by ordinal (declaration order).
		return append(out, text("((int)"), value(x.X), text(op+"(int)"), value(x.Y), text(")"))
	}
	fail("comparison of type %d", lt.Kind)
	return nil
}

// truthValue reports whether the Boolean x is rendered as a C truth value
// (of type int): a not, an and, an or, a comparison or an expiry.
func truthValue(x ast.Expr) bool {
	switch unparen(x).(type) {
	case *ast.Unary, *ast.Binary, *ast.Expired:
		return true
	}
	return false
}

// logicChain appends the parts of x, an and or an or, without enclosing
// parentheses; a left operand with the same operator joins the chain, as
// && and || group from the left in C too.
func (g *gen) logicChain(out []part, x *ast.Binary) []part {
	if lb, ok := unparen(x.X).(*ast.Binary); ok && lb.Op == x.Op {
		out = append(out, sub(lb, asLogicChain))
	} else {
		out = append(out, value(x.X))
	}
	return append(out, text(cOps[x.Op]), value(x.Y))
}

// wrapping reports whether x is Integer arithmetic computed in uint32_t:
// + - * or the negation of anything but a literal.
func (g *gen) wrapping(x ast.Expr) bool {
	switch x := unparen(x).(type) {
	case *ast.Binary:
		return (x.Op == "+" || x.Op == "-" || x.Op == "*") && g.typeOf(x).Kind == check.Int
	case *ast.Unary:
		_, lit := unparen(x.X).(*ast.IntLit)
		return x.Op == "-" && !lit && g.typeOf(x).Kind == check.Int
	}
	return false
}

// uintOperand appends the parts of the Integer expression x as a uint32_t
// operand. A wrapping operand stays in uint32_t rather than going through
// int32_t and back, which changes no value.
func (g *gen) uintOperand(out []part, x ast.Expr) []part {
	if !g.wrapping(x) {
		return append(out, text("(uint32_t)"), value(x))
	}
	switch x := unparen(x).(type) {
	case *ast.Binary:
		return append(out, text("("), sub(x, asUintChain), text(")"))
	case *ast.Unary:
		return append(out, text("(0u - "), sub(x.X, asUint), text(")"))
	}
	panic("unreachable")
}

// uintChain appends the parts of x, a wrapping + - or *, in uint32_t
// without enclosing parentheses; a left operand of the same precedence
// joins the chain, as these operators group from the left in C too.
func (g *gen) uintChain(out []part, x *ast.Binary) []part {
	additive := func(op string) bool { return op == "+" || op == "-" }
	if lb, ok := unparen(x.X).(*ast.Binary); ok && g.wrapping(lb) && additive(lb.Op) == additive(x.Op) {
		out = append(out, sub(lb, asUintChain))
	} else {
		out = append(out, sub(x.X, asUint))
	}
	return append(out, text(cOps[x.Op]), sub(x.Y, asUint))
}

// strip removes one pair of parentheses enclosing all of s, for an
// expression that stands alone (a condition, an assigned value).
func strip(s string) string {
	if len(s) < 2 || s[0] != '(' || s[len(s)-1] != ')' {
		return s
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 && i != len(s)-1 {
				return s // the first parenthesis closes early: (a) + (b)
			}
		}
	}
	return s[1 : len(s)-1]
}
