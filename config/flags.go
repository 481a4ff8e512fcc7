package config

import (
	"context"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"github.com/mcpt-tool/mcpt/matrix"
	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

// Flags is the flags section: the matrix of the transpiler's flags, with
// where each dimension and each value was written, for errors about
// them.
type Flags struct {
	Matrix matrix.Matrix
	// Pos is where a dimension (by its name) and a value (by
	// dimension=value) were written.
	Pos map[string]Pos
}

// FlagPos is where the dimension dim, or its value value when not "", was
// written; the configuration's start when it was not, and no position
// for a configuration read from no file (a recipe's).
func (c *Config) FlagPos(dim, value string) Pos {
	key := dim
	if value != "" {
		key += "=" + value
	}
	if p, ok := c.Flags.Pos[key]; ok {
		return p
	}
	if c.Flags.Pos == nil {
		return Pos{}
	}
	return Pos{File: c.File, Line: 1, Col: 1}
}

// flagsYAML is the flags section as written: a mapping of dimensions,
// each a mapping of values, each a list of arguments, all in the order
// of the file.
type flagsYAML struct {
	dims []flagDimYAML
}

type flagDimYAML struct {
	name   String
	values []flagValueYAML
}

type flagValueYAML struct {
	name String
	args []String
}

// UnmarshalYAML implements yaml.NodeUnmarshalerContext.
func (f *flagsYAML) UnmarshalYAML(ctx context.Context, n ast.Node) error {
	if n.Type() == ast.NullType {
		return nil
	}
	m, ok := n.(ast.MapNode)
	if !ok {
		return yamlpos.Errorf(yamlpos.PosOf(ctx, n), "flags: want a mapping of dimensions, each a mapping of values to their arguments (target: {es2017: [--target, es2017]})")
	}
	for it := m.MapRange(); it.Next(); {
		var d flagDimYAML
		if err := d.name.UnmarshalYAML(ctx, it.Key()); err != nil {
			return err
		}
		vm, ok := it.Value().(ast.MapNode)
		if !ok {
			return yamlpos.Errorf(yamlpos.PosOf(ctx, it.Value()), "flags: %s: want a mapping of values to their arguments (es2017: [--target, es2017])", d.name.Value)
		}
		for vit := vm.MapRange(); vit.Next(); {
			var v flagValueYAML
			if err := v.name.UnmarshalYAML(ctx, vit.Key()); err != nil {
				return err
			}
			switch an := vit.Value().(type) {
			case *ast.NullNode: // no argument
			case *ast.SequenceNode:
				for _, a := range an.Values {
					var s String
					if err := s.UnmarshalYAML(ctx, a); err != nil {
						return err
					}
					v.args = append(v.args, s)
				}
			default:
				return yamlpos.Errorf(yamlpos.PosOf(ctx, vit.Value()), "flags: %s: %s: want the list of arguments it adds ([--target, es2017]; [] for none)", d.name.Value, v.name.Value)
			}
			d.values = append(d.values, v)
		}
		f.dims = append(f.dims, d)
	}
	return nil
}

// flags takes the flags section: its dimensions and values, named as
// matrix.CheckDimension and matrix.CheckValue want, each once.
func (c *Config) flags(f *flagsYAML, errs *ErrorList) {
	c.Flags.Pos = map[string]Pos{}
	for _, d := range f.dims {
		if err := matrix.CheckDimension(d.name.Value); err != nil {
			errs.Add(d.name.At("flags: %v", err))
			continue
		}
		if old, dup := c.Flags.Pos[d.name.Value]; dup {
			errs.Add(d.name.At("flags: %s given twice (first at line %d)", d.name.Value, old.Line))
			continue
		}
		c.Flags.Pos[d.name.Value] = d.name.Pos
		dim := matrix.Dimension{Name: d.name.Value}
		for _, v := range d.values {
			if err := matrix.CheckValue(v.name.Value); err != nil {
				errs.Add(v.name.At("flags: %s: %v", d.name.Value, err))
				continue
			}
			key := d.name.Value + "=" + v.name.Value
			if old, dup := c.Flags.Pos[key]; dup {
				errs.Add(v.name.At("flags: %s: %s given twice (first at line %d)", d.name.Value, v.name.Value, old.Line))
				continue
			}
			c.Flags.Pos[key] = v.name.Pos
			val := matrix.Value{Name: v.name.Value, Args: []string{}}
			for _, a := range v.args {
				val.Args = append(val.Args, a.Value)
			}
			dim.Values = append(dim.Values, val)
		}
		if len(d.values) == 0 {
			errs.Add(d.name.At("flags: %s has no value", d.name.Value))
			continue
		}
		c.Flags.Matrix = append(c.Flags.Matrix, dim)
	}
}

// flagsReach checks that the flags reach the transpiler: a command's
// line, or a worker's arguments, holds {flags}, as an argument of its
// own. A builtin and an http transpiler take them with each run.
func (c *Config) flagsReach(t *transpilerYAML, errs *ErrorList) {
	if len(c.Flags.Matrix) == 0 {
		return
	}
	tr := c.Transpiler
	var args []string
	key := ""
	switch tr.Kind {
	case spec.Command:
		args, key = tr.Argv, "command"
	case spec.Worker:
		args, key = tr.Arguments, "arguments"
	default:
		return
	}
	if slices.Contains(args, spec.PlaceholderFlags) {
		return
	}
	pos := tr.Pos
	if t.keys.Has(key) {
		pos = t.keys.At(key)
	}
	for i, a := range args {
		if strings.Contains(a, spec.PlaceholderFlags) {
			errs.Add(Errorf(t.keys.Item(key, i), "transpiler: %s stands for several arguments: write it as an argument of its own, not within %q", spec.PlaceholderFlags, a))
			return
		}
	}
	errs.Add(Errorf(pos, "transpiler: %s has no %s argument: every combination of the flags would run the same command", key, spec.PlaceholderFlags))
}
