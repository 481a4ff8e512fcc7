// Package infer makes the relations of a campaign that has no relation
// file: it reads the seeds' syntax trees for the lists of declarations and
// members they hold, and the transpiler's outputs of the seeds for the
// words and name forms the generator writes, and writes relations in the
// YAML of docs/relations.md that copy a member of each list with fresh
// names and check the derived checkers, configured from what it saw.
// docs/zeroconfig.md describes it. What it writes is loaded by
// relation/yamlrel like any relation file: the relations a zero-config
// campaign runs are exactly those `mcpt infer` writes.
package infer

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
	// Hint says how to get the parser when this mcpt lacks it.
	Hint string
}

// Languages are the languages mcpt knows by extension: the grammars of the
// packs, linked into every mcpt, and the tree-sitter TypeScript grammar,
// linked into an mcpt built with -tags typescript.
var Languages = []Language{
	{Name: "thrift", Exts: []string{".thrift"}, Numbers: "decimal"},
	{Name: "flatbuffers", Exts: []string{".fbs"}, Numbers: "decimal"},
	{Name: "protobuf", Exts: []string{".proto"}, Numbers: "protobuf"},
	{Name: "cll", Exts: []string{".cll"}, Numbers: "decimal"},
	{Name: "typescript", Exts: []string{".ts", ".mts", ".cts"}, Numbers: "ecmascript",
		Hint: "the TypeScript grammar is linked into an mcpt built with -tags typescript (go install -tags typescript ./cmd/mcpt)"},
}

// grammars are the grammar files of the languages whose parser is a
// grammar of mcpt's notation, compiled when first used.
var grammars = map[string]struct {
	file string
	src  []byte
}{
	"thrift":      {"thrift.grammar", thrift.Grammar},
	"flatbuffers": {"fbs.grammar", flatbuffers.Grammar},
	"protobuf":    {"proto.grammar", protobuf.Grammar},
	"cll":         {"cll.grammar", cll.Grammar},
}

func init() {
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range grammars {
			if !yield(n) {
				return
			}
		}
	}) {
		g := grammars[name]
		syntax.Register(&lazyParser{name: name, file: g.file, src: g.src})
	}
}

// LanguageOf is the language of a seed file, by its extension.
func LanguageOf(file string) (Language, bool) {
	ext := strings.ToLower(filepath.Ext(file))
	for _, l := range Languages {
		if slices.Contains(l.Exts, ext) {
			return l, true
		}
	}
	return Language{}, false
}

// LanguageNamed is the language whose parser is called name.
func LanguageNamed(name string) (Language, bool) {
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

// Parser is the parser of the language l, or an error that says how to
// get it.
func (l Language) Parser() (syntax.Parser, error) {
	if p, ok := syntax.Lookup(l.Name); ok {
		return p, nil
	}
	return nil, fmt.Errorf("no parser %q in this mcpt: %s", l.Name, l.Hint)
}

// lazyParser is a grammar of mcpt's notation read as a parser, compiled
// the first time it parses: an mcpt that reads no file of the language
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
