package check

import "github.com/mcpt-tool/mcpt/cll/ast"

// Kind is the kind of a declared entity.
type Kind int

const (
	State     Kind = iota // a value of the implicit states enumeration
	Enum                  // an enumeration
	EnumValue             // a value of an enumeration
	Command
	Param
	Var
	Timer
	Event
	Attr
)

// TypeKind is the kind of a CLL type.
type TypeKind int

const (
	Invalid TypeKind = iota
	Bool
	Int
	Real
	String
	EnumType  // an enumeration; Type.Enum names it
	StateType // the implicit states enumeration
)

// Type is a CLL type.
type Type struct {
	Kind TypeKind
	Enum string // the enumeration's name when Kind == EnumType
}

// Entity is a declared name.
type Entity struct {
	Kind Kind
	Name string
	Decl ast.Decl // the declaration that declares it
	// Type is the type of a value of this entity in an expression: a
	// variable's or parameter's type, Bool for events, Int for Integer
	// attributes, the enumeration for enumeration values, StateType for
	// states. Invalid for kinds that have no value.
	Type  Type
	Index int // ordinal of a state or enumeration value in its list; declaration order otherwise
}

// Info is what the checker learns about a program that passes it, for the
// C generator.
type Info struct {
	// Entities maps every declared name to its entity.
	Entities map[string]*Entity
	// Types holds the type of every expression of init and cycle, before any
	// promotion: in 1 + 2.5 the IntLit is Int and the Binary is Real.
	Types map[ast.Expr]Type
}
