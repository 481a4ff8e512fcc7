package grammar

import (
	"fmt"
	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"strconv"
	"strings"
)

const defaultDepth = 12

// Grammar is a parsed and checked grammar, ready to derive programs. It is
// safe for concurrent use: derivations only read it (and fill its caches
// of choice orders under synchronisation).
type Grammar struct {
	file      string
	rules     map[string]*rule
	order     []*rule
	kinds     map[string]*kind
	kindOrder []*kind
	reserved  map[string]bool // folded
	depth     int
	indent    string
	startName string
	startPos  Pos
	start     *rule

	// Settings of the grammar read as a parser (parser.go).
	comments    [][2]string // %comment: opening and closing texts
	nameRule    string      // %name: the rule a name matches, "" for an identifier
	namePos     Pos
	exactBounds bool // %bounds exact: repetitions keep their maxima
	mostItems   bool // %repetitions most: an ambiguous repetition is read as the most items

	consts     []string       // the constants of the grammar; abstract value len(consts) is "any other"
	constIndex map[string]int // constant → abstract value
	alts       []*altNode     // every alternative, by id
	maxDepth   int            // the largest finite minimal depth of any rule
	warnings   ErrorList
}

// Warnings returns what is suspicious but not wrong in the grammar: rules
// and kinds that no derivation from the start rule can use.
func (g *Grammar) Warnings() ErrorList { return g.warnings }

// Depth is the grammar's depth limit (%depth): beyond it, derivations take
// the shortest way out.
func (g *Grammar) Depth() int { return g.depth }

// Alternatives returns the number of alternatives of the grammar, the unit
// of coverage.
func (g *Grammar) Alternatives() int { return len(g.alts) }

// fold is the form in which fresh names are compared: lower case, without
// underscores. Names that fold alike never coexist, so that any naming
// convention that changes only case and underscores (snake_case, camelCase,
// UPPER_CASE) keeps them apart.
func fold(name string) string {
	return strings.ReplaceAll(strings.ToLower(name), "_", "")
}

// compile resolves names and variables, collects the constants, and computes
// the minimal derivation cost of every rule.
func (g *Grammar) compile(errs *ErrorList) {
	if len(g.order) == 0 {
		errs.Add(yamlpos.Errorf(Pos{File: g.file, Line: 1, Col: 1}, "grammar has no rules"))
		return
	}
	if g.startName != "" {
		g.start = g.rules[g.startName]
		if g.start == nil {
			errs.Add(yamlpos.Errorf(g.startPos, "undefined start rule %s", g.startName))
		}
	} else {
		g.start = g.order[0]
		g.startPos = g.start.p
	}
	if g.nameRule != "" {
		if r := g.rules[g.nameRule]; r == nil {
			errs.Add(yamlpos.Errorf(g.namePos, "undefined rule %s (named by %%name)", g.nameRule))
		} else if r.arity != 0 {
			errs.Add(yamlpos.Errorf(g.namePos, "rule %s named by %%name must have no parameters", g.nameRule))
		}
	}
	if g.start != nil && g.start.arity != 0 {
		errs.Add(yamlpos.Errorf(g.startPos, "start rule %s must have no parameters", g.start.name))
	}
	for _, k := range g.kindOrder {
		r := g.rules[k.ruleName]
		switch {
		case r == nil:
			errs.Add(yamlpos.Errorf(k.rulePos, "undefined rule %s (the name rule of kind %s)", k.ruleName, k.name))
		case r.arity != 0:
			errs.Add(yamlpos.Errorf(k.rulePos, "name rule %s of kind %s must have no parameters", k.ruleName, k.name))
		default:
			k.rule = r
		}
	}
	g.constIndex = map[string]int{}
	for _, r := range g.order {
		for i, v := range r.variants {
			g.resolveVariant(v, errs)
			for j, w := range r.variants[:i] {
				if subsumes(w.params, v.params) {
					errs.Add(yamlpos.Errorf(v.p, "rule %s%s is never selected: %s%s (variant %d) matches first", r.name, patternString(v.params), r.name, patternString(w.params), j+1))
					break
				}
			}
		}
	}
	if len(*errs) > 0 {
		return
	}
	g.checkConstantCalls(errs)
	g.markUsed()
	g.dropReadOnly()
	if len(*errs) > 0 {
		return
	}
	g.analyse(errs)
}

// subsumes reports whether patterns a match every argument list that b
// matches.
func subsumes(a, b []*valueNode) bool {
	for i := range a {
		if !a[i].isVar && (b[i].isVar || a[i].konst != b[i].konst) {
			return false
		}
	}
	return true
}

func patternString(ps []*valueNode) string {
	if len(ps) == 0 {
		return ""
	}
	var parts []string
	for _, p := range ps {
		parts = append(parts, p.String())
	}
	return "<" + strings.Join(parts, ", ") + ">"
}

func (v *valueNode) String() string {
	switch {
	case !v.isVar:
		if isName(v.konst) {
			return v.konst
		}
		return strconv.Quote(v.konst)
	case v.tag:
		return "$" + v.name + ".tag"
	}
	return "$" + v.name
}

func isName(s string) bool {
	if s == "" || !isLetter(int(s[0])) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isLetter(int(s[i])) && !isDigit(int(s[i])) {
			return false
		}
	}
	return true
}

func (g *Grammar) constant(s string) int {
	if i, ok := g.constIndex[s]; ok {
		return i
	}
	g.constIndex[s] = len(g.consts)
	g.consts = append(g.consts, s)
	return len(g.consts) - 1
}

// scope is the set of variables bound at a point of a rule variant.
type scope map[string]bool

func (s scope) copy() scope {
	c := make(scope, len(s))
	for k, v := range s {
		c[k] = v
	}
	return c
}

type resolver struct {
	g       *Grammar
	v       *variant
	slots   map[string]int
	errs    *ErrorList
	choices []*choiceNode // the choices enclosing the node being resolved
	reading int           // inside an alternative of weight 0, whose alternatives are not derived
}

// resolveVariant gives every variable of v a slot, checks that variables are
// bound before use and only once, resolves calls and kinds, and numbers the
// alternatives.
func (g *Grammar) resolveVariant(v *variant, errs *ErrorList) {
	rs := &resolver{g: g, v: v, slots: map[string]int{}, errs: errs}
	sc := scope{}
	for _, p := range v.params {
		if !p.isVar {
			p.abs = g.constant(p.konst)
			continue
		}
		if p.tag {
			errs.Add(yamlpos.Errorf(p.p, "a parameter cannot be a tag"))
			continue
		}
		if sc[p.name] {
			errs.Add(yamlpos.Errorf(p.p, "variable $%s repeated in the parameters", p.name))
			continue
		}
		sc[p.name] = true
		p.slot = rs.slot(p.name)
	}
	where := v.rule.name + patternString(v.params)
	rs.choice(v.body, sc, where)
	v.nslots = len(rs.slots)
}

func (rs *resolver) slot(name string) int {
	if s, ok := rs.slots[name]; ok {
		return s
	}
	rs.slots[name] = len(rs.slots)
	return rs.slots[name]
}

func (rs *resolver) choice(c *choiceNode, sc scope, where string) {
	rs.choices = append(rs.choices, c)
	defer func() { rs.choices = rs.choices[:len(rs.choices)-1] }()
	for i, a := range c.alts {
		if rs.reading > 0 {
			inner := sc.copy()
			for _, it := range a.items {
				rs.node(it, inner)
			}
			continue
		}
		a.id = len(rs.g.alts)
		if where != "" {
			a.label = fmt.Sprintf("%s: %s alternative %d", a.p, where, i+1)
		} else {
			a.label = fmt.Sprintf("%s: group alternative %d", a.p, i+1)
		}
		rs.g.alts = append(rs.g.alts, a)
		inner := sc.copy()
		for _, it := range a.items {
			rs.node(it, inner)
		}
	}
	rs.reading++
	for _, a := range c.parseOnly {
		inner := sc.copy()
		for _, it := range a.items {
			rs.node(it, inner)
		}
	}
	rs.reading--
}

func (rs *resolver) node(n node, sc scope) {
	switch n := n.(type) {
	case *choiceNode:
		rs.choice(n, sc, "")
	case *repNode:
		rs.node(n.item, sc.copy())
	case *indentNode:
		rs.node(n.body, sc.copy())
	case *bindNode:
		for _, c := range rs.choices {
			c.binds = true
		}
		rs.node(n.item, sc.copy())
		if sc[n.name] {
			rs.errs.Add(yamlpos.Errorf(n.p, "variable $%s is already bound", n.name))
			return
		}
		sc[n.name] = true
		n.slot = rs.slot(n.name)
	case *emitNode:
		rs.value(n.v, sc)
	case *callNode:
		r := rs.g.rules[n.name]
		if r == nil {
			rs.errs.Add(yamlpos.Errorf(n.p, "undefined rule %s", n.name))
			return
		}
		n.rule = r
		if len(n.args) != r.arity {
			rs.errs.Add(yamlpos.Errorf(n.p, "rule %s takes %d arguments, not %d", n.name, r.arity, len(n.args)))
		}
		for _, a := range n.args {
			rs.value(a, sc)
		}
	case *symNode:
		k := rs.g.kinds[n.kindName]
		if k == nil {
			rs.errs.Add(yamlpos.Errorf(n.p, "unknown kind %s (declare it with %%kind)", n.kindName))
		}
		n.kind = k
		if n.tag != nil {
			rs.value(n.tag, sc)
		}
	}
}

func (rs *resolver) value(v *valueNode, sc scope) {
	if !v.isVar {
		v.abs = rs.g.constant(v.konst)
		return
	}
	if !sc[v.name] {
		rs.errs.Add(yamlpos.Errorf(v.p, "unbound variable $%s", v.name))
		return
	}
	v.slot = rs.slot(v.name)
}

// checkConstantCalls reports calls whose arguments are all constants and
// that no variant of the rule matches: they could never succeed.
func (g *Grammar) checkConstantCalls(errs *ErrorList) {
	g.walk(func(n node) {
		c, ok := n.(*callNode)
		if !ok || c.rule == nil {
			return
		}
		args := make([]int, len(c.args))
		for i, a := range c.args {
			if a.isVar {
				return
			}
			args[i] = a.abs
		}
		if g.selectAbstract(c.rule, args) == nil {
			errs.Add(yamlpos.Errorf(c.p, "no definition of %s matches %s%s", c.rule.name, c.rule.name, patternString(c.args)))
		}
	})
}

// walk calls f for every node of every variant.
func (g *Grammar) walk(f func(node)) {
	var visit func(n node)
	visit = func(n node) {
		f(n)
		switch n := n.(type) {
		case *choiceNode:
			for _, a := range n.alts {
				for _, it := range a.items {
					visit(it)
				}
			}
			for _, a := range n.parseOnly {
				for _, it := range a.items {
					visit(it)
				}
			}
		case *repNode:
			visit(n.item)
		case *indentNode:
			visit(n.body)
		case *bindNode:
			visit(n.item)
		}
	}
	for _, r := range g.order {
		for _, v := range r.variants {
			visit(v.body)
		}
	}
}

// markUsed marks the rules reachable from the start rule (through calls
// and the name rules of the kinds used) and warns about the others.
func (g *Grammar) markUsed() {
	usedKinds := map[*kind]bool{}
	var visitRule func(r *rule)
	var visit func(n node)
	visit = func(n node) {
		switch n := n.(type) {
		case *choiceNode:
			for _, a := range n.alts {
				for _, it := range a.items {
					visit(it)
				}
			}
			for _, a := range n.parseOnly {
				for _, it := range a.items {
					visit(it)
				}
			}
		case *repNode:
			visit(n.item)
		case *indentNode:
			visit(n.body)
		case *bindNode:
			visit(n.item)
		case *callNode:
			visitRule(n.rule)
		case *symNode:
			usedKinds[n.kind] = true
			if n.op == opNew {
				visitRule(n.kind.rule)
			}
		}
	}
	visitRule = func(r *rule) {
		if r == nil || r.used {
			return
		}
		r.used = true
		for _, v := range r.variants {
			visit(v.body)
		}
	}
	visitRule(g.start)
	if g.nameRule != "" {
		visitRule(g.rules[g.nameRule]) // used when parsing
	}
	for _, r := range g.order {
		if !r.used {
			g.warnings.Add(yamlpos.Errorf(r.p, "rule %s is never used", r.name))
		}
	}
	for _, k := range g.kindOrder {
		if !usedKinds[k] {
			g.warnings.Add(yamlpos.Errorf(k.p, "kind %s is never used", k.name))
		}
	}
	g.warnings.Sort()
}

// dropReadOnly leaves out of the alternatives (the unit of coverage) those
// that no derivation can reach: the alternatives of rules only alternatives
// of weight 0 call, and the %name rule, which are only read when parsing.
func (g *Grammar) dropReadOnly() {
	derivable := map[*altNode]bool{}
	visited := map[*rule]bool{}
	var visit func(n node)
	var visitRule func(r *rule)
	visit = func(n node) {
		switch n := n.(type) {
		case *choiceNode:
			for _, a := range n.alts {
				derivable[a] = true
				for _, it := range a.items {
					visit(it)
				}
			}
		case *repNode:
			visit(n.item)
		case *indentNode:
			visit(n.body)
		case *bindNode:
			visit(n.item)
		case *callNode:
			visitRule(n.rule)
		case *symNode:
			if n.op == opNew && n.kind != nil {
				visitRule(n.kind.rule)
			}
		}
	}
	visitRule = func(r *rule) {
		if r == nil || visited[r] {
			return
		}
		visited[r] = true
		for _, v := range r.variants {
			visit(v.body)
		}
	}
	visitRule(g.start)
	kept := g.alts[:0]
	for _, a := range g.alts {
		if derivable[a] {
			a.id = len(kept)
			kept = append(kept, a)
		}
	}
	g.alts = kept
}
