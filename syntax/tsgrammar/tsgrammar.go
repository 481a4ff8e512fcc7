// Package tsgrammar turns tree-sitter trees into mcpt's syntax trees. The
// grammars themselves (C compiled through cgo) live in packages of their
// own below this one, so that a binary links only the grammars it imports.
package tsgrammar

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	ts "github.com/tree-sitter/go-tree-sitter"

	"github.com/mcpt-tool/mcpt/syntax"
)

// Parser is a syntax.Parser over one tree-sitter grammar.
type Parser struct {
	name string
	lang *ts.Language
}

// New returns the parser of a tree-sitter language, as a grammar's Go
// binding returns it (an unsafe.Pointer to a TSLanguage), named name.
func New(name string, language unsafe.Pointer) *Parser {
	return &Parser{name: name, lang: ts.NewLanguage(language)}
}

// Lang implements syntax.Parser.
func (p *Parser) Lang() string { return p.name }

// Parse implements syntax.Parser. A tree-sitter parser is not safe for
// concurrent use, so each call makes its own.
func (p *Parser) Parse(name string, src []byte) (*syntax.Tree, error) {
	return p.ParseContext(context.Background(), name, src)
}

// ParseContext implements syntax.ContextParser: the parse stops when ctx
// is done.
func (p *Parser) ParseContext(ctx context.Context, name string, src []byte) (*syntax.Tree, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	tp := ts.NewParser()
	defer tp.Close()
	if err := tp.SetLanguage(p.lang); err != nil {
		return nil, fmt.Errorf("%s: %v", p.name, err)
	}
	t := parseCtx(ctx, tp, src)
	if t == nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if t == nil {
		return nil, &syntax.Error{Name: name, Line: 1, Col: 1, Msg: p.name + ": the parser gave no tree"}
	}
	defer t.Close()
	root := t.RootNode()
	if root.HasError() {
		return nil, firstError(name, src, p.name, root)
	}
	c := root.Walk()
	defer c.Close()
	r := convert(c)
	syntax.LinkParents(r)
	return &syntax.Tree{Name: name, Lang: p.name, Src: src, Root: r}, nil
}

var _ syntax.ContextParser = (*Parser)(nil)

// interruptSize is the size from which a parse can be interrupted: one of
// less takes a few milliseconds, and the binding keeps a few bytes for
// every parse given a callback.
const interruptSize = 256 << 10

// parseCtx parses src, until ctx is done: tree-sitter asks a callback,
// every few hundred steps, whether to go on.
func parseCtx(ctx context.Context, tp *ts.Parser, src []byte) *ts.Tree {
	read := func(i int, _ ts.Point) []byte {
		if i < len(src) {
			return src[i:]
		}
		return nil
	}
	if ctx.Done() == nil || len(src) < interruptSize {
		return tp.ParseWithOptions(read, nil, nil)
	}
	var done atomic.Bool
	stop := context.AfterFunc(ctx, func() { done.Store(true) })
	defer stop()
	return tp.ParseWithOptions(read, nil, &ts.ParseOptions{ProgressCallback: func(ts.ParseState) bool { return done.Load() }})
}

// convert copies the node under the cursor and everything below it.
func convert(c *ts.TreeCursor) *syntax.Node {
	n := c.Node()
	out := &syntax.Node{Kind: n.Kind(), Field: c.FieldName(), Named: n.IsNamed(), Start: int(n.StartByte()), End: int(n.EndByte())}
	if c.GotoFirstChild() {
		for {
			out.Children = append(out.Children, convert(c))
			if !c.GotoNextSibling() {
				break
			}
		}
		c.GotoParent()
	}
	return out
}

// firstError is the first error or missing node, at its file:line:col, in
// the words of mcpt's grammars: a missing token is `expected ")", found
// "{"` at the token found in its place; text the parser could fit nowhere
// is `syntax error: cannot read "export interface {"` (its first line) at
// its start. The language's name leads the message.
func firstError(name string, src []byte, lang string, root *ts.Node) error {
	var found *ts.Node
	var walk func(n *ts.Node)
	walk = func(n *ts.Node) {
		if found != nil || !n.HasError() && !n.IsMissing() {
			return
		}
		if n.IsError() || n.IsMissing() {
			found = n
			return
		}
		for i := uint(0); i < n.ChildCount(); i++ {
			walk(n.Child(i))
		}
	}
	walk(root)
	off, msg := 0, "syntax error"
	switch {
	case found == nil:
	case found.IsMissing():
		// (a missing node is empty, where the token should have been:
		// the place is that of what stands there instead)
		off = int(found.StartByte())
		for off < len(src) && isSpace(src[off]) {
			off++
		}
		msg = fmt.Sprintf("expected %s, found %s", strconv.Quote(found.Kind()), foundAt(src, off))
	default:
		off = int(found.StartByte())
		msg = "syntax error: cannot read " + clip(src[off:found.EndByte()])
	}
	line, col := syntax.Position(src, off)
	return &syntax.Error{Name: name, Line: line, Col: col, Msg: lang + ": " + msg}
}

func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == '\v'
}

// foundAt describes the text at off as the grammars do: a word, one other
// character, or the end of the file.
func foundAt(src []byte, off int) string {
	if off >= len(src) {
		return "end of file"
	}
	j := off
	for j < len(src) && j-off < 24 && (src[j] == '_' || src[j] == '$' || src[j] >= '0' && src[j] <= '9' || src[j]|0x20 >= 'a' && src[j]|0x20 <= 'z') {
		j++
	}
	if j == off {
		_, size := utf8.DecodeRune(src[off:])
		j = off + size
	}
	return strconv.Quote(string(src[off:j]))
}

// clip quotes the first line of text, at most 40 bytes of it.
func clip(text []byte) string {
	if i := bytes.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	text = bytes.TrimRight(text, " \t\r")
	if len(text) > 40 {
		n := 40
		for n > 0 && !utf8.RuneStart(text[n]) {
			n--
		}
		return strconv.Quote(string(text[:n])) + "…"
	}
	return strconv.Quote(string(text))
}
