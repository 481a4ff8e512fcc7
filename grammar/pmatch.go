package grammar

import (
	"bytes"
	"sort"
	"strconv"
	"strings"

	"github.com/mcpt-tool/mcpt/syntax"
)

// The recogniser computes, for a parsing expression and a start offset, the
// set of offsets at which a match can end (a sorted slice). It follows every
// alternative, so ambiguity costs no backtracking: the end sets of rule
// instances are memoised per offset, as a packrat parser does, which keeps
// the work near linear on the grammars of real languages. A rule that calls
// itself at the same offset (left recursion, direct or not) is computed as
// a fixed point: its end set starts empty and is recomputed until it stops
// growing; entries that depended on an unfinished one are not memoised, so
// they are recomputed with its final value.

type memoEntry struct {
	ends     []int
	depth    int
	done     bool
	recursed bool
}

type matcher struct {
	p     *Parser
	src   []byte
	memo  map[uint64]*memoEntry
	reps  map[repKey][]int
	skips [][]int // ends of the white space and comments at each offset (nil: not computed)
	depth int
	low   int // the shallowest unfinished entry read since the innermost rule began

	far      int
	expected map[string]bool
}

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

// Parse parses src with the grammar's start rule and returns its tree. The
// whole of src must match (white space and comments may surround it). A
// program that does not parse gives a *syntax.Error at the farthest offset
// any alternative reached, listing what was expected there.
func (p *Parser) Parse(name string, src []byte) (*syntax.Tree, error) {
	return p.parse(name, src, []*pinst{p.start})
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
	return p.parse(name, src, insts)
}

// parse reads src as one of the rule instances insts.
func (p *Parser) parse(name string, src []byte, insts []*pinst) (*syntax.Tree, error) {
	m := &matcher{p: p, src: src, memo: map[uint64]*memoEntry{}, reps: map[repKey][]int{}, skips: make([][]int, len(src)+1),
		expected: map[string]bool{}}
	m.low = 1 << 30
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
	if len(ends) == 0 || ends[len(ends)-1] != len(src) {
		if len(ends) > 0 && ends[len(ends)-1] >= m.far {
			m.far = ends[len(ends)-1]
			clear(m.expected)
			m.expected["end of file"] = true
		}
		line, col := syntax.Position(src, m.far)
		return nil, &syntax.Error{Name: name, Line: line, Col: col, Msg: m.expectedMsg()}
	}
	b := &builder{m: m}
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

// ends returns the sorted offsets at which n, started at off, can end.
func (m *matcher) ends(n *pnode, off int) []int {
	src := m.src
	switch n.kind {
	case pEmpty:
		return []int{off}
	case pText:
		if bytes.HasPrefix(src[off:], []byte(n.text)) {
			return []int{off + len(n.text)}
		}
		m.fail(off, n.what)
		return nil
	case pClass:
		if off < len(src) && n.set[src[off]] {
			return []int{off + 1}
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
		return []int{e}
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
			return []int{e}
		}
		m.fail(off, "a name")
		return nil
	case pSeq:
		return m.seqEnds(n.items, off)
	case pAlt:
		var out []int
		for _, a := range n.items {
			out = union(out, m.ends(a, off))
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
func (m *matcher) seqEnds(items []*pnode, off int) []int {
	cur := []int{off}
	for _, it := range items {
		var next []int
		if len(cur) == 1 {
			next = m.ends(it, cur[0])
		} else {
			for _, c := range cur {
				next = append(next, m.ends(it, c)...)
			}
			next = sortedSet(next)
		}
		if len(next) == 0 {
			return nil
		}
		cur = next
	}
	return cur
}

type repKey struct {
	n   *pnode
	off int
}

// repEnds returns the ends of a repetition, memoised. With layers non-nil
// it also records, per count of items, where each end was first reached
// from, for the tree builder.
func (m *matcher) repEnds(n *pnode, off int, layers *[]map[int]int) []int {
	if layers == nil {
		if r, ok := m.reps[repKey{n, off}]; ok {
			return r
		}
	}
	cur := []int{off}
	if layers != nil {
		*layers = append(*layers, map[int]int{off: -1})
	}
	step := func() bool {
		var next []int
		var pred map[int]int
		if layers != nil {
			pred = map[int]int{}
		}
		for _, c := range cur {
			for _, e := range m.ends(n.item, c) {
				if pred != nil {
					if _, ok := pred[e]; !ok {
						pred[e] = c
					}
				}
				next = append(next, e)
			}
		}
		cur = sortedSet(next)
		if layers != nil {
			*layers = append(*layers, pred)
		}
		return len(cur) > 0
	}
	done := func(out []int) []int {
		if layers == nil {
			m.reps[repKey{n, off}] = out
		}
		return out
	}
	for range n.min {
		if !step() {
			return done(nil)
		}
	}
	out := append([]int(nil), cur...)
	seen := map[int]bool{}
	for _, c := range cur {
		seen[c] = true
	}
	for count := n.min; n.max < 0 || count < n.max; count++ {
		if !step() {
			break
		}
		if n.max < 0 {
			var fresh []int
			for _, c := range cur {
				if !seen[c] {
					seen[c] = true
					fresh = append(fresh, c)
				}
			}
			cur = fresh
			if layers != nil {
				last := (*layers)[len(*layers)-1]
				for e := range last {
					if !seen[e] || !contains(cur, e) {
						delete(last, e)
					}
				}
			}
			if len(cur) == 0 {
				break
			}
		}
		out = append(out, cur...)
	}
	return done(sortedSet(out))
}

// sortedSet sorts s and drops duplicates, in place.
func sortedSet(s []int) []int {
	if len(s) < 2 {
		return s
	}
	sort.Ints(s)
	out := s[:1]
	for _, x := range s[1:] {
		if x != out[len(out)-1] {
			out = append(out, x)
		}
	}
	return out
}

// rule returns the memoised ends of a rule instance at off.
func (m *matcher) rule(in *pinst, off int) []int {
	key := uint64(in.id)<<32 | uint64(off)
	if e := m.memo[key]; e != nil {
		if !e.done {
			e.recursed = true
			m.low = min(m.low, e.depth)
		}
		return e.ends
	}
	e := &memoEntry{depth: m.depth}
	m.memo[key] = e
	m.depth++
	outerLow := m.low
	m.low = 1 << 30
	for {
		e.recursed = false
		got := union(e.ends, m.ends(in.body, off))
		grew := len(got) > len(e.ends)
		e.ends = got
		if !e.recursed || !grew {
			break
		}
	}
	m.depth--
	if in.token && len(e.ends) > 1 {
		e.ends = e.ends[len(e.ends)-1:] // a token is the longest match
	}
	if m.low < e.depth {
		// It read an unfinished entry further out: recompute it later.
		delete(m.memo, key)
		outerLow = min(outerLow, m.low)
	} else {
		e.done = true
	}
	m.low = outerLow
	return e.ends
}

// skip returns the ends of the white space and comments at off: after
// all of them, and before each comment, so that a grammar that spells a
// comment out can still read it. No end may join two words.
func (m *matcher) skip(off int) []int {
	if s := m.skips[off]; s != nil {
		return s
	}
	src := m.src
	var ends []int
	add := func(e int) {
		if e == off && off > 0 && off < len(src) && isWord(src[off-1]) && isWord(src[off]) {
			m.fail(off, "white space")
			return // two words need white space between them
		}
		ends = append(ends, e)
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
	if ends == nil {
		ends = []int{}
	}
	m.skips[off] = ends
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

// union merges two sorted sets.
func union(a, b []int) []int {
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
			return []int{a[0], b[0]}
		}
		return []int{b[0], a[0]}
	}
	out := make([]int, 0, len(a)+len(b))
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

func contains(s []int, x int) bool {
	i := sort.SearchInts(s, x)
	return i < len(s) && s[i] == x
}
