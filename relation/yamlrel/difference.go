package yamlrel

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
)

var differenceKind = CheckerKind{
	Name: "difference",
	Doc: "o′'s file is exactly o's with the predicted edits applied, each placed on the lines of o.\n" +
		"file: the file (template); edits: insert, replace, delete, substitute or renumber, placed by where (after, before, at); read: values of o the edits use; name: the checker's name (template).",
	New: newDifference,
}

type diffYAML struct {
	Name  *yamlpos.String `yaml:"name"`
	File  yamlpos.String  `yaml:"file"`
	Read  []readYAML      `yaml:"read"`
	Edits []editYAML      `yaml:"edits"`
}

type editYAML struct {
	Insert      *yamlpos.String `yaml:"insert"`
	Replace     *yamlpos.String `yaml:"replace"`
	Delete      bool            `yaml:"delete"`
	Substitute  *substYAML      `yaml:"substitute"`
	Renumber    *renumberYAML   `yaml:"renumber"`
	When        *yamlpos.String `yaml:"if" was:"when"`
	ForEach     *forEachYAML    `yaml:"for_each"`
	BlankBefore bool            `yaml:"blank_before"`
	Where       []anchorYAML    `yaml:"where"`
	Through     []matcherYAML   `yaml:"through"`
}

type substYAML struct {
	Re   yamlpos.String `yaml:"re"`
	With withYAML       `yaml:"with"`
}

type renumberYAML struct {
	Re yamlpos.String `yaml:"re"`
	By yamlpos.String `yaml:"by"`
}

// anchorYAML is one alternative placement of an edit: the line found by the
// path of matchers given as after, before (inserts) or at (replace, delete),
// tried only when its when-template renders non-empty.
type anchorYAML struct {
	When   *yamlpos.String `yaml:"if" was:"when"`
	End    bool            `yaml:"end"`
	After  []matcherYAML   `yaml:"after"`
	Before []matcherYAML   `yaml:"before"`
	At     []matcherYAML   `yaml:"at"`
}

// matcherYAML is a line matcher: a plain string matches a line exactly
// (white space around it ignored); {re: '…'} matches by regular expression.
type matcherYAML struct {
	Text yamlpos.String
	Re   bool
}

// UnmarshalYAML implements yaml.NodeUnmarshalerContext.
func (m *matcherYAML) UnmarshalYAML(ctx context.Context, n ast.Node) error {
	if mn, ok := n.(*ast.MappingNode); ok {
		if len(mn.Values) != 1 {
			return errAt(ctx, n, "a matcher is a string or {re: 'regexp'}")
		}
		kv := mn.Values[0]
		if kv.Key.String() != "re" {
			return errAt(ctx, kv.Key, fmt.Sprintf("unknown matcher %q (want re)", kv.Key.String()))
		}
		m.Re = true
		return m.Text.UnmarshalYAML(ctx, kv.Value)
	}
	if mv, ok := n.(*ast.MappingValueNode); ok {
		if mv.Key.String() != "re" {
			return errAt(ctx, mv.Key, fmt.Sprintf("unknown matcher %q (want re)", mv.Key.String()))
		}
		m.Re = true
		return m.Text.UnmarshalYAML(ctx, mv.Value)
	}
	return m.Text.UnmarshalYAML(ctx, n)
}

type diffT struct {
	name  *tmpl
	file  *tmpl
	reads []readT // values read from o before the edits are rendered
	edits []editT
}

type editT struct {
	op          oracle.Op
	lines       *tmpl
	blankBefore bool
	anchors     []anchorT
	through     []matcherT
	when        *tmpl    // the edit applies only when this renders non-empty
	pattern     *tmpl    // substitute, renumber
	with        *tmpl    // substitute
	by          *tmpl    // renumber
	forEach     *forEach // the edit once per element of a list
}

type anchorT struct {
	when   *tmpl
	end    bool // at the end of the file
	before bool
	path   []matcherT
}

type matcherT struct {
	t  *tmpl
	re bool
}

func newDifference(spec *Spec) (Check, error) {
	var dy diffYAML
	if err := spec.Decode(&dy); err != nil {
		return nil, err
	}
	dt := &diffT{}
	var err error
	if dt.file, err = spec.unit().template(dy.File); err != nil {
		return nil, err
	}
	if dy.File.Value == "" {
		return nil, spec.Errorf("a difference check needs a file")
	}
	if dt.name, err = spec.unit().optTemplate(spec.name(dy.Name)); err != nil {
		return nil, err
	}
	if dt.reads, err = compileReads(spec.unit(), dy.Read); err != nil {
		return nil, err
	}
	if len(dy.Edits) == 0 {
		return nil, dy.File.At("difference check on %s: no edits", dy.File.Value)
	}
	for _, ey := range dy.Edits {
		e, err := compileEdit(spec.unit(), ey, dy.File)
		if err != nil {
			return nil, err
		}
		dt.edits = append(dt.edits, e)
	}
	return dt, nil
}

func compileEdit(u *unit, ey editYAML, file yamlpos.String) (editT, error) {
	e, body, err := editOp(ey, file)
	if err != nil {
		return e, err
	}
	if e.op == oracle.Insert && len(ey.Through) > 0 {
		return e, ey.Through[0].Text.At("an insert has no range: through is for replace, delete, substitute and renumber")
	}
	if err := compileRewrite(u, ey, &e); err != nil {
		return e, err
	}
	if body != nil {
		if e.lines, err = u.template(*body); err != nil {
			return e, err
		}
	}
	if e.forEach, err = compileForEach(u, ey.ForEach); err != nil {
		return e, err
	}
	e.blankBefore = ey.BlankBefore
	if len(ey.Where) == 0 {
		return e, file.At("an edit of %s needs where", file.Value)
	}
	for _, ay := range ey.Where {
		a, err := compileAnchor(u, ay, e.op, file)
		if err != nil {
			return e, err
		}
		e.anchors = append(e.anchors, a)
	}
	return e, nil
}

// editOp reads which edit an edit is, and the template of its lines.
func editOp(ey editYAML, file yamlpos.String) (editT, *yamlpos.String, error) {
	var e editT
	ops := 0
	var body *yamlpos.String
	if ey.Insert != nil {
		ops++
		e.op, body = oracle.Insert, ey.Insert
	}
	if ey.Replace != nil {
		ops++
		e.op, body = oracle.Replace, ey.Replace
	}
	if ey.Delete {
		ops++
		e.op = oracle.Delete
	}
	if ey.Substitute != nil {
		ops++
		e.op = oracle.Substitute
	}
	if ey.Renumber != nil {
		ops++
		e.op = oracle.Renumber
	}
	if ops != 1 {
		return e, nil, file.At("an edit of %s is exactly one of insert, replace, delete, substitute, renumber", file.Value)
	}
	return e, body, nil
}

// compileAnchor compiles one where alternative of an edit.
func compileAnchor(u *unit, ay anchorYAML, op oracle.Op, file yamlpos.String) (anchorT, error) {
	var a anchorT
	if ay.When != nil {
		t, err := u.template(*ay.When)
		if err != nil {
			return a, err
		}
		a.when = t
	}
	if ay.End {
		if op != oracle.Insert || len(ay.After)+len(ay.Before)+len(ay.At) > 0 {
			return a, file.At("end: true places an insert at the end of %s, alone", file.Value)
		}
		a.end = true
		return a, nil
	}
	var path []matcherYAML
	n := 0
	for _, p := range []struct {
		path   []matcherYAML
		before bool
	}{{ay.After, false}, {ay.Before, true}, {ay.At, false}} {
		if len(p.path) > 0 {
			n++
			path, a.before = p.path, p.before
		}
	}
	if n != 1 {
		at := file
		for _, l := range [][]matcherYAML{ay.After, ay.Before, ay.At} {
			if len(l) > 0 {
				at = l[0].Text
				break
			}
		}
		return a, at.At("each where item has exactly one of after, before, at")
	}
	if (op == oracle.Insert) != (len(ay.At) == 0) {
		if op == oracle.Insert {
			return a, path[0].Text.At("an insert is placed with after or before, not at")
		}
		return a, path[0].Text.At("a replace, delete, substitute or renumber is placed with at")
	}
	var err error
	a.path, err = compileMatchers(u, path)
	return a, err
}

func compileMatchers(u *unit, ms []matcherYAML) ([]matcherT, error) {
	var out []matcherT
	for _, m := range ms {
		t, err := u.template(m.Text)
		if err != nil {
			return nil, err
		}
		out = append(out, matcherT{t: t, re: m.Re})
	}
	return out, nil
}

// compileRewrite compiles the substitute and renumber edits, an edit's
// condition and its range.
func compileRewrite(u *unit, ey editYAML, e *editT) error {
	var err error
	if s := ey.Substitute; s != nil {
		if s.Re.Value == "" {
			return s.Re.At("substitute needs re")
		}
		if e.pattern, err = u.template(s.Re); err != nil {
			return err
		}
		if e.with, err = u.template(s.With.String); err != nil {
			return err
		}
		e.with.run.groupRefs = true
		u.withs = append(u.withs, substitution{with: e.with, pattern: e.pattern})
	}
	if n := ey.Renumber; n != nil {
		if n.Re.Value == "" {
			return n.Re.At("renumber needs re")
		}
		if n.By.Value == "" {
			return n.Re.At("renumber needs by")
		}
		if e.pattern, err = u.template(n.Re); err != nil {
			return err
		}
		if e.by, err = u.template(n.By); err != nil {
			return err
		}
	}
	if ey.When != nil {
		if e.when, err = u.template(*ey.When); err != nil {
			return err
		}
	}
	e.through, err = compileMatchers(u, ey.Through)
	return err
}

func (dt *diffT) Checker(mu *Mutation) (relation.Checker, error) {
	if len(dt.reads) > 0 {
		// The edits need values of o: rendered when o is there.
		return &readingDiff{dt: dt, data: mu.data}, nil
	}
	return dt.instantiate(mu.ctx, mu.data)
}

func (dt *diffT) instantiate(ctx context.Context, data map[string]any) (*oracle.Difference, error) {
	file, err := dt.file.render(ctx, data)
	if err != nil {
		return nil, err
	}
	d := &oracle.Difference{File: file}
	if dt.name != nil {
		if d.Name, err = dt.name.render(ctx, data); err != nil {
			return nil, err
		}
	}
	for _, et := range dt.edits {
		es, err := et.instantiateAll(ctx, data)
		if err != nil {
			return nil, err
		}
		d.Edits = append(d.Edits, es...)
	}
	return d, nil
}

// instantiateAll renders an edit, once per element of its for_each list
// when it has one; an edit whose when is false is left out.
func (et editT) instantiateAll(ctx context.Context, data map[string]any) ([]oracle.Edit, error) {
	if et.forEach == nil {
		e, on, err := et.instantiate(ctx, data)
		if !on || err != nil {
			return nil, err
		}
		return []oracle.Edit{e}, nil
	}
	elems, err := et.forEach.elements(ctx, data)
	if err != nil {
		return nil, err
	}
	var out []oracle.Edit
	each := make(map[string]any, len(data)+1)
	for k, v := range data {
		each[k] = v
	}
	for _, x := range elems {
		each[et.forEach.as] = x
		e, on, err := et.instantiate(ctx, each)
		if err != nil {
			return nil, err
		}
		if on {
			out = append(out, e)
		}
	}
	return out, nil
}

// instantiate renders one edit; on is false when its when is.
func (et editT) instantiate(ctx context.Context, data map[string]any) (e oracle.Edit, on bool, err error) {
	if on, err := et.applies(ctx, data); err != nil || !on {
		return e, false, err
	}
	e.Op = et.op
	if et.lines != nil {
		body, err := et.lines.render(ctx, data)
		if err != nil {
			return e, false, err
		}
		body = strings.TrimSuffix(body, "\n")
		e.Lines = strings.Split(body, "\n")
		if et.blankBefore {
			e.Lines = append([]string{""}, e.Lines...)
		}
	}
	for _, at := range et.anchors {
		a, on, err := at.instantiate(ctx, data)
		if err != nil {
			return e, false, err
		}
		if on {
			e.Anchors = append(e.Anchors, a)
		}
	}
	if err := et.instantiateRewrite(ctx, data, &e); err != nil {
		return e, false, err
	}
	return e, true, nil
}

// applies reports whether an edit's when condition holds.
func (et editT) applies(ctx context.Context, data map[string]any) (bool, error) {
	if et.when == nil {
		return true, nil
	}
	w, err := et.when.render(ctx, data)
	if err != nil {
		return false, err
	}
	return truthy(w), nil
}

// instantiate renders an anchor; on is false when its when is.
func (at anchorT) instantiate(ctx context.Context, data map[string]any) (a oracle.Anchor, on bool, err error) {
	if at.when != nil {
		w, err := at.when.render(ctx, data)
		if err != nil || !truthy(w) {
			return a, false, err
		}
	}
	a = oracle.Anchor{Before: at.before, End: at.end}
	for _, mt := range at.path {
		m, err := mt.matcher(ctx, data)
		if err != nil {
			return a, false, err
		}
		a.Path = append(a.Path, m)
	}
	return a, true, nil
}

// instantiateRewrite renders the pattern, replacement, amount and range of
// substitute and renumber edits.
func (et editT) instantiateRewrite(ctx context.Context, data map[string]any, e *oracle.Edit) error {
	if et.pattern != nil {
		src, err := et.pattern.render(ctx, data)
		if err != nil {
			return err
		}
		re, err := cachedRE(src)
		if err != nil {
			return fmt.Errorf("%s: %v", et.pattern.pos, err)
		}
		e.Pattern = re
	}
	if et.with != nil {
		// Rendered once per match when the check runs: bounded by the
		// limits of an evaluation, not by the end of the mutation.
		ctx, re, data := context.WithoutCancel(ctx), e.Pattern, maps.Clone(data)
		e.Replace = func(groups []string) (string, error) {
			return et.with.render(ctx, matchData(data, re, groups))
		}
	}
	if et.by != nil {
		b, err := et.by.render(ctx, data)
		if err != nil {
			return err
		}
		n, err := strconv.Atoi(strings.TrimSpace(b))
		if err != nil {
			return fmt.Errorf("%s: renumber by %q: not an integer", et.by.pos, b)
		}
		e.By = n
	}
	for _, mt := range et.through {
		m, err := mt.matcher(ctx, data)
		if err != nil {
			return err
		}
		e.Through = append(e.Through, m)
	}
	return nil
}

func (mt matcherT) matcher(ctx context.Context, data map[string]any) (oracle.Matcher, error) {
	s, err := mt.t.render(ctx, data)
	if err != nil {
		return oracle.Matcher{}, err
	}
	if !mt.re {
		return oracle.Matcher{Text: s}, nil
	}
	re, err := cachedRE(s)
	if err != nil {
		return oracle.Matcher{}, fmt.Errorf("%s: %v", mt.t.pos, err)
	}
	return oracle.Matcher{Re: re}, nil
}

func errAt(ctx context.Context, n ast.Node, msg string) error {
	return yamlpos.Errorf(yamlpos.PosOf(ctx, n), "%s", msg)
}
