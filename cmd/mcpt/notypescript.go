//go:build !typescript

package main

import "github.com/mcpt-tool/mcpt/syntax"

// linked are the parsers this build links besides mcpt's own grammars:
// none without -tags typescript, which links the TypeScript grammar.
func linked() []syntax.Parser { return nil }
