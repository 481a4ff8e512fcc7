package yamlrel

// Compiling the checks of a relation: equivalence, difference (edits placed
// by anchors), created, and the derived checks (derived.go).

import (
	"regexp"

	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"github.com/mcpt-tool/mcpt/oracle"
)

type checkT struct {
	equiv   *equivT
	diff    *diffT
	created *createdT
	derived *derivedT
	blocks  *blocksT  // logic.go
	gocheck *goCheckT // gocheck.go
	when    *tmpl     // nil: always
	// late is true when the check's file names, or a difference's edits,
	// use .out, the base output: it is rendered when it checks, o at hand
	// (a file found in the output tree, `{{holding "^export enum E "
	// .out}}`, an edit for a line o may have).
	late bool
}

type equivT struct {
	name   string
	except []*tmpl
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

type createdT struct {
	name    *tmpl
	file    *tmpl
	content *tmpl
}

func compileCheck(cy checkYAML, relName yamlpos.String) (checkT, error) {
	var c checkT
	if n := btoi(cy.Equivalence != nil) + btoi(cy.Difference != nil) + btoi(cy.Created != nil) +
		btoi(cy.Locality != nil) + btoi(cy.Order != nil) + btoi(cy.Analogy != nil) + btoi(cy.Blocks != nil) + btoi(cy.Go != nil); n != 1 {
		return c, relName.At("relation %s: each check is one of equivalence, difference, created, locality, order, analogy, blocks, go", relName.Value)
	}
	var err error
	if cy.When != nil {
		if c.when, err = mkTmpl(*cy.When); err != nil {
			return c, err
		}
	}
	switch {
	case cy.Blocks != nil:
		c.blocks, err = compileBlocks(cy.Blocks, relName)
	case cy.Go != nil:
		c.gocheck, err = compileGoCheck(cy.Go)
	case cy.Locality != nil || cy.Order != nil || cy.Analogy != nil:
		c.derived, err = compileDerived(cy)
	case cy.Created != nil:
		c.created, err = compileCreated(cy.Created, relName)
		c.late = err == nil && usesOut(c.created.file)
	case cy.Equivalence != nil:
		c.equiv, err = compileEquivalence(cy.Equivalence)
		c.late = err == nil && usesOut(c.equiv.except...)
	default:
		c.diff, err = compileDifference(cy.Difference, relName)
		c.late = err == nil && usesOut(c.diff.templates()...)
	}
	return c, err
}

// templates are the file name and the templates of the edits of a
// difference check.
func (dt *diffT) templates() []*tmpl {
	ts := []*tmpl{dt.file}
	for _, e := range dt.edits {
		ts = append(ts, e.lines, e.when, e.pattern, e.with, e.by)
		for _, a := range e.anchors {
			ts = append(ts, a.when)
			for _, m := range a.path {
				ts = append(ts, m.t)
			}
		}
		for _, m := range e.through {
			ts = append(ts, m.t)
		}
	}
	return ts
}

// usesOut reports whether a template reads .out, the base output.
func usesOut(ts ...*tmpl) bool {
	for _, t := range ts {
		if t != nil && outRE.MatchString(t.src) {
			return true
		}
	}
	return false
}

var outRE = regexp.MustCompile(`\.out\b`)

func compileEquivalence(e *equivYAML) (*equivT, error) {
	eq := &equivT{name: "equivalence"}
	if e.Name != nil {
		eq.name = e.Name.Value
	}
	for _, x := range e.Except {
		t, err := mkTmpl(x)
		if err != nil {
			return nil, err
		}
		eq.except = append(eq.except, t)
	}
	return eq, nil
}

func compileDifference(dy *diffYAML, relName yamlpos.String) (*diffT, error) {
	dt := &diffT{}
	var err error
	if dt.file, err = mkTmpl(dy.File); err != nil {
		return nil, err
	}
	if dy.File.Value == "" {
		return nil, relName.At("relation %s: a difference check needs a file", relName.Value)
	}
	if dy.Name != nil {
		if dt.name, err = mkTmpl(*dy.Name); err != nil {
			return nil, err
		}
	}
	if dt.reads, err = compileReads(dy.Read); err != nil {
		return nil, err
	}
	if len(dy.Edits) == 0 {
		return nil, dy.File.At("difference check on %s: no edits", dy.File.Value)
	}
	for _, ey := range dy.Edits {
		e, err := compileEdit(ey, dy.File)
		if err != nil {
			return nil, err
		}
		dt.edits = append(dt.edits, e)
	}
	return dt, nil
}

func compileEdit(ey editYAML, file yamlpos.String) (editT, error) {
	e, body, err := editOp(ey, file)
	if err != nil {
		return e, err
	}
	if e.op == oracle.Insert && len(ey.Through) > 0 {
		return e, ey.Through[0].Text.At("an insert has no range: through is for replace, delete, substitute and renumber")
	}
	if err := compileRewrite(ey, &e); err != nil {
		return e, err
	}
	if body != nil {
		if e.lines, err = mkTmpl(*body); err != nil {
			return e, err
		}
	}
	if e.forEach, err = compileForEach(ey.ForEach); err != nil {
		return e, err
	}
	e.blankBefore = ey.BlankBefore
	if len(ey.Where) == 0 {
		return e, file.At("an edit of %s needs where", file.Value)
	}
	for _, ay := range ey.Where {
		a, err := compileAnchor(ay, e.op, file)
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
func compileAnchor(ay anchorYAML, op oracle.Op, file yamlpos.String) (anchorT, error) {
	var a anchorT
	if ay.When != nil {
		t, err := mkTmpl(*ay.When)
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
	a.path, err = compileMatchers(path)
	return a, err
}

func compileMatchers(ms []matcherYAML) ([]matcherT, error) {
	var out []matcherT
	for _, m := range ms {
		t, err := mkTmpl(m.Text)
		if err != nil {
			return nil, err
		}
		out = append(out, matcherT{t: t, re: m.Re})
	}
	return out, nil
}

// compileRewrite compiles the substitute and renumber edits, an edit's
// condition and its range.
func compileRewrite(ey editYAML, e *editT) error {
	var err error
	if s := ey.Substitute; s != nil {
		if s.Re.Value == "" {
			return s.Re.At("substitute needs re")
		}
		if e.pattern, err = mkTmpl(s.Re); err != nil {
			return err
		}
		if e.with, err = mkTmpl(s.With); err != nil {
			return err
		}
	}
	if n := ey.Renumber; n != nil {
		if n.Re.Value == "" {
			return n.Re.At("renumber needs re")
		}
		if n.By.Value == "" {
			return n.Re.At("renumber needs by")
		}
		if e.pattern, err = mkTmpl(n.Re); err != nil {
			return err
		}
		if e.by, err = mkTmpl(n.By); err != nil {
			return err
		}
	}
	if ey.When != nil {
		if e.when, err = mkTmpl(*ey.When); err != nil {
			return err
		}
	}
	e.through, err = compileMatchers(ey.Through)
	return err
}

func compileCreated(cy *createdYAML, relName yamlpos.String) (*createdT, error) {
	if cy.File.Value == "" {
		return nil, relName.At("relation %s: a created check needs a file", relName.Value)
	}
	c := &createdT{}
	var err error
	if c.file, err = mkTmpl(cy.File); err != nil {
		return nil, err
	}
	if c.content, err = mkTmpl(cy.Content); err != nil {
		return nil, err
	}
	if cy.Name != nil {
		if c.name, err = mkTmpl(*cy.Name); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
