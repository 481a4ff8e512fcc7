// Package lang names the input languages mcpt knows without being told:
// the name of each one's parser (as a relation file's syntax: names it),
// the extensions of its files and how it writes integers. It holds the
// parsers of the languages whose grammar is written in mcpt's own notation
// (Thrift, FlatBuffers, Protocol Buffers, CLL), which every load offers;
// the parsers of the others (the tree-sitter TypeScript grammar) are
// linked by the program that offers them and passed to the load (see
// syntax.Parsers and mcpt.Parsers), and a language says how to get its
// parser when the program lacks it.
package lang

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/mcpt-tool/mcpt/examples/cll"
	"github.com/mcpt-tool/mcpt/examples/flatbuffers"
	"github.com/mcpt-tool/mcpt/examples/protobuf"
	"github.com/mcpt-tool/mcpt/examples/thrift"
	"github.com/mcpt-tool/mcpt/grammar"
	"github.com/mcpt-tool/mcpt/syntax"
)

// Language is an input language mcpt reads without being told how: the
// parser of its seeds, by their extension.
type Language struct {
	// Name is the parser's name, as a relation file's syntax: names it.
	Name string
	// Exts are the extensions of its files, with the dot.
	Exts []string
	// Numbers is how it writes integers (the numbers: of relation files).
	Numbers string
	// Hint says how to get the parser when a program lacks it; "" for
	// the languages of Builtin, which every program has.
	Hint string
}

// Languages are the languages mcpt knows by extension: those of the
// packs, whose parsers are Builtin, and TypeScript, whose tree-sitter
// grammar the mcpt command links when built with -tags typescript.
var Languages = []Language{
	{Name: "thrift", Exts: []string{".thrift"}, Numbers: "decimal"},
	{Name: "flatbuffers", Exts: []string{".fbs"}, Numbers: "decimal"},
	{Name: "protobuf", Exts: []string{".proto"}, Numbers: "protobuf"},
	{Name: "cll", Exts: []string{".cll"}, Numbers: "decimal"},
	{Name: "typescript", Exts: []string{".ts", ".mts", ".cts"}, Numbers: "ecmascript",
		Hint: "this mcpt was built without the TypeScript grammar: rebuild it with -tags typescript " +
			"(go install -tags typescript ./cmd/mcpt in a clone of mcpt); " +
			"a program of one's own passes mcpt.Parsers(typescript.Parser) of package syntax/tsgrammar/typescript"},
}

// The parsers of the packs' grammars, compiled when first used.
var (
	Thrift      syntax.Parser = &lazyParser{name: "thrift", file: "thrift.grammar", src: thrift.Grammar}
	FlatBuffers syntax.Parser = &lazyParser{name: "flatbuffers", file: "fbs.grammar", src: flatbuffers.Grammar}
	Protobuf    syntax.Parser = &lazyParser{name: "protobuf", file: "proto.grammar", src: protobuf.Grammar}
	CLL         syntax.Parser = &lazyParser{name: "cll", file: "cll.grammar", src: cll.Grammar}
)

// Builtin are the parsers every load offers: the packs' grammars, written
// in mcpt's notation (package grammar), linked into every program.
func Builtin() []syntax.Parser { return []syntax.Parser{CLL, FlatBuffers, Protobuf, Thrift} }

// With is the set of the Builtin parsers and those of linked; a parser of
// linked named as a builtin one is an error.
func With(linked *syntax.Parsers) (*syntax.Parsers, error) {
	set, err := syntax.NewParsers(Builtin()...)
	if err != nil {
		return nil, err
	}
	for _, p := range linked.All() {
		if err := set.Add(p); err != nil {
			return nil, fmt.Errorf("parser %s: mcpt has its own (the %s pack's grammar)", p.Lang(), p.Lang())
		}
	}
	return set, nil
}

// Of is the language of a seed file, by its extension.
func Of(file string) (Language, bool) {
	ext := strings.ToLower(filepath.Ext(file))
	for _, l := range Languages {
		if slices.Contains(l.Exts, ext) {
			return l, true
		}
	}
	return Language{}, false
}

// Named is the language whose parser is called name.
func Named(name string) (Language, bool) {
	for _, l := range Languages {
		if l.Name == name {
			return l, true
		}
	}
	return Language{}, false
}

// Extensions lists the extensions mcpt knows, for messages.
func Extensions() string {
	var out []string
	for _, l := range Languages {
		out = append(out, l.Exts[0])
	}
	return strings.Join(out, ", ")
}

// Parser is the parser of the language l: a Builtin one, else the one of
// linked (the parsers a program links, or a set With made), else an error
// that says how to get it.
func (l Language) Parser(linked *syntax.Parsers) (syntax.Parser, error) {
	for _, p := range Builtin() {
		if p.Lang() == l.Name {
			return p, nil
		}
	}
	if p, ok := linked.Lookup(l.Name); ok {
		return p, nil
	}
	return nil, Missing(l.Name, linked)
}

// Missing is the error of a parser named name that neither Builtin nor
// linked holds: how to get it, for a language mcpt knows, else the names
// of the parsers there are.
func Missing(name string, linked *syntax.Parsers) error {
	if l, ok := Named(name); ok && l.Hint != "" {
		return fmt.Errorf("no parser %q: %s", name, l.Hint)
	}
	have := linked.Names()
	for _, p := range Builtin() {
		if !slices.Contains(have, p.Lang()) {
			have = append(have, p.Lang())
		}
	}
	slices.Sort(have)
	return fmt.Errorf("no parser %q in this mcpt (it has: %s; a grammar file is named by its path, ending in .grammar)", name, strings.Join(have, ", "))
}

// lazyParser is a grammar of mcpt's notation read as a parser, compiled
// the first time it parses: a program that reads no file of the language
// pays nothing for it.
type lazyParser struct {
	name, file string
	src        []byte
	once       sync.Once
	p          *grammar.Parser
	err        error
}

func (l *lazyParser) Lang() string { return l.name }

func (l *lazyParser) parser() (*grammar.Parser, error) {
	l.once.Do(func() {
		g, err := grammar.Parse(l.file, l.src)
		if err != nil {
			l.err = err
			return
		}
		l.p = grammar.NewParser(g)
	})
	return l.p, l.err
}

// Parse implements syntax.Parser.
func (l *lazyParser) Parse(name string, src []byte) (*syntax.Tree, error) {
	p, err := l.parser()
	if err != nil {
		return nil, err
	}
	return p.Parse(name, src)
}

// ParseAs implements syntax.FragmentParser.
func (l *lazyParser) ParseAs(name, kind string, src []byte) (*syntax.Tree, error) {
	p, err := l.parser()
	if err != nil {
		return nil, err
	}
	return p.ParseAs(name, kind, src)
}
