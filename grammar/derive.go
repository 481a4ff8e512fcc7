package grammar

import (
	"errors"
	"slices"
	"strings"
)

// maxNameAttempts bounds the draws of a fresh name that collides with a
// name in use or a reserved word; then @new fails and the derivation backs
// out of it.
const maxNameAttempts = 32

// maxSteps bounds the work of one derivation, backtracking included.
const maxSteps = 2_000_000

var errTooLong = errors.New("grammar: derivation exceeded its step budget")

// ErrNoDerivation is returned when no alternative of the start rule could be
// completed.
var ErrNoDerivation = errors.New("grammar: no derivation could be completed")

// Derive derives one program from the start rule, drawing every choice from
// s.
func (g *Grammar) Derive(s *Stream) ([]byte, error) {
	src, _, err := g.derive(s, g.depth)
	return src, err
}

// derive returns the program and the ids of the alternatives its
// derivation used (with repetitions).
func (g *Grammar) derive(s *Stream, limit int) (src []byte, alts []int, err error) {
	src, alts, _, err = g.deriveTraced(s, limit, false)
	return src, alts, err
}

// deriveTraced is derive that also returns the spans of the derivation when
// tracing.
func (g *Grammar) deriveTraced(s *Stream, limit int, tracing bool) (src []byte, alts []int, spans []span, err error) {
	d := &deriver{
		tracing: tracing,
		g:       g,
		s:       s,
		limit:   limit,
		cap:     limit + g.maxDepth + 2,
		byKind:  map[*kind][]int{},
		used:    map[string]bool{},
		indent:  g.indent,
	}
	defer func() {
		if r := recover(); r != nil {
			if r != errTooLong {
				panic(r)
			}
			src, alts, spans, err = nil, nil, nil, errTooLong
		}
	}()
	if !d.call(g.start, nil, 1) {
		return nil, nil, nil, ErrNoDerivation
	}
	return d.out, d.alts, d.spans, nil
}

type deriver struct {
	g      *Grammar
	s      *Stream
	limit  int // depth limit: deeper, take the shortest way out
	cap    int // hard depth cap: deeper, fail
	steps  int
	indent string

	out     []byte
	level   int  // indentation level
	pending bool // at the start of a line whose indentation is not written yet

	syms   []sym
	byKind map[*kind][]int // indices into syms, in declaration order
	used   map[string]bool // folded fresh names
	taken  []int           // indices into syms marked taken, in order
	alts   []int
	frames []binding // the stack the rule variables live on

	tracing bool   // record spans, for Shrink
	spans   []span // repetitions and choices of the derivation
}

// span locates a repetition or a choice in the stream record: at is the
// index of its (first) draw, and bounds the record indices its items (a
// repetition's, one start each, then the end) or chosen alternative (start,
// end) consumed.
type span struct {
	rep    bool
	at     int
	bounds []int
}

// sym is a name declared by @new.
type sym struct {
	name, key, tag string
	kind           *kind
	taken          bool
}

// binding is the value of a variable: a text and, for a name, its tag.
type binding struct {
	text, tag string
	set       bool
}

// mark is a point to back out to when an alternative fails.
type mark struct {
	out, syms, taken, alts, spans, level int
	pending                              bool
}

func (d *deriver) mark() mark {
	return mark{len(d.out), len(d.syms), len(d.taken), len(d.alts), len(d.spans), d.level, d.pending}
}

func (d *deriver) reset(m mark) {
	d.out = d.out[:m.out]
	d.spans = d.spans[:m.spans]
	d.pending, d.level = m.pending, m.level
	for _, i := range d.taken[m.taken:] {
		d.syms[i].taken = false
	}
	d.taken = d.taken[:m.taken]
	for i := len(d.syms) - 1; i >= m.syms; i-- {
		s := d.syms[i]
		delete(d.used, s.key)
		idx := d.byKind[s.kind]
		d.byKind[s.kind] = idx[:len(idx)-1]
	}
	d.syms = d.syms[:m.syms]
	d.alts = d.alts[:m.alts]
}

// emit appends text, writing the indentation of a line before its first
// byte so that empty lines stay empty.
func (d *deriver) emit(text string) {
	for i := 0; i < len(text); i++ {
		d.emitByte(text[i])
	}
}

func (d *deriver) emitByte(c byte) {
	if d.pending && c != '\n' {
		for range d.level {
			d.out = append(d.out, d.indent...)
		}
		d.pending = false
	}
	d.out = append(d.out, c)
	if c == '\n' {
		d.pending = true
	}
}

// capture runs f with output going to a fresh buffer and returns that
// output.
func (d *deriver) capture(f func() bool) (string, bool) {
	out, pending := d.out, d.pending
	d.out, d.pending = nil, false
	ok := f()
	text := string(d.out)
	d.out, d.pending = out, pending
	return text, ok
}

// call derives rule r with arguments args at depth.
func (d *deriver) call(r *rule, args []binding, depth int) bool {
	if depth > d.cap {
		return false
	}
	var v *variant
next:
	for _, w := range r.variants {
		for i, p := range w.params {
			if !p.isVar && p.konst != args[i].text {
				continue next
			}
		}
		v = w
		break
	}
	if v == nil {
		return false
	}
	base := len(d.frames)
	for range v.nslots {
		d.frames = append(d.frames, binding{})
	}
	env := d.frames[base : base+v.nslots : base+v.nslots]
	for i, p := range v.params {
		if p.isVar {
			env[p.slot] = args[i]
		}
	}
	ok := d.choice(v.body, env, depth)
	clear(d.frames[base:])
	d.frames = d.frames[:base]
	return ok
}

// plan is the order in which a choice draws its alternatives in one
// abstract environment: those that can finish, by increasing minimal size,
// then depth, then grammar order.
type plan struct {
	alts []planAlt
}

type planAlt struct {
	a *altNode
	c cost
}

// planKey is an abstract environment small enough to key a plan cache.
type planKey struct {
	n int
	v [2 * maxKeySlots]int32
}

const maxKeySlots = 8

// plan returns the plan of c in env, from the cache of c when env is small.
func (d *deriver) plan(c *choiceNode, env []binding) *plan {
	absOf := func(i int) (val, tag int) {
		if !env[i].set {
			return -1, -1
		}
		return d.g.abs(env[i].text), d.g.abs(env[i].tag)
	}
	var k planKey
	cacheable := len(env) <= maxKeySlots
	if cacheable {
		k.n = len(env)
		for i := range env {
			val, tag := absOf(i)
			k.v[2*i], k.v[2*i+1] = int32(val), int32(tag)
		}
		if p, ok := c.plans.Load(k); ok {
			return p.(*plan)
		}
	}
	aenv := make([]int, 2*len(env))
	for i := range env {
		aenv[2*i], aenv[2*i+1] = absOf(i)
	}
	p := &plan{}
	for _, a := range c.alts {
		ac := d.g.nodeCost(a, aenv)
		if ac.finite() {
			p.alts = append(p.alts, planAlt{a, ac})
		}
	}
	slices.SortStableFunc(p.alts, func(x, y planAlt) int {
		if x.c.size != y.c.size {
			return x.c.size - y.c.size
		}
		return x.c.depth - y.c.depth
	})
	if cacheable {
		c.plans.Store(k, p)
	}
	return p
}

// choice derives one alternative of c. Draw 0 picks the alternative with the
// shortest derivation, so a stream shrunk towards zeros derives a smaller
// program. Beyond the depth limit only the alternatives of least depth are
// candidates; an alternative that fails is dropped and another drawn.
func (d *deriver) choice(c *choiceNode, env []binding, depth int) bool {
	if len(c.alts) == 1 && depth <= d.limit {
		return d.alt(c.alts[0], env, depth)
	}
	p := d.plan(c, env)
	beyond := depth > d.limit
	var saved []binding
	if c.binds && len(env) > 0 {
		saved = slices.Clone(env)
	}
	var failed failedAlts
	if len(p.alts) > 64 {
		failed.large = make([]bool, len(p.alts))
	}
	at := len(d.s.rec)
	for {
		pick := d.pick(p, &failed, beyond)
		if pick < 0 {
			return false
		}
		m := d.mark()
		start := len(d.s.rec)
		if d.alt(p.alts[pick].a, env, depth) {
			if d.tracing && at < start {
				d.spans = append(d.spans, span{at: at, bounds: []int{start, len(d.s.rec)}})
			}
			return true
		}
		d.reset(m)
		if saved != nil {
			copy(env, saved)
		}
		failed.add(pick)
	}
}

// failedAlts is the set of the alternatives of a plan that failed: a bit
// set when there are at most 64, else one flag each.
type failedAlts struct {
	small uint64
	large []bool
}

func (f *failedAlts) has(i int) bool {
	if f.large != nil {
		return f.large[i]
	}
	return f.small&(1<<i) != 0
}

func (f *failedAlts) add(i int) {
	if f.large != nil {
		f.large[i] = true
	} else {
		f.small |= 1 << i
	}
}

// pick draws, by weight, one of the alternatives of p that have not
// failed, beyond the depth limit only among those of least depth; it
// returns -1 when none is left.
func (d *deriver) pick(p *plan, failed *failedAlts, beyond bool) int {
	least := inf
	if beyond {
		for i, x := range p.alts {
			if !failed.has(i) {
				least = min(least, x.c.depth)
			}
		}
	}
	total, n := 0, 0
	for i, x := range p.alts {
		if !failed.has(i) && (!beyond || x.c.depth == least) {
			total += x.a.weight
			n++
		}
	}
	if n == 0 {
		return -1
	}
	v := 0
	if n > 1 {
		v = d.s.Draw(total)
	}
	for i, x := range p.alts {
		if failed.has(i) || beyond && x.c.depth != least {
			continue
		}
		if v < x.a.weight {
			return i
		}
		v -= x.a.weight
	}
	return -1
}

func (d *deriver) alt(a *altNode, env []binding, depth int) bool {
	d.alts = append(d.alts, a.id)
	for _, it := range a.items {
		if !d.node(it, env, depth) {
			return false
		}
	}
	return true
}

func (d *deriver) node(n node, env []binding, depth int) bool {
	d.steps++
	if d.steps > maxSteps {
		panic(errTooLong)
	}
	switch n := n.(type) {
	case *litNode:
		d.emit(n.text)
	case *classNode:
		d.emitByte(n.set[d.s.Draw(len(n.set))])
	case *emitNode:
		d.emit(value(n.v, env))
	case *callNode:
		return d.callNode(n, env, depth)
	case *choiceNode:
		return d.choice(n, env, depth)
	case *repNode:
		return d.rep(n, env, depth)
	case *indentNode:
		d.level++
		ok := d.node(n.body, env, depth)
		d.level--
		return ok
	case *bindNode:
		return d.bind(n, env, depth)
	case *symNode:
		name, _, ok := d.sym(n, env)
		if !ok {
			return false
		}
		d.emit(name)
	default:
		panic("grammar: unknown node")
	}
	return true
}

// callNode derives the rule n calls with its arguments evaluated in env.
func (d *deriver) callNode(n *callNode, env []binding, depth int) bool {
	var buf [4]binding
	args := buf[:0]
	for _, a := range n.args {
		if a.isVar && !a.tag {
			args = append(args, env[a.slot])
		} else {
			args = append(args, binding{text: value(a, env), set: true})
		}
	}
	return d.call(n.rule, args, depth+1)
}

// rep derives n's item a drawn number of times (its minimum beyond the
// depth limit); an item that fails ends the repetition, or fails it when
// the minimum is not reached.
func (d *deriver) rep(n *repNode, env []binding, depth int) bool {
	count, at := n.min, len(d.s.rec)
	drew := depth <= d.limit && n.max > n.min
	if depth <= d.limit {
		count += d.s.Draw(n.max - n.min + 1)
	}
	var bounds []int
	for i := 0; i < count; i++ {
		m := d.mark()
		start := len(d.s.rec)
		if !d.node(n.item, env, depth) {
			d.reset(m)
			if i < n.min {
				return false
			}
			break
		}
		if d.tracing {
			bounds = append(bounds, start)
		}
	}
	if d.tracing && drew && len(bounds) > n.min {
		d.spans = append(d.spans, span{rep: true, at: at, bounds: append(bounds, len(d.s.rec))})
	}
	return true
}

// bind derives n's item and binds what it gave, its text and tag, to n's
// variable in env.
func (d *deriver) bind(n *bindNode, env []binding, depth int) bool {
	var b binding
	ok := false
	switch it := n.item.(type) {
	case *symNode:
		b.text, b.tag, ok = d.sym(it, env)
	case *emitNode:
		if it.v.isVar && !it.v.tag {
			b, ok = env[it.v.slot], true
		} else {
			b.text, ok = value(it.v, env), true
		}
	default:
		b.text, ok = d.capture(func() bool { return d.node(n.item, env, depth) })
	}
	if !ok {
		return false
	}
	b.set = true
	env[n.slot] = b
	return true
}

func value(v *valueNode, env []binding) string {
	switch {
	case !v.isVar:
		return v.konst
	case v.tag:
		return env[v.slot].tag
	}
	return env[v.slot].text
}

// sym runs @new, @ref or @take and returns the name and its tag.
func (d *deriver) sym(n *symNode, env []binding) (name, tag string, ok bool) {
	hasTag := n.tag != nil
	if hasTag {
		tag = value(n.tag, env)
	}
	if n.op == opNew {
		name, ok = d.fresh(n.kind)
		if !ok {
			return "", "", false
		}
		key := fold(name)
		d.byKind[n.kind] = append(d.byKind[n.kind], len(d.syms))
		d.syms = append(d.syms, sym{name: name, key: key, tag: tag, kind: n.kind})
		d.used[key] = true
		return name, tag, true
	}
	match := func(s *sym) bool {
		return (!hasTag || s.tag == tag) && (n.op != opTake || !s.taken)
	}
	count := 0
	for _, i := range d.byKind[n.kind] {
		if match(&d.syms[i]) {
			count++
		}
	}
	if count == 0 {
		return "", "", false
	}
	k := d.s.Draw(count)
	i := -1
	for _, j := range d.byKind[n.kind] {
		if match(&d.syms[j]) {
			if k == 0 {
				i = j
				break
			}
			k--
		}
	}
	if n.op == opTake {
		d.syms[i].taken = true
		d.taken = append(d.taken, i)
	}
	return d.syms[i].name, d.syms[i].tag, true
}

// fresh derives a name of kind k that folds unlike every name in use and
// every reserved word. The name rule derives from depth 1, whatever the
// depth of the @new. Attempt k adds k to every draw: a replayed stream that
// has run out (all zeros) still derives distinct names, so a shrunk record
// keeps its declarations.
func (d *deriver) fresh(k *kind) (string, bool) {
	rotate := d.s.rotate
	defer func() { d.s.rotate = rotate }()
	for attempt := range maxNameAttempts {
		d.s.rotate = rotate + attempt
		m := d.mark()
		name, ok := d.capture(func() bool { return d.call(k.rule, nil, 1) })
		key := fold(name)
		if ok && name != "" && !d.used[key] && !d.g.reserved[key] && !strings.ContainsAny(name, "\n") {
			return name, true
		}
		d.reset(m)
	}
	return "", false
}
