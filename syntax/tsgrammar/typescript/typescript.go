// Package typescript is the tree-sitter TypeScript grammar as a
// syntax.Parser named "typescript". Importing it registers the parser (see
// syntax.Register); it is C compiled through cgo, so binaries that do not
// need TypeScript should not import it.
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

func init() { syntax.Register(Parser) }
