// Package protorel is the checker kind of the Protocol Buffers pack,
// protobuf-descriptor, for the relation files (relation/yamlrel): a
// program offers it with mcpt.Checkers(protorel.Descriptor), as cmd/mcpt
// does.
package protorel

import (
	"strings"

	"github.com/mcpt-tool/mcpt/oracle/protodesc"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/yamlrel"
)

// Descriptor is the checker kind protobuf-descriptor.
var Descriptor = yamlrel.CheckerKind{
	Name: "protobuf-descriptor",
	Doc: "The descriptor protoc-gen-go embeds in file (file_NAME_proto_rawDesc) is, in o′, the descriptor of o plus exactly the added element.\n" +
		"file: the .pb.go file (template); element: enum-value, field, message or rpc; name: the element's name as the .proto declares it (template).",
	New: newDescriptor,
}

type descriptorYAML struct {
	File    yamlrel.String `yaml:"file"`
	Element yamlrel.String `yaml:"element"`
	Name    yamlrel.String `yaml:"name"`
}

type descriptorCheck struct {
	name       string
	what       protodesc.Added
	file, elem *yamlrel.Template
}

func newDescriptor(spec *yamlrel.Spec) (yamlrel.Check, error) {
	var d descriptorYAML
	if err := spec.Decode(&d); err != nil {
		return nil, err
	}
	what, err := protodesc.ParseAdded(d.Element.Value)
	if err != nil {
		return nil, d.Element.At("%v", err)
	}
	if d.File.Value == "" || d.Name.Value == "" {
		return nil, spec.Errorf("protobuf-descriptor: file and name are required")
	}
	c := &descriptorCheck{name: spec.Name, what: what}
	if c.name == "" {
		c.name = spec.Kind.Value
	}
	if c.file, err = spec.Template(d.File); err != nil {
		return nil, err
	}
	if c.elem, err = spec.Template(d.Name); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *descriptorCheck) Checker(mu *yamlrel.Mutation) (relation.Checker, error) {
	file, err := mu.Render(c.file)
	if err != nil {
		return nil, err
	}
	elem, err := mu.Render(c.elem)
	if err != nil {
		return nil, err
	}
	return &protodesc.Check{Name: c.name, File: strings.TrimSpace(file), What: c.what, Element: strings.TrimSpace(elem)}, nil
}
