// Package syntax is mcpt's structural input model: a seed parsed into a syntax
// tree, whatever produced the tree (a tree-sitter grammar, or mcpt's own grammar
// notation read as a parser). Relations find their spots in the tree — the
// declarations, the lists that hold them, their neighbours and siblings — so
// that the layout of a file (one-line lists, the brace on the next line, tabs,
// comments and annotations between members) does not change what a relation
// sees.
package syntax

import (
	"context"
	"fmt"
	"reflect"
	"sort"
)

// Node is one node of a syntax tree. Offsets are byte offsets into the
// source the tree was parsed from; End is exclusive.
type Node struct {
	// Kind is the node type: a tree-sitter node type, or the name of the
	// grammar rule that derived it.
	Kind string
	// Field is the name under which the parent holds the node, or "".
	Field string
	// Named is false for anonymous nodes (punctuation and keywords).
	Named      bool
	Start, End int
	Children   []*Node
	// Parent is nil for the root.
	Parent *Node
}

// Text returns the node's source text.
func (n *Node) Text(src []byte) string { return string(src[n.Start:n.End]) }

// Tree is a parsed seed.
type Tree struct {
	// Name is the seed's file name, for messages.
	Name string
	// Lang names the grammar that parsed it.
	Lang string
	Src  []byte
	Root *Node

	text *textFacts // what the lists' layouts read of Src as a whole (see facts)
}

// Parser turns a seed into a syntax tree. A Parser must be safe for
// concurrent use; implementations keep per-call state local.
type Parser interface {
	// Lang names the grammar, e.g. "typescript" or "cll.grammar".
	Lang() string
	// Parse returns the tree of src, or an error with a position
	// (name:line:col) when src does not parse.
	Parse(name string, src []byte) (*Tree, error)
}

// A ContextParser can stop parsing when a context is done: a parse of a
// large seed, or with a grammar that reads it in many ways, may take long
// enough for a user to interrupt it.
type ContextParser interface {
	Parser
	// ParseContext is Parse that returns ctx's error when ctx is done
	// before it ends.
	ParseContext(ctx context.Context, name string, src []byte) (*Tree, error)
}

// ParseContext parses src with p: under ctx when p is a ContextParser,
// else after checking ctx once.
func ParseContext(ctx context.Context, p Parser, name string, src []byte) (*Tree, error) {
	if cp, ok := p.(ContextParser); ok {
		return cp.ParseContext(ctx, name, src)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return p.Parse(name, src)
}

// A FragmentParser can also read a fragment of a program as one node of a
// given type (a declaration a mutation inserts), so that the node need not
// be found in a parse of the whole follow-up.
type FragmentParser interface {
	Parser
	// ParseAs returns the tree of src read as one node of type kind.
	ParseAs(name, kind string, src []byte) (*Tree, error)
}

// Walk calls fn for n and every node below it, depth first, in source
// order; fn returning false skips the node's children.
func Walk(n *Node, fn func(*Node) bool) {
	if n == nil || !fn(n) {
		return
	}
	for _, c := range n.Children {
		Walk(c, fn)
	}
}

// LinkParents sets Parent on every node below root.
func LinkParents(root *Node) {
	Walk(root, func(n *Node) bool {
		for _, c := range n.Children {
			c.Parent = n
		}
		return true
	})
}

// Position converts a byte offset of src into a 1-based line and column
// (the column counts bytes, as Go's go/token does).
func Position(src []byte, off int) (line, col int) {
	line, col = 1, 1
	for i := 0; i < off && i < len(src); i++ {
		if src[i] == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

// Error is a parse error at a place of a seed.
type Error struct {
	Name      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d:%d: %s", e.Name, e.Line, e.Col, e.Msg) }

// Parsers are the parsers a load of relation files or seeds may name, by
// their Lang names (`syntax: typescript`). A program gives them: mcpt's
// own grammars come with every load (package syntax/lang), and others,
// such as the tree-sitter TypeScript grammar, are added by whoever links
// them (mcpt.Parsers). The zero value holds none; a nil *Parsers too.
type Parsers struct {
	byName map[string]Parser
}

// NewParsers is the set of ps; two different parsers of one name are an
// error.
func NewParsers(ps ...Parser) (*Parsers, error) {
	set := &Parsers{}
	if err := set.Add(ps...); err != nil {
		return nil, err
	}
	return set, nil
}

// Add adds ps to the set. A parser of a name the set holds is an error,
// unless it is the very parser the set holds (adding it again is no
// change).
func (s *Parsers) Add(ps ...Parser) error {
	for _, p := range ps {
		if p == nil {
			return fmt.Errorf("a nil parser")
		}
		name := p.Lang()
		if name == "" {
			return fmt.Errorf("a parser without a name (its Lang is empty)")
		}
		if old, ok := s.byName[name]; ok {
			if same(old, p) {
				continue
			}
			return fmt.Errorf("two parsers named %q", name)
		}
		if s.byName == nil {
			s.byName = map[string]Parser{}
		}
		s.byName[name] = p
	}
	return nil
}

// same tells whether a and b are one parser; two values of a type that
// cannot be compared are never one.
func same(a, b Parser) bool {
	ta, tb := reflect.TypeOf(a), reflect.TypeOf(b)
	return ta == tb && ta.Comparable() && a == b
}

// Lookup returns the parser of the set named name.
func (s *Parsers) Lookup(name string) (Parser, bool) {
	if s == nil {
		return nil, false
	}
	p, ok := s.byName[name]
	return p, ok
}

// Names lists the names of the set's parsers, sorted.
func (s *Parsers) Names() []string {
	if s == nil {
		return nil
	}
	names := make([]string, 0, len(s.byName))
	for n := range s.byName {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// All returns the set's parsers, by name.
func (s *Parsers) All() []Parser {
	var ps []Parser
	for _, n := range s.Names() {
		ps = append(ps, s.byName[n])
	}
	return ps
}
