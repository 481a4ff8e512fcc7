// Package flatbuffers holds the FlatBuffers example's grammar, for Go code
// that reads FlatBuffers schemas with it (zero-config campaigns on .fbs
// seeds).
package flatbuffers

import _ "embed"

// Grammar is fbs.grammar, the FlatBuffers example's seed grammar, which
// also reads .fbs schemas as a parser (grammar.NewParser).
//
//go:embed fbs.grammar
var Grammar []byte
