package semrel

import (
	"github.com/mcpt-tool/mcpt/oracle/goprobe"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/yamlrel"
)

// GoProbe is the checker kind go-probe.
var GoProbe = yamlrel.CheckerKind{
	Name: "go-probe",
	Doc: "The Go protoc-gen-go wrote, read through protoreflect as a built probe reads it (read from its source, built when the reading cannot say), has in o′ o's elements plus exactly the added one: number, JSON name, default, the getter's value on an empty message, deprecation and its Deprecated: comments; the getter returns the descriptor's default.\n" +
		"file: the .pb.go file (template); element: field, enum-value, message, enum or rpc; name: the element's name as the .proto declares it; number, json, default, deprecated: predictions (templates, \"\" for none); runtime: the version of google.golang.org/protobuf (the file header's when absent); go: the go command.",
	New: newGoProbe,
}

type goProbeYAML struct {
	File       yamlrel.String  `yaml:"file"`
	Element    yamlrel.String  `yaml:"element"`
	Name       yamlrel.String  `yaml:"name"`
	Number     *yamlrel.String `yaml:"number"`
	JSON       *yamlrel.String `yaml:"json"`
	Default    *yamlrel.String `yaml:"default"`
	Deprecated *yamlrel.String `yaml:"deprecated"`
	Runtime    yamlrel.String  `yaml:"runtime"`
	Go         yamlrel.String  `yaml:"go"`
}

type goProbeT struct {
	checker, runtime, goCmd                    string
	element                                    goprobe.Element
	file, name, number, json, dflt, deprecated *yamlrel.Template
}

func newGoProbe(spec *yamlrel.Spec) (yamlrel.Check, error) {
	var y goProbeYAML
	if err := spec.Decode(&y); err != nil {
		return nil, err
	}
	if y.File.Value == "" || y.Name.Value == "" {
		return nil, spec.Errorf("go-probe: file (the .pb.go file) and name (the element's name) are required")
	}
	el, err := goprobe.ParseElement(y.Element.Value)
	if err != nil {
		return nil, y.Element.At("go-probe: %v", err)
	}
	c := &goProbeT{checker: spec.Name, runtime: y.Runtime.Value, goCmd: y.Go.Value, element: el}
	if c.file, err = spec.Template(y.File); err != nil {
		return nil, err
	}
	if c.name, err = spec.Template(y.Name); err != nil {
		return nil, err
	}
	for _, p := range []struct {
		dst **yamlrel.Template
		src *yamlrel.String
	}{{&c.number, y.Number}, {&c.json, y.JSON}, {&c.dflt, y.Default}, {&c.deprecated, y.Deprecated}} {
		if *p.dst, err = optTemplate(spec, p.src); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func (c *goProbeT) Checker(mu *yamlrel.Mutation) (relation.Checker, error) {
	chk := &goprobe.Check{Name: c.checker, Element: c.element, Runtime: c.runtime, Go: c.goCmd}
	var err error
	for _, p := range []struct {
		dst *string
		t   *yamlrel.Template
	}{{&chk.File, c.file}, {&chk.Elem, c.name}, {&chk.Number, c.number}, {&chk.JSON, c.json}, {&chk.Default, c.dflt}, {&chk.Deprecated, c.deprecated}} {
		if *p.dst, err = renderOpt(mu, p.t); err != nil {
			return nil, err
		}
	}
	if chk.Deprecated != "" {
		if truthy(chk.Deprecated) {
			chk.Deprecated = "true"
		} else {
			chk.Deprecated = "false"
		}
	}
	return chk, nil
}
