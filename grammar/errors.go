package grammar

import "github.com/mcpt-tool/mcpt/internal/yamlpos"

// The positions and errors of a grammar are those of every input file of
// mcpt (package yamlpos).
type (
	// Pos is a position in a grammar file. Lines and columns count from
	// 1; a column counts characters.
	Pos = yamlpos.Pos
	// Error is one mistake in a grammar, at a position.
	Error = yamlpos.Error
	// ErrorList is a list of grammar errors, in source order once
	// sorted. It is itself an error; Err returns nil when it is empty.
	ErrorList = yamlpos.ErrorList
)
