//go:build typescript

package main

import (
	"github.com/mcpt-tool/mcpt/syntax"
	"github.com/mcpt-tool/mcpt/syntax/tsgrammar/typescript"
)

// linked are the parsers this build links besides mcpt's own grammars:
// the tree-sitter TypeScript grammar (`syntax: typescript`), which the
// TypeScript pack's relations parse seeds with. It is C compiled through
// cgo and nearly doubles a cold build, so only `-tags typescript` links it.
func linked() []syntax.Parser { return []syntax.Parser{typescript.Parser} }
