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
	"sort"
	"sync"
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

var (
	registryMu sync.RWMutex
	registry   = map[string]Parser{}
)

// Register makes a parser known under its Lang name, for relations that
// name it (`syntax: typescript`). Grammar packages register themselves when
// imported; a later registration of the same name replaces the earlier.
func Register(p Parser) {
	registryMu.Lock()
	defer registryMu.Unlock()
	registry[p.Lang()] = p
}

// Lookup returns the parser registered under lang.
func Lookup(lang string) (Parser, bool) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	p, ok := registry[lang]
	return p, ok
}

// Registered lists the names of the registered parsers, sorted.
func Registered() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
