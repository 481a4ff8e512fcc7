package goprobe

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"strconv"
)

// The getters of a static reading are evaluated on an empty message, as
// the probe calls them: the receiver is a pointer to a message whose
// fields are all zero. A getter the generator writes tests the receiver
// and a field against nil, asserts a oneof's interface to a wrapper type,
// calls the oneof's getter, reads a field, and returns it, a constant, a
// Default_ variable or a copy of one. That is what is evaluated here;
// anything else ends the reading, and the probe is built instead.

// gval is a value of the evaluation.
type gval struct {
	// recv is the receiver: a pointer, not nil, to an empty message.
	recv bool
	// nilv is a nil pointer, slice, map or interface.
	nilv bool
	// c is a constant: a number, a string, a bool.
	c constant.Value
	// f is a float no constant holds (an infinity, NaN), when isF.
	f   float64
	isF bool
	// b are bytes, when isB.
	b   []byte
	isB bool
}

// maxDepth bounds the calls and variables an evaluation follows.
const maxDepth = 8

type evaluator struct {
	rd    *reading
	env   map[types.Object]gval
	depth int
}

// getter evaluates the getter name of the message type goType of p on an
// empty message and writes its value as the probe writes it.
func (rd *reading) getter(p *srcPkg, goType, name string, result types.Type) (string, error) {
	fn := p.funcs[goType+"."+name]
	if fn == nil {
		return "", fmt.Errorf("no declaration")
	}
	ev := &evaluator{rd: rd, env: map[types.Object]gval{}}
	v, err := ev.call(p, fn)
	if err != nil {
		return "", err
	}
	return rd.render(v, result)
}

// call evaluates the body of a method called on the receiver.
func (ev *evaluator) call(p *srcPkg, fn *ast.FuncDecl) (gval, error) {
	if ev.depth++; ev.depth > maxDepth {
		return gval{}, fmt.Errorf("calls nested too deep")
	}
	defer func() { ev.depth-- }()
	if fn.Recv == nil || len(fn.Recv.List) != 1 || fn.Body == nil {
		return gval{}, fmt.Errorf("%s: not a method", fn.Name.Name)
	}
	for _, n := range fn.Recv.List[0].Names {
		if obj := p.info.Defs[n]; obj != nil {
			ev.env[obj] = gval{recv: true}
		}
	}
	r, err := ev.block(p, fn.Body.List)
	if err != nil {
		return gval{}, err
	}
	if r == nil {
		return gval{}, fmt.Errorf("%s: ends without a return", fn.Name.Name)
	}
	return *r, nil
}

func (ev *evaluator) block(p *srcPkg, list []ast.Stmt) (*gval, error) {
	for _, st := range list {
		r, err := ev.stmt(p, st)
		if err != nil || r != nil {
			return r, err
		}
	}
	return nil, nil
}

func (ev *evaluator) stmt(p *srcPkg, st ast.Stmt) (*gval, error) {
	switch st := st.(type) {
	case *ast.ReturnStmt:
		if len(st.Results) != 1 {
			return nil, fmt.Errorf("a return of %d values", len(st.Results))
		}
		v, err := ev.expr(p, st.Results[0])
		return &v, err
	case *ast.BlockStmt:
		return ev.block(p, st.List)
	case *ast.IfStmt:
		if st.Init != nil {
			if err := ev.define(p, st.Init); err != nil {
				return nil, err
			}
		}
		cond, err := ev.boolean(p, st.Cond)
		if err != nil {
			return nil, err
		}
		if cond {
			return ev.block(p, st.Body.List)
		}
		if st.Else != nil {
			return ev.stmt(p, st.Else)
		}
		return nil, nil
	}
	return nil, fmt.Errorf("a statement the generator does not write in a getter: %s", nodeString(st))
}

// define evaluates `x, ok := E.(T)` or `x := E`.
func (ev *evaluator) define(p *srcPkg, st ast.Stmt) error {
	as, ok := st.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Rhs) != 1 {
		return fmt.Errorf("an if's statement the generator does not write")
	}
	bind := func(e ast.Expr, v gval) {
		if id, ok := e.(*ast.Ident); ok {
			if obj := p.info.Defs[id]; obj != nil {
				ev.env[obj] = v
			}
		}
	}
	if ta, ok := as.Rhs[0].(*ast.TypeAssertExpr); ok && len(as.Lhs) == 2 && ta.Type != nil {
		x, err := ev.expr(p, ta.X)
		if err != nil {
			return err
		}
		if !x.nilv {
			return fmt.Errorf("a type assertion of something not nil")
		}
		// A nil interface holds no type: ok is false, x the zero value.
		z, err := zeroOf(p.info.Types[ta.Type].Type)
		if err != nil {
			return err
		}
		bind(as.Lhs[0], z)
		bind(as.Lhs[1], gval{c: constant.MakeBool(false)})
		return nil
	}
	if len(as.Lhs) != 1 {
		return fmt.Errorf("an if's statement the generator does not write")
	}
	v, err := ev.expr(p, as.Rhs[0])
	if err != nil {
		return err
	}
	bind(as.Lhs[0], v)
	return nil
}

func (ev *evaluator) boolean(p *srcPkg, e ast.Expr) (bool, error) {
	v, err := ev.expr(p, e)
	if err != nil {
		return false, err
	}
	if v.c == nil || v.c.Kind() != constant.Bool {
		return false, fmt.Errorf("%s: not a bool", nodeString(e))
	}
	return constant.BoolVal(v.c), nil
}

func (ev *evaluator) expr(p *srcPkg, e ast.Expr) (gval, error) {
	if tv, ok := p.info.Types[e]; ok && tv.Value != nil {
		return gval{c: tv.Value}, nil
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return ev.expr(p, e.X)
	case *ast.Ident:
		if e.Name == "nil" {
			if _, ok := p.info.Uses[e].(*types.Nil); ok {
				return gval{nilv: true}, nil
			}
		}
		obj := p.info.Uses[e]
		if v, ok := ev.env[obj]; ok {
			return v, nil
		}
		if v, ok := obj.(*types.Var); ok {
			return ev.variable(v)
		}
	case *ast.SelectorExpr:
		if sel := p.info.Selections[e]; sel != nil {
			if sel.Kind() != types.FieldVal {
				break
			}
			x, err := ev.expr(p, e.X)
			if err != nil {
				return gval{}, err
			}
			switch {
			case x.recv && len(sel.Index()) == 1:
				return zeroOf(sel.Type())
			case x.nilv:
				return gval{}, fmt.Errorf("%s: a field of nil", nodeString(e))
			}
			break
		}
		if v, ok := p.info.Uses[e.Sel].(*types.Var); ok {
			return ev.variable(v)
		}
	case *ast.StarExpr:
		x, err := ev.expr(p, e.X)
		if err != nil {
			return gval{}, err
		}
		if x.nilv {
			return gval{}, fmt.Errorf("%s: nil dereferenced", nodeString(e))
		}
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			b, err := ev.boolean(p, e.X)
			return gval{c: constant.MakeBool(!b)}, err
		}
	case *ast.BinaryExpr:
		return ev.binary(p, e)
	case *ast.CallExpr:
		return ev.callExpr(p, e)
	}
	return gval{}, fmt.Errorf("cannot evaluate %s", nodeString(e))
}

// variable evaluates the initial value of a package-level variable of
// the side (a Default_ variable): the descriptor builders assign no such
// variable, so it keeps that value.
func (ev *evaluator) variable(v *types.Var) (gval, error) {
	if v.Pkg() == nil {
		return gval{}, fmt.Errorf("the variable %s", v.Name())
	}
	p := ev.rd.pkgs[v.Pkg().Path()]
	if p == nil {
		return gval{}, fmt.Errorf("the variable %s.%s, not of the output", v.Pkg().Path(), v.Name())
	}
	vs, ok := p.vars[v]
	if !ok || len(vs.spec.Values) <= vs.i {
		return gval{}, fmt.Errorf("the variable %s has no value", v.Name())
	}
	if ev.depth++; ev.depth > maxDepth {
		return gval{}, fmt.Errorf("variables nested too deep")
	}
	defer func() { ev.depth-- }()
	return ev.expr(p, vs.spec.Values[vs.i])
}

func (ev *evaluator) binary(p *srcPkg, e *ast.BinaryExpr) (gval, error) {
	switch e.Op {
	case token.LAND, token.LOR:
		a, err := ev.boolean(p, e.X)
		if err != nil {
			return gval{}, err
		}
		if a == (e.Op == token.LOR) {
			return gval{c: constant.MakeBool(a)}, nil
		}
		b, err := ev.boolean(p, e.Y)
		return gval{c: constant.MakeBool(b)}, err
	case token.EQL, token.NEQ:
		x, y := e.X, e.Y
		if id, ok := x.(*ast.Ident); ok && id.Name == "nil" {
			x, y = y, x
		}
		if id, ok := y.(*ast.Ident); !ok || id.Name != "nil" {
			break
		}
		v, err := ev.expr(p, x)
		if err != nil {
			return gval{}, err
		}
		if !v.nilv && !v.recv {
			break
		}
		return gval{c: constant.MakeBool(v.nilv == (e.Op == token.EQL))}, nil
	}
	return gval{}, fmt.Errorf("cannot evaluate %s", nodeString(e))
}

func (ev *evaluator) callExpr(p *srcPkg, e *ast.CallExpr) (gval, error) {
	if tv := p.info.Types[e.Fun]; tv.IsType() && len(e.Args) == 1 {
		v, err := ev.expr(p, e.Args[0])
		if err != nil {
			return gval{}, err
		}
		return convert(v, tv.Type)
	}
	switch f := calleeOf(p.info, e).(type) {
	case *types.Builtin:
		// append([]byte(nil), x...): a copy of x.
		if f.Name() == "append" && len(e.Args) == 2 && e.Ellipsis.IsValid() {
			a, err := ev.expr(p, e.Args[0])
			if err != nil {
				return gval{}, err
			}
			b, err := ev.expr(p, e.Args[1])
			if err != nil {
				return gval{}, err
			}
			if (a.nilv || a.isB) && (b.nilv || b.isB) {
				return gval{isB: true, b: append(append([]byte(nil), a.b...), b.b...)}, nil
			}
		}
	case *types.Func:
		if f.Pkg() != nil && f.Pkg().Path() == "math" {
			switch {
			case f.Name() == "NaN" && len(e.Args) == 0:
				return gval{isF: true, f: math.NaN()}, nil
			case f.Name() == "Inf" && len(e.Args) == 1:
				s, err := ev.expr(p, e.Args[0])
				if err != nil || s.c == nil || s.c.Kind() != constant.Int {
					break
				}
				return gval{isF: true, f: math.Inf(constant.Sign(s.c))}, nil
			}
			break
		}
		// A method called on the receiver: the oneof's getter.
		sel, ok := e.Fun.(*ast.SelectorExpr)
		if !ok || len(e.Args) != 0 || p.info.Selections[sel] == nil || p.info.Selections[sel].Kind() != types.MethodVal {
			break
		}
		x, err := ev.expr(p, sel.X)
		if err != nil {
			return gval{}, err
		}
		if !x.recv || f.Pkg() == nil {
			break
		}
		q := ev.rd.pkgs[f.Pkg().Path()]
		recv := f.Type().(*types.Signature).Recv()
		if q == nil || recv == nil {
			break
		}
		t := recv.Type()
		if ptr, ok := t.(*types.Pointer); ok {
			t = ptr.Elem()
		}
		n, ok := t.(*types.Named)
		if !ok {
			break
		}
		fn := q.funcs[n.Obj().Name()+"."+f.Name()]
		if fn == nil {
			break
		}
		return ev.call(q, fn)
	}
	return gval{}, fmt.Errorf("cannot evaluate %s", nodeString(e))
}

// convert converts a value that is no constant (go/types folds those).
func convert(v gval, t types.Type) (gval, error) {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case v.isF && u.Kind() == types.Float32:
			return gval{isF: true, f: float64(float32(v.f))}, nil
		case v.isF && u.Kind() == types.Float64:
			return v, nil
		}
	case *types.Slice:
		if isByte(u.Elem()) && (v.isB || v.nilv) {
			return v, nil
		}
		if v.nilv {
			return v, nil
		}
	case *types.Pointer, *types.Map, *types.Interface:
		if v.nilv {
			return v, nil
		}
	}
	return gval{}, fmt.Errorf("a conversion to %s", t)
}

// zeroOf is the zero value of a field's type.
func zeroOf(t types.Type) (gval, error) {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return gval{c: constant.MakeBool(false)}, nil
		case u.Info()&types.IsString != 0:
			return gval{c: constant.MakeString("")}, nil
		case u.Info()&types.IsInteger != 0:
			return gval{c: constant.MakeInt64(0)}, nil
		case u.Info()&types.IsFloat != 0:
			return gval{c: constant.MakeFloat64(0)}, nil
		}
	case *types.Pointer, *types.Slice, *types.Map, *types.Interface, *types.Chan, *types.Signature:
		return gval{nilv: true}, nil
	}
	return gval{}, fmt.Errorf("the zero value of %s", t)
}

func isByte(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Uint8
}

// render writes a getter's value of type t as the probe writes it
// (probe.render): an enum's number, nil, a slice's or map's length,
// bytes and strings quoted, numbers as strconv formats them.
func (rd *reading) render(v gval, t types.Type) (string, error) {
	if rd.isEnum(t) {
		if v.c != nil && v.c.Kind() == constant.Int {
			if n, exact := constant.Int64Val(v.c); exact {
				return strconv.Itoa(int(int32(n))), nil
			}
		}
		return "", fmt.Errorf("an enum's value that is no constant number")
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer, *types.Interface:
		if v.nilv {
			return "nil", nil
		}
	case *types.Slice:
		switch {
		case isByte(u.Elem()) && v.nilv:
			return `""`, nil
		case isByte(u.Elem()) && v.isB:
			return strconv.Quote(string(v.b)), nil
		case v.nilv:
			return "[0]", nil
		}
	case *types.Map:
		if v.nilv {
			return "map[0]", nil
		}
	case *types.Basic:
		k := u.Kind()
		switch {
		case v.isF && k == types.Float32:
			return strconv.FormatFloat(float64(float32(v.f)), 'g', -1, 32), nil
		case v.isF && k == types.Float64:
			return strconv.FormatFloat(v.f, 'g', -1, 64), nil
		case v.c == nil:
		case u.Info()&types.IsString != 0 && v.c.Kind() == constant.String:
			return strconv.Quote(constant.StringVal(v.c)), nil
		case u.Info()&types.IsBoolean != 0 && v.c.Kind() == constant.Bool:
			return strconv.FormatBool(constant.BoolVal(v.c)), nil
		case u.Info()&types.IsUnsigned != 0:
			if n, exact := constant.Uint64Val(constant.ToInt(v.c)); exact {
				return strconv.FormatUint(n, 10), nil
			}
		case u.Info()&types.IsInteger != 0:
			if n, exact := constant.Int64Val(constant.ToInt(v.c)); exact {
				return strconv.FormatInt(n, 10), nil
			}
		case k == types.Float32:
			f, _ := constant.Float64Val(constant.ToFloat(v.c))
			return strconv.FormatFloat(float64(float32(f)), 'g', -1, 32), nil
		case k == types.Float64:
			f, _ := constant.Float64Val(constant.ToFloat(v.c))
			return strconv.FormatFloat(f, 'g', -1, 64), nil
		}
	}
	return "", fmt.Errorf("a value of %s the reading cannot write", t)
}

// isEnum tells a type that implements protoreflect.Enum, whose values
// the probe writes as numbers.
func (rd *reading) isEnum(t types.Type) bool {
	pr, err := rd.imp.Import("google.golang.org/protobuf/reflect/protoreflect")
	if err != nil {
		return false
	}
	obj := pr.Scope().Lookup("Enum")
	if obj == nil {
		return false
	}
	iface, ok := obj.Type().Underlying().(*types.Interface)
	return ok && types.Implements(t, iface)
}
