// Package protobuf holds the Protocol Buffers example's grammar, for Go
// code that reads .proto files with it (zero-config campaigns on .proto
// seeds).
package protobuf

import _ "embed"

// Grammar is proto.grammar, the Protocol Buffers example's seed grammar
// (proto2 and proto3), which also reads .proto files as a parser
// (grammar.NewParser).
//
//go:embed proto.grammar
var Grammar []byte
