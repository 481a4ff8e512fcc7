package yamlrel

// What relations on statements need beyond those on declarations: a
// statement that names a fresh entity needs its declaration too
// (declare); its output lines go wherever the translation of its
// neighbouring statements puts them, which the blocks check (blocks.go)
// allows for. docs/relations.md documents both.

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcpt-tool/mcpt/internal/yamlpos"
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

func (r *rel) compileDeclare(dy *declareYAML, relName yamlpos.String) (*declareT, error) {
	d, u := r.d, r.unit
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
	t, err := u.template(dy.Insert)
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
