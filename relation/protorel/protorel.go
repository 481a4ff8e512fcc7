// Package protorel holds the checker kinds of the Protocol Buffers pack
// for the relation files (relation/yamlrel): protobuf-descriptor,
// protobuf-go-enum and protobuf-js. A program offers them with mcpt.Checkers(protorel.Kinds...),
// as cmd/mcpt does.
package protorel

import (
	"strings"

	"github.com/mcpt-tool/mcpt/oracle/protodesc"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/yamlrel"
)

// Kinds are the checker kinds of this package.
var Kinds = []yamlrel.CheckerKind{Descriptor, GoEnum, ProtoJS}

// Descriptor is the checker kind protobuf-descriptor.
var Descriptor = yamlrel.CheckerKind{
	Name: "protobuf-descriptor",
	Doc: "The descriptor protoc-gen-go embeds in file (file_NAME_proto_rawDesc) is, in o′, the descriptor of o plus exactly the added element.\n" +
		"file: the .pb.go file (template); element: enum-value, field, message or rpc; name: the element's name as the .proto declares it (template).",
	New: newDescriptor,
}

// GoEnum is the checker kind protobuf-go-enum.
var GoEnum = yamlrel.CheckerKind{
	Name: "protobuf-go-enum",
	Doc: "The Go protoc-gen-go writes in file for an enum is, in o′, o's with the added value's constant and its entries in the maps NAME_name and NAME_value, each after its predecessor's; nothing else changes but the serialized descriptor.\n" +
		"file: the .pb.go file (template); name: the added value's name as the .proto declares it (template).",
	New: newGoEnum,
}

type descriptorYAML struct {
	File    yamlrel.String `yaml:"file"`
	Element yamlrel.String `yaml:"element"`
	Name    yamlrel.String `yaml:"name"`
}

type goEnumYAML struct {
	File yamlrel.String `yaml:"file"`
	Name yamlrel.String `yaml:"name"`
}

// named is what both kinds compile: a file and an element's name, as
// templates, and the checker they make once rendered.
type named struct {
	name       string
	file, elem *yamlrel.Template
	check      func(name, file, elem string) relation.Checker
}

func newNamed(spec *yamlrel.Spec, file, elem yamlrel.String, check func(name, file, elem string) relation.Checker) (*named, error) {
	if file.Value == "" || elem.Value == "" {
		return nil, spec.Errorf("%s: file and name are required", spec.Kind.Value)
	}
	c := &named{name: spec.Name, check: check}
	if c.name == "" {
		c.name = spec.Kind.Value
	}
	var err error
	if c.file, err = spec.Template(file); err != nil {
		return nil, err
	}
	if c.elem, err = spec.Template(elem); err != nil {
		return nil, err
	}
	return c, nil
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
	return newNamed(spec, d.File, d.Name, func(name, file, elem string) relation.Checker {
		return &protodesc.Check{Name: name, File: file, What: what, Element: elem}
	})
}

func newGoEnum(spec *yamlrel.Spec) (yamlrel.Check, error) {
	var d goEnumYAML
	if err := spec.Decode(&d); err != nil {
		return nil, err
	}
	return newNamed(spec, d.File, d.Name, func(name, file, elem string) relation.Checker {
		return &protodesc.EnumLines{Name: name, File: file, Value: elem}
	})
}

func (c *named) Checker(mu *yamlrel.Mutation) (relation.Checker, error) {
	file, err := mu.Render(c.file)
	if err != nil {
		return nil, err
	}
	elem, err := mu.Render(c.elem)
	if err != nil {
		return nil, err
	}
	return c.check(c.name, strings.TrimSpace(file), strings.TrimSpace(elem)), nil
}
