// Package thrift holds the Thrift example's grammar, for Go code that
// reads Thrift IDL files with it (examples/thrift/gorel).
package thrift

import _ "embed"

// Grammar is thrift.grammar, the Thrift example's seed grammar, which also
// reads Thrift IDL files as a parser (grammar.NewParser).
//
//go:embed thrift.grammar
var Grammar []byte
