package grammar

import (
	"fmt"
	"slices"
	"sort"

	"github.com/mcpt-tool/mcpt/syntax"
)

// The builder turns a recognised program into one tree. Where the grammar
// is ambiguous it chooses, deterministically: the first alternative in
// grammar order that spans the text; in a sequence, the longest match of
// each item that lets the rest end in place; in a repetition, the fewest
// items (the first path found, items tried from the left), or with
// %repetitions most, in one without a maximum, the most items, none empty,
// each the shortest that lets the rest end in place (two statements on two
// lines are two items, not one item of two statements).

type builder struct {
	m *matcher
	// nodes and kids are slabs the tree's nodes and children lists are
	// cut from: a node of its own and a list grown by append would take
	// a sixth and up to half more.
	nodes []syntax.Node
	kids  []*syntax.Node
}

func newBuilder(m *matcher) *builder { return &builder{m: m} }

// node returns a new node.
func (b *builder) node(n syntax.Node) *syntax.Node {
	if len(b.nodes) == cap(b.nodes) {
		b.nodes = make([]syntax.Node, 0, 1024)
	}
	b.nodes = append(b.nodes, n)
	return &b.nodes[len(b.nodes)-1]
}

// children returns a copy of the list, cut from a slab.
func (b *builder) children(list []*syntax.Node) []*syntax.Node {
	if len(list) == 0 {
		return nil
	}
	if len(list) > 256 {
		return append([]*syntax.Node(nil), list...)
	}
	if cap(b.kids)-len(b.kids) < len(list) {
		b.kids = make([]*syntax.Node, 0, 4096)
	}
	k := len(b.kids)
	b.kids = append(b.kids, list...)
	return b.kids[k:len(b.kids):len(b.kids)]
}

// CommentKind is the kind of the nodes of comments (%comment).
const CommentKind = "comment"

func (b *builder) build(n *pnode, i, j int, out *[]*syntax.Node) {
	m := b.m
	switch n.kind {
	case pText:
		*out = append(*out, b.node(syntax.Node{Kind: n.text, Start: i, End: j}))
	case pClass:
		*out = append(*out, b.node(syntax.Node{Kind: string(m.src[i:j]), Start: i, End: j}))
	case pSkip:
		b.comments(i, j, out)
	case pName:
		*out = append(*out, b.node(syntax.Node{Kind: n.nodeKind, Field: n.field, Named: true, Start: i, End: j}))
	case pSeq:
		b.seq(n.items, i, j, out)
	case pAlt:
		for _, a := range n.items {
			if contains(m.ends(a, i), int32(j)) {
				b.build(a, i, j, out)
				return
			}
		}
	case pRep:
		b.rep(n, i, j, out)
	case pCall:
		*out = append(*out, b.call(n.inst, i, j))
	}
}

func (b *builder) call(in *pinst, i, j int) *syntax.Node {
	nd := b.node(syntax.Node{Kind: in.name, Named: true, Start: i, End: i})
	if in.token {
		s, e := i, j
		for s < e && isSpace(b.m.src[s]) {
			s++
		}
		for e > s && isSpace(b.m.src[e-1]) {
			e--
		}
		nd.Start, nd.End = s, e
		return nd
	}
	if b.m.depth >= maxDepth {
		panic(stop{b.m.limitError(i, fmt.Sprintf("rules nest deeper than %d here", maxDepth))})
	}
	b.m.depth++
	var kids []*syntax.Node
	b.build(in.body, i, j, &kids)
	b.m.depth--
	nd.Children = b.children(kids)
	if len(nd.Children) > 0 {
		nd.Start, nd.End = nd.Children[0].Start, nd.Children[0].End
		for _, c := range nd.Children[1:] {
			nd.Start, nd.End = min(nd.Start, c.Start), max(nd.End, c.End)
		}
	}
	return nd
}

func (b *builder) comments(i, j int, out *[]*syntax.Node) {
	for e := i; e < j; {
		if isSpace(b.m.src[e]) {
			e++
			continue
		}
		c := b.m.commentEnd(e)
		if c < 0 || c > j {
			return
		}
		*out = append(*out, b.node(syntax.Node{Kind: CommentKind, Named: true, Start: e, End: c}))
		e = c
	}
}

func (b *builder) seq(items []*pnode, i, j int, out *[]*syntax.Node) {
	m := b.m
	for len(items) > 1 {
		es := m.ends(items[0], i)
		k := len(es) - 1
		for ; k >= 0; k-- {
			if int(es[k]) <= j && contains(m.seqEnds(items[1:], int(es[k])), int32(j)) {
				break
			}
		}
		if k < 0 {
			return // cannot happen: the recogniser found a match
		}
		e := int(es[k])
		b.build(items[0], i, e, out)
		items, i = items[1:], e
	}
	if len(items) == 1 {
		b.build(items[0], i, j, out)
	}
}

func (b *builder) rep(n *pnode, i, j int, out *[]*syntax.Node) {
	if n.most {
		if path := b.most(n, i, j); len(path)-1 >= n.min {
			for c := 1; c < len(path); c++ {
				b.build(n.item, int(path[c-1]), int(path[c]), out)
			}
			return
		}
	}
	var layers []layer
	b.m.repEnds(n, i, &layers)
	k := n.min
	for ; k < len(layers); k++ {
		if contains(layers[k].ends, int32(j)) {
			break
		}
	}
	if k == len(layers) {
		return // cannot happen
	}
	path := make([]int32, k+1)
	path[k] = int32(j)
	for c := k; c > 0; c-- {
		l := layers[c]
		path[c-1] = l.from[sort.Search(len(l.ends), func(x int) bool { return l.ends[x] >= path[c] })]
	}
	layers = nil
	for c := 1; c <= k; c++ {
		b.build(n.item, int(path[c-1]), int(path[c]), out)
	}
}

// attachComments moves each comment to the next named, non-empty node of
// its list (as that node's first children), so that comments and doc
// comments belong to the declaration that follows them. Comments that
// open a node's children (before its first other child) already belong to
// it and stay; so do comments that nothing named follows.
func attachComments(n *syntax.Node, root bool) {
	var out, pending []*syntax.Node
	lead := !root // every node but the root keeps its leading comments
	for _, c := range n.Children {
		if c.Kind == CommentKind && c.Named {
			if lead {
				out = append(out, c)
			} else {
				pending = append(pending, c)
			}
			continue
		}
		lead = false
		switch {
		case len(pending) == 0:
		case c.Named && c.End > c.Start:
			c.Children = append(pending, c.Children...)
			c.Start = pending[0].Start
			pending = nil
		default:
			out = append(out, pending...)
			pending = nil
		}
		out = append(out, c)
	}
	out = append(out, pending...)
	n.Children = out
	for _, c := range n.Children {
		if c.Kind != CommentKind {
			attachComments(c, false)
		}
	}
}

// most is the path of offsets from i to j through the most non-empty
// items of the repetition n, each item the shortest that lets the rest
// reach j; nil when no such path exists.
func (b *builder) most(n *pnode, i, j int) []int32 {
	m := b.m
	// the offsets the items reach from i, up to j, each with the ends of
	// an item there, in (off, j]
	var offs []int32
	reach := map[int32][]int32{}
	todo := []int32{int32(i)}
	for len(todo) > 0 {
		c := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if _, ok := reach[c]; ok {
			continue
		}
		var es []int32
		for _, e := range m.ends(n.item, int(c)) {
			if e > c && int(e) <= j {
				es = append(es, e)
				todo = append(todo, e)
			}
		}
		reach[c] = es // (sorted, as every end set)
		offs = append(offs, c)
	}
	slices.Sort(offs)
	// best[c]: the most items from c to j, -1 where j cannot be reached
	best := make(map[int32]int32, len(offs)+1)
	best[int32(j)] = 0
	for k := len(offs) - 1; k >= 0; k-- {
		c := offs[k]
		if int(c) == j {
			continue
		}
		bc := int32(-1)
		for _, e := range reach[c] {
			if be, ok := best[e]; ok && be >= 0 && be+1 > bc {
				bc = be + 1
			}
		}
		best[c] = bc
	}
	if best[int32(i)] <= 0 && i != j {
		return nil
	}
	path := []int32{int32(i)}
	for c := int32(i); int(c) != j; {
		next := int32(-1)
		for _, e := range reach[c] { // (sorted: the shortest item first)
			if be, ok := best[e]; ok && be == best[c]-1 {
				next = e
				break
			}
		}
		if next < 0 {
			return nil
		}
		path = append(path, next)
		c = next
	}
	return path
}
