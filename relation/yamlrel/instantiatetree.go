package yamlrel

// The instantiate pass, tree regions: the lists of the input's syntax
// tree that are instances of a region, and their members that are
// declarations of a kind.

import (
	"context"
	"slices"
	"strings"

	"github.com/mcpt-tool/mcpt/syntax"
)

// buildTree parses the input and adds the instances of the tree regions
// and their declarations to m.
func (ms *models) buildTree(ctx context.Context, m *model) {
	d := ms.d
	if ms.parser == nil {
		return
	}
	var t *syntax.Tree
	named := map[*syntax.Node]*syntax.Node{}
	for _, rname := range sortedKeys(d.regions) {
		r := d.regions[rname]
		if r.tree == nil {
			continue
		}
		if t == nil {
			var err error
			if t, err = syntax.ParseContext(ctx, ms.parser, "input", []byte(m.src)); err != nil {
				m.err = err
				return
			}
			m.tree = t
		}
		for _, l := range syntax.Lists(t, r.tree.spec) {
			if label, ok := r.tree.labels[l.Node.Kind]; ok {
				// (a list named after its node type keeps what follows
				// the type: `of Color`, the keyword of a run)
				l.Name = label + strings.TrimPrefix(l.Name, l.Node.Kind)
			}
			groups, ok := r.tree.instance(t.Src, l, named)
			if !ok {
				continue
			}
			inst := &regionInst{from: -1, to: len(m.lines), groups: groups, list: l}
			if l.Open != nil {
				inst.from, inst.to = lineIndex(m, l.Open.Start), lineIndex(m, l.Close.Start)
			}
			m.regions[rname] = append(m.regions[rname], inst)
			ms.treeItems(m, rname, inst)
		}
	}
}

// instance reports whether list l is an instance of the region, with the
// named groups of its header.
func (tr *treeRegion) instance(src []byte, l *syntax.List, named map[*syntax.Node]*syntax.Node) (map[string]string, bool) {
	for p := l.Node.Parent; p != nil && len(tr.outside) > 0; p = p.Parent {
		if slices.Contains(tr.outside, p.Kind) {
			return nil, false
		}
	}
	groups := map[string]string{"outer": outer(src, l, named)}
	h := header(src, l)
	if tr.except != nil && tr.except.MatchString(h) {
		return nil, false
	}
	if tr.header == nil {
		return groups, true
	}
	sm := tr.header.FindStringSubmatch(h)
	if sm == nil {
		return nil, false
	}
	for gi, gn := range tr.header.SubexpNames() {
		if gn != "" {
			groups[gn] = sm[gi]
		}
	}
	return groups, true
}

// outer names the declarations that hold the declaration of list l, the
// outermost first, joined by dots (`Schema.V1` for an interface in
// namespace V1 in namespace Schema): each ancestor node with a child in
// the field name. It is "" for a list at the top level.
func outer(src []byte, l *syntax.List, named map[*syntax.Node]*syntax.Node) string {
	var names []string
	p := l.Node.Parent
	if l.Open != nil && l.Open.Start > l.Node.Start {
		p = l.Node // a list of mcpt's grammar notation holds its declaration
	}
	for p = parentOf(p); p != nil; p = p.Parent {
		if c := nameChild(p, named); c != nil {
			names = append(names, c.Text(src))
		}
	}
	slices.Reverse(names)
	return strings.Join(names, ".")
}

// nameChild is n's first child in the field name, or nil, remembered in
// named: the lists of a seed share their ancestors, and the root holds
// all its declarations (looking through them for each list was quadratic).
func nameChild(n *syntax.Node, named map[*syntax.Node]*syntax.Node) *syntax.Node {
	if c, ok := named[n]; ok {
		return c
	}
	var found *syntax.Node
	for _, c := range n.Children {
		if c.Field == "name" {
			found = c
			break
		}
	}
	named[n] = found
	return found
}

func parentOf(n *syntax.Node) *syntax.Node {
	if n == nil {
		return nil
	}
	return n.Parent
}

// header is the text of the declaration that holds list l (with a
// wrapping export, where the grammar has one), from its start to the list,
// comments left out and white space collapsed: `export enum Color`,
// `class Box<T> extends Base`; a list of mcpt's grammar notation that
// holds its declaration (`enum Color : byte { … }`) has the text before its
// brace. A list that is the root has none.
func header(src []byte, l *syntax.List) string {
	p, start, end := l.Node.Parent, 0, l.Node.Start
	switch {
	case l.Open != nil && l.Open.Start > l.Node.Start:
		// a list of mcpt's grammar notation holds its declaration
		p, start, end = l.Node, l.Node.Start, l.Open.Start
	case p == nil:
		return ""
	default:
		start = p.Start
		if p.Field == "declaration" && p.Parent != nil {
			start = p.Parent.Start
		}
	}
	h := []byte(string(src[start:end]))
	syntax.Walk(p, func(n *syntax.Node) bool {
		if n.Kind == "comment" && n.Start >= start && n.End <= end {
			for i := n.Start; i < n.End; i++ {
				h[i-start] = ' '
			}
		}
		return n.Start < end
	})
	return collapse(string(h))
}

// treeItems adds the declarations of a tree region's instance: the members
// that a kind of the region takes (by node type) and matches (its pattern
// on the member's text, white space collapsed).
func (ms *models) treeItems(m *model, rname string, inst *regionInst) {
	d := ms.d
	src := inst.list.Tree.Src
	lists, decls := ms.declTypes()
	for mi, mem := range inst.list.Members {
		text := collapse(withoutComments(src, mem))
		for _, kn := range d.kindList {
			k := d.kinds[kn]
			if k.region != rname {
				continue
			}
			groups, names, ok := k.memberValues(src, mem, text, lists, decls)
			if !ok {
				continue
			}
			start, _ := mem.Span() // (its node may start at its comments)
			dc := &decl{kind: k, line: lineIndex(m, start), end: lineIndex(m, mem.Node.End), groups: groups, text: text, names: names, member: mem, name: groups["name"]}
			for _, c := range mem.Leading {
				dc.leading = append(dc.leading, c.Text(src))
			}
			inst.items = append(inst.items, dc)
			inst.member = append(inst.member, mi)
			m.decls[kn] = append(m.decls[kn], dc)
			break
		}
	}
}

// memberValues reads member mem of a tree region (text: its text, comments
// left out and white space collapsed) as a declaration of kind k: by its
// fields (fieldValues), or by k's node types and pattern. ok is false when
// mem is not of the kind.
func (k *kind) memberValues(src []byte, mem *syntax.Decl, text string, lists, decls map[string]bool) (groups map[string]string, names []string, ok bool) {
	if k.match == nil {
		return k.fieldValues(src, mem.Node, lists, decls)
	}
	if len(k.nodes) > 0 && !slices.Contains(k.nodes, mem.Node.Kind) {
		return nil, nil, false
	}
	idx := k.match.FindStringSubmatchIndex(text)
	if idx == nil {
		return nil, nil, false
	}
	groups = map[string]string{}
	for gi, gn := range k.match.SubexpNames() {
		if gn != "" && idx[2*gi] >= 0 {
			groups[gn] = text[idx[2*gi]:idx[2*gi+1]]
		}
	}
	if k.list != "" {
		names, _ = splitList(groups[k.list], 0, len(groups[k.list]), k.sep)
	}
	return groups, names, true
}

// withoutComments is the text of member d with the comments inside it
// (between the elements of a list) blanked.
func withoutComments(src []byte, d *syntax.Decl) string {
	start, end := d.Span()
	return blankComments(src, d.Node, start, end)
}

// blankComments is the text from start to end of the node n, with the
// comments n holds there blanked.
func blankComments(src []byte, n *syntax.Node, start, end int) string {
	text := []byte(string(src[start:end]))
	syntax.Walk(n, func(c *syntax.Node) bool {
		if c.Kind == "comment" && c.Start >= start && c.End <= end {
			for i := c.Start; i < c.End; i++ {
				text[i-start] = ' '
			}
		}
		return c.End > start && c.Start < end
	})
	return string(text)
}

// fieldValues reads a declaration of kind k (a kind with fields) from the
// member node n: n, or the first node inside it, must be of one of k's
// node types; each field is the text of the first node of its types
// inside that node (the list field: of every such node, joined by ", ",
// and those texts are names). The search for the declaration enters no
// list and no other declaration (lists and decls: the list types of the
// tree regions, the node types of the kinds); the search for a field no
// other declaration: a declaration nested in the member (a message in a
// message) is neither the member nor gives it attributes. ok is false when
// n is not of the kind or a field other than the list has no node.
func (k *kind) fieldValues(src []byte, n *syntax.Node, lists, decls map[string]bool) (groups map[string]string, names []string, ok bool) {
	var decl *syntax.Node
	syntax.Walk(n, func(c *syntax.Node) bool {
		if decl == nil && c.Named && c.Kind != "comment" && slices.Contains(k.nodes, c.Kind) {
			decl = c
		}
		return decl == nil && (c == n || !lists[c.Kind] && (!decls[c.Kind] || wrapper(c)))
	})
	if decl == nil {
		return nil, nil, false
	}
	groups = map[string]string{}
	for g, types := range k.fields {
		var texts []string
		syntax.Walk(decl, func(c *syntax.Node) bool {
			// (a declaration that is a name is its own name field)
			if (c != decl || syntax.OnlyComments(c)) && fieldType(c, types) {
				texts = append(texts, nodeText(src, c))
				return false
			}
			return (len(texts) == 0 || g == k.list) && (c == decl || !decls[c.Kind])
		})
		switch {
		case g == k.list:
			names = texts
			groups[g] = strings.Join(texts, ", ")
		case len(texts) == 0:
			return nil, nil, false
		default:
			groups[g] = texts[0]
		}
	}
	return groups, names, true
}

// wrapper reports whether node n only wraps another: it holds exactly one
// named child (comments aside) and no leaf, so that the declaration of a
// kind whose node type n has is not n itself but what it wraps (CLL's
// declaration around a variable, beside the declaration that holds a
// timer's name itself).
func wrapper(n *syntax.Node) bool {
	named := 0
	for _, c := range n.Children {
		switch {
		case c.Kind == "comment" || syntax.OnlyComments(c):
		case c.Named && len(c.Children) > 0:
			named++
		default:
			return false
		}
	}
	return named == 1
}

// declTypes are the list types of the tree regions and the node types of
// the kinds (see fieldValues), computed once.
func (ms *models) declTypes() (lists, decls map[string]bool) {
	d := ms.d
	ms.typesOnce.Do(func() {
		ms.lists, ms.decls = map[string]bool{}, map[string]bool{}
		for _, r := range d.regions {
			if r.tree != nil {
				for _, t := range r.tree.spec.Lists {
					ms.lists[t] = true
				}
			}
		}
		for _, k := range d.kinds {
			for _, t := range k.nodes {
				ms.decls[t] = true
			}
		}
	})
	return ms.lists, ms.decls
}

// fieldType reports whether node c is of one of the types of a field: a
// named node of that type, or for a quoted type ("String") a keyword, an
// anonymous node of that text.
func fieldType(c *syntax.Node, types []string) bool {
	for _, t := range types {
		if q := strings.Trim(t, `"`); len(q)+2 == len(t) && t[0] == '"' {
			if !c.Named && c.Kind == q {
				return true
			}
		} else if c.Named && c.Kind == t {
			return true
		}
	}
	return false
}

// nodeText is the text of n without the comments inside it (those a
// grammar attaches to a name), white space collapsed.
func nodeText(src []byte, n *syntax.Node) string {
	return collapse(blankComments(src, n, n.Start, n.End))
}
