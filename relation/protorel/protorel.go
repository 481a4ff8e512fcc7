// Package protorel registers the checker kinds of the Protocol Buffers
// pack with the relation files (relation/yamlrel): importing it makes
// `go: {kind: protobuf-descriptor, …}` available to them.
package protorel

import (
	"fmt"

	"github.com/mcpt-tool/mcpt/oracle/protodesc"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/yamlrel"
)

// Descriptor is the checker kind protobuf-descriptor.
var Descriptor = yamlrel.GoChecker{
	Kind: "protobuf-descriptor",
	Doc: `The descriptor protoc-gen-go embeds in FILE (file_NAME_proto_rawDesc) is, in o′, the descriptor of o plus exactly the added element.
Arguments: file (the .pb.go file), element (enum-value, field, message or rpc), name (the element's name as the .proto declares it).`,
	Args: []string{"file", "element", "name"},
	New: func(name string, args map[string]string) (relation.Checker, error) {
		what, err := protodesc.ParseAdded(args["element"])
		if err != nil {
			return nil, err
		}
		if args["file"] == "" || args["name"] == "" {
			return nil, fmt.Errorf("file and name are required")
		}
		return &protodesc.Check{Name: name, File: args["file"], What: what, Element: args["name"]}, nil
	},
}

func init() { yamlrel.RegisterChecker(Descriptor) }
