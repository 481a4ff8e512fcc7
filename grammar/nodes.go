package grammar

import "sync"

// The nodes of a parsed grammar. A rule body is a choice of alternatives;
// an alternative is a sequence of items.

type node interface{ at() Pos }

// choiceNode is a rule body or a parenthesised group: one of its
// alternatives is derived.
type choiceNode struct {
	p    Pos
	alts []*altNode
	// parseOnly are the alternatives of weight 0: never derived, read
	// when the grammar parses.
	parseOnly []*altNode
	binds     bool     // some alternative binds a variable
	plans     sync.Map // planKey → *plan, filled as derivations meet them
}

// altNode is one weighted alternative: a sequence of items.
type altNode struct {
	p      Pos
	weight int
	items  []node
	id     int    // index in Grammar.alts
	label  string // "rule alternative 2", for coverage reports
}

// litNode emits its text.
type litNode struct {
	p    Pos
	text string
}

// classNode emits one byte of its set, which is sorted and free of
// duplicates.
type classNode struct {
	p   Pos
	set []byte
	// negated: written [^…]; read as a parser, it also matches tabs and
	// non-ASCII bytes.
	negated bool
}

// callNode derives a rule with arguments.
type callNode struct {
	p    Pos
	name string
	args []*valueNode
	rule *rule
}

// repNode derives its item between min and max times; x? is x{0,1}.
type repNode struct {
	p        Pos
	item     node
	min, max int
}

// bindNode derives its item without emitting it and binds the text (and,
// for a name, its tag) to a variable of the rule.
type bindNode struct {
	p    Pos
	name string
	slot int
	item node
}

// emitNode emits a value: a variable's text or tag, or a constant.
type emitNode struct {
	p Pos
	v *valueNode
}

// symNode is @new, @ref or @take on a kind, with an optional tag.
type symNode struct {
	p        Pos
	op       symOp
	kindName string
	kind     *kind
	tag      *valueNode // nil: any tag (@ref, @take) or the empty tag (@new)
}

type symOp int

const (
	opNew symOp = iota
	opRef
	opTake
)

func (o symOp) String() string { return [...]string{"@new", "@ref", "@take"}[o] }

// indentNode derives its body one indentation level deeper.
type indentNode struct {
	p    Pos
	body node
}

// valueNode is a constant, a variable, or a variable's tag; in a rule's
// parameter list it is a pattern.
type valueNode struct {
	p     Pos
	konst string // the constant, when !isVar
	isVar bool
	name  string // the variable's name, without $
	tag   bool   // $X.tag
	slot  int
	abs   int // abstract value of a constant (index in Grammar.consts)
}

func (n *choiceNode) at() Pos { return n.p }
func (n *altNode) at() Pos    { return n.p }
func (n *litNode) at() Pos    { return n.p }
func (n *classNode) at() Pos  { return n.p }
func (n *callNode) at() Pos   { return n.p }
func (n *repNode) at() Pos    { return n.p }
func (n *bindNode) at() Pos   { return n.p }
func (n *emitNode) at() Pos   { return n.p }
func (n *symNode) at() Pos    { return n.p }
func (n *indentNode) at() Pos { return n.p }

// rule is a named rule with one or more variants, all of one arity.
type rule struct {
	name     string
	p        Pos
	arity    int
	variants []*variant
	used     bool
	inst     []cost // minimal cost per abstract argument tuple
}

// variant is one definition of a rule, selected by its parameter patterns.
type variant struct {
	p      Pos
	rule   *rule
	params []*valueNode
	body   *choiceNode
	nslots int
}

// kind is a kind of names: fresh names of it come from its name rule.
type kind struct {
	name     string
	p        Pos
	ruleName string
	rulePos  Pos
	rule     *rule
}
