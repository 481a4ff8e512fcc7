package config

import (
	"context"
	"os"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"

	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

// transpilerYAML is the transpiler section: a spec, decoded directly by
// its yaml tags, and the command line of a command or a worker, which
// the spec holds as Argv whatever the key; where each key was written is
// kept aside for errors.
type transpilerYAML struct {
	spec.Spec `yaml:",inline"`
	Command   []string `yaml:"command" selects:"command"`
	Worker    []string `yaml:"worker" selects:"worker"`
	keys      yamlpos.Keys
}

// UnmarshalYAML implements yaml.NodeUnmarshaler.
func (t *transpilerYAML) UnmarshalYAML(ctx context.Context, n ast.Node) error {
	var err error
	t.keys, err = yamlpos.DecodeFields(ctx, n, t)
	return err
}

// setting is what the tags of a key of the transpiler section say: the
// kind it chooses, or the kinds it is for (none: every kind).
type setting struct {
	selects spec.Kind
	kinds   []spec.Kind
}

// settings are the keys of the transpiler section, in the order of the
// fields.
func settings(t reflect.Type) (keys []string, byKey map[string]setting) {
	byKey = map[string]setting{}
	for f := range t.Fields() {
		name, opt, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if opt == "inline" {
			ks, m := settings(f.Type)
			keys = append(keys, ks...)
			for k, s := range m {
				byKey[k] = s
			}
			continue
		}
		if name == "" || name == "-" {
			continue
		}
		s := setting{selects: spec.Kind(f.Tag.Get("selects"))}
		for k := range strings.FieldsSeq(f.Tag.Get("for")) {
			s.kinds = append(s.kinds, spec.Kind(k))
		}
		if s.selects != "" {
			s.kinds = []spec.Kind{s.selects}
		}
		keys = append(keys, name)
		byKey[name] = s
	}
	return keys, byKey
}

// transpiler takes the transpiler section's spec: its kind, chosen by
// the one key given that chooses one, the keys given that are not
// settings of that kind, the values no transpiler takes; and resolves
// the working directory against the configuration's.
func (c *Config) transpiler(t *transpilerYAML, errs *ErrorList) {
	tr := &c.Transpiler
	tr.Spec, tr.Pos = t.Spec, t.keys.Pos
	keys, byKey := settings(reflect.TypeFor[transpilerYAML]())
	var choosers, chosen []string
	for _, k := range keys {
		if byKey[k].selects != "" {
			choosers = append(choosers, k)
			if t.keys.Has(k) {
				chosen = append(chosen, k)
			}
		}
	}
	if len(chosen) != 1 {
		errs.Add(Errorf(tr.Pos, "transpiler: give one of %s", strings.Join(choosers, ", ")))
		return
	}
	tr.Kind, tr.Pos = byKey[chosen[0]].selects, t.keys.Item(chosen[0], 0)
	for _, k := range t.keys.Given() {
		if kinds := byKey[k].kinds; kinds != nil && !slices.Contains(kinds, tr.Kind) {
			errs.Add(Errorf(t.keys.At(k), "transpiler: %s is for %s only, not for %s", k, kindNames(kinds), kindNames([]spec.Kind{tr.Kind})))
		}
	}
	switch tr.Kind {
	case spec.Command:
		tr.Argv = t.Command
	case spec.Worker:
		tr.Argv = t.Worker
	}
	if (tr.Kind == spec.Command || tr.Kind == spec.Worker) && (len(tr.Argv) == 0 || tr.Argv[0] == "") {
		errs.Add(Errorf(t.keys.Item(chosen[0], 0), "transpiler: empty %s name", chosen[0]))
	}
	for _, p := range tr.Check(t.keys.Has) {
		errs.Add(Errorf(t.keys.Item(p.Key, p.Item), "%s", p.Msg))
	}
	if t.keys.Has("version") {
		tr.VersionPos = t.keys.At("version")
	}
	tr.Dir = c.Dir
	if t.keys.Has("dir") {
		tr.Dir = c.rel(t.Dir)
		if st, err := os.Stat(tr.Dir); err != nil || !st.IsDir() {
			errs.Add(Errorf(t.keys.At("dir"), "transpiler dir %q is not a directory", t.Dir))
		}
	}
	if !t.keys.Has("timeout") {
		tr.Timeout = 60 * time.Second
	}
}

// kindNames names kinds of transpiler for a message: "a command or a
// worker".
func kindNames(kinds []spec.Kind) string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = "a " + string(k)
		if k == spec.HTTP {
			names[i] = "an http transpiler"
		}
	}
	return strings.Join(names, " or ")
}
