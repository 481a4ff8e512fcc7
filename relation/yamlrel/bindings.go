package yamlrel

// The order in which a test case binds names, written once: bindSteps
// lists the steps, each with its static shape (what the resolve pass
// checks its templates against and adds to what the later templates see)
// and its evaluation (what a mutation, or a spot's condition, adds to the
// template data). The resolve pass (resolveRelation, resolveDefs) and the
// evaluation (evalSteps: mutate's bind, the spots conditions of keep)
// iterate the same list, so that a template is checked against exactly the
// names bound before it.

import (
	"context"
	"math/rand/v2"

	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"github.com/mcpt-tool/mcpt/relation"
)

// A bindStep binds some names of a test case's template data.
type bindStep struct {
	// what the step binds, for people.
	what string
	// seen is the first evaluation that sees it.
	seen phase
	// shape adds to s what the step binds for relation r, each template
	// of the step resolved (into rs) before the name it binds.
	shape func(r *rel, s *shape, rs *resolving)
	// eval adds the step's values to b.data.
	eval func(b *binding) error
}

// bindSteps are the steps of a test case, in order. A let may hide a
// binding of a step before it (a let called prev).
var bindSteps = []bindStep{
	{what: "the spot: .prev, .next, .region, .list, and the input's captures, .first, .last, .count, .decls, .tables", seen: atSpot,
		shape: func(r *rel, s *shape, _ *resolving) { r.spotShape(globalShape(r.d, s)) },
		eval:  func(b *binding) error { b.data = b.r.data(b.m, b.s); return nil }},
	{what: ".input", seen: atSpot,
		shape: func(_ *rel, s *shape, _ *resolving) { s.set("input", mapOf("key of .input", "name", "stem", "text")) },
		eval:  func(b *binding) error { b.data["input"] = inputData(b.in.Name, b.m.src); return nil }},
	{what: ".release and .flags", seen: atSpot,
		shape: func(r *rel, s *shape, _ *resolving) { s.set("release", nil).set("flags", flagsShape(r.d.supports)) },
		eval:  func(b *binding) error { settingData(b.r.d.supports, b.data, b.in); return nil }},
	{what: "the lets of the definitions (resolved once for every relation: resolveDefs)", seen: atCondition,
		shape: func(r *rel, s *shape, rs *resolving) { rs.bindLets(s, r.d.lets, false) },
		eval:  func(b *binding) error { return b.lets(b.r.d.lets) }},
	{what: "the lets of the spot's list", seen: atCondition,
		shape: func(r *rel, s *shape, rs *resolving) {
			for _, ls := range r.lists {
				rs.bindLets(s, ls.lets, true)
			}
		},
		eval: func(b *binding) error { return b.lets(b.s.lets()) }},
	{what: "the fresh names and fresh lists", seen: atMutation,
		shape: func(r *rel, s *shape, _ *resolving) {
			for _, f := range r.fresh {
				s.keys[f] = nil
			}
			for _, fl := range r.freshLists {
				s.keys[fl.name] = listOf(nil)
			}
		},
		eval: func(b *binding) error { return b.r.bindFresh(b.data, b.in.Src, b.rng) }},
	{what: "the relation's lets that use no choice", seen: atMutation,
		shape: func(r *rel, s *shape, rs *resolving) { rs.bindLets(s, r.early, true) },
		eval:  func(b *binding) error { return b.lets(b.r.early) }},
	{what: "the choices", seen: atMutation,
		shape: func(r *rel, s *shape, rs *resolving) {
			for _, c := range r.choose {
				rs.bindChoice(s, c)
			}
		},
		eval: func(b *binding) error {
			for _, c := range b.r.choose {
				if err := b.r.draw(b.ctx, c, b.m, b.data, b.rng); err != nil {
					return err
				}
			}
			return nil
		}},
	{what: "the relation's other lets", seen: atMutation,
		shape: func(r *rel, s *shape, rs *resolving) { rs.bindLets(s, r.late, true) },
		eval:  func(b *binding) error { return b.lets(b.r.late) }},
}

// A phase is an evaluation that sees a prefix of the steps: a step is
// seen by its phase and the later ones (the phases of bindSteps never
// decrease, TestBindStepsInPhaseOrder).
type phase int

const (
	// atSpot: the lets of the definitions see what the spot binds.
	atSpot phase = iota
	// atCondition: a spot's conditions see those lets too, and the
	// lets of the spot's list.
	atCondition
	// atMutation: a mutation binds every step.
	atMutation
)

// stepsThrough are the steps that phase p sees, in order.
func stepsThrough(p phase) []bindStep {
	n := 0
	for n < len(bindSteps) && bindSteps[n].seen <= p {
		n++
	}
	return bindSteps[:n]
}

// binding is one evaluation of the steps: of a test case, or of a spot's
// conditions.
type binding struct {
	ctx  context.Context
	r    *rel
	m    *model
	s    *spot
	in   relation.Input
	rng  *rand.Rand // nil for a spot's conditions, which draw nothing
	data map[string]any
	// budget is what the lets of the evaluation take in all.
	budget letBudget
}

// evalSteps evaluates the steps in order into b.data.
func (b *binding) evalSteps(steps []bindStep) error {
	for _, st := range steps {
		if err := st.eval(b); err != nil {
			return err
		}
	}
	return nil
}

// lets evaluates lets into the data, within the evaluation's budget.
func (b *binding) lets(ls []let) error { return evalLets(b.ctx, ls, b.data, &b.budget) }

// resolving is the state of the resolve pass over one relation: the
// errors found, and the templates already resolved (those of the steps),
// which the rest of the relation's templates are not.
type resolving struct {
	errs yamlpos.ErrorList
	done map[*tmpl]bool
}

func newResolving() *resolving { return &resolving{done: map[*tmpl]bool{}} }

// shapeSteps adds to s what the steps bind for relation r.
func (rs *resolving) shapeSteps(r *rel, steps []bindStep, s *shape) *shape {
	for _, st := range steps {
		st.shape(r, s, rs)
	}
	return s
}

// resolve checks template t against s, once.
func (rs *resolving) resolve(t *tmpl, s *shape) {
	if !rs.done[t] {
		resolveTemplate(t, s, &rs.errs)
		rs.done[t] = true
	}
}

// bindLets resolves each let's template against s (unless check is false:
// it is resolved elsewhere) before it binds its name in s.
func (rs *resolving) bindLets(s *shape, lets []let, check bool) {
	for _, l := range lets {
		if check {
			rs.resolve(l.tmpl, s)
		}
		rs.done[l.tmpl] = true
		s.keys[l.name] = nil
	}
}

// bindChoice resolves the templates of choice c against s before it
// binds the choice's name: a value, or an item of the kind it draws from.
func (rs *resolving) bindChoice(s *shape, c choice) {
	for _, t := range c.options {
		rs.resolve(t, s)
	}
	if c.among != nil {
		if c.among.t != nil {
			rs.resolve(c.among.t, s)
		} else {
			rs.errs.Add(resolvePath(c.among.str, s))
		}
	}
	s.keys[c.name] = nil
	if c.from != nil {
		inst := mapOf("field of choice "+c.name, "name", "line")
		inst.keys["names"] = listOf(nil)
		for _, g := range c.from.groupNames() {
			inst.keys[g] = nil
		}
		s.keys[c.name] = inst
	}
}
