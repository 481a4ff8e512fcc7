package yamlrel

import (
	"context"
	"fmt"

	"github.com/goccy/go-yaml/ast"

	"github.com/mcpt-tool/mcpt/internal/suggest"
	"github.com/mcpt-tool/mcpt/internal/yamlpos"
)

// supportsYAML is what a pack says it holds for: the releases of the
// transpiler (a range) and, per dimension of flags, the values it knows.
type supportsYAML struct {
	Release *yamlpos.String `yaml:"release"`
	Flags   []supportedFlag `yaml:"flags"` // dimensions, in the order of the file
	pos     yamlpos.Pos
	given   bool // flags was written
}

type supportedFlag struct {
	dim    yamlpos.String
	values []yamlpos.String
	// releases holds, for a value written {NAME: RANGE}, its range, at
	// the index of the value.
	releases map[int]yamlpos.String
}

var supportsKeys = []string{"release", "flags"}

// UnmarshalYAML implements yaml.NodeUnmarshalerContext.
func (s *supportsYAML) UnmarshalYAML(ctx context.Context, n ast.Node) error {
	s.pos = yamlpos.PosOf(ctx, n)
	m, ok := n.(ast.MapNode)
	if !ok {
		return errAt(ctx, n, "supports is a mapping: {release: '>=3.5 <6', flags: {target: [es2017, es2022]}}")
	}
	seen := map[string]bool{}
	for it := m.MapRange(); it.Next(); {
		key := it.Key().String()
		if len(seen) == 0 { // a block mapping's token is its first colon
			s.pos = yamlpos.PosOf(ctx, it.Key())
		}
		if seen[key] {
			return errAt(ctx, it.Key(), "supports: "+key+" given twice")
		}
		seen[key] = true
		switch key {
		case "release":
			s.Release = &yamlpos.String{}
			if err := s.Release.UnmarshalYAML(ctx, it.Value()); err != nil {
				return err
			}
		case "flags":
			s.given = true
			fm, ok := it.Value().(ast.MapNode)
			if !ok && it.Value().Type() != ast.NullType {
				return errAt(ctx, it.Value(), "supports: flags is a mapping of dimensions to the value names the pack knows ({target: [es2017, es2022]})")
			}
			if !ok {
				continue
			}
			for fit := fm.MapRange(); fit.Next(); {
				var f supportedFlag
				if err := f.dim.UnmarshalYAML(ctx, fit.Key()); err != nil {
					return err
				}
				seq, ok := fit.Value().(*ast.SequenceNode)
				if !ok {
					return errAt(ctx, fit.Value(), fmt.Sprintf("supports: flags: %s: want the list of the value names the pack knows ([es2017, es2022])", f.dim.Value))
				}
				for _, v := range seq.Values {
					var name, releases yamlpos.String
					if vm, ok := v.(ast.MapNode); ok {
						// {NAME: RANGE}: a value that only some releases take
						it := vm.MapRange()
						if !it.Next() {
							return errAt(ctx, v, fmt.Sprintf("supports: flags: %s: a value with its releases is {NAME: RANGE} ({define: '>=1.3'})", f.dim.Value))
						}
						if err := name.UnmarshalYAML(ctx, it.Key()); err != nil {
							return err
						}
						if err := releases.UnmarshalYAML(ctx, it.Value()); err != nil {
							return err
						}
						if it.Next() {
							return errAt(ctx, it.Key(), fmt.Sprintf("supports: flags: %s: a value with its releases is {NAME: RANGE}, one value a mapping", f.dim.Value))
						}
						if f.releases == nil {
							f.releases = map[int]yamlpos.String{}
						}
						f.releases[len(f.values)] = releases
					} else if err := name.UnmarshalYAML(ctx, v); err != nil {
						return err
					}
					f.values = append(f.values, name)
				}
				s.Flags = append(s.Flags, f)
			}
		default:
			return errAt(ctx, it.Key(), fmt.Sprintf("supports: unknown field %q%s", key, suggest.DidYouMean(key, supportsKeys)))
		}
	}
	return nil
}
