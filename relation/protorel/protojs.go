package protorel

import (
	"github.com/mcpt-tool/mcpt/oracle/protojs"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/yamlrel"
)

// ProtoJS is the checker kind protobuf-js.
var ProtoJS = yamlrel.CheckerKind{
	Name: "protobuf-js",
	Doc: "The facts a probe wrote of the code a JavaScript generator of Protocol Buffers made (files *.facts.jsonl: ts-proto, pbjs, protoc-gen-es, see examples/protobuf/js) are, in o′, o's plus those of the added declarations, which hold: a field is kept in the property the generator's naming gives it, reads back the value of its bytes and writes them back alike, reads its default when unset and goes to JSON under its JSON name; an enum value is the generated enum's member, which the helpers map both ways. A tree without facts holds.\n" +
		"name: the checker's name (protobuf-js).",
	New: newProtoJS,
}

type protoJSYAML struct {
	Name *yamlrel.String `yaml:"name"`
}

type protoJS struct{ name string }

func newProtoJS(spec *yamlrel.Spec) (yamlrel.Check, error) {
	var y protoJSYAML
	if err := spec.Decode(&y); err != nil {
		return nil, err
	}
	c := &protoJS{name: spec.Name}
	if y.Name != nil {
		c.name = y.Name.Value
	}
	return c, nil
}

func (c *protoJS) Checker(*yamlrel.Mutation) (relation.Checker, error) {
	return &protojs.Check{Name: c.name}, nil
}
