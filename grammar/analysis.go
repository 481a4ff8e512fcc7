package grammar

import "github.com/mcpt-tool/mcpt/internal/yamlpos"

// The static analysis: the minimal depth and size of a derivation of every
// rule, for every abstract argument list. An abstract value is one of the
// grammar's constants or "any other value" (len(consts)); a variable whose
// value is only known at run time is unknown (-1), and a call with unknown
// arguments costs the most of its possible instances that can finish.

const inf = 1 << 30

// cost is the minimal depth (nesting of rule calls) and size (bytes) of a
// derivation; inf when there is none.
type cost struct{ depth, size int }

var infCost = cost{inf, inf}

func satAdd(a, b int) int {
	if a >= inf || b >= inf || a+b >= inf {
		return inf
	}
	return a + b
}

func satMul(a, n int) int {
	if n == 0 {
		return 0
	}
	if a >= inf || a > (inf-1)/n {
		return inf
	}
	return a * n
}

func (c cost) finite() bool { return c.depth < inf && c.size < inf }

// nabs is the number of abstract values.
func (g *Grammar) nabs() int { return len(g.consts) + 1 }

// tuples is the number of abstract argument lists of a rule.
func (g *Grammar) tuples(r *rule) int {
	n := 1
	for i := 0; i < r.arity; i++ {
		n *= g.nabs()
	}
	return n
}

func (g *Grammar) tupleIndex(vals []int) int {
	t := 0
	for _, v := range vals {
		t = t*g.nabs() + v
	}
	return t
}

func (g *Grammar) decodeTuple(t, arity int) []int {
	vals := make([]int, arity)
	for i := arity - 1; i >= 0; i-- {
		vals[i] = t % g.nabs()
		t /= g.nabs()
	}
	return vals
}

// abs is the abstract value of a run-time value.
func (g *Grammar) abs(s string) int {
	if i, ok := g.constIndex[s]; ok {
		return i
	}
	return len(g.consts)
}

// selectAbstract returns the first variant of r whose patterns match the
// abstract arguments, or nil.
func (g *Grammar) selectAbstract(r *rule, args []int) *variant {
next:
	for _, v := range r.variants {
		for i, p := range v.params {
			if !p.isVar && p.abs != args[i] {
				continue next
			}
		}
		return v
	}
	return nil
}

const maxInstances = 1 << 16

// analyse computes every rule's minimal cost per abstract argument list by
// iterating to a fixed point, and reports variants that can never finish.
func (g *Grammar) analyse(errs *ErrorList) {
	for _, r := range g.order {
		n := g.tuples(r)
		if n > maxInstances {
			errs.Add(yamlpos.Errorf(r.p, "rule %s has too many parameters for the analysis (%d argument combinations)", r.name, n))
			return
		}
		r.inst = make([]cost, n)
		for i := range r.inst {
			r.inst[i] = infCost
		}
	}
	for changed := true; changed; {
		changed = false
		for _, r := range g.order {
			for t := range r.inst {
				c := g.instCost(r, t)
				old := r.inst[t]
				if c.depth < old.depth {
					old.depth = c.depth
					changed = true
				}
				if c.size < old.size {
					old.size = c.size
					changed = true
				}
				r.inst[t] = old
			}
		}
	}
	for _, r := range g.order {
		finite := map[*variant]bool{}
		for t, c := range r.inst {
			if c.finite() {
				finite[g.selectAbstract(r, g.decodeTuple(t, r.arity))] = true
			}
			if c.depth < inf && c.depth > g.maxDepth {
				g.maxDepth = c.depth
			}
		}
		for _, v := range r.variants {
			if !finite[v] {
				errs.Add(yamlpos.Errorf(v.p, "rule %s%s can never finish a derivation", r.name, patternString(v.params)))
			}
		}
	}
}

// instCost is the cost of deriving r with abstract arguments tuple t, given
// the current estimates of the other instances.
func (g *Grammar) instCost(r *rule, t int) cost {
	args := g.decodeTuple(t, r.arity)
	v := g.selectAbstract(r, args)
	if v == nil {
		return infCost
	}
	aenv := make([]int, 2*v.nslots)
	for i := range aenv {
		aenv[i] = -1
	}
	for i, p := range v.params {
		if p.isVar {
			aenv[2*p.slot] = args[i]
		}
	}
	return g.nodeCost(v.body, aenv)
}

// nodeCost is the minimal cost of deriving n in abstract environment aenv
// (two entries per variable: its value and its tag). Bindings update aenv.
func (g *Grammar) nodeCost(n node, aenv []int) cost {
	switch n := n.(type) {
	case *litNode:
		return cost{0, len(n.text)}
	case *classNode, *emitNode:
		return cost{0, 1}
	case *symNode:
		if n.op == opNew {
			c := n.kind.rule.inst[0]
			if !c.finite() {
				return infCost
			}
			return cost{0, c.size}
		}
		return cost{0, 1}
	case *callNode:
		c := g.callCost(n, aenv)
		return cost{satAdd(c.depth, 1), c.size}
	case *repNode:
		if n.min == 0 {
			return cost{}
		}
		c := g.nodeCost(n.item, copyEnv(aenv))
		return cost{c.depth, satMul(c.size, n.min)}
	case *indentNode:
		return g.nodeCost(n.body, copyEnv(aenv))
	case *bindNode:
		c := g.nodeCost(n.item, copyEnv(aenv))
		aenv[2*n.slot], aenv[2*n.slot+1] = g.bindAbs(n, aenv)
		return c
	case *choiceNode:
		best := infCost
		for _, a := range n.alts {
			c := g.nodeCost(a, aenv)
			best.depth = min(best.depth, c.depth)
			best.size = min(best.size, c.size)
		}
		return best
	case *altNode:
		env := copyEnv(aenv)
		var c cost
		for _, it := range n.items {
			ic := g.nodeCost(it, env)
			c.depth = max(c.depth, ic.depth)
			c.size = satAdd(c.size, ic.size)
		}
		return c
	}
	panic("grammar: unknown node")
}

func copyEnv(aenv []int) []int { return append([]int(nil), aenv...) }

// bindAbs is what a binding tells statically about its variable's value and
// tag.
func (g *Grammar) bindAbs(n *bindNode, aenv []int) (val, tag int) {
	val, tag = -1, -1
	switch it := n.item.(type) {
	case *litNode:
		val, tag = g.abs(it.text), g.abs("")
	case *emitNode:
		val = g.valueAbs(it.v, aenv)
	case *symNode:
		if it.tag != nil {
			tag = g.valueAbs(it.tag, aenv)
		} else if it.op == opNew {
			tag = g.abs("")
		}
	}
	return val, tag
}

func (g *Grammar) valueAbs(v *valueNode, aenv []int) int {
	switch {
	case !v.isVar:
		return v.abs
	case v.tag:
		return aenv[2*v.slot+1]
	}
	return aenv[2*v.slot]
}

// callCost is the cost of the instance a call selects; for unknown
// arguments, the largest cost among the possible instances that can finish.
func (g *Grammar) callCost(n *callNode, aenv []int) cost {
	args := make([]int, len(n.args))
	var unknown []int
	for i, a := range n.args {
		args[i] = g.valueAbs(a, aenv)
		if args[i] < 0 {
			unknown = append(unknown, i)
		}
	}
	if len(unknown) == 0 {
		return n.rule.inst[g.tupleIndex(args)]
	}
	worst, any := cost{}, false
	combos := 1
	for range unknown {
		combos *= g.nabs()
	}
	for k := 0; k < combos; k++ {
		x := k
		for _, i := range unknown {
			args[i] = x % g.nabs()
			x /= g.nabs()
		}
		c := n.rule.inst[g.tupleIndex(args)]
		if !c.finite() {
			continue
		}
		any = true
		worst.depth = max(worst.depth, c.depth)
		worst.size = max(worst.size, c.size)
	}
	if !any {
		return infCost
	}
	return worst
}
