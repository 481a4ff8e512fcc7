package yamlrel

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/mcpt-tool/mcpt/internal/suggest"
	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"github.com/mcpt-tool/mcpt/matrix"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/release"
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

// addSupports takes what a file says its pack supports; a pack says it
// once.
func (d *defs) addSupports(y *supportsYAML) error {
	if y == nil {
		return nil
	}
	if d.supports != nil {
		return yamlpos.Errorf(y.pos, "supports given twice (first at %s)", d.supports.Source)
	}
	var errs yamlpos.ErrorList
	s := &relation.Supports{Source: y.pos.String()}
	if y.Release != nil {
		r, err := release.ParseRange(y.Release.Value)
		if err != nil {
			errs.Add(y.Release.At("supports: release: %v", err))
		}
		s.Releases = r
	}
	if y.given {
		s.Flags = map[string][]string{}
		for _, f := range y.Flags {
			if err := matrix.CheckDimension(f.dim.Value); err != nil {
				errs.Add(f.dim.At("supports: %v", err))
				continue
			}
			if _, dup := s.Flags[f.dim.Value]; dup {
				errs.Add(f.dim.At("supports: flag %s given twice", f.dim.Value))
				continue
			}
			values := []string{}
			for i, v := range f.values {
				if err := matrix.CheckValue(v.Value); err != nil {
					errs.Add(v.At("supports: %s: %v", f.dim.Value, err))
					continue
				}
				if slices.Contains(values, v.Value) {
					errs.Add(v.At("supports: %s: value %s given twice", f.dim.Value, v.Value))
					continue
				}
				values = append(values, v.Value)
				rs, ok := f.releases[i]
				if !ok {
					continue
				}
				r, err := release.ParseRange(rs.Value)
				if err != nil {
					errs.Add(rs.At("supports: %s: %s: %v", f.dim.Value, v.Value, err))
					continue
				}
				if s.ValueReleases == nil {
					s.ValueReleases = map[string]map[string]release.Range{}
				}
				if s.ValueReleases[f.dim.Value] == nil {
					s.ValueReleases[f.dim.Value] = map[string]release.Range{}
				}
				s.ValueReleases[f.dim.Value][v.Value] = r
			}
			s.Flags[f.dim.Value] = values
		}
	}
	d.supports = s
	return errs.Err()
}

// flagsShape is what templates see of .flags: the dimensions the pack
// knows, when it says which; of a pack that does not, nothing is known.
func flagsShape(sup *relation.Supports) *shape {
	if sup == nil || sup.Flags == nil {
		return nil
	}
	return mapOf("flag the pack supports (supports.flags)", slices.Sorted(maps.Keys(sup.Flags))...)
}

// settingData adds what a template sees of the transpiler a test case
// runs: .release, and .flags, dimension → value name, with "" for a
// dimension the pack knows and the campaign does not set.
func settingData(sup *relation.Supports, data map[string]any, in relation.Input) {
	data["release"] = in.Release
	flags := map[string]any{}
	if sup != nil {
		for dim := range sup.Flags {
			flags[dim] = ""
		}
	}
	for dim, v := range in.Flags {
		flags[dim] = v
	}
	data["flags"] = flags
}

// settingKey is what of the input, besides its name and text, the spots
// of a relation may depend on: the release and the flags.
func settingKey(in relation.Input) string {
	var b strings.Builder
	b.WriteString(in.Release)
	for _, dim := range slices.Sorted(maps.Keys(in.Flags)) {
		b.WriteString("\x00" + dim + "=" + in.Flags[dim])
	}
	return b.String()
}
