package yamlrel

// The resolve pass, relations: once every file is defined, a compiler
// compiles each relation against the definitions into a rel, every
// template registered by the relation's unit, and checks its templates
// (resolve.go).

import (
	"errors"
	"slices"
	"strings"

	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"github.com/mcpt-tool/mcpt/relation"
)

// compiler compiles the relations of a load against its definitions, once
// every file is read and defined: the resolve pass.
type compiler struct {
	d        *defs
	checkers map[string]CheckerKind
	// models reads the inputs of the relations (the instantiate pass),
	// shared by them: an input is modelled once for all.
	models *models
	// spotted are the relations whose spots compiled: the lets of the
	// definitions are evaluated at their spots (resolveDefs).
	spotted []*rel
	// relations are the relations compiled without error.
	relations []*relation.Relation
}

// compile compiles the relations of every file read, once the
// definitions of all of them are in, adding the errors to l.errs.
func (l *loader) compile() *compiler {
	if l.d.fresh == nil {
		fp, _ := relation.ParseFreshPattern(DefaultFresh)
		l.d.fresh = fp
	}
	l.errs.AddError(l.d.checkKinds())
	c := &compiler{d: l.d, checkers: l.checkers, models: newModels(l.d)}
	for _, ry := range l.rels {
		r, err := c.compileRelation(ry.r)
		if errors.Is(err, errReported) {
			continue
		}
		if err != nil {
			l.errs.AddError(err)
			continue
		}
		c.relations = append(c.relations, r)
	}
	l.errs.AddError(resolveDefs(l.d, c.spotted))
	return c
}

// compileRelation compiles one relation against the definitions. Its
// checks are compiled whatever else is wrong, so that a load reports the
// mistakes of their specs too.
func (c *compiler) compileRelation(ry relYAML) (*relation.Relation, error) {
	var errs yamlpos.ErrorList
	var checks []checkT
	u := &unit{}
	for _, cy := range ry.Checks {
		ch, err := compileCheck(u, cy, c.checkers)
		errs.AddError(err)
		checks = append(checks, ch)
	}
	rr, err := c.compileRel(ry, u, checks)
	if errors.Is(err, errReported) && len(errs) == 0 {
		return nil, err
	}
	if !errors.Is(err, errReported) {
		errs.AddError(err)
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return rr, nil
}

// compileRel compiles the relation but for its checks, compiled.
func (c *compiler) compileRel(ry relYAML, u *unit, checks []checkT) (*relation.Relation, error) {
	d := c.d
	r := &rel{d: d, models: c.models, unit: u, name: ry.Name.Value, pos: ry.Name.Pos, checks: checks}
	if ry.Name.Value == "" {
		return nil, ry.Insert.At("relation without a name")
	}
	if err := r.compileSpots(ry); err != nil {
		return nil, err
	}
	c.spotted = append(c.spotted, r)
	if err := r.compileBindings(ry); err != nil {
		return nil, err
	}
	var err error
	switch {
	case ry.Clone != nil && ry.Insert.Value != "":
		return nil, ry.Insert.At("relation %s: text or clone, not both", r.name)
	case ry.Clone != nil:
		if r.clone, err = r.compileClone(ry.Clone); err != nil {
			return nil, err
		}
	case ry.Insert.Value == "":
		return nil, ry.Name.At("relation %s: nothing to insert (text or clone)", r.name)
	default:
		if r.insert, err = u.template(ry.Insert); err != nil {
			return nil, err
		}
	}
	if r.declare, err = r.compileDeclare(ry.Declare, ry.Name); err != nil {
		return nil, err
	}
	if len(ry.Checks) == 0 {
		return nil, ry.Name.At("relation %s: no checks", r.name)
	}
	rr := &relation.Relation{
		Name:   r.name,
		Doc:    strings.TrimSpace(ry.Doc.Value),
		Spots:  r.spots,
		Mutate: r.mutate,
		Source: r.pos.String(),
		// Every relation of a load shares the pack's word.
		Supports: d.supports,
	}
	if len(r.nodeTypes()) > 0 {
		rr.Holds = r.holds
	}
	if err := r.resolveRelation(); err != nil {
		return nil, err
	}
	return rr, nil
}

// compileSpots compiles spots: the region whose boundaries are spots, the
// lists whose gaps are, and the condition a spot must meet.
func (r *rel) compileSpots(ry relYAML) error {
	if ry.Spots.Boundaries == nil && len(ry.Spots.Lists) == 0 {
		return ry.Name.At("relation %s: spots needs boundaries or lists", r.name)
	}
	if ry.Spots.Boundaries != nil {
		reg := r.d.regions[ry.Spots.Boundaries.Value]
		if reg == nil {
			if r.d.inError("region", ry.Spots.Boundaries.Value) {
				return errReported
			}
			return ry.Spots.Boundaries.At("no region named %q", ry.Spots.Boundaries.Value)
		}
		r.boundaries = reg
	}
	for _, ls := range ry.Spots.Lists {
		k := r.d.kinds[ls.Kind.Value]
		if k == nil {
			if r.d.inError("kind", ls.Kind.Value) {
				return errReported
			}
			return ls.Kind.At("no kind named %q", ls.Kind.Value)
		}
		if k.list == "" {
			return ls.Kind.At("kind %s has no list group", ls.Kind.Value)
		}
		join := k.sep + " "
		if ls.Join != nil {
			join = ls.Join.Value
		}
		lets, err := compileLets(r.unit, ls.Let)
		if err != nil {
			return err
		}
		r.lists = append(r.lists, listSpot{kind: k, join: join, lets: lets})
	}
	if ry.Spots.When != nil {
		t, err := r.unit.template(*ry.Spots.When)
		if err != nil {
			return err
		}
		r.when = t
	}
	for _, e := range ry.Spots.Except {
		t, err := r.unit.template(e)
		if err != nil {
			return err
		}
		r.except = append(r.except, t)
	}
	spotLets := map[string]bool{}
	for _, l := range r.d.lets {
		if readsSpot(l.tmpl, spotLets) {
			spotLets[l.name] = true
		}
	}
	r.spotLets = len(spotLets) > 0
	r.perList = []bool{r.when != nil && !readsSpot(r.when, spotLets)}
	for _, t := range r.except {
		r.perList = append(r.perList, !readsSpot(t, spotLets))
	}
	return nil
}

// compileBindings compiles what a mutation binds: fresh names, fresh
// lists, choices and lets. A name is bound once.
func (r *rel) compileBindings(ry relYAML) error {
	seen := map[string]yamlpos.Pos{}
	bind := func(s yamlpos.String) error {
		if !identRE.MatchString(s.Value) {
			return s.At("%q is not an identifier", s.Value)
		}
		if old, ok := seen[s.Value]; ok {
			return s.At("%s bound twice (first at %s)", s.Value, old)
		}
		seen[s.Value] = s.Pos
		return nil
	}
	for _, f := range ry.Fresh {
		if err := bind(f); err != nil {
			return err
		}
		r.fresh = append(r.fresh, f.Value)
	}
	for _, fl := range ry.FreshLists {
		if err := bind(fl.Name); err != nil {
			return err
		}
		if fl.Min < 1 || fl.Max < fl.Min || fl.Max > 100 {
			return fl.Name.At("fresh list %s: need 1 <= min <= max <= 100", fl.Name.Value)
		}
		r.freshLists = append(r.freshLists, freshList{name: fl.Name.Value, min: fl.Min, max: fl.Max})
	}
	r.freshKeys = slices.Clone(r.fresh)
	for _, fl := range r.freshLists {
		r.freshKeys = append(r.freshKeys, fl.name)
	}
	for _, c := range ry.Choose {
		if err := bind(c.Name); err != nil {
			return err
		}
		ch, err := r.compileChoice(c)
		if err != nil {
			return err
		}
		r.choose = append(r.choose, ch)
	}
	lets, err := compileLets(r.unit, ry.Let)
	if err != nil {
		return err
	}
	r.early, r.late = splitLets(lets, r.choose)
	return nil
}

// compileChoice compiles a choice: from a kind, among a list binding, or
// one of several templates.
func (r *rel) compileChoice(c chooseYAML) (choice, error) {
	d, u := r.d, r.unit
	ch := choice{name: c.Name.Value}
	n := 0
	if c.From != nil {
		n++
		ch.from = d.kinds[c.From.Value]
		if ch.from == nil {
			if d.inError("kind", c.From.Value) {
				return ch, errReported
			}
			return ch, c.From.At("no kind named %q", c.From.Value)
		}
	}
	if c.Among != nil {
		n++
		among, err := compileAmong(u, c.Among.String)
		if err != nil {
			return ch, err
		}
		ch.among = &among
	}
	if len(c.Options) > 0 {
		n++
		for _, o := range c.Options {
			t, err := u.template(o)
			if err != nil {
				return ch, err
			}
			ch.options = append(ch.options, t)
		}
	}
	if n != 1 {
		return ch, c.Name.At("choice %s needs exactly one of kind, among, options", c.Name.Value)
	}
	return ch, nil
}
