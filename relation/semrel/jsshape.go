package semrel

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/mcpt-tool/mcpt/oracle/jsshape"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/yamlrel"
)

// JSShape is the checker kind js-shape.
var JSShape = yamlrel.CheckerKind{
	Name: "js-shape",
	Doc: "file, a JavaScript module of o and o′, loaded in node, has in o′ the runtime shape of o's plus exactly the added members: exports, enum objects, static, prototype and instance members with their values and descriptors, static initialisers in order.\n" +
		"file: the module (template); added: the new members, each name, in (export, static, prototype, instance, enum, property), of, kind, value, writable, enumerable, absent, prev, next (templates); module: esm, commonjs or auto (a template); timeout: per module (5s); nodejs: the node program; ignore: a pattern of member keys left out of both shapes (helpers a transpiler adds); name: the checker's name.",
	New: newJSShape,
}

type jsShapeYAML struct {
	Name    *yamlrel.String `yaml:"name"`
	File    yamlrel.String  `yaml:"file"`
	Module  yamlrel.String  `yaml:"module"`
	Timeout yamlrel.String  `yaml:"timeout"`
	Node    yamlrel.String  `yaml:"nodejs" was:"node"`
	Ignore  yamlrel.String  `yaml:"ignore"`
	Added   []jsMemberYAML  `yaml:"added"`
}

type jsMemberYAML struct {
	Name       *yamlrel.String `yaml:"name"`
	In         yamlrel.String  `yaml:"in"`
	Of         *yamlrel.String `yaml:"of"`
	Kind       yamlrel.String  `yaml:"kind"`
	Value      *yamlrel.String `yaml:"value"`
	Writable   *yamlrel.String `yaml:"writable"`
	Enumerable *yamlrel.String `yaml:"enumerable"`
	Absent     *yamlrel.String `yaml:"absent"`
	After      *yamlrel.String `yaml:"prev" was:"after"`
	Before     *yamlrel.String `yaml:"next" was:"before"`
}

type jsShapeT struct {
	name, module, node string
	// moduleT, when module is a template, renders it for each follow-up
	moduleT *yamlrel.Template
	timeout time.Duration
	ignore  *regexp.Regexp
	file    *yamlrel.Template
	added   []jsMemberT
}

type jsMemberT struct {
	// in and kind are read when the relation loads, unless written as
	// templates (inT, kindT), which are read for each follow-up.
	in   jsshape.Where
	kind string

	inT, kindT, name, of, value, writable, enumerable, absent, after, before *yamlrel.Template
}

// isTemplate tells a value written as a template.
func isTemplate(s string) bool { return strings.Contains(s, "{{") }

func newJSShape(spec *yamlrel.Spec) (yamlrel.Check, error) {
	var y jsShapeYAML
	if err := spec.Decode(&y); err != nil {
		return nil, err
	}
	if y.File.Value == "" {
		return nil, spec.Errorf("js-shape: file is required, the module to load")
	}
	c := &jsShapeT{name: spec.Name, module: y.Module.Value, node: y.Node.Value}
	if y.Name != nil {
		c.name = y.Name.Value
	}
	var err error
	if isTemplate(c.module) {
		// rendered for each follow-up (the flags may say which)
		if c.moduleT, err = spec.Template(y.Module); err != nil {
			return nil, err
		}
		c.module = ""
	} else if c.module, err = moduleKind(c.module); err != nil {
		return nil, y.Module.At("%v", err)
	}
	if y.Timeout.Value != "" {
		d, err := time.ParseDuration(y.Timeout.Value)
		if err != nil || d <= 0 {
			return nil, y.Timeout.At("js-shape: timeout %q: want a duration such as 5s", y.Timeout.Value)
		}
		c.timeout = d
	}
	if y.Ignore.Value != "" {
		re, err := regexp.Compile(y.Ignore.Value)
		if err != nil {
			return nil, y.Ignore.At("js-shape: ignore: %v", err)
		}
		c.ignore = re
	}
	if c.file, err = spec.Template(y.File); err != nil {
		return nil, err
	}
	for _, m := range y.Added {
		var t jsMemberT
		if m.Name == nil {
			return nil, spec.Errorf("js-shape: every added member needs a name")
		}
		if isTemplate(m.In.Value) {
			if t.inT, err = spec.Template(m.In); err != nil {
				return nil, err
			}
		} else if t.in, err = jsshape.ParseWhere(m.In.Value); err != nil {
			return nil, m.In.At("js-shape: %v", err)
		} else if t.in != jsshape.InExport && (m.Of == nil || m.Of.Value == "") {
			return nil, m.In.At("js-shape: a member in %s needs of, the export that holds it", m.In.Value)
		}
		if isTemplate(m.Kind.Value) {
			if t.kindT, err = spec.Template(m.Kind); err != nil {
				return nil, err
			}
		} else if err := jsshape.CheckKind(m.Kind.Value); err != nil {
			return nil, m.Kind.At("js-shape: %v", err)
		}
		t.kind = m.Kind.Value
		if t.name, err = spec.Template(*m.Name); err != nil {
			return nil, err
		}
		for _, p := range []struct {
			dst **yamlrel.Template
			src *yamlrel.String
		}{{&t.of, m.Of}, {&t.value, m.Value}, {&t.writable, m.Writable}, {&t.enumerable, m.Enumerable}, {&t.absent, m.Absent}, {&t.after, m.After}, {&t.before, m.Before}} {
			if *p.dst, err = optTemplate(spec, p.src); err != nil {
				return nil, err
			}
		}
		c.added = append(c.added, t)
	}
	return c, nil
}

func (c *jsShapeT) Checker(mu *yamlrel.Mutation) (relation.Checker, error) {
	file, err := renderOpt(mu, c.file)
	if err != nil {
		return nil, err
	}
	module := c.module
	if c.moduleT != nil {
		m, err := renderOpt(mu, c.moduleT)
		if err != nil {
			return nil, err
		}
		if module, err = moduleKind(m); err != nil {
			return nil, err
		}
	}
	chk := &jsshape.Check{Name: c.name, File: file, Module: module, Timeout: c.timeout, Node: c.node, Ignore: c.ignore}
	for _, t := range c.added {
		m := jsshape.Member{In: t.in, Kind: t.kind}
		var value, writable, enumerable, absent string
		for _, p := range []struct {
			dst *string
			t   *yamlrel.Template
		}{{&m.Name, t.name}, {&m.Of, t.of}, {&value, t.value}, {&writable, t.writable}, {&enumerable, t.enumerable}, {&absent, t.absent}, {&m.After, t.after}, {&m.Before, t.before}} {
			if *p.dst, err = renderOpt(mu, p.t); err != nil {
				return nil, err
			}
		}
		if m.Name == "" {
			continue // a member whose name renders empty is left out
		}
		if t.inT != nil {
			in, err := renderOpt(mu, t.inT)
			if err != nil {
				return nil, err
			}
			if m.In, err = jsshape.ParseWhere(in); err != nil {
				return nil, fmt.Errorf("js-shape: added %s: %w", m.Name, err)
			}
		}
		if m.In != jsshape.InExport && m.Of == "" {
			return nil, fmt.Errorf("js-shape: added %s: a member in %s needs of, the export that holds it", m.Name, m.In)
		}
		if t.kindT != nil {
			if m.Kind, err = renderOpt(mu, t.kindT); err != nil {
				return nil, err
			}
			if err := jsshape.CheckKind(m.Kind); err != nil {
				return nil, fmt.Errorf("js-shape: added %s: %w", m.Name, err)
			}
		}
		if t.writable != nil {
			w := truthy(writable)
			m.Writable = &w
		}
		if t.enumerable != nil {
			e := truthy(enumerable)
			m.Enumerable = &e
		}
		m.Absent = truthy(absent)
		chk.Added = append(chk.Added, m)
		chk.Values = append(chk.Values, value)
	}
	return chk, nil
}

// moduleKind reads how a module loads: esm, commonjs, or auto ("" too).
func moduleKind(m string) (string, error) {
	switch m {
	case "", "auto":
		return "", nil
	case "esm", "commonjs":
		return m, nil
	}
	return "", fmt.Errorf("js-shape: module %q: want esm, commonjs or auto", m)
}
