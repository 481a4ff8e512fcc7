package grammar

import (
	"slices"

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

type builder struct{ m *matcher }

// CommentKind is the kind of the nodes of comments (%comment).
const CommentKind = "comment"

func (b *builder) build(n *pnode, i, j int, out *[]*syntax.Node) {
	m := b.m
	switch n.kind {
	case pText:
		*out = append(*out, &syntax.Node{Kind: n.text, Start: i, End: j})
	case pClass:
		*out = append(*out, &syntax.Node{Kind: string(m.src[i:j]), Start: i, End: j})
	case pSkip:
		b.comments(i, j, out)
	case pName:
		*out = append(*out, &syntax.Node{Kind: n.nodeKind, Field: n.field, Named: true, Start: i, End: j})
	case pSeq:
		b.seq(n.items, i, j, out)
	case pAlt:
		for _, a := range n.items {
			if contains(m.ends(a, i), j) {
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
	nd := &syntax.Node{Kind: in.name, Named: true, Start: i, End: i}
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
	b.build(in.body, i, j, &nd.Children)
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
		*out = append(*out, &syntax.Node{Kind: CommentKind, Named: true, Start: e, End: c})
		e = c
	}
}

func (b *builder) seq(items []*pnode, i, j int, out *[]*syntax.Node) {
	m := b.m
	for len(items) > 1 {
		es := m.ends(items[0], i)
		k := len(es) - 1
		for ; k >= 0; k-- {
			if es[k] <= j && contains(m.seqEnds(items[1:], es[k]), j) {
				break
			}
		}
		if k < 0 {
			return // cannot happen: the recogniser found a match
		}
		b.build(items[0], i, es[k], out)
		items, i = items[1:], es[k]
	}
	if len(items) == 1 {
		b.build(items[0], i, j, out)
	}
}

func (b *builder) rep(n *pnode, i, j int, out *[]*syntax.Node) {
	if n.most {
		if path := b.most(n, i, j); len(path)-1 >= n.min {
			for c := 1; c < len(path); c++ {
				b.build(n.item, path[c-1], path[c], out)
			}
			return
		}
	}
	var layers []map[int]int
	b.m.repEnds(n, i, &layers)
	k := n.min
	for ; k < len(layers); k++ {
		if _, ok := layers[k][j]; ok {
			break
		}
	}
	if k == len(layers) {
		return // cannot happen
	}
	path := make([]int, k+1)
	path[k] = j
	for c := k; c > 0; c-- {
		path[c-1] = layers[c][path[c]]
	}
	for c := 1; c <= k; c++ {
		b.build(n.item, path[c-1], path[c], out)
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
func (b *builder) most(n *pnode, i, j int) []int {
	m := b.m
	// the offsets the items reach from i, up to j
	reach := map[int][]int{} // offset -> ends of an item there, in (i, j]
	todo := []int{i}
	for len(todo) > 0 {
		c := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if _, ok := reach[c]; ok {
			continue
		}
		var es []int
		for _, e := range m.ends(n.item, c) {
			if e > c && e <= j {
				es = append(es, e)
				todo = append(todo, e)
			}
		}
		slices.Sort(es)
		reach[c] = es
	}
	offs := make([]int, 0, len(reach))
	for c := range reach {
		offs = append(offs, c)
	}
	slices.Sort(offs)
	// best[c]: the most items from c to j, -1 where j cannot be reached
	best := map[int]int{j: 0}
	for k := len(offs) - 1; k >= 0; k-- {
		c := offs[k]
		if c == j {
			continue
		}
		bc := -1
		for _, e := range reach[c] {
			if be, ok := best[e]; ok && be >= 0 && be+1 > bc {
				bc = be + 1
			}
		}
		best[c] = bc
	}
	if best[i] <= 0 && i != j {
		return nil
	}
	path := []int{i}
	for c := i; c != j; {
		next := -1
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
