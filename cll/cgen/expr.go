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
	switch x := x.(type) {
	case *ast.IntLit:
		return intLit(x.Value)
	case *ast.RealLit:
		return realLit(x.Text)
	case *ast.BoolLit:
		return boolLit(x.Value)
	case *ast.StateExpr:
		return "ctx->state"
	case *ast.Name:
		return g.name(x.Ident.Name)
	case *ast.Expired:
		g.entity(x.Timer.Name, check.Timer)
		tm := "ctx->t_" + g.cform(x.Timer.Name)
		return "(" + tm + ".active && " + tm + ".remaining_ms <= 0)"
	case *ast.Paren:
		return g.expr(x.X)
	case *ast.Unary:
		t := g.typeOf(x)
		switch {
		case x.Op == "not" && t.Kind == check.Bool:
			return "(!" + g.expr(x.X) + ")"
		case x.Op == "-" && t.Kind == check.Real:
			return "(-" + g.expr(x.X) + ")"
		case x.Op == "-" && t.Kind == check.Int:
			if lit, ok := unparen(x.X).(*ast.IntLit); ok {
				// The negation of a literal of 0 … 2147483647 cannot wrap.
				return "(-" + intLit(lit.Value) + ")"
			}
			return "(int32_t)(0u - " + g.uintOperand(x.X) + ")"
		}
		fail("unary %s of type %d", x.Op, t.Kind)
	case *ast.Binary:
		return g.binary(x, g.typeOf(x))
	}
	fail("unknown expression %T", x)
	return ""
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

func (g *gen) binary(x *ast.Binary, t check.Type) string {
	lt, rt := g.typeOf(x.X), g.typeOf(x.Y)
	switch x.Op {
	case "and", "or":
		return "(" + g.logicChain(x) + ")"
	case "=", "<>", "<", "<=", ">", ">=":
		l, r := g.expr(x.X), g.expr(x.Y)
		op := x.Op
		switch op {
		case "=":
			op = "=="
		case "<>":
			op = "!="
		}
		switch {
		case lt.Kind == check.Real || rt.Kind == check.Real:
			// Promotion to double is C's own.
		case lt.Kind == check.Int:
			// The casts keep gcc from calling x = x a self-comparison.
			l, r = castTo("int32_t", l), castTo("int32_t", r)
		case lt.Kind == check.Bool || lt.Kind == check.EnumType || lt.Kind == check.StateType:
			// Enumerations compare by ordinal (declaration order).
			l, r = castTo("int", l), castTo("int", r)
		default:
			fail("comparison of type %d", lt.Kind)
		}
		return "(" + l + " " + op + " " + r + ")"
	case "+", "-", "*", "/":
		if t.Kind == check.Real {
			l, r := g.expr(x.X), g.expr(x.Y)
			if lt.Kind == check.Int {
				l = "(double)" + l
			}
			if rt.Kind == check.Int {
				r = "(double)" + r
			}
			if x.Op == "/" {
				g.useRDiv = true
				return g.p + "_rdiv(" + l + ", " + r + ")"
			}
			return "(" + l + " " + x.Op + " " + r + ")"
		}
		if t.Kind != check.Int {
			fail("arithmetic of type %d", t.Kind)
		}
		if x.Op == "/" {
			g.useDiv = true
			return g.p + "_div(" + g.expr(x.X) + ", " + g.expr(x.Y) + ")"
		}
		// Wraparound is defined in uint32_t; converting back is gcc's
		// documented modulo conversion.
		return "(int32_t)(" + g.uintChain(x) + ")"
	case "mod":
		if t.Kind != check.Int {
			fail("mod of type %d", t.Kind)
		}
		g.useMod = true
		return g.p + "_mod(" + g.expr(x.X) + ", " + g.expr(x.Y) + ")"
	}
	fail("unknown operator %q", x.Op)
	return ""
}

// castTo casts the C expression s to type typ unless it is such a cast
// already.
func castTo(typ, s string) string {
	if strings.HasPrefix(s, "("+typ+")") {
		return s
	}
	return "(" + typ + ")" + s
}

// logicChain renders x, an and or an or, without enclosing parentheses; a
// left operand with the same operator joins the chain, as && and || group
// from the left in C too.
func (g *gen) logicChain(x *ast.Binary) string {
	op := map[string]string{"and": " && ", "or": " || "}[x.Op]
	var l string
	if lb, ok := unparen(x.X).(*ast.Binary); ok && lb.Op == x.Op {
		l = g.logicChain(lb)
	} else {
		l = g.expr(x.X)
	}
	return l + op + g.expr(x.Y)
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

// uintOperand renders the Integer expression x as a uint32_t operand. A
// wrapping operand stays in uint32_t rather than going through int32_t
// and back, which changes no value.
func (g *gen) uintOperand(x ast.Expr) string {
	if !g.wrapping(x) {
		return "(uint32_t)" + g.expr(x)
	}
	switch x := unparen(x).(type) {
	case *ast.Binary:
		return "(" + g.uintChain(x) + ")"
	case *ast.Unary:
		return "(0u - " + g.uintOperand(x.X) + ")"
	}
	panic("unreachable")
}

// uintChain renders x, a wrapping + - or *, in uint32_t without enclosing
// parentheses; a left operand of the same precedence joins the chain, as
// these operators group from the left in C too.
func (g *gen) uintChain(x *ast.Binary) string {
	additive := func(op string) bool { return op == "+" || op == "-" }
	var l string
	if lb, ok := unparen(x.X).(*ast.Binary); ok && g.wrapping(lb) && additive(lb.Op) == additive(x.Op) {
		l = g.uintChain(lb)
	} else {
		l = g.uintOperand(x.X)
	}
	return l + " " + x.Op + " " + g.uintOperand(x.Y)
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
