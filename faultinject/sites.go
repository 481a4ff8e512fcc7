package faultinject

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// Names the instrumentation adds to an instrumented package. They must not
// already occur in it.
const (
	forwarderName = "mcptfaultB" // per-package generic forwarder to the runtime
	tagVarName    = "mcptfaultT" // the value of a switch tag, evaluated once
)

// A fileRewriter finds the branch sites of one Go file and rewrites them
// into calls of the forwarder, by byte offset.
type fileRewriter struct {
	fset   *token.FileSet
	file   *ast.File
	src    []byte
	rel    string      // the file's path relative to the module root
	info   *types.Info // types of the package, for boolean operand types
	buf    editBuffer
	found  []foundSite
	skips  []Skip
	elseIf map[*ast.IfStmt]bool
}

// foundSite is a branch site before it has an id: emit adds its edits once
// the id is known.
type foundSite struct {
	start, end int // the span the site covers, for ordering
	seq        int
	pos        token.Pos
	construct  Construct
	fn         string
	exprs      []ast.Expr // the condition, or the values of a case clause
	emit       func(id int)
}

func newFileRewriter(fset *token.FileSet, file *ast.File, src []byte, rel string, info *types.Info) *fileRewriter {
	return &fileRewriter{fset: fset, file: file, src: src, rel: rel, info: info,
		buf: editBuffer{src: src}, elseIf: map[*ast.IfStmt]bool{}}
}

// rewrite finds the sites, numbers them from first on in source order, and
// returns them with the rewritten source.
func (w *fileRewriter) rewrite(first int) ([]Site, []byte, error) {
	for _, d := range w.file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Body != nil {
				w.walk(d.Body, funcName(d))
			}
		case *ast.GenDecl:
			if d.Tok == token.VAR { // constant expressions must stay constant
				w.walk(d, "")
			}
		}
	}
	sort.SliceStable(w.found, func(i, j int) bool {
		a, b := w.found[i], w.found[j]
		if a.start != b.start {
			return a.start < b.start
		}
		if a.end != b.end {
			return a.end > b.end
		}
		return a.seq < b.seq
	})
	sites := make([]Site, len(w.found))
	for i, f := range w.found {
		id := first + i
		f.emit(id)
		p := w.fset.PositionFor(f.pos, false)
		sites[i] = Site{
			ID:        id,
			Pos:       fmt.Sprintf("%s:%d:%d", w.rel, p.Line, p.Column),
			File:      w.rel,
			Line:      p.Line,
			Col:       p.Column,
			Construct: f.construct,
			Func:      f.fn,
			Expr:      snippet(f.exprs),
			Faults:    [2]Fault{{ID: FaultID(id, true), Site: id, Force: true}, {ID: FaultID(id, false), Site: id, Force: false}},
		}
	}
	out, err := w.buf.bytes()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", w.rel, err)
	}
	if a, b := strings.Count(string(w.src), "\n"), strings.Count(string(out), "\n"); a != b {
		return nil, nil, fmt.Errorf("%s: internal error: instrumentation changed the line count from %d to %d", w.rel, a, b)
	}
	return sites, out, nil
}

func (w *fileRewriter) walk(n ast.Node, fn string) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GenDecl:
			return n.Tok != token.CONST
		case *ast.IfStmt:
			c := IfCond
			if w.elseIf[n] {
				c = ElseIfCond
			}
			if e, ok := n.Else.(*ast.IfStmt); ok {
				w.elseIf[e] = true
			}
			w.wrapSite(n.Cond, c, fn)
		case *ast.ForStmt:
			if n.Cond != nil {
				w.wrapSite(n.Cond, ForCond, fn)
			}
		case *ast.SwitchStmt:
			w.switchStmt(n, fn)
		case *ast.TypeSwitchStmt:
			w.skip(n.Pos(), TypeSwitch, "type switches are not instrumented")
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				w.operands(n, fn)
			}
		}
		return true
	})
}

// wrapSite makes e a site whose value is forced as a whole.
func (w *fileRewriter) wrapSite(e ast.Expr, c Construct, fn string) {
	start, end := w.offset(e.Pos()), w.offset(e.End())
	w.add(foundSite{start: start, end: end, pos: e.Pos(), construct: c, fn: fn, exprs: []ast.Expr{e},
		emit: func(id int) { w.buf.wrap(start, end, fmt.Sprintf("%s(%d, ", forwarderName, id), ")") }})
}

// operands makes each operand of the && or || expression b a site, unless
// the operand is itself (after parentheses and negations) an && or ||
// expression, whose own operands are the sites: a chain a && b && c has
// three operand sites, as it has three conditional jumps once compiled.
func (w *fileRewriter) operands(b *ast.BinaryExpr, fn string) {
	if t := w.info.TypeOf(b); t != nil && !isPlainBool(t) {
		// An untyped operand wrapped in a call would become a bool that
		// does not mix with the named boolean type of the other one.
		w.skip(b.OpPos, operandConstruct(b.Op), fmt.Sprintf("operands of type %s (not bool) are not instrumented", t))
		return
	}
	for _, x := range []ast.Expr{b.X, b.Y} {
		if isLogical(x) {
			continue
		}
		w.wrapSite(x, operandConstruct(b.Op), fn)
	}
}

// switchStmt makes each case clause of an expression switch that has an
// expression list a site, so that the clause can be forced taken or not
// taken. A tagged switch becomes a tagless one that compares the tag,
// evaluated once into a variable, with each case value in turn — the order
// and short-circuit of the original comparisons:
//
//	switch tag {            switch mcptfaultT := tag; {
//	case a, b:      →       case mcptfaultB(7, mcptfaultT == (a) || mcptfaultT == (b)):
//
// A switch with an init statement has no room for the variable; its tag is
// then repeated in each case when it is a side-effect-free expression on
// one line (an identifier, a selector, an index, a dereference), and the
// switch is skipped otherwise.
func (w *fileRewriter) switchStmt(s *ast.SwitchStmt, fn string) {
	var clauses []*ast.CaseClause
	for _, st := range s.Body.List {
		if cc, ok := st.(*ast.CaseClause); ok && len(cc.List) > 0 {
			clauses = append(clauses, cc)
		}
	}
	if len(clauses) == 0 {
		return
	}
	tag := ""
	if s.Tag != nil {
		start, end := w.offset(s.Tag.Pos()), w.offset(s.Tag.End())
		text := string(w.src[start:end])
		switch {
		case s.Init == nil:
			tag = tagVarName
			w.buf.wrap(start, end, tagVarName+" := ", ";")
		case isPure(s.Tag) && !strings.ContainsAny(text, "\n/"):
			tag = "(" + text + ")"
			if end < len(w.src) && w.src[end] == ' ' {
				end++
			}
			w.buf.replace(start, end, "")
		default:
			w.skip(s.Pos(), CaseClause, "a switch with an init statement and a tag that may have side effects is not instrumented")
			return
		}
	}
	for _, cc := range clauses {
		w.caseClause(cc, tag, fn)
	}
}

// caseClause makes the expression list of cc a site; tag is the text to
// compare the values with, or "" in a tagless switch.
func (w *fileRewriter) caseClause(cc *ast.CaseClause, tag, fn string) {
	first, last := cc.List[0], cc.List[len(cc.List)-1]
	start, end := w.offset(first.Pos()), w.offset(last.End())
	var commas []int
	for i := 1; i < len(cc.List); i++ {
		c, err := findComma(w.src, w.offset(cc.List[i-1].End()), w.offset(cc.List[i].Pos()))
		if err != nil {
			w.skip(cc.Pos(), CaseClause, err.Error())
			return
		}
		commas = append(commas, c)
	}
	w.add(foundSite{start: start, end: end, pos: first.Pos(), construct: CaseClause, fn: fn, exprs: cc.List,
		emit: func(id int) {
			w.buf.wrap(start, end, fmt.Sprintf("%s(%d, ", forwarderName, id), ")")
			for _, v := range cc.List {
				vs, ve := w.offset(v.Pos()), w.offset(v.End())
				switch {
				case tag != "":
					w.buf.wrap(vs, ve, tag+" == (", ")")
				case len(cc.List) > 1:
					// bool() lets values of different boolean types mix.
					w.buf.wrap(vs, ve, "bool(", ")")
				}
			}
			for _, c := range commas {
				w.buf.replace(c, c+1, " ||")
			}
		}})
}

func (w *fileRewriter) add(f foundSite) {
	f.seq = len(w.found)
	w.found = append(w.found, f)
}

func (w *fileRewriter) skip(pos token.Pos, c Construct, reason string) {
	p := w.fset.PositionFor(pos, false)
	w.skips = append(w.skips, Skip{Pos: fmt.Sprintf("%s:%d:%d", w.rel, p.Line, p.Column), Construct: c, Reason: reason})
}

func (w *fileRewriter) offset(p token.Pos) int { return w.fset.PositionFor(p, false).Offset }

// snippet renders expressions on one line, without comments, shortened.
func snippet(es []ast.Expr) string {
	var parts []string
	for _, e := range es {
		parts = append(parts, types.ExprString(e))
	}
	s := strings.Join(parts, ", ")
	if r := []rune(s); len(r) > 80 {
		s = string(r[:77]) + "..."
	}
	return s
}

// findComma returns the offset of the comma between two case values, in
// src[from:to], which holds nothing else but blanks and comments.
func findComma(src []byte, from, to int) (int, error) {
	for i := from; i < to; i++ {
		switch {
		case src[i] == ',':
			return i, nil
		case src[i] == '/' && i+1 < to && src[i+1] == '/':
			for i < to && src[i] != '\n' {
				i++
			}
		case src[i] == '/' && i+1 < to && src[i+1] == '*':
			j := strings.Index(string(src[i+2:to]), "*/")
			if j < 0 {
				return 0, fmt.Errorf("no comma found between case values")
			}
			i += j + 3
		}
	}
	return 0, fmt.Errorf("no comma found between case values")
}

// isLogical reports whether e, under parentheses and negations, is an &&
// or || expression.
func isLogical(e ast.Expr) bool {
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.UnaryExpr:
			if x.Op != token.NOT {
				return false
			}
			e = x.X
		case *ast.BinaryExpr:
			return x.Op == token.LAND || x.Op == token.LOR
		default:
			return false
		}
	}
}

// isPure reports whether evaluating e again can neither change state nor
// give another value, as long as nothing runs in between.
func isPure(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident, *ast.BasicLit:
		return true
	case *ast.ParenExpr:
		return isPure(e.X)
	case *ast.SelectorExpr:
		return isPure(e.X)
	case *ast.StarExpr:
		return isPure(e.X)
	case *ast.IndexExpr:
		return isPure(e.X) && isPure(e.Index)
	case *ast.UnaryExpr:
		return e.Op != token.ARROW && e.Op != token.AND && isPure(e.X)
	}
	return false
}

func isPlainBool(t types.Type) bool {
	b, ok := types.Unalias(t).(*types.Basic)
	return ok && (b.Kind() == types.Bool || b.Kind() == types.UntypedBool)
}

func operandConstruct(op token.Token) Construct {
	if op == token.LAND {
		return AndOperand
	}
	return OrOperand
}

// funcName renders the name of a function or method: F, T.M or (*T).M.
func funcName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	t := d.Recv.List[0].Type
	star := false
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = true, s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	name := "?"
	if id, ok := t.(*ast.Ident); ok {
		name = id.Name
	}
	if star {
		return "(*" + name + ")." + d.Name.Name
	}
	return name + "." + d.Name.Name
}
