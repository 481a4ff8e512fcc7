// Package protorel holds the checker kinds of the Protocol Buffers pack
// for the relation files (relation/yamlrel): protobuf-descriptor,
// protobuf-go-enum, protobuf-go-field, protobuf-go-deprecated,
// protobuf-grpc-names and protobuf-js. A program offers them with
// mcpt.Checkers(protorel.Kinds...), as cmd/mcpt does.
package protorel

import (
	"strconv"
	"strings"

	"github.com/mcpt-tool/mcpt/oracle/protodesc"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/yamlrel"
)

// Kinds are the checker kinds of this package.
var Kinds = []yamlrel.CheckerKind{Descriptor, GoEnum, GoField, GoDeprecated, GRPCNames, ProtoJS}

// Descriptor is the checker kind protobuf-descriptor.
var Descriptor = yamlrel.CheckerKind{
	Name: "protobuf-descriptor",
	Doc: "The descriptor protoc-gen-go embeds in file (file_NAME_proto_rawDesc) is, in o′, the descriptor of o plus exactly the added element.\n" +
		"file: the .pb.go file (template); element: enum-value, field, message or rpc; name: the element's name as the .proto declares it (template); imports: files the mutation imports too, separated by spaces (template), taken out of o′'s dependencies; alias: true when the mutation set allow_alias on the added value's enum too (template).",
	New: newDescriptor,
}

// GoEnum is the checker kind protobuf-go-enum.
var GoEnum = yamlrel.CheckerKind{
	Name: "protobuf-go-enum",
	Doc: "The Go protoc-gen-go writes in file for an enum is, in o′, o's with the added value's constant and its entries in the maps NAME_name and NAME_value, each after its predecessor's; nothing else changes but the serialized descriptor.\n" +
		"file: the .pb.go file (template); name: the added value's name as the .proto declares it (template).",
	New: newGoEnum,
}

// GoField is the checker kind protobuf-go-field.
var GoField = yamlrel.CheckerKind{
	Name: "protobuf-go-field",
	Doc: "The Go protoc-gen-go writes in file for an added field agrees with the field in o′'s descriptor: its getter returns the field's default when it is unset (its [default], else its type's zero value, an enum's first value), and its struct tag holds its number, name, JSON name (json= when it is not the name) and packing.\n" +
		"file: the .pb.go file (template); name: the field's name as the .proto declares it (template); values: when the field's type is an enum of another file, its values as NAME=NUMBER, in order (template; without, a default written as a number is undecided).",
	New: newGoField,
}

// GoDeprecated is the checker kind protobuf-go-deprecated.
var GoDeprecated = yamlrel.CheckerKind{
	Name: "protobuf-go-deprecated",
	Doc: "Every Go declaration of an added element in file carries a Deprecated: comment exactly when the element is deprecated: a field's getter, an enum value's constant, a message's type, an rpc's methods in the gRPC client and server interfaces and the client's implementation.\n" +
		"file: the Go file (template); element: field, enum-value, message or rpc; name: the element's name as the .proto declares it (template); deprecated: whether it is, true or false (template).",
	New: newGoDeprecated,
}

// GRPCNames is the checker kind protobuf-grpc-names.
var GRPCNames = yamlrel.CheckerKind{
	Name: "protobuf-grpc-names",
	Doc: "Every method path (\"/package.Service/Method\") and every MethodName or StreamName the Go of a gRPC service gains in file names the added rpc as the .proto declares it, not by its Go name, and there is at least one.\n" +
		"file: the Go file of the service (template); name: the rpc's name as the .proto declares it (template).",
	New: newGRPCNames,
}

type descriptorYAML struct {
	File    yamlrel.String `yaml:"file"`
	Element yamlrel.String `yaml:"element"`
	Name    yamlrel.String `yaml:"name"`
	Imports yamlrel.String `yaml:"imports"`
	Alias   yamlrel.String `yaml:"alias"`
}

type goFieldYAML struct {
	File   yamlrel.String `yaml:"file"`
	Name   yamlrel.String `yaml:"name"`
	Values yamlrel.String `yaml:"values"`
}

type goDeprecatedYAML struct {
	File       yamlrel.String `yaml:"file"`
	Element    yamlrel.String `yaml:"element"`
	Name       yamlrel.String `yaml:"name"`
	Deprecated yamlrel.String `yaml:"deprecated"`
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
	c, err := newNamed(spec, d.File, d.Name, func(name, file, elem string) relation.Checker {
		return &protodesc.Check{Name: name, File: file, What: what, Element: elem}
	})
	if err != nil || d.Imports.Value == "" && d.Alias.Value == "" {
		return c, err
	}
	extras, err := templates(spec, d.Imports, d.Alias)
	if err != nil {
		return nil, err
	}
	return &withExtra{named: c, extras: extras, make: func(name, file, elem string, extra []string) (relation.Checker, error) {
		is := false
		if extra[1] != "" {
			if is, err = strconv.ParseBool(extra[1]); err != nil {
				return nil, d.Alias.At("alias: %q is neither true nor false", extra[1])
			}
		}
		return &protodesc.Check{Name: name, File: file, What: what, Element: elem, Imports: strings.Fields(extra[0]), Alias: is}, nil
	}}, nil
}

// templates compiles the optional templates ss; one not given renders "".
func templates(spec *yamlrel.Spec, ss ...yamlrel.String) ([]*yamlrel.Template, error) {
	out := make([]*yamlrel.Template, len(ss))
	for i, s := range ss {
		if s.Value == "" {
			continue
		}
		t, err := spec.Template(s)
		if err != nil {
			return nil, err
		}
		out[i] = t
	}
	return out, nil
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

func newGoField(spec *yamlrel.Spec) (yamlrel.Check, error) {
	var d goFieldYAML
	if err := spec.Decode(&d); err != nil {
		return nil, err
	}
	c, err := newNamed(spec, d.File, d.Name, nil)
	if err != nil {
		return nil, err
	}
	extras, err := templates(spec, d.Values)
	if err != nil {
		return nil, err
	}
	return &withExtra{named: c, extras: extras, make: func(name, file, elem string, extra []string) (relation.Checker, error) {
		vals, err := protodesc.ParseEnumValues(extra[0])
		if err != nil {
			return nil, d.Values.At("values: %v", err)
		}
		return &protodesc.GoField{Name: name, File: file, Field: elem, Values: vals}, nil
	}}, nil
}

func newGoDeprecated(spec *yamlrel.Spec) (yamlrel.Check, error) {
	var d goDeprecatedYAML
	if err := spec.Decode(&d); err != nil {
		return nil, err
	}
	what, err := protodesc.ParseAdded(d.Element.Value)
	if err != nil {
		return nil, d.Element.At("%v", err)
	}
	if d.Deprecated.Value == "" {
		return nil, spec.Errorf("%s: deprecated is required (true or false)", spec.Kind.Value)
	}
	c, err := newNamed(spec, d.File, d.Name, nil)
	if err != nil {
		return nil, err
	}
	extras, err := templates(spec, d.Deprecated)
	if err != nil {
		return nil, err
	}
	return &withExtra{named: c, extras: extras, make: func(name, file, elem string, extra []string) (relation.Checker, error) {
		is, err := strconv.ParseBool(extra[0])
		if err != nil {
			return nil, d.Deprecated.At("deprecated: %q is neither true nor false", extra[0])
		}
		return &protodesc.Deprecated{Name: name, File: file, What: what, Element: elem, Is: is}, nil
	}}, nil
}

func newGRPCNames(spec *yamlrel.Spec) (yamlrel.Check, error) {
	var d goEnumYAML // file and name, as protobuf-go-enum
	if err := spec.Decode(&d); err != nil {
		return nil, err
	}
	return newNamed(spec, d.File, d.Name, func(name, file, elem string) relation.Checker {
		return &protodesc.GRPCNames{Name: name, File: file, Method: elem}
	})
}

// withExtra is a named check with more templates, rendered per
// follow-up (nil ones as "") and read by make.
type withExtra struct {
	*named
	extras []*yamlrel.Template
	make   func(name, file, elem string, extras []string) (relation.Checker, error)
}

func (c *withExtra) Checker(mu *yamlrel.Mutation) (relation.Checker, error) {
	file, elem, err := c.render(mu)
	if err != nil {
		return nil, err
	}
	extra := make([]string, len(c.extras))
	for i, t := range c.extras {
		if t == nil {
			continue
		}
		r, err := mu.Render(t)
		if err != nil {
			return nil, err
		}
		extra[i] = strings.TrimSpace(r)
	}
	return c.make(c.name, file, elem, extra)
}

func (c *named) render(mu *yamlrel.Mutation) (string, string, error) {
	file, err := mu.Render(c.file)
	if err != nil {
		return "", "", err
	}
	elem, err := mu.Render(c.elem)
	if err != nil {
		return "", "", err
	}
	return strings.TrimSpace(file), strings.TrimSpace(elem), nil
}

func (c *named) Checker(mu *yamlrel.Mutation) (relation.Checker, error) {
	file, elem, err := c.render(mu)
	if err != nil {
		return nil, err
	}
	return c.check(c.name, file, elem), nil
}
