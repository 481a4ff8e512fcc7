package yamlrel

// What relations on statements need beyond those on declarations: a
// statement that names a fresh entity needs its declaration too
// (declare), and its output lines go wherever the translation of its
// neighbouring statements puts them, so a check predicts their content
// and order but not their place (blocks). docs/relations.md documents
// both.

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"github.com/mcpt-tool/mcpt/oracle"
)

// declareYAML is a relation's second insertion: lines at the end of the
// first instance of a region, after its last declaration.
type declareYAML struct {
	Region yamlpos.String `yaml:"region"`
	Insert yamlpos.String `yaml:"text" was:"insert"`
}

type declareT struct {
	region *region
	insert *tmpl
}

type blocksYAML struct {
	Name   *yamlpos.String  `yaml:"name"`
	File   yamlpos.String   `yaml:"file"`
	Insert []yamlpos.String `yaml:"added" was:"insert"`
}

type blocksT struct {
	name   *tmpl
	file   *tmpl
	blocks []*tmpl
}

func (d *defs) compileDeclare(dy *declareYAML, relName yamlpos.String) (*declareT, error) {
	if dy == nil {
		return nil, nil
	}
	reg := d.regions[dy.Region.Value]
	if reg == nil {
		if d.inError("region", dy.Region.Value) {
			return nil, errReported
		}
		return nil, dy.Region.At("relation %s: declare: no region named %q", relName.Value, dy.Region.Value)
	}
	if dy.Insert.Value == "" {
		return nil, relName.At("relation %s: declare: no text", relName.Value)
	}
	t, err := mkTmpl(dy.Insert)
	if err != nil {
		return nil, err
	}
	return &declareT{region: reg, insert: t}, nil
}

// declared adds the declaration to src, the follow-up with the spot's
// text (of n bytes) inserted at offset at of the input m models.
func (dt *declareT) declared(ctx context.Context, m *model, data map[string]any, src string, at, n int) (string, error) {
	if dt == nil {
		return src, nil
	}
	insts := m.regions[dt.region.name]
	if len(insts) == 0 {
		return "", fmt.Errorf("declare: the input has no region %s", dt.region.name)
	}
	inst := insts[0]
	off := lineEnd(m, inst.from)
	if k := len(inst.items); k > 0 {
		off = lineEnd(m, inst.items[k-1].end)
	}
	text, err := dt.insert.render(ctx, data)
	if err != nil {
		return "", err
	}
	text = strings.TrimSuffix(text, "\n") + "\n"
	if off > at || off == at && at == len(m.src) {
		off += n
	}
	if off == len(src) && !strings.HasSuffix(src, "\n") {
		text = "\n" + text
	}
	return src[:off] + text + src[off:], nil
}

func compileBlocks(by *blocksYAML, relName yamlpos.String) (*blocksT, error) {
	if by.File.Value == "" {
		return nil, relName.At("relation %s: a blocks check needs a file", relName.Value)
	}
	if len(by.Insert) == 0 {
		return nil, by.File.At("blocks check on %s: no block added", by.File.Value)
	}
	b := &blocksT{}
	var err error
	if b.file, err = mkTmpl(by.File); err != nil {
		return nil, err
	}
	if by.Name != nil {
		if b.name, err = mkTmpl(*by.Name); err != nil {
			return nil, err
		}
	}
	for _, s := range by.Insert {
		t, err := mkTmpl(s)
		if err != nil {
			return nil, err
		}
		b.blocks = append(b.blocks, t)
	}
	return b, nil
}

// instantiate renders the blocks; one that renders empty is left out.
func (b *blocksT) instantiate(ctx context.Context, data map[string]any) (*oracle.Blocks, error) {
	c := &oracle.Blocks{}
	var err error
	if c.File, err = b.file.render(ctx, data); err != nil {
		return nil, err
	}
	if b.name != nil {
		if c.Name, err = b.name.render(ctx, data); err != nil {
			return nil, err
		}
	}
	for _, t := range b.blocks {
		s, err := t.render(ctx, data)
		if err != nil {
			return nil, err
		}
		if s = strings.TrimSuffix(s, "\n"); s != "" {
			c.Blocks = append(c.Blocks, strings.Split(s, "\n"))
		}
	}
	return c, nil
}
