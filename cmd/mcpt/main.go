// Command mcpt tests transpilers by mutation consistency of programs: it
// mutates seed programs, transpiles each base and follow-up, and checks that
// the two outputs differ exactly as the relation predicts.
//
// It is package mcpt's Main with the builtin cllc transpiler, the CLL
// example's (and, built with -tags typescript, the tree-sitter TypeScript
// grammar the TypeScript pack's relations parse seeds with) and the
// Protocol Buffers pack's checker kinds (relation/protorel) and the semantic
// checker kinds (relation/semrel): a program of one's own that calls mcpt.Main with relations
// written in Go is an mcpt with those relations (see docs/library.md).
//
// Exit codes: 0 no finding, 1 findings, 2 usage, configuration or input
// error, 3 the campaign itself broke (a transpiler that cannot be started, a
// full disk) or checked nothing, 4 interrupted (SIGINT, SIGTERM, SIGHUP):
// incomplete, run again with --resume, 5 (repro) the test case fails with
// another signature, 6 complete, but a relation failed on a seed and
// skipped it, 130 interrupted twice (aborted).
package main

import (
	"github.com/mcpt-tool/mcpt"
	"github.com/mcpt-tool/mcpt/relation/protorel"
	"github.com/mcpt-tool/mcpt/relation/semrel"
	"github.com/mcpt-tool/mcpt/transpiler/cllc"
)

func main() {
	mcpt.Main(mcpt.Builtin(cllc.Name, cllc.New), mcpt.Checkers(protorel.Kinds...),
		mcpt.Checkers(semrel.Kinds...), mcpt.Parsers(linked()...))
}
