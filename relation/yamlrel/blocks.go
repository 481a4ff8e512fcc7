package yamlrel

import (
	"strings"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
)

var blocksKind = CheckerKind{
	Name: "blocks",
	Doc: "o′'s file is o's with the predicted blocks of lines added, each anywhere but in its order: the lines of a statement, whose place its neighbours decide.\n" +
		"file: the file (template); added: the blocks, one template each (one that renders empty is left out); name: the checker's name (template).",
	New: newBlocks,
}

type blocksYAML struct {
	Name   *String  `yaml:"name"`
	File   String   `yaml:"file"`
	Insert []String `yaml:"added" was:"insert"`
}

type blocksT struct {
	name   *tmpl
	file   *tmpl
	blocks []*tmpl
}

func newBlocks(spec *Spec) (Check, error) {
	var by blocksYAML
	if err := spec.Decode(&by); err != nil {
		return nil, err
	}
	if by.File.Value == "" {
		return nil, spec.Errorf("a blocks check needs a file")
	}
	if len(by.Insert) == 0 {
		return nil, by.File.At("blocks check on %s: no block added", by.File.Value)
	}
	b := &blocksT{}
	var err error
	if b.file, err = spec.unit().template(by.File); err != nil {
		return nil, err
	}
	if b.name, err = spec.unit().optTemplate(spec.name(by.Name)); err != nil {
		return nil, err
	}
	b.blocks, err = spec.unit().templates(by.Insert)
	return b, err
}

// Checker renders the blocks; one that renders empty is left out.
func (b *blocksT) Checker(mu *Mutation) (relation.Checker, error) {
	c := &oracle.Blocks{}
	var err error
	if c.File, err = mu.render(b.file); err != nil {
		return nil, err
	}
	if c.Name, err = mu.renderOpt(b.name); err != nil {
		return nil, err
	}
	for _, t := range b.blocks {
		s, err := mu.render(t)
		if err != nil {
			return nil, err
		}
		if s = strings.TrimSuffix(s, "\n"); s != "" {
			c.Blocks = append(c.Blocks, strings.Split(s, "\n"))
		}
	}
	return c, nil
}
