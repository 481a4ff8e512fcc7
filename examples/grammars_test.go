package examples_test

import (
	"github.com/mcpt-tool/mcpt/syntax"
	"github.com/mcpt-tool/mcpt/syntax/tsgrammar/typescript"
)

// tsParsers are the parsers the mcpt command built with -tags typescript
// links besides mcpt's own grammars: the TypeScript pack's relations read
// seeds with the tree-sitter TypeScript grammar.
var tsParsers = func() syntax.Parsers {
	var ps syntax.Parsers
	if err := ps.Add(typescript.Parser); err != nil {
		panic(err)
	}
	return ps
}()
