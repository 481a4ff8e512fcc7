// Package parser builds the syntax tree of a CLL program (docs/cll.md, The language in one example) by
// recursive descent, reporting lexical and syntax errors with positions.
package parser

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/mcpt-tool/mcpt/cll/ast"
	"github.com/mcpt-tool/mcpt/cll/scanner"
	"github.com/mcpt-tool/mcpt/cll/token"
)

// MaxErrors is the number of errors (on distinct lines) after which Parse
// gives up.
const MaxErrors = 10

// The nesting limits. Beyond either, Parse reports an error at the token
// that opens the level too many and stops: they bound the parser's
// recursion, and those of the checker and the generator that follow the
// tree, whatever the input, and the size of the C (each level of if
// statements indents its lines by four more spaces).
const (
	// MaxExprDepth is the deepest nesting of parentheses, "not" and
	// unary "-" within one expression.
	MaxExprDepth = 1000
	// MaxStmtDepth is the deepest nesting of if statements.
	MaxStmtDepth = 100
)

// Parse parses the CLL program src, whose positions name filename. The
// error, when not nil, is a token.ErrorList in source order holding at most
// one error per line and at most MaxErrors errors. The program is returned
// even then, possibly incomplete; it is fit for the checker only when the
// error is nil. Values out of range (integers, reals, durations) are left
// to the checker, which reports them.
func Parse(filename string, src []byte) (prog *ast.Program, err error) {
	p := &parser{lines: make(map[int]bool)}
	p.sc = scanner.New(filename, src, p.add)
	prog = &ast.Program{}
	func() {
		defer func() {
			if r := recover(); r != nil {
				switch r.(type) {
				case bailout, tooMany, tooDeep:
				default:
					panic(r) // a bug, runtime errors included: never hidden
				}
			}
		}()
		p.next()
		p.parseProgram(prog)
	}()
	return prog, p.errorList().Err()
}

// bailout abandons the current declaration, statement or entry; the loop
// that parses those recovers and skips to a token it can resume at.
type bailout struct{}

// tooMany abandons the whole parse once MaxErrors lines hold an error.
type tooMany struct{}

// tooDeep abandons the whole parse at a nesting limit.
type tooDeep struct{}

type parser struct {
	sc     *scanner.Scanner
	tok    scanner.Token   // the current token
	ahead  []scanner.Token // tokens scanned past tok, for peek
	errors token.ErrorList
	lines  map[int]bool // lines that hold an error

	exprDepth int // open parentheses, "not" and unary "-" being parsed
	stmtDepth int // if statements being parsed
}

// enter opens one more level of nesting counted by depth; past limit it
// reports the current token, which opens the level, and abandons the parse.
// The caller closes the level with *depth--.
func (p *parser) enter(depth *int, limit int, what string) {
	*depth++
	if *depth > limit {
		p.add(p.tok.Pos, fmt.Sprintf("%s nested too deeply (at most %d levels)", what, limit))
		panic(tooDeep{})
	}
}

// next advances to the next token.
func (p *parser) next() {
	if len(p.ahead) > 0 {
		p.tok = p.ahead[0]
		p.ahead = p.ahead[1:]
		return
	}
	p.tok = p.sc.Scan()
}

// peek returns the token after the current one without consuming it.
func (p *parser) peek() scanner.Token {
	if len(p.ahead) == 0 {
		p.ahead = append(p.ahead, p.sc.Scan())
	}
	return p.ahead[0]
}

// add records a lexical or syntax error; once MaxErrors lines hold one, it
// stops the parse.
func (p *parser) add(pos token.Pos, msg string) {
	p.errors = append(p.errors, &token.Error{Pos: pos, Msg: msg})
	if !p.lines[pos.Line] {
		p.lines[pos.Line] = true
		if len(p.lines) >= MaxErrors {
			panic(tooMany{})
		}
	}
}

// errorList sorts the errors, keeps the first of each line (the others are
// mostly echoes of it) and at most MaxErrors of them.
func (p *parser) errorList() token.ErrorList {
	sort.SliceStable(p.errors, func(i, j int) bool {
		return p.errors[i].Pos.Offset < p.errors[j].Pos.Offset
	})
	var out token.ErrorList
	for _, e := range p.errors {
		if len(out) > 0 && out[len(out)-1].Pos.Line == e.Pos.Line {
			continue
		}
		if len(out) == MaxErrors {
			break
		}
		out = append(out, e)
	}
	return out
}

// errorExpected reports that the current token is not what was expected
// and abandons the current item.
func (p *parser) errorExpected(what string) {
	p.complain(what)
	panic(bailout{})
}

// complain reports that the current token is not what was expected, and
// lets the caller recover on its own.
func (p *parser) complain(what string) {
	found := describe(p.tok)
	// Two keywords also begin a declaration or an entry; name the pair
	// so that "expected "cycle", found "cycle"" cannot appear.
	switch next := p.peek().Kind; {
	case p.tok.Kind == token.CYCLE && next == token.TIME:
		found = `"cycle time"`
	case p.tok.Kind == token.CONFIGURATION && next == token.PARAMETER:
		found = `"configuration parameter"`
	}
	p.add(p.tok.Pos, fmt.Sprintf("expected %s, found %s", what, found))
}

// describe renders a token for "found X".
func describe(t scanner.Token) string {
	switch t.Kind {
	case token.EOF:
		return "end of file"
	case token.IDENT:
		return fmt.Sprintf("identifier %q", t.Text)
	case token.INTLIT:
		return "integer " + t.Text
	case token.REALLIT:
		return "real " + t.Text
	case token.STRINGLIT:
		return "string " + t.Text
	}
	return strconv.Quote(t.Text)
}

// quoted renders a token kind for "expected X".
func quoted(k token.Kind) string {
	switch k {
	case token.IDENT, token.INTLIT, token.REALLIT, token.STRINGLIT, token.EOF:
		return k.String()
	}
	return strconv.Quote(k.String())
}

// expect consumes a token of kind k and returns it, or reports an error.
func (p *parser) expect(k token.Kind) scanner.Token {
	t := p.tok
	if t.Kind != k {
		p.errorExpected(quoted(k))
	}
	p.next()
	return t
}

// ident consumes an identifier.
func (p *parser) ident() ast.Ident {
	t := p.expect(token.IDENT)
	return ast.Ident{Pos: t.Pos, Name: t.Text}
}

// item parses one declaration, statement or entry with parse; on a syntax
// error it skips to a token in sync. parse always consumes a token before
// it can fail, so the loop that calls item makes progress.
func (p *parser) item(parse func(), sync map[token.Kind]bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
			p.skipTo(sync)
		}
	}()
	parse()
}

// skipTo skips tokens until one in sync or the end of file.
func (p *parser) skipTo(sync map[token.Kind]bool) {
	for p.tok.Kind != token.EOF && !sync[p.tok.Kind] {
		p.next()
	}
}

// stray reports a token that cannot start what a list expects, consumes
// it and skips to a token in sync.
func (p *parser) stray(what string, sync map[token.Kind]bool) {
	p.complain(what)
	p.next()
	p.skipTo(sync)
}

func kinds(ks ...token.Kind) map[token.Kind]bool {
	m := make(map[token.Kind]bool, len(ks))
	for _, k := range ks {
		m[k] = true
	}
	return m
}

var (
	declSync = kinds(token.STATES, token.ENUMERATION, token.COMMAND, token.CONFIGURATION,
		token.VARIABLE, token.TIMER, token.INPUT, token.ATTRIBUTE,
		token.DECLARATIONS, token.INIT, token.CYCLE)
	stmtSync = kinds(token.IF, token.SEND, token.TRANSITION, token.SET, token.START, token.STOP,
		token.ELIF, token.ELSE, token.END,
		token.DECLARATIONS, token.INIT, token.CYCLE, token.CONFIGURATION)
	entrySync = kinds(token.IDENT, token.CYCLE)
)

// section ranks the section keywords in program order, so that a missing
// one can be skipped up to the next present one; tokens that open no
// section rank 0.
func (p *parser) section(t scanner.Token) int {
	switch t.Kind {
	case token.DECLARATIONS:
		return 1
	case token.INIT:
		return 2
	case token.CYCLE:
		if p.peek().Kind == token.TIME {
			return 0 // a "cycle time" entry
		}
		return 3
	case token.CONFIGURATION:
		if p.peek().Kind == token.PARAMETER {
			return 0 // a parameter declaration
		}
		return 4
	case token.EOF:
		return 5
	}
	return 0
}

// expectSection consumes the section keyword k and returns its position.
// When k is missing it reports so, skips to k or a later section, and
// returns the position of the token it stopped at.
func (p *parser) expectSection(k token.Kind) token.Pos {
	rank := map[token.Kind]int{token.DECLARATIONS: 1, token.INIT: 2, token.CYCLE: 3, token.CONFIGURATION: 4}[k]
	pos := p.tok.Pos
	if p.tok.Kind == k && p.section(p.tok) == rank {
		p.next()
		return pos
	}
	p.complain(quoted(k))
	for p.section(p.tok) < rank {
		p.next()
	}
	pos = p.tok.Pos
	if p.section(p.tok) == rank {
		p.next()
	}
	return pos
}

// parseProgram parses a whole source.
//
//	program = "logic" IDENT declarations init cycle configuration .
func (p *parser) parseProgram(prog *ast.Program) {
	if p.tok.Kind == token.LOGIC {
		p.next()
		if p.tok.Kind == token.IDENT {
			prog.Logic = ast.Ident{Pos: p.tok.Pos, Name: p.tok.Text}
			p.next()
		} else {
			p.complain("identifier")
		}
	} else {
		p.complain(quoted(token.LOGIC))
	}
	prog.Declarations = p.expectSection(token.DECLARATIONS)
	prog.Decls = p.parseDecls()
	prog.InitPos = p.expectSection(token.INIT)
	prog.Init = p.parseStmts()
	prog.CyclePos = p.expectSection(token.CYCLE)
	prog.Cycle = p.parseStmts()
	prog.ConfigPos = p.expectSection(token.CONFIGURATION)
	prog.Config = p.parseEntries()
}

// parseDecls parses the declarations after the keyword.
//
//	declarations = "declarations" { declaration } .
func (p *parser) parseDecls() []ast.Decl {
	var decls []ast.Decl
	for {
		switch p.tok.Kind {
		case token.STATES, token.ENUMERATION, token.COMMAND, token.VARIABLE,
			token.TIMER, token.INPUT, token.ATTRIBUTE:
		case token.CONFIGURATION:
			if p.section(p.tok) != 0 {
				return decls
			}
		case token.INIT, token.CYCLE, token.EOF:
			return decls
		default:
			p.stray("declaration", declSync)
			continue
		}
		p.item(func() { decls = append(decls, p.parseDecl()) }, declSync)
	}
}

// parseDecl parses one declaration.
//
//	declaration  = states | enumeration | command | parameter | variable | timer
//	             | event | attribute .
func (p *parser) parseDecl() ast.Decl {
	switch p.tok.Kind {
	case token.STATES:
		return p.parseStates()
	case token.ENUMERATION:
		return p.parseEnum()
	case token.COMMAND:
		return p.parseCommand()
	case token.CONFIGURATION:
		return p.parseParam()
	case token.VARIABLE:
		return p.parseVar()
	case token.TIMER:
		return p.parseTimer()
	case token.INPUT:
		return p.parseEvent()
	}
	return p.parseAttr()
}

// parseIdentList parses a comma-separated list of names.
//
//	IDENT { "," IDENT }
func (p *parser) parseIdentList() []ast.Ident {
	list := []ast.Ident{p.ident()}
	for p.tok.Kind == token.COMMA {
		p.next()
		list = append(list, p.ident())
	}
	return list
}

// parseStates parses the states declaration.
//
//	states = "states" IDENT { "," IDENT } .
func (p *parser) parseStates() *ast.StatesDecl {
	d := &ast.StatesDecl{Pos: p.expect(token.STATES).Pos}
	d.States = p.parseIdentList()
	return d
}

// parseEnum parses an enumeration.
//
//	enumeration = "enumeration" IDENT "{" IDENT { "," IDENT } "}" .
func (p *parser) parseEnum() *ast.EnumDecl {
	d := &ast.EnumDecl{Pos: p.expect(token.ENUMERATION).Pos}
	d.Name = p.ident()
	p.expect(token.LBRACE)
	d.Values = p.parseIdentList()
	if p.tok.Kind != token.RBRACE {
		p.errorExpected(`"," or "}"`)
	}
	p.next()
	return d
}

// parseCommand parses a command declaration.
//
//	command = "command" IDENT { "," IDENT } .
func (p *parser) parseCommand() *ast.CommandDecl {
	d := &ast.CommandDecl{Pos: p.expect(token.COMMAND).Pos}
	d.Names = p.parseIdentList()
	return d
}

// parseParam parses a configuration parameter declaration.
//
//	parameter = "configuration" "parameter" IDENT ":" ( "Boolean" | "Integer" ) .
func (p *parser) parseParam() *ast.ParamDecl {
	d := &ast.ParamDecl{Pos: p.expect(token.CONFIGURATION).Pos}
	p.expect(token.PARAMETER)
	d.Name = p.ident()
	p.expect(token.COLON)
	switch p.tok.Kind {
	case token.BOOLEAN, token.INTEGER:
		d.Type = ast.TypeRef{Pos: p.tok.Pos, Name: p.tok.Text, Builtin: true}
		p.next()
	default:
		p.errorExpected(`"Boolean" or "Integer"`)
	}
	return d
}

// parseVar parses a variable declaration.
//
//	variable = "variable" IDENT ":" type [ "=" literal ] .
func (p *parser) parseVar() *ast.VarDecl {
	d := &ast.VarDecl{Pos: p.expect(token.VARIABLE).Pos}
	d.Name = p.ident()
	p.expect(token.COLON)
	d.Type = p.parseType()
	if p.tok.Kind == token.EQ {
		p.next()
		lit := p.parseLiteral()
		d.Init = &lit
	}
	return d
}

// parseType parses the type of a variable.
//
//	type = "Boolean" | "Integer" | "Real" | IDENT .
func (p *parser) parseType() ast.TypeRef {
	t := ast.TypeRef{Pos: p.tok.Pos, Name: p.tok.Text}
	switch p.tok.Kind {
	case token.BOOLEAN, token.INTEGER, token.REAL:
		t.Builtin = true
	case token.IDENT:
	default:
		p.errorExpected(`type ("Boolean", "Integer", "Real" or an enumeration)`)
	}
	p.next()
	return t
}

// parseTimer parses a timer declaration.
//
//	timer = "timer" IDENT .
func (p *parser) parseTimer() *ast.TimerDecl {
	d := &ast.TimerDecl{Pos: p.expect(token.TIMER).Pos}
	d.Name = p.ident()
	return d
}

// parseEvent parses an input event declaration.
//
//	event = "input" "event" IDENT .
func (p *parser) parseEvent() *ast.EventDecl {
	d := &ast.EventDecl{Pos: p.expect(token.INPUT).Pos}
	p.expect(token.EVENT)
	d.Name = p.ident()
	return d
}

// parseAttr parses an attribute declaration.
//
//	attribute = "attribute" IDENT ":" ( "String" "=" STRING | "Integer" "=" INT ) .
func (p *parser) parseAttr() *ast.AttrDecl {
	d := &ast.AttrDecl{Pos: p.expect(token.ATTRIBUTE).Pos}
	d.Name = p.ident()
	p.expect(token.COLON)
	d.Type = ast.TypeRef{Pos: p.tok.Pos, Name: p.tok.Text, Builtin: true}
	switch p.tok.Kind {
	case token.STRING:
		p.next()
		p.expect(token.EQ)
		t := p.expect(token.STRINGLIT)
		d.Value = ast.Literal{Pos: t.Pos, Kind: ast.LitString, Text: stringBody(t.Text)}
	case token.INTEGER:
		p.next()
		p.expect(token.EQ)
		t := p.expect(token.INTLIT)
		d.Value = ast.Literal{Pos: t.Pos, Kind: ast.LitInt, Int: intValue(t.Text)}
	default:
		p.errorExpected(`"String" or "Integer"`)
	}
	return d
}

// stringBody strips the quotes of a string token's text; an unterminated
// string, already reported, has no closing quote.
func stringBody(text string) string {
	if n := len(text); n >= 2 && text[n-1] == '"' {
		return text[1 : n-1]
	}
	return text[1:]
}

// intValue converts the digits of an integer literal, saturating at
// math.MaxInt64: every value above 2147483647 is out of range anyway, and
// the checker reports it.
func intValue(digits string) int64 {
	var v int64
	for i := 0; i < len(digits); i++ {
		d := int64(digits[i] - '0')
		if v > (math.MaxInt64-d)/10 {
			return math.MaxInt64
		}
		v = v*10 + d
	}
	return v
}

// parseLiteral parses a constant.
//
//	literal = [ "-" ] INT | [ "-" ] REAL | "true" | "false" | IDENT .
func (p *parser) parseLiteral() ast.Literal {
	lit := ast.Literal{Pos: p.tok.Pos}
	if p.tok.Kind == token.SUB {
		lit.Neg = true
		p.next()
		if p.tok.Kind != token.INTLIT && p.tok.Kind != token.REALLIT {
			p.errorExpected("integer or real literal after \"-\"")
		}
	}
	switch t := p.tok; t.Kind {
	case token.INTLIT:
		lit.Kind = ast.LitInt
		lit.Int = intValue(t.Text)
		if lit.Neg {
			lit.Int = -lit.Int
		}
	case token.REALLIT:
		lit.Kind = ast.LitReal
		lit.Text = t.Text
		if lit.Neg {
			lit.Text = "-" + t.Text
		}
	case token.TRUE, token.FALSE:
		lit.Kind = ast.LitBool
		lit.Bool = t.Kind == token.TRUE
	case token.IDENT:
		lit.Kind = ast.LitIdent
		lit.Text = t.Text
	default:
		p.errorExpected("literal")
	}
	p.next()
	return lit
}

// parseDuration parses a duration; the unit is an identifier token that
// only here means a unit.
//
//	duration = INT ( "ms" | "s" ) .
func (p *parser) parseDuration() ast.Duration {
	t := p.expect(token.INTLIT)
	d := ast.Duration{Pos: t.Pos, MS: intValue(t.Text)}
	if p.tok.Kind != token.IDENT || p.tok.Text != "ms" && p.tok.Text != "s" {
		p.errorExpected(`unit "ms" or "s"`)
	}
	if p.tok.Text == "s" {
		if d.MS > math.MaxInt64/1000 {
			d.MS = math.MaxInt64
		} else {
			d.MS *= 1000
		}
	}
	p.next()
	return d
}

// parseStmts parses statements up to a token that cannot start one.
//
//	{ statement }
func (p *parser) parseStmts() []ast.Stmt {
	var list []ast.Stmt
	for {
		switch p.tok.Kind {
		case token.IF, token.SEND, token.TRANSITION, token.SET, token.START, token.STOP:
			p.item(func() { list = append(list, p.parseStmt()) }, stmtSync)
		case token.ELIF, token.ELSE, token.END, token.EOF,
			token.DECLARATIONS, token.INIT, token.CYCLE, token.CONFIGURATION:
			return list
		default:
			p.stray("statement", stmtSync)
		}
	}
}

// parseStmt parses one statement.
//
//	statement = "if" expr "then" { statement }
//	            { "elif" expr "then" { statement } } [ "else" { statement } ] "end"
//	          | "send" IDENT
//	          | "transition" "to" ( IDENT | "next" | "previous" )
//	          | "set" IDENT "=" expr
//	          | "start" IDENT "for" duration
//	          | "stop" IDENT .
func (p *parser) parseStmt() ast.Stmt {
	pos := p.tok.Pos
	switch p.tok.Kind {
	case token.IF:
		return p.parseIf()
	case token.SEND:
		p.next()
		return &ast.SendStmt{Pos: pos, Command: p.ident()}
	case token.TRANSITION:
		p.next()
		p.expect(token.TO)
		s := &ast.TransitionStmt{Pos: pos}
		switch p.tok.Kind {
		case token.NEXT:
			s.Kind = ast.ToNext
		case token.PREVIOUS:
			s.Kind = ast.ToPrevious
		case token.IDENT:
			s.Kind = ast.ToState
			s.Target = ast.Ident{Pos: p.tok.Pos, Name: p.tok.Text}
		default:
			p.errorExpected(`state, "next" or "previous"`)
		}
		p.next()
		return s
	case token.SET:
		p.next()
		s := &ast.SetStmt{Pos: pos, Var: p.ident()}
		p.expect(token.EQ)
		s.Value = p.parseExpr()
		return s
	case token.START:
		p.next()
		s := &ast.StartStmt{Pos: pos, Timer: p.ident()}
		p.expect(token.FOR)
		s.Duration = p.parseDuration()
		return s
	}
	p.expect(token.STOP)
	return &ast.StopStmt{Pos: pos, Timer: p.ident()}
}

// parseIf parses an if statement.
//
//	"if" expr "then" { statement } { "elif" expr "then" { statement } }
//	[ "else" { statement } ] "end"
func (p *parser) parseIf() *ast.IfStmt {
	p.enter(&p.stmtDepth, MaxStmtDepth, "if statements")
	defer func() { p.stmtDepth-- }()
	s := &ast.IfStmt{Pos: p.expect(token.IF).Pos}
	for {
		s.Conds = append(s.Conds, p.parseExpr())
		p.expect(token.THEN)
		s.Thens = append(s.Thens, p.parseStmts())
		if p.tok.Kind != token.ELIF {
			break
		}
		p.next()
	}
	if p.tok.Kind == token.ELSE {
		p.next()
		s.HasElse = true
		s.Else = p.parseStmts()
	}
	if p.tok.Kind != token.END {
		if s.HasElse {
			p.errorExpected(`"end"`)
		}
		p.errorExpected(`"elif", "else" or "end"`)
	}
	p.next()
	return s
}

// parseEntries parses the configuration entries after the keyword.
//
//	configuration = "configuration" { entry } .
func (p *parser) parseEntries() []ast.Entry {
	var list []ast.Entry
	for {
		switch p.tok.Kind {
		case token.IDENT, token.CYCLE:
			p.item(func() { list = append(list, p.parseEntry()) }, entrySync)
		case token.EOF:
			return list
		default:
			p.stray("configuration entry", entrySync)
		}
	}
}

// parseEntry parses one configuration entry.
//
//	entry = IDENT "=" literal | "cycle" "time" duration .
func (p *parser) parseEntry() ast.Entry {
	if p.tok.Kind == token.CYCLE {
		e := &ast.CycleTimeEntry{Pos: p.tok.Pos}
		p.next()
		p.expect(token.TIME)
		e.Duration = p.parseDuration()
		return e
	}
	e := &ast.ParamEntry{Name: p.ident()}
	p.expect(token.EQ)
	e.Value = p.parseLiteral()
	return e
}

// parseExpr parses an expression.
//
//	expr = and { "or" and } .
func (p *parser) parseExpr() ast.Expr {
	x := p.parseAnd()
	for p.tok.Kind == token.OR {
		op := p.tok
		p.next()
		x = &ast.Binary{X: x, OpPos: op.Pos, Op: op.Text, Y: p.parseAnd()}
	}
	return x
}

// parseAnd parses a conjunction.
//
//	and = not { "and" not } .
func (p *parser) parseAnd() ast.Expr {
	x := p.parseNot()
	for p.tok.Kind == token.AND {
		op := p.tok
		p.next()
		x = &ast.Binary{X: x, OpPos: op.Pos, Op: op.Text, Y: p.parseNot()}
	}
	return x
}

// parseNot parses a negation or a comparison.
//
//	not = "not" not | compare .
func (p *parser) parseNot() ast.Expr {
	if p.tok.Kind == token.NOT {
		p.enter(&p.exprDepth, MaxExprDepth, "expression")
		defer func() { p.exprDepth-- }()
		op := p.tok
		p.next()
		return &ast.Unary{OpPos: op.Pos, Op: op.Text, X: p.parseNot()}
	}
	return p.parseCompare()
}

// parseCompare parses a comparison; comparisons do not chain.
//
//	compare = sum [ ( "=" | "<>" | "<" | "<=" | ">" | ">=" ) sum ] .
func (p *parser) parseCompare() ast.Expr {
	x := p.parseSum()
	switch p.tok.Kind {
	case token.EQ, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		op := p.tok
		p.next()
		x = &ast.Binary{X: x, OpPos: op.Pos, Op: op.Text, Y: p.parseSum()}
	}
	return x
}

// parseSum parses additions and subtractions.
//
//	sum = product { ( "+" | "-" ) product } .
func (p *parser) parseSum() ast.Expr {
	x := p.parseProduct()
	for p.tok.Kind == token.ADD || p.tok.Kind == token.SUB {
		op := p.tok
		p.next()
		x = &ast.Binary{X: x, OpPos: op.Pos, Op: op.Text, Y: p.parseProduct()}
	}
	return x
}

// parseProduct parses multiplications, divisions and remainders.
//
//	product = unary { ( "*" | "/" | "mod" ) unary } .
func (p *parser) parseProduct() ast.Expr {
	x := p.parseUnary()
	for p.tok.Kind == token.MUL || p.tok.Kind == token.QUO || p.tok.Kind == token.MOD {
		op := p.tok
		p.next()
		x = &ast.Binary{X: x, OpPos: op.Pos, Op: op.Text, Y: p.parseUnary()}
	}
	return x
}

// parseUnary parses a negation.
//
//	unary = "-" unary | primary .
func (p *parser) parseUnary() ast.Expr {
	if p.tok.Kind == token.SUB {
		p.enter(&p.exprDepth, MaxExprDepth, "expression")
		defer func() { p.exprDepth-- }()
		op := p.tok
		p.next()
		return &ast.Unary{OpPos: op.Pos, Op: op.Text, X: p.parseUnary()}
	}
	return p.parsePrimary()
}

// parsePrimary parses an operand.
//
//	primary = INT | REAL | "true" | "false" | "state" | IDENT [ "expired" ]
//	        | "(" expr ")" .
func (p *parser) parsePrimary() ast.Expr {
	t := p.tok
	switch t.Kind {
	case token.INTLIT:
		p.next()
		return &ast.IntLit{Pos: t.Pos, Value: intValue(t.Text)}
	case token.REALLIT:
		p.next()
		return &ast.RealLit{Pos: t.Pos, Text: t.Text}
	case token.TRUE, token.FALSE:
		p.next()
		return &ast.BoolLit{Pos: t.Pos, Value: t.Kind == token.TRUE}
	case token.STATE:
		p.next()
		return &ast.StateExpr{Pos: t.Pos}
	case token.IDENT:
		p.next()
		id := ast.Ident{Pos: t.Pos, Name: t.Text}
		if p.tok.Kind == token.EXPIRED {
			x := &ast.Expired{Timer: id, OpPos: p.tok.Pos}
			p.next()
			return x
		}
		return &ast.Name{Ident: id}
	case token.LPAREN:
		p.enter(&p.exprDepth, MaxExprDepth, "expression")
		defer func() { p.exprDepth-- }()
		p.next()
		x := &ast.Paren{Pos: t.Pos, X: p.parseExpr()}
		p.expect(token.RPAREN)
		return x
	}
	p.errorExpected("expression")
	panic("unreachable")
}
