// Package ast declares the syntax tree of a CLL program, with the position of
// every node, as the parser builds it and the checker and C generator read it.
package ast

import "github.com/mcpt-tool/mcpt/cll/token"

// Program is a whole CLL source: logic NAME declarations init cycle configuration.
type Program struct {
	Logic        Ident
	Declarations token.Pos // position of the "declarations" keyword
	Decls        []Decl    // in source order
	InitPos      token.Pos
	Init         []Stmt
	CyclePos     token.Pos
	Cycle        []Stmt
	ConfigPos    token.Pos // position of the "configuration" keyword of the section
	Config       []Entry
}

// Ident is a name with its position.
type Ident struct {
	Pos  token.Pos
	Name string
}

// Decl is one declaration of the declarations section.
type Decl interface{ declNode() }

// StatesDecl: states A, B, C
type StatesDecl struct {
	Pos    token.Pos
	States []Ident
}

// EnumDecl: enumeration E { A, B }
type EnumDecl struct {
	Pos    token.Pos
	Name   Ident
	Values []Ident
}

// CommandDecl: command A, B
type CommandDecl struct {
	Pos   token.Pos
	Names []Ident
}

// ParamDecl: configuration parameter P : Boolean|Integer
type ParamDecl struct {
	Pos  token.Pos
	Name Ident
	Type TypeRef // Boolean or Integer only
}

// VarDecl: variable V : T [= literal]
type VarDecl struct {
	Pos  token.Pos
	Name Ident
	Type TypeRef
	Init *Literal // nil when absent
}

// TimerDecl: timer T
type TimerDecl struct {
	Pos  token.Pos
	Name Ident
}

// EventDecl: input event E
type EventDecl struct {
	Pos  token.Pos
	Name Ident
}

// AttrDecl: attribute A : String = "text" | attribute A : Integer = 5
type AttrDecl struct {
	Pos   token.Pos
	Name  Ident
	Type  TypeRef // String or Integer
	Value Literal // a String or Int literal
}

func (*StatesDecl) declNode()  {}
func (*EnumDecl) declNode()    {}
func (*CommandDecl) declNode() {}
func (*ParamDecl) declNode()   {}
func (*VarDecl) declNode()     {}
func (*TimerDecl) declNode()   {}
func (*EventDecl) declNode()   {}
func (*AttrDecl) declNode()    {}

// TypeRef names a type: one of Boolean, Integer, Real, String, or an
// enumeration (Name is then the enumeration's name and Builtin is false).
type TypeRef struct {
	Pos     token.Pos
	Name    string
	Builtin bool
}

// LitKind is the kind of a literal.
type LitKind int

const (
	LitInt    LitKind = iota // Int holds the value (already negated when Neg)
	LitReal                  // Text holds the source text, with a leading "-" when Neg
	LitBool                  // Bool holds the value
	LitString                // Text holds the raw source text between the quotes, escapes kept
	LitIdent                 // Text holds the enumeration value's name
)

// Literal is a constant as it appears in an initial value, an attribute or a
// configuration entry.
type Literal struct {
	Pos  token.Pos // start of the literal, the minus sign included
	Kind LitKind
	Neg  bool
	Int  int64
	Text string
	Bool bool
}

// Stmt is a statement of init or cycle.
type Stmt interface{ stmtNode() }

// IfStmt: if C then ... {elif C then ...} [else ...] end
type IfStmt struct {
	Pos     token.Pos
	Conds   []Expr   // the if condition, then each elif condition
	Thens   [][]Stmt // one body per condition
	Else    []Stmt   // nil when absent
	HasElse bool
}

// SendStmt: send C
type SendStmt struct {
	Pos     token.Pos
	Command Ident
}

// TransitionKind says where a transition goes.
type TransitionKind int

const (
	ToState TransitionKind = iota
	ToNext
	ToPrevious
)

// TransitionStmt: transition to S|next|previous
type TransitionStmt struct {
	Pos    token.Pos
	Kind   TransitionKind
	Target Ident // set when Kind == ToState
}

// SetStmt: set V = e
type SetStmt struct {
	Pos   token.Pos
	Var   Ident
	Value Expr
}

// StartStmt: start T for D
type StartStmt struct {
	Pos      token.Pos
	Timer    Ident
	Duration Duration
}

// StopStmt: stop T
type StopStmt struct {
	Pos   token.Pos
	Timer Ident
}

func (*IfStmt) stmtNode()         {}
func (*SendStmt) stmtNode()       {}
func (*TransitionStmt) stmtNode() {}
func (*SetStmt) stmtNode()        {}
func (*StartStmt) stmtNode()      {}
func (*StopStmt) stmtNode()       {}

// Duration is INT ms|s, converted to milliseconds.
type Duration struct {
	Pos token.Pos
	MS  int64
}

// Entry is one entry of the configuration section.
type Entry interface{ entryNode() }

// ParamEntry: P = literal
type ParamEntry struct {
	Name  Ident
	Value Literal
}

// CycleTimeEntry: cycle time D
type CycleTimeEntry struct {
	Pos      token.Pos
	Duration Duration
}

func (*ParamEntry) entryNode()     {}
func (*CycleTimeEntry) entryNode() {}

// Expr is an expression.
type Expr interface {
	exprNode()
	Start() token.Pos // where the expression starts in the source
}

// IntLit is an integer literal in an expression (0 … 2147483647).
type IntLit struct {
	Pos   token.Pos
	Value int64
}

// RealLit is a real literal in an expression.
type RealLit struct {
	Pos  token.Pos
	Text string
}

// BoolLit is true or false.
type BoolLit struct {
	Pos   token.Pos
	Value bool
}

// StateExpr is the keyword state: the current state.
type StateExpr struct{ Pos token.Pos }

// Name is an identifier in an expression.
type Name struct{ Ident Ident }

// Expired is T expired.
type Expired struct {
	Timer Ident
	OpPos token.Pos // position of "expired"
}

// Paren is ( X ).
type Paren struct {
	Pos token.Pos
	X   Expr
}

// Unary is "-" X or "not" X.
type Unary struct {
	OpPos token.Pos
	Op    string // "-" or "not"
	X     Expr
}

// Binary is X op Y, op one of: or and = <> < <= > >= + - * / mod.
type Binary struct {
	X     Expr
	OpPos token.Pos
	Op    string
	Y     Expr
}

func (*IntLit) exprNode()    {}
func (*RealLit) exprNode()   {}
func (*BoolLit) exprNode()   {}
func (*StateExpr) exprNode() {}
func (*Name) exprNode()      {}
func (*Expired) exprNode()   {}
func (*Paren) exprNode()     {}
func (*Unary) exprNode()     {}
func (*Binary) exprNode()    {}

func (e *IntLit) Start() token.Pos    { return e.Pos }
func (e *RealLit) Start() token.Pos   { return e.Pos }
func (e *BoolLit) Start() token.Pos   { return e.Pos }
func (e *StateExpr) Start() token.Pos { return e.Pos }
func (e *Name) Start() token.Pos      { return e.Ident.Pos }
func (e *Expired) Start() token.Pos   { return e.Timer.Pos }
func (e *Paren) Start() token.Pos     { return e.Pos }
func (e *Unary) Start() token.Pos     { return e.OpPos }
func (e *Binary) Start() token.Pos    { return e.X.Start() }
