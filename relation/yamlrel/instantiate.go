package yamlrel

// Instantiating the compiled checks of a relation for one follow-up: their
// templates rendered with the mutation's bindings.

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"strings"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/tree"
)

func (c checkT) instantiate(ctx context.Context, data map[string]any) (relation.Checker, error) {
	if c.late {
		return &lateCheck{c: c, data: data, ctx: ctx}, nil
	}
	return c.render(ctx, data)
}

func (c checkT) render(ctx context.Context, data map[string]any) (relation.Checker, error) {
	switch {
	case c.blocks != nil:
		return c.blocks.instantiate(ctx, data)
	case c.gocheck != nil:
		return c.gocheck.instantiate(ctx, data)
	case c.created != nil:
		return c.created.instantiate(ctx, data)
	case c.equiv != nil:
		return c.equiv.instantiate(ctx, data)
	case len(c.diff.reads) > 0:
		// The edits need values of o: rendered when o is there.
		return &readingDiff{dt: c.diff, data: data}, nil
	}
	return c.diff.instantiate(ctx, data)
}

// lateCheck is a check whose file names are found in the base output
// (.out): rendered when it checks. A template that fails fails the check.
type lateCheck struct {
	c    checkT
	data map[string]any
	ctx  context.Context
}

// Check renders the check with o as .out and runs it.
func (lc *lateCheck) Check(o, o2 tree.Tree) []oracle.Failure {
	data := maps.Clone(lc.data)
	data["out"] = o
	chk, err := lc.c.render(lc.ctx, data)
	if err != nil {
		return []oracle.Failure{{Checker: lc.c.kindName(), Message: err.Error()}}
	}
	return chk.Check(o, o2)
}

func (eq *equivT) instantiate(ctx context.Context, data map[string]any) (*oracle.Equivalence, error) {
	e := &oracle.Equivalence{Name: eq.name}
	for _, t := range eq.except {
		f, err := t.render(ctx, data)
		if err != nil {
			return nil, err
		}
		if f != "" {
			e.Except = append(e.Except, f)
		}
	}
	return e, nil
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
		w, err := et.with.render(ctx, data)
		if err != nil {
			return err
		}
		e.With = w
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

func (c *createdT) instantiate(ctx context.Context, data map[string]any) (*oracle.Creation, error) {
	cr := &oracle.Creation{}
	var err error
	if cr.File, err = c.file.render(ctx, data); err != nil {
		return nil, err
	}
	if cr.Content, err = c.content.render(ctx, data); err != nil {
		return nil, err
	}
	if c.name != nil {
		if cr.Name, err = c.name.render(ctx, data); err != nil {
			return nil, err
		}
	}
	return cr, nil
}

// kindName names the check in a failure of its own rendering.
func (c checkT) kindName() string {
	switch {
	case c.equiv != nil:
		return c.equiv.name
	case c.created != nil:
		return "created"
	}
	return "difference"
}
