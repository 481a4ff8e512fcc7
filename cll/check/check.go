// Package check applies the static rules of CLL (docs/cll.md) to a parsed
// program: one namespace of declared names, their C forms and the C
// identifiers generated from them, name kinds, types, literal and duration
// ranges, and the configuration section. It records the type of every
// expression for the C generator.
package check

import (
	"errors"
	"math"
	"sort"
	"strconv"

	"github.com/mcpt-tool/mcpt/cll/ast"
	"github.com/mcpt-tool/mcpt/cll/token"
)

const (
	maxInt32 = math.MaxInt32
	minInt32 = math.MinInt32
)

// Check applies the static rules to p. The error, when not nil, is a
// token.ErrorList in source order with at most one error per position. Info
// is returned even then, but it is complete only for a program without
// errors.
func Check(p *ast.Program) (*Info, error) {
	// The maps are made at their final size: growing them took a tenth of
	// the time of a large program.
	c := &checker{
		prog: p,
		info: &Info{
			Entities: make(map[string]*Entity, countEntities(p.Decls)),
			Types:    make(map[ast.Expr]Type, countExprs(p.Init)+countExprs(p.Cycle)),
		},
	}
	c.declare()
	c.resolveVarTypes()
	c.checkNames()
	c.checkDeclValues()
	c.stmts(p.Init)
	c.stmts(p.Cycle)
	c.checkConfig()
	return c.info, c.errorList().Err()
}

type checker struct {
	prog *ast.Program
	info *Info
	errs token.ErrorList
	// declPos is where each entity's name is declared.
	declPos map[*Entity]token.Pos
	// order holds the entities in source order, for the naming rules.
	order []*Entity
}

func (c *checker) errorf(pos token.Pos, format string, args ...any) {
	c.errs.Add(pos, format, args...)
}

// errorList sorts the errors by position and keeps the first reported at
// each position: later ones there are consequences of it.
func (c *checker) errorList() token.ErrorList {
	sort.SliceStable(c.errs, func(i, j int) bool {
		return c.errs[i].Pos.Offset < c.errs[j].Pos.Offset
	})
	var out token.ErrorList
	for _, e := range c.errs {
		if len(out) > 0 && out[len(out)-1].Pos == e.Pos {
			continue
		}
		out = append(out, e)
	}
	return out
}

// declare enters every declared name into the one namespace, reporting
// names declared twice and a missing or repeated states declaration.
// countEntities counts the names that the declarations declare.
func countEntities(ds []ast.Decl) int {
	n := 0
	for _, d := range ds {
		switch d := d.(type) {
		case *ast.StatesDecl:
			n += len(d.States)
		case *ast.EnumDecl:
			n += 1 + len(d.Values)
		case *ast.CommandDecl:
			n += len(d.Names)
		default:
			n++
		}
	}
	return n
}

// countExprs counts the expressions of statements, operands included.
func countExprs(ss []ast.Stmt) int {
	n := 0
	for _, s := range ss {
		switch s := s.(type) {
		case *ast.IfStmt:
			for _, x := range s.Conds {
				n += countExpr(x)
			}
			for _, body := range s.Thens {
				n += countExprs(body)
			}
			n += countExprs(s.Else)
		case *ast.SetStmt:
			n += countExpr(s.Value)
		}
	}
	return n
}

// countExpr counts the nodes of x with a stack of its own: a long chain of
// operators is a tree as deep as it is long.
func countExpr(x ast.Expr) int {
	n := 0
	stack := []ast.Expr{x}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n++
		switch x := x.(type) {
		case *ast.Paren:
			stack = append(stack, x.X)
		case *ast.Unary:
			stack = append(stack, x.X)
		case *ast.Binary:
			stack = append(stack, x.X, x.Y)
		}
	}
	return n
}

func (c *checker) declare() {
	n := countEntities(c.prog.Decls)
	c.declPos = make(map[*Entity]token.Pos, n)
	c.order = make([]*Entity, 0, n)
	var states *ast.StatesDecl
	counts := map[Kind]int{}
	add := func(id ast.Ident, k Kind, d ast.Decl, t Type, index int) {
		if prev, ok := c.info.Entities[id.Name]; ok {
			c.errorf(id.Pos, "%q declared twice (first at %s)", id.Name, c.declPos[prev])
			return
		}
		if index < 0 {
			index = counts[k]
			counts[k]++
		}
		e := &Entity{Kind: k, Name: id.Name, Decl: d, Type: t, Index: index}
		c.info.Entities[id.Name] = e
		c.declPos[e] = id.Pos
		c.order = append(c.order, e)
	}
	for _, d := range c.prog.Decls {
		switch d := d.(type) {
		case *ast.StatesDecl:
			if states != nil {
				c.errorf(d.Pos, "more than one \"states\" declaration (first at %s)", states.Pos)
			} else {
				states = d
			}
			for i, s := range d.States {
				add(s, State, d, Type{Kind: StateType}, i)
			}
		case *ast.EnumDecl:
			add(d.Name, Enum, d, Type{}, -1)
			for i, v := range d.Values {
				add(v, EnumValue, d, Type{Kind: EnumType, Enum: d.Name.Name}, i)
			}
		case *ast.CommandDecl:
			for _, n := range d.Names {
				add(n, Command, d, Type{}, -1)
			}
		case *ast.ParamDecl:
			add(d.Name, Param, d, builtinType(d.Type.Name), -1)
		case *ast.VarDecl:
			// An enumeration type is resolved once every name is known.
			add(d.Name, Var, d, builtinType(d.Type.Name), -1)
		case *ast.TimerDecl:
			add(d.Name, Timer, d, Type{}, -1)
		case *ast.EventDecl:
			add(d.Name, Event, d, Type{Kind: Bool}, -1)
		case *ast.AttrDecl:
			add(d.Name, Attr, d, builtinType(d.Type.Name), -1)
		}
	}
	if states == nil {
		c.errorf(c.prog.Declarations, "missing \"states\" declaration")
	}
}

// builtinType is the type a built-in type name denotes; Invalid for any
// other name.
func builtinType(name string) Type {
	switch name {
	case "Boolean":
		return Type{Kind: Bool}
	case "Integer":
		return Type{Kind: Int}
	case "Real":
		return Type{Kind: Real}
	case "String":
		return Type{Kind: String}
	}
	return Type{}
}

// lookup returns the entity named by id, reporting an undefined name.
func (c *checker) lookup(id ast.Ident) *Entity {
	e := c.info.Entities[id.Name]
	if e == nil {
		c.errorf(id.Pos, "undefined name %q", id.Name)
	}
	return e
}

// lookupKind returns the entity named by id if it is of kind k, reporting
// an undefined name or one of another kind (want names k in the message).
func (c *checker) lookupKind(id ast.Ident, k Kind, want string) *Entity {
	e := c.lookup(id)
	if e == nil {
		return nil
	}
	if e.Kind != k {
		c.errorf(id.Pos, "%q is %s, not %s", id.Name, describe(e), want)
		return nil
	}
	return e
}

// describe names the kind of an entity with its article.
func describe(e *Entity) string {
	switch e.Kind {
	case State:
		return "a state"
	case Enum:
		return "an enumeration"
	case EnumValue:
		return "an enumeration value"
	case Command:
		return "a command"
	case Param:
		return "a configuration parameter"
	case Var:
		return "a variable"
	case Timer:
		return "a timer"
	case Event:
		return "an input event"
	case Attr:
		if e.Type.Kind == String {
			return "a String attribute"
		}
		return "an Integer attribute"
	}
	return "an entity"
}

// resolveVarTypes gives each variable of an enumeration type its type.
func (c *checker) resolveVarTypes() {
	for _, d := range c.prog.Decls {
		v, ok := d.(*ast.VarDecl)
		if !ok || v.Type.Builtin {
			continue
		}
		id := ast.Ident{Pos: v.Type.Pos, Name: v.Type.Name}
		enum := c.lookupKind(id, Enum, "an enumeration")
		if e := c.info.Entities[v.Name.Name]; e != nil && e.Decl == d && enum != nil {
			e.Type = Type{Kind: EnumType, Enum: enum.Name}
		}
	}
}

// String renders a type as CLL spells it; the type of the states has no
// name in CLL and is rendered "state".
func (t Type) String() string {
	switch t.Kind {
	case Bool:
		return "Boolean"
	case Int:
		return "Integer"
	case Real:
		return "Real"
	case String:
		return "String"
	case EnumType:
		return t.Enum
	case StateType:
		return "state"
	}
	return "invalid type"
}

func (t Type) numeric() bool { return t.Kind == Int || t.Kind == Real }

// assignable reports whether a value of type src may be stored where dst
// is expected: the same type, or an Integer given to a Real. An invalid
// type, already reported, is assignable to keep errors from cascading.
func assignable(dst, src Type) bool {
	if dst.Kind == Invalid || src.Kind == Invalid {
		return true
	}
	return dst == src || dst.Kind == Real && src.Kind == Int
}

// checkDeclValues checks the initial values of variables and the values
// of attributes.
func (c *checker) checkDeclValues() {
	for _, d := range c.prog.Decls {
		switch d := d.(type) {
		case *ast.VarDecl:
			if d.Init == nil {
				continue
			}
			t := c.literal(*d.Init)
			want := Type{}
			if e := c.info.Entities[d.Name.Name]; e != nil && e.Decl == d {
				want = e.Type
			}
			if !assignable(want, t) {
				c.errorf(d.Init.Pos, "cannot use %s as initial value of %s variable %q", t, want, d.Name.Name)
			}
		case *ast.AttrDecl:
			if d.Value.Kind == ast.LitInt && d.Value.Int > maxInt32 {
				c.errorf(d.Value.Pos, "integer literal out of range")
			}
		}
	}
}

// literal checks a constant of a declaration or configuration entry and
// returns its type; Invalid after an error.
func (c *checker) literal(l ast.Literal) Type {
	switch l.Kind {
	case ast.LitInt:
		if l.Int > maxInt32 || l.Int < minInt32 {
			c.errorf(l.Pos, "integer literal out of range")
			return Type{}
		}
		return Type{Kind: Int}
	case ast.LitReal:
		if !finiteReal(l.Text) {
			c.errorf(l.Pos, "real literal out of range")
			return Type{}
		}
		return Type{Kind: Real}
	case ast.LitBool:
		return Type{Kind: Bool}
	case ast.LitString:
		return Type{Kind: String}
	case ast.LitIdent:
		id := ast.Ident{Pos: l.Pos, Name: l.Text}
		e := c.lookup(id)
		if e == nil {
			return Type{}
		}
		if e.Kind != EnumValue && e.Kind != State {
			c.errorf(l.Pos, "%q is %s, not an enumeration value", l.Text, describe(e))
			return Type{}
		}
		return e.Type
	}
	return Type{}
}

// finiteReal reports whether a real literal's value is a finite double.
func finiteReal(text string) bool {
	// ParseFloat fails with ErrRange and an infinity on overflow; an
	// underflow to zero is a finite value.
	f, err := strconv.ParseFloat(text, 64)
	return (err == nil || errors.Is(err, strconv.ErrRange)) && !math.IsInf(f, 0)
}

// checkDuration reports a duration above the 32-bit range.
func (c *checker) checkDuration(d ast.Duration) bool {
	if d.MS > maxInt32 {
		c.errorf(d.Pos, "duration out of range (at most 2147483647 ms)")
		return false
	}
	return true
}

// stmts checks a list of statements.
func (c *checker) stmts(list []ast.Stmt) {
	for _, s := range list {
		c.stmt(s)
	}
}

func (c *checker) stmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.IfStmt:
		for i, cond := range s.Conds {
			if t := c.expr(cond); t.Kind != Invalid && t.Kind != Bool {
				c.errorf(cond.Start(), "condition must be Boolean, found %s", t)
			}
			if i < len(s.Thens) {
				c.stmts(s.Thens[i])
			}
		}
		c.stmts(s.Else)
	case *ast.SendStmt:
		c.lookupKind(s.Command, Command, "a command")
	case *ast.TransitionStmt:
		if s.Kind == ast.ToState {
			c.lookupKind(s.Target, State, "a state")
		}
	case *ast.SetStmt:
		v := c.lookupKind(s.Var, Var, "a variable")
		t := c.expr(s.Value)
		if v != nil && !assignable(v.Type, t) {
			c.errorf(s.Value.Start(), "cannot assign %s to %s variable %q", t, v.Type, v.Name)
		}
	case *ast.StartStmt:
		c.lookupKind(s.Timer, Timer, "a timer")
		c.checkDuration(s.Duration)
	case *ast.StopStmt:
		c.lookupKind(s.Timer, Timer, "a timer")
	}
}

// expr checks an expression and records its type, and those of its
// operands, in Info.Types.
func (c *checker) expr(x ast.Expr) Type {
	t := c.expr1(x)
	c.info.Types[x] = t
	return t
}

func (c *checker) expr1(x ast.Expr) Type {
	switch x := x.(type) {
	case *ast.IntLit:
		if x.Value > maxInt32 {
			c.errorf(x.Pos, "integer literal out of range")
		}
		return Type{Kind: Int}
	case *ast.RealLit:
		if !finiteReal(x.Text) {
			c.errorf(x.Pos, "real literal out of range")
		}
		return Type{Kind: Real}
	case *ast.BoolLit:
		return Type{Kind: Bool}
	case *ast.StateExpr:
		return Type{Kind: StateType}
	case *ast.Name:
		e := c.lookup(x.Ident)
		if e == nil {
			return Type{}
		}
		switch e.Kind {
		case Var, Param, Event, EnumValue, State:
			return e.Type
		case Attr:
			if e.Type.Kind == Int {
				return e.Type
			}
		}
		c.errorf(x.Ident.Pos, "%q is %s, not a value", e.Name, describe(e))
		return Type{}
	case *ast.Expired:
		c.lookupKind(x.Timer, Timer, "a timer")
		return Type{Kind: Bool}
	case *ast.Paren:
		return c.expr(x.X)
	case *ast.Unary:
		t := c.expr(x.X)
		if x.Op == "not" {
			if t.Kind != Invalid && t.Kind != Bool {
				c.errorf(x.OpPos, "operator \"not\" needs Boolean, found %s", t)
			}
			return Type{Kind: Bool}
		}
		if t.Kind != Invalid && !t.numeric() {
			c.errorf(x.OpPos, "operator %q needs Integer or Real, found %s", x.Op, t)
			return Type{}
		}
		return t
	case *ast.Binary:
		return c.binary(x)
	}
	return Type{}
}

// binary checks X op Y and the binary operations down its left operands,
// in a loop: a chain of n operators, which the parser builds without
// recursion, is a tree n deep to the left.
func (c *checker) binary(x *ast.Binary) Type {
	spine := []*ast.Binary{x}
	for {
		l, ok := spine[len(spine)-1].X.(*ast.Binary)
		if !ok {
			break
		}
		spine = append(spine, l)
	}
	t := c.expr(spine[len(spine)-1].X)
	for i := len(spine) - 1; i >= 0; i-- {
		b := spine[i]
		t = c.binaryType(b, t, c.expr(b.Y))
		c.info.Types[b] = t
	}
	return t
}

// binaryType checks X op Y given the types of X and Y. Comparisons and
// logical operators are Boolean even when mistyped, so that one error does
// not cascade.
func (c *checker) binaryType(x *ast.Binary, tx, ty Type) Type {
	if tx.Kind == Invalid || ty.Kind == Invalid {
		switch x.Op {
		case "+", "-", "*", "/", "mod":
			return Type{}
		}
		return Type{Kind: Bool}
	}
	switch x.Op {
	case "and", "or":
		return c.logicalType(x, tx, ty)
	case "+", "-", "*", "/":
		return c.arithmeticType(x, tx, ty)
	case "mod":
		return c.modType(x, tx, ty)
	case "=", "<>":
		if tx != ty && !(tx.numeric() && ty.numeric()) {
			c.mismatch(x, tx, ty)
		}
		return Type{Kind: Bool}
	case "<", "<=", ">", ">=":
		return c.orderType(x, tx, ty)
	}
	return Type{}
}

// mismatch reports operands of x of types tx and ty that do not go
// together.
func (c *checker) mismatch(x *ast.Binary, tx, ty Type) {
	c.errorf(x.OpPos, "mismatched types %s and %s in %q", tx, ty, x.Op)
}

// needs reports an operand of x of type t where x needs what.
func (c *checker) needs(x *ast.Binary, what string, t Type) {
	c.errorf(x.OpPos, "operator %q needs %s, found %s", x.Op, what, t)
}

// logicalType checks X and Y, X or Y: Boolean operands.
func (c *checker) logicalType(x *ast.Binary, tx, ty Type) Type {
	switch {
	case tx.Kind == Bool && ty.Kind == Bool:
	case tx != ty:
		c.mismatch(x, tx, ty)
	default:
		c.needs(x, "Boolean", tx)
	}
	return Type{Kind: Bool}
}

// arithmeticType checks X + Y, X - Y, X * Y, X / Y: numbers, Real when
// either is Real.
func (c *checker) arithmeticType(x *ast.Binary, tx, ty Type) Type {
	switch {
	case tx.numeric() && ty.numeric():
		if tx.Kind == Real || ty.Kind == Real {
			return Type{Kind: Real}
		}
		return Type{Kind: Int}
	case tx != ty:
		c.mismatch(x, tx, ty)
	default:
		c.needs(x, "Integer or Real", tx)
	}
	return Type{}
}

// modType checks X mod Y: Integers; of two other numbers, or two operands
// of the same type, the first that is not an Integer is reported.
func (c *checker) modType(x *ast.Binary, tx, ty Type) Type {
	switch {
	case tx.Kind == Int && ty.Kind == Int:
		return Type{Kind: Int}
	case tx.numeric() && ty.numeric() || tx == ty:
		wrong := ty
		if tx.Kind != Int {
			wrong = tx
		}
		c.needs(x, "Integer", wrong)
	default:
		c.mismatch(x, tx, ty)
	}
	return Type{}
}

// orderType checks X < Y, X <= Y, X > Y, X >= Y: numbers, or values of
// one enumeration or state type.
func (c *checker) orderType(x *ast.Binary, tx, ty Type) Type {
	ordered := func(t Type) bool {
		return t.numeric() || t.Kind == EnumType || t.Kind == StateType
	}
	switch {
	case tx.numeric() && ty.numeric():
	case tx != ty:
		c.mismatch(x, tx, ty)
	case !ordered(tx):
		c.needs(x, "numbers or enumeration values", tx)
	}
	return Type{Kind: Bool}
}

// checkConfig checks the configuration section: entries for declared
// parameters with values of their types, at most once each, and exactly
// one positive cycle time.
func (c *checker) checkConfig() {
	seen := map[string]token.Pos{}
	var cycle *ast.CycleTimeEntry
	for _, e := range c.prog.Config {
		switch e := e.(type) {
		case *ast.ParamEntry:
			param := c.lookupKind(e.Name, Param, "a configuration parameter")
			t := c.literal(e.Value)
			if param == nil {
				continue
			}
			if first, ok := seen[e.Name.Name]; ok {
				c.errorf(e.Name.Pos, "duplicate configuration entry for %q (first at %s)", e.Name.Name, first)
				continue
			}
			seen[e.Name.Name] = e.Name.Pos
			if !assignable(param.Type, t) {
				c.errorf(e.Value.Pos, "cannot use %s as value of %s parameter %q", t, param.Type, param.Name)
			}
		case *ast.CycleTimeEntry:
			if cycle != nil {
				c.errorf(e.Pos, "\"cycle time\" given twice (first at %s)", cycle.Pos)
				continue
			}
			cycle = e
			if c.checkDuration(e.Duration) && e.Duration.MS == 0 {
				c.errorf(e.Duration.Pos, "cycle time must be greater than 0")
			}
		}
	}
	if cycle == nil {
		c.errorf(c.prog.ConfigPos, "missing \"cycle time\"")
	}
}
