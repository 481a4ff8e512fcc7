package grammar

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/mcpt-tool/mcpt/syntax"
)

// The recogniser computes, for a parsing expression and a start offset, the
// set of offsets at which a match can end (a sorted slice). It follows every
// alternative, so ambiguity costs no backtracking: the end sets of rule
// instances and repetitions are memoised per offset, as a packrat parser
// does, which keeps the work near linear on the grammars of real languages.
// A rule that calls itself at the same offset (left recursion, direct or
// not) is computed as a fixed point: its end set starts empty and is
// recomputed until it stops growing; entries that depended on an unfinished
// one are not memoised, so they are recomputed with its final value.
//
// Memory is what a parse of a large seed runs out of, so the memo is
// compact: offsets are int32, a finished entry is a key and an int32 in an
// open-addressing table (an end set of one offset is the offset itself, a
// larger one an index into a list of sets), the white space after each
// offset is one int32 of a dense array, and a rule that cannot start where
// it is called is not computed at all (see pruned), so that it leaves no
// entry. A parse is bounded: it stops with an error after a number of
// steps proportional to the seed (an ambiguous grammar can take cubic
// time), when its end sets would hold more offsets than a few per byte of
// the seed, when rules nest deeper than maxDepth, and when its context is
// done.

// Limits of one parse; see docs/grammar.md, "Limits".
const (
	// stepsPerByte and baseSteps bound the work of a parse: the grammars of
	// the packs take at most 65 steps a byte (TestParseLimits).
	stepsPerByte = 1000
	baseSteps    = 1 << 22
	// memoPerByte and baseMemo bound the memory of the memo, in bytes:
	// the table, and the end sets of more than one offset (the grammars of
	// the packs take at most 14 bytes a byte).
	memoPerByte = 48
	baseMemo    = 64 << 20
	// maxDepth bounds the nesting of rule instances being read at once
	// (each takes some stack): a list written as a right-recursive rule
	// nests once per item.
	maxDepth = 20000
	// memoSteps is the work below which an entry is computed again
	// rather than kept: most entries are rules and repetitions that
	// read a word, or nothing, and they would be most of the memory.
	memoSteps = 32
	// MaxParseSize is the largest program the parser reads: offsets are
	// int32.
	MaxParseSize = 1<<31 - 2
)

// memoEntry is a rule instance being computed at an offset.
type memoEntry struct {
	ends     []int32
	depth    int
	recursed bool
}

type matcher struct {
	p      *Parser
	src    []byte
	ident  []int32 // ident[i] == i: the end sets of one offset, shared
	memo   memoTable
	sets   [][]int32      // the memoised end sets of more than one offset
	active map[uint64]int // the rule instances being computed: their place in stack
	stack  []memoEntry
	skips  []int32 // the ends of skip at each offset, encoded (see skip)
	depth  int
	low    int // the shallowest unfinished entry read since the innermost rule began
	prune  bool

	steps, budget     int64
	memoSize, memoMax int64 // the bytes the memo takes, and may take
	ctx               context.Context

	far      int
	expected map[string]bool
}

// stop ends a parse early: the error says why.
type stop struct{ err error }

func (m *matcher) fail(off int, what string) {
	if off < m.far {
		return
	}
	if off > m.far {
		m.far = off
		clear(m.expected)
	}
	m.expected[what] = true
}

// step counts n steps of work, and stops the parse when it has taken too
// many or its context is done.
func (m *matcher) step(n int) {
	m.steps += int64(n)
	if m.steps&0xffff < int64(n) && m.ctx != nil {
		if err := m.ctx.Err(); err != nil {
			panic(stop{err})
		}
	}
	if m.steps > m.budget {
		panic(stop{m.limitError(m.far, fmt.Sprintf("over %d steps (%d a byte of the program), reading as far as here: the grammar is too ambiguous for a program this size", m.budget, stepsPerByte))})
	}
}

// grew counts n more bytes of memo, and stops the parse when the memo
// would take more than its limit.
func (m *matcher) grew(n int64) {
	m.memoSize += n
	if m.memoSize > m.memoMax {
		panic(stop{m.limitError(m.far, fmt.Sprintf("over %d MiB of memo (%d bytes a byte of the program), reading as far as here: the grammar is too ambiguous for a program this size", m.memoMax>>20, memoPerByte))})
	}
}

// limitError is the error of a parse stopped by a limit, at off.
func (m *matcher) limitError(off int, why string) error {
	line, col := syntax.Position(m.src, off)
	return &syntax.Error{Line: line, Col: col, Msg: "cannot parse with " + m.p.lang + ": " + why}
}

// Parse parses src with the grammar's start rule and returns its tree. The
// whole of src must match (white space and comments may surround it). A
// program that does not parse gives a *syntax.Error at the farthest offset
// any alternative reached, listing what was expected there. A parse that
// takes more work or memory than the limits allow (an ambiguous grammar)
// gives a *syntax.Error that says so.
func (p *Parser) Parse(name string, src []byte) (*syntax.Tree, error) {
	return p.ParseContext(context.Background(), name, src)
}

// ParseContext is Parse that stops, with ctx's error, when ctx is done: it
// implements syntax.ContextParser.
func (p *Parser) ParseContext(ctx context.Context, name string, src []byte) (*syntax.Tree, error) {
	return p.parse(ctx, name, src, []*pinst{p.start})
}

// ParseAs reads src as one node of the rule named kind (a member of a
// list, such as a declaration a mutation inserts), with white space and
// comments around it: it implements syntax.FragmentParser. A rule the
// start rule does not reach, or none of that name, is an error.
func (p *Parser) ParseAs(name, kind string, src []byte) (*syntax.Tree, error) {
	var insts []*pinst
	for _, in := range p.insts {
		if in.name == kind {
			insts = append(insts, in)
		}
	}
	if len(insts) == 0 {
		return nil, &syntax.Error{Name: name, Line: 1, Col: 1, Msg: "no rule " + kind + " in " + p.lang}
	}
	return p.parse(context.Background(), name, src, insts)
}

// pruneCalls turns the pruning of calls off, for the test that it changes
// no tree and no message.
var pruneCalls = true

func (p *Parser) newMatcher(ctx context.Context, src []byte) *matcher {
	n := int64(len(src)) + 1
	m := &matcher{p: p, src: src, active: map[uint64]int{}, skips: make([]int32, len(src)+1),
		expected: map[string]bool{}, ctx: ctx, prune: pruneCalls,
		budget: stepsPerByte*n + baseSteps, memoMax: memoPerByte*n + baseMemo}
	m.ident = make([]int32, len(src)+1)
	for i := range m.ident {
		m.ident[i] = int32(i)
	}
	m.memo.init(len(src)/4 + 64)
	m.memoSize = int64(12 * len(m.memo.keys))
	m.low = 1 << 30
	return m
}

// parse reads src as one of the rule instances insts.
func (p *Parser) parse(ctx context.Context, name string, src []byte, insts []*pinst) (t *syntax.Tree, err error) {
	if len(src) > MaxParseSize {
		return nil, &syntax.Error{Name: name, Line: 1, Col: 1, Msg: fmt.Sprintf("cannot parse with %s: the program is over %d bytes", p.lang, MaxParseSize)}
	}
	return p.parseWith(p.newMatcher(ctx, src), name, insts)
}

// parseWith is parse with the matcher m (of the program to read).
func (p *Parser) parseWith(m *matcher, name string, insts []*pinst) (t *syntax.Tree, err error) {
	src := m.src
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		s, ok := r.(stop)
		if !ok {
			panic(r)
		}
		t, err = nil, s.err
		if se, ok := err.(*syntax.Error); ok {
			se.Name = name
		}
	}()
	calls := make([]*pnode, len(insts))
	for i, in := range insts {
		calls[i] = &pnode{kind: pCall, inst: in}
	}
	start := calls[0]
	if len(calls) > 1 {
		start = &pnode{kind: pAlt, items: calls}
	}
	root := &pnode{kind: pSeq, items: []*pnode{start, skipNode}}
	ends := m.ends(root, 0)
	if len(ends) == 0 || int(ends[len(ends)-1]) != len(src) {
		if len(ends) > 0 && int(ends[len(ends)-1]) >= m.far {
			m.far = int(ends[len(ends)-1])
			clear(m.expected)
			m.expected["end of file"] = true
		}
		line, col := syntax.Position(src, m.far)
		return nil, &syntax.Error{Name: name, Line: line, Col: col, Msg: m.expectedMsg()}
	}
	b := newBuilder(m)
	var top []*syntax.Node
	b.build(root, 0, len(src), &top)
	rootNode := top[0]
	rootNode.Children = append(rootNode.Children, top[1:]...) // trailing comments
	rootNode.Start, rootNode.End = 0, len(src)
	attachComments(rootNode, true)
	syntax.LinkParents(rootNode)
	return &syntax.Tree{Name: name, Lang: p.lang, Src: src, Root: rootNode}, nil
}

func (m *matcher) expectedMsg() string {
	var want []string
	for w := range m.expected {
		want = append(want, w)
	}
	sort.Strings(want)
	if len(want) > 12 {
		want = append(want[:12], "…")
	}
	msg := "expected "
	switch len(want) {
	case 0:
		msg += "nothing more"
	case 1:
		msg += want[0]
	default:
		msg += strings.Join(want[:len(want)-1], ", ") + " or " + want[len(want)-1]
	}
	return msg + ", found " + m.found(m.far)
}

// found describes the text at off: a word, one other character, or the end.
func (m *matcher) found(off int) string {
	if off >= len(m.src) {
		return "end of file"
	}
	j := off
	for j < len(m.src) && j-off < 24 && isWord(m.src[j]) {
		j++
	}
	if j == off {
		j = off + 1
	}
	return strconv.Quote(string(m.src[off:j]))
}

// one is the end set of the one offset e.
func (m *matcher) one(e int) []int32 { return m.ident[e : e+1 : e+1] }

// encode stores an end set for the memo: -1 for none, the offset of a set
// of one, else -2 less its index in m.sets (a copy).
func (m *matcher) encode(ends []int32) int32 {
	switch len(ends) {
	case 0:
		return -1
	case 1:
		return ends[0]
	}
	m.grew(int64(4*len(ends) + 40))
	m.sets = append(m.sets, append([]int32(nil), ends...))
	return int32(-2 - (len(m.sets) - 1))
}

func (m *matcher) decode(v int32) []int32 {
	switch {
	case v == -1:
		return nil
	case v >= 0:
		return m.one(int(v))
	}
	return m.sets[-2-v]
}

// ends returns the sorted offsets at which n, started at off, can end.
// The slice is shared: callers do not change it.
func (m *matcher) ends(n *pnode, off int) []int32 {
	m.step(1)
	src := m.src
	switch n.kind {
	case pEmpty:
		return m.one(off)
	case pText:
		if bytes.HasPrefix(src[off:], []byte(n.text)) {
			return m.one(off + len(n.text))
		}
		m.fail(off, n.what)
		return nil
	case pClass:
		if off < len(src) && n.set[src[off]] {
			return m.one(off + 1)
		}
		m.fail(off, n.what)
		return nil
	case pSkip:
		return m.skip(off)
	case pWS:
		lines := strings.Contains(n.text, "\n")
		e := off
		for e < len(src) && isSpace(src[e]) && (lines || src[e] == ' ' || src[e] == '\t') {
			e++
		}
		return m.one(e)
	case pName:
		if n.inst != nil {
			r := m.rule(n.inst, off)
			if len(r) == 0 {
				m.fail(off, "a name")
			}
			return r
		}
		e := off
		if e < len(src) && (isWord(src[e]) && !isDigit(int(src[e]))) {
			for e < len(src) && isWord(src[e]) {
				e++
			}
			return m.one(e)
		}
		m.fail(off, "a name")
		return nil
	case pSeq:
		return m.seqEnds(n.items, off)
	case pAlt:
		var out []int32
		for _, a := range n.items {
			out = m.union(out, m.ends(a, off))
		}
		return out
	case pRep:
		return m.repEnds(n, off, nil)
	case pCall:
		return m.rule(n.inst, off)
	}
	return nil
}

// seqEnds returns the ends of a sequence of items.
func (m *matcher) seqEnds(items []*pnode, off int) []int32 {
	cur := m.one(off)
	for _, it := range items {
		var next []int32
		if len(cur) == 1 {
			next = m.ends(it, int(cur[0]))
		} else {
			for _, c := range cur {
				es := m.ends(it, int(c))
				m.step(len(es))
				next = append(next, es...)
			}
			next = m.sortedSet(next)
		}
		if len(next) == 0 {
			return nil
		}
		cur = next
	}
	return cur
}

// layer is what one more item of a repetition reached: each end, sorted,
// and the end of the items before it that it was first reached from.
type layer struct {
	ends, from []int32
}

// repEnds returns the ends of a repetition, memoised. With layers non-nil
// it also records, per count of items, where each end was first reached
// from, for the tree builder.
func (m *matcher) repEnds(n *pnode, off int, layers *[]layer) []int32 {
	key := uint64(n.id)<<32 | uint64(off)
	if layers == nil {
		if v, ok := m.memo.get(key); ok {
			return m.decode(v)
		}
	}
	from := m.steps
	cur := m.one(off)
	if layers != nil {
		*layers = append(*layers, layer{ends: []int32{int32(off)}, from: []int32{-1}})
	}
	var out []int32
	for range n.min {
		if cur = m.repStep(n, cur, layers); len(cur) == 0 {
			break
		}
	}
	if len(cur) > 0 {
		// out holds the ends so far (shared with cur until it grows);
		// without a maximum it is kept sorted, and a repetition reads
		// further only from ends it has not read from.
		out = cur
		owned := false
		for count := n.min; n.max < 0 || count < n.max; count++ {
			next := m.repStep(n, cur, layers)
			if len(next) == 0 {
				break
			}
			if !owned {
				out = append(make([]int32, 0, len(out)+len(next)), out...)
				owned = true
			}
			if n.max >= 0 {
				out = append(out, next...)
				cur = next
				continue
			}
			var fresh []int32
			if len(next) == 1 && next[0] > out[len(out)-1] {
				fresh = next // (the usual case: one more item, further on)
				out = append(out, next[0])
			} else {
				m.step(len(next))
				for _, c := range next {
					if !contains(out, c) {
						fresh = append(fresh, c)
						out = m.insertSorted(out, c)
					}
				}
			}
			if layers != nil {
				last := &(*layers)[len(*layers)-1]
				*last = keepEnds(*last, fresh)
			}
			if cur = fresh; len(cur) == 0 {
				break
			}
		}
		if owned && n.max >= 0 {
			out = m.sortedSet(out)
		}
	}
	if layers == nil && m.steps-from >= memoSteps {
		v := m.encode(out)
		m.memoPut(key, v)
		out = m.decode(v)
	}
	return out
}

// repStep reads one more item of the repetition n from every end of cur;
// with layers to record, it keeps the first end each new end was reached
// from.
func (m *matcher) repStep(n *pnode, cur []int32, layers *[]layer) []int32 {
	m.step(len(cur))
	if len(cur) == 1 && layers == nil {
		return m.ends(n.item, int(cur[0]))
	}
	var next, from []int32
	for _, c := range cur {
		es := m.ends(n.item, int(c))
		m.step(len(es))
		next = append(next, es...)
		if layers != nil {
			for range es {
				from = append(from, c)
			}
		}
	}
	if layers != nil {
		m.step(len(next))
		l := firstFrom(next, from)
		*layers = append(*layers, l)
		return l.ends
	}
	return m.sortedSet(next)
}

// firstFrom sorts the ends and keeps each once, with the first end it was
// reached from.
func firstFrom(ends, from []int32) layer {
	idx := make([]int, len(ends))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return ends[idx[a]] < ends[idx[b]] })
	var l layer
	for _, i := range idx {
		if k := len(l.ends); k > 0 && l.ends[k-1] == ends[i] {
			continue
		}
		l.ends = append(l.ends, ends[i])
		l.from = append(l.from, from[i])
	}
	return l
}

// keepEnds keeps in l only the ends in keep (sorted).
func keepEnds(l layer, keep []int32) layer {
	var out layer
	for i, e := range l.ends {
		if contains(keep, e) {
			out.ends = append(out.ends, e)
			out.from = append(out.from, l.from[i])
		}
	}
	return out
}

// insertSorted inserts x into the sorted set s, counting the work; x is
// usually past its end (a repetition reads on), which costs nothing more
// than an append.
func (m *matcher) insertSorted(s []int32, x int32) []int32 {
	i := len(s)
	if i > 0 && s[i-1] > x {
		i = sort.Search(len(s), func(k int) bool { return s[k] >= x })
		m.step(len(s) - i)
	}
	s = append(s, 0)
	copy(s[i+1:], s[i:])
	s[i] = x
	return s
}

// sortedSet sorts s and drops duplicates, in place, counting the work.
func (m *matcher) sortedSet(s []int32) []int32 {
	m.step(len(s))
	return sortedSet(s)
}

// union merges two sorted sets, counting the work.
func (m *matcher) union(a, b []int32) []int32 {
	if len(a) > 0 && len(b) > 0 {
		m.step(len(a) + len(b))
	}
	return union(a, b)
}

// sortedSet sorts s and drops duplicates, in place.
func sortedSet(s []int32) []int32 {
	sorted := true
	for i := 1; i < len(s) && sorted; i++ {
		sorted = s[i-1] < s[i]
	}
	if sorted {
		return s
	}
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	out := s[:1]
	for _, x := range s[1:] {
		if x != out[len(out)-1] {
			out = append(out, x)
		}
	}
	return out
}

// rule returns the memoised ends of a rule instance at off.
func (m *matcher) rule(in *pinst, off int) []int32 {
	key := uint64(in.id)<<32 | uint64(off)
	if v, ok := m.memo.get(key); ok {
		return m.decode(v)
	}
	if i, ok := m.active[key]; ok {
		e := &m.stack[i]
		e.recursed = true
		m.low = min(m.low, e.depth)
		return e.ends
	}
	if m.prune && in.lead && m.pruned(in, off) {
		return nil
	}
	if m.depth >= maxDepth {
		panic(stop{m.limitError(off, fmt.Sprintf("rules nest deeper than %d here", maxDepth))})
	}
	i := len(m.stack)
	m.stack = append(m.stack, memoEntry{depth: m.depth})
	m.active[key] = i
	from := m.steps
	m.depth++
	outerLow := m.low
	m.low = 1 << 30
	for {
		m.stack[i].recursed = false
		body := m.ends(in.body, off)
		e := &m.stack[i] // (the stack may have grown)
		got := m.union(e.ends, body)
		grew := len(got) > len(e.ends)
		e.ends = got
		if !e.recursed || !grew {
			break
		}
	}
	m.depth--
	e := m.stack[i]
	m.stack = m.stack[:i]
	delete(m.active, key)
	if in.token && len(e.ends) > 1 {
		e.ends = e.ends[len(e.ends)-1:] // a token is the longest match
	}
	switch {
	case m.low < e.depth:
		// It read an unfinished entry further out: recompute it later.
		outerLow = min(outerLow, m.low)
	case m.steps-from < memoSteps:
		// Cheaper to compute again than to keep.
	default:
		v := m.encode(e.ends)
		m.memoPut(key, v)
		e.ends = m.decode(v)
	}
	m.low = outerLow
	return e.ends
}

// pruned reports whether the rule instance in, whose every alternative
// starts by skipping white space and comments (in.lead), cannot match at
// off: the text after that skip starts with none of the bytes a match of
// in can start with, and in cannot match empty. It then records what
// reading in would have expected there (in.whats), so that a program that
// does not parse gets the same message: past one skip that reads no
// comment, each white space skip inside in reads nothing, and every item
// that in could start with is tried there and fails.
func (m *matcher) pruned(in *pinst, off int) bool {
	s := m.skip(off)
	if len(s) == 0 {
		return true // the skip that starts every alternative fails
	}
	if len(s) > 1 || in.nullable {
		return false
	}
	e := int(s[0])
	src := m.src
	if e < len(src) && (in.first.has(src[e]) || e > off && isWord(src[e-1]) && isWord(src[e])) {
		return false
	}
	if e < m.far {
		return true
	}
	for _, w := range in.whats {
		m.fail(e, w)
	}
	return true
}

// skip returns the ends of the white space and comments at off: after
// all of them, and before each comment, so that a grammar that spells a
// comment out can still read it. No end may join two words.
func (m *matcher) skip(off int) []int32 {
	// m.skips[off]: 0 not computed, -1 none, v > 0 the one end v-1, v < -1
	// the set -2-v.
	switch v := m.skips[off]; {
	case v > 0:
		return m.one(int(v - 1))
	case v == -1:
		return nil
	case v < -1:
		return m.sets[-2-v]
	}
	src := m.src
	var ends []int32
	add := func(e int) {
		if e == off && off > 0 && off < len(src) && isWord(src[off-1]) && isWord(src[off]) {
			m.fail(off, "white space")
			return // two words need white space between them
		}
		ends = append(ends, int32(e))
	}
	e := off
	for e < len(src) {
		if isSpace(src[e]) {
			e++
			continue
		}
		c := m.commentEnd(e)
		if c < 0 {
			break
		}
		add(e)
		e = c
	}
	add(e)
	switch len(ends) {
	case 0:
		m.skips[off] = -1
	case 1:
		m.skips[off] = ends[0] + 1
	default:
		v := m.encode(ends)
		m.skips[off] = v
		return m.decode(v)
	}
	return ends
}

// commentEnd returns the end of the comment at off, or -1. A comment whose
// closing text is a newline ends before it; a block comment without its
// closing text is no comment.
func (m *matcher) commentEnd(off int) int {
	src := m.src
	for _, d := range m.p.comments {
		if !bytes.HasPrefix(src[off:], []byte(d[0])) {
			continue
		}
		rest := src[off+len(d[0]):]
		i := bytes.Index(rest, []byte(d[1]))
		switch {
		case d[1] == "\n" && i < 0:
			return len(src)
		case d[1] == "\n":
			e := off + len(d[0]) + i
			if e > off+len(d[0]) && src[e-1] == '\r' {
				e-- // a CRLF line ending is not part of the comment
			}
			return e
		case i < 0:
			continue
		}
		return off + len(d[0]) + i + len(d[1])
	}
	return -1
}

// union merges two sorted sets. It returns a or b themselves when the
// other adds nothing.
func union(a, b []int32) []int32 {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	if len(a) == 1 && len(b) == 1 {
		switch {
		case a[0] == b[0]:
			return a
		case a[0] < b[0]:
			return []int32{a[0], b[0]}
		}
		return []int32{b[0], a[0]}
	}
	if a[len(a)-1] < b[0] {
		return append(append(make([]int32, 0, len(a)+len(b)), a...), b...)
	}
	out := make([]int32, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			out = append(out, a[i])
			i++
			j++
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		default:
			out = append(out, b[j])
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

func contains(s []int32, x int32) bool {
	i := sort.Search(len(s), func(k int) bool { return s[k] >= x })
	return i < len(s) && s[i] == x
}

// memoPut memoises an entry, counting the memory of a table that grows.
func (m *matcher) memoPut(key uint64, v int32) {
	before := len(m.memo.keys)
	m.memo.put(key, v)
	if n := len(m.memo.keys); n != before {
		m.grew(int64(12 * (n - before)))
	}
}

// memoTable maps a key (the id of a rule instance or repetition, and an
// offset) to an encoded end set: open addressing, linear probing, 12 bytes
// a slot, at most 3/4 full.
type memoTable struct {
	keys  []uint64 // the key+1 of each slot; 0 is a free slot
	vals  []int32
	n     int
	shift uint
}

func (t *memoTable) init(hint int) {
	size := 64
	for size*3/4 < hint {
		size *= 2
	}
	t.keys, t.vals, t.n = make([]uint64, size), make([]int32, size), 0
	t.shift = 64
	for s := size; s > 1; s >>= 1 {
		t.shift--
	}
}

func (t *memoTable) slot(k uint64) int {
	return int((k * 0x9E3779B97F4A7C15) >> t.shift)
}

func (t *memoTable) get(k uint64) (int32, bool) {
	k++
	mask := len(t.keys) - 1
	for i := t.slot(k); ; i = (i + 1) & mask {
		switch t.keys[i] {
		case k:
			return t.vals[i], true
		case 0:
			return 0, false
		}
	}
}

func (t *memoTable) put(k uint64, v int32) {
	if (t.n+1)*4 > len(t.keys)*3 {
		t.grow()
	}
	k++
	mask := len(t.keys) - 1
	for i := t.slot(k); ; i = (i + 1) & mask {
		switch t.keys[i] {
		case k:
			t.vals[i] = v
			return
		case 0:
			t.keys[i], t.vals[i] = k, v
			t.n++
			return
		}
	}
}

func (t *memoTable) grow() {
	keys, vals := t.keys, t.vals
	t.init(len(keys)) // twice the slots: init keeps a table at most 3/4 full
	for len(t.keys) <= len(keys) {
		t.init(len(t.keys))
	}
	for i, k := range keys {
		if k != 0 {
			t.put(k-1, vals[i])
		}
	}
}
