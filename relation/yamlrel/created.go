package yamlrel

import (
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
)

var createdKind = CheckerKind{
	Name: "created",
	Doc: "The mutation creates a file: o lacks it, and o′ has it with exactly the predicted content.\n" +
		"file: its name (template); text: its content (template); name: the checker's name (template).",
	New: newCreated,
}

type createdYAML struct {
	Name    *String `yaml:"name"`
	File    String  `yaml:"file"`
	Content String  `yaml:"text" was:"content"`
}

type createdT struct {
	name    *tmpl
	file    *tmpl
	content *tmpl
}

func newCreated(spec *Spec) (Check, error) {
	var cy createdYAML
	if err := spec.Decode(&cy); err != nil {
		return nil, err
	}
	if cy.File.Value == "" {
		return nil, spec.Errorf("a created check needs a file")
	}
	c := &createdT{}
	var err error
	if c.file, err = spec.unit().template(cy.File); err != nil {
		return nil, err
	}
	if c.content, err = spec.unit().template(cy.Content); err != nil {
		return nil, err
	}
	c.name, err = spec.unit().optTemplate(spec.name(cy.Name))
	return c, err
}

func (c *createdT) Checker(mu *Mutation) (relation.Checker, error) {
	cr := &oracle.Creation{}
	var err error
	if cr.File, err = mu.render(c.file); err != nil {
		return nil, err
	}
	if cr.Content, err = mu.render(c.content); err != nil {
		return nil, err
	}
	if cr.Name, err = mu.renderOpt(c.name); err != nil {
		return nil, err
	}
	return cr, nil
}
