// Package typescript is the tree-sitter TypeScript grammar as a
// syntax.Parser named "typescript". A program offers it to relation files
// and seeds by passing Parser to the load (mcpt.Parsers(typescript.Parser));
// it is C compiled through cgo, so programs that do not need TypeScript
// should not import it (the mcpt command links it when built with -tags
// typescript).
package typescript

import (
	tstypescript "github.com/tree-sitter/tree-sitter-typescript/bindings/go"

	"github.com/mcpt-tool/mcpt/syntax"
	"github.com/mcpt-tool/mcpt/syntax/tsgrammar"
)

// Name is the name relations give the grammar (`syntax: typescript`).
const Name = "typescript"

// Parser is the TypeScript parser.
var Parser syntax.Parser = tsgrammar.New(Name, tstypescript.LanguageTypescript())
