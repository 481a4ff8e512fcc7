// Package cll holds the CLL example's seed grammar, for Go code that reads
// CLL programs with it (examples/cll/gorel).
package cll

import _ "embed"

// Grammar is cll.grammar, the seed grammar of the CLL example, which also
// reads CLL programs as a parser (grammar.NewParser).
//
//go:embed cll.grammar
var Grammar []byte
