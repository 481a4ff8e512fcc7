package yamlrel

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpt-tool/mcpt/internal/namecase"
	"github.com/mcpt-tool/mcpt/internal/suggest"
	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"github.com/mcpt-tool/mcpt/relation/numlit"
	"github.com/mcpt-tool/mcpt/syntax"
)

// cloneT is a compiled clone: the inserted member is a copy of a member of
// the spot's list, the neighbour or the nearest declaration of a kind.
type cloneT struct {
	// kind, when set, is the kind of the member copied: the nearest
	// declaration of it in the spot's list (the one before the spot on a
	// tie), else the neighbour before the spot (after it, at the first).
	kind *kind
	// before copies a member before the spot only: a spot before every
	// member it could copy has none (a language that wants a declaration
	// before its uses: the copy's uses are then declared).
	before bool
	// unless matches the text of the members not copied (a member that
	// has a word its list may have once: a key, a constructor).
	unless      *regexp.Regexp
	name, value *tmpl
	// inner gives every name declared inside the copy a fresh name of its
	// own (and every use of it inside the copy): a whole declaration, with
	// its members, that clashes with nothing.
	inner bool
	// numbers are the numbers the copy takes fresh: the ids a language
	// wants unique.
	numbers []cloneNumber
}

// cloneNumber says where a declaration of the copy has a number it takes
// fresh: the first number literal of the first node of type in inside a
// declaration node of type node.
type cloneNumber struct {
	node, in string
	// keepFirst keeps the number of a declaration that is the first of its
	// list inside the copy (protobuf's first enum value, which is 0).
	keepFirst bool
	// ascending takes the copied member's number above every number its
	// list has there (FlatBuffers' enum values ascend).
	ascending bool
}

func (r *rel) compileClone(c *cloneYAML) (*cloneT, error) {
	if r.boundaries == nil || r.boundaries.tree == nil {
		return nil, yamlpos.Errorf(c.pos, "relation %s: clone needs spots at the boundaries of a region with node (a tree region)", r.name)
	}
	if c.Name.Value == "" {
		return nil, yamlpos.Errorf(c.pos, "relation %s: clone needs a name (e.g. '{{.n}}')", r.name)
	}
	ct := &cloneT{}
	if c.Kind != nil {
		k := r.d.kinds[c.Kind.Value]
		switch {
		case k == nil && r.d.inError("kind", c.Kind.Value):
			return nil, errReported
		case k == nil:
			return nil, c.Kind.At("relation %s: clone: no kind named %q%s", r.name, c.Kind.Value, suggest.DidYouMean(c.Kind.Value, r.d.kindList))
		case k.region != r.boundaries.name:
			return nil, c.Kind.At("relation %s: clone: kind %s is of region %s, not of %s (the spots' region)", r.name, k.name, k.region, r.boundaries.name)
		}
		ct.kind = k
	}
	if c.From != nil {
		switch c.From.Value {
		case "before":
			ct.before = true
		case "nearest":
		default:
			return nil, c.From.At("relation %s: clone: from is nearest or before, found %q", r.name, c.From.Value)
		}
	}
	if c.Unless != nil {
		var err error
		if ct.unless, err = compileRE(*c.Unless); err != nil {
			return nil, err
		}
	}
	if c.Inner != nil {
		switch c.Inner.Value {
		case "fresh":
			ct.inner = true
		case "kept":
		default:
			return nil, c.Inner.At("relation %s: clone: inner is fresh or kept, found %q", r.name, c.Inner.Value)
		}
	}
	seen := map[string]bool{}
	for _, n := range c.Numbers {
		if n.Node.Value == "" || n.In.Value == "" {
			return nil, yamlpos.Errorf(n.pos, "relation %s: clone: a number needs node (the declarations' node type) and in (the node type that holds the number)", r.name)
		}
		if seen[n.Node.Value] {
			return nil, n.Node.At("relation %s: clone: node %s has a number twice", r.name, n.Node.Value)
		}
		seen[n.Node.Value] = true
		ct.numbers = append(ct.numbers, cloneNumber{node: n.Node.Value, in: n.In.Value, keepFirst: n.KeepFirst, ascending: n.Ascending})
	}
	var err error
	if ct.name, err = r.unit.template(c.Name); err != nil {
		return nil, err
	}
	if c.Value != nil {
		if ct.value, err = r.unit.template(*c.Value); err != nil {
			return nil, err
		}
	}
	return ct, nil
}

// source is the member the clone copies at spot s, nil when the spot's
// list has none to copy.
func (ct *cloneT) source(s *spot) *syntax.Decl {
	sp := s.tree
	if ct.kind == nil {
		d := sp.After
		if sp.Before != nil || ct.before {
			d = sp.Before
		}
		if d != nil && ct.unless != nil && ct.unless.MatchString(collapse(d.Text())) {
			return nil
		}
		return d
	}
	var best *syntax.Decl
	bestDist := 0
	for i, dc := range s.inst.items {
		if dc.kind != ct.kind {
			continue
		}
		mi := s.inst.member[i]
		if ct.before && mi >= sp.Index || ct.unless != nil && ct.unless.MatchString(dc.text) {
			continue
		}
		dist := 2 * (mi - sp.Index) // after the spot: 0, 2, 4, …
		if mi < sp.Index {
			dist = 2*(sp.Index-1-mi) - 1 // before it: -1, 1, 3, …
		}
		if best == nil || dist < bestDist {
			best, bestDist = dc.member, dist
		}
	}
	return best
}

// inserted renders the inserted text: the insert template, or the copy of
// a member of the spot's list (see cloneT), which the data then hold as
// .clone.of (its name), .clone.text and, for a copy whose inner names are
// fresh, .clone.from and .clone.names (the names replaced, and their
// replacements, in order) and .clone.fresh (the fresh names drawn).
func (r *rel) inserted(ctx context.Context, s *spot, data map[string]any, src []byte, rng *rand.Rand) (string, error) {
	if r.clone == nil {
		return r.insert.render(ctx, data)
	}
	sib := r.clone.source(s)
	if sib == nil {
		return "", fmt.Errorf("relation %s: nothing to clone at %s", r.name, s.Desc)
	}
	// (the name may follow the copied member's: .clone.of)
	data["clone"] = map[string]any{"of": sib.Name}
	name, err := r.clone.name.render(ctx, data)
	if err != nil {
		return "", err
	}
	value := ""
	if r.clone.value != nil {
		if value, err = r.clone.value.render(ctx, data); err != nil {
			return "", err
		}
	}
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	if !r.clone.inner && len(r.clone.numbers) == 0 {
		text := sib.Clone(name, value)
		data["clone"] = map[string]any{"of": sib.Name, "text": text}
		return text, nil
	}
	_, decls := r.models.declTypes()
	cp, err := r.clone.copy(r.d, decls, s, sib, name, value, src, rng)
	if err != nil {
		return "", fmt.Errorf("relation %s: clone: %v", r.name, err)
	}
	data["clone"] = map[string]any{"of": sib.Name, "text": cp.text}
	if cp.number >= 0 {
		data["clone"].(map[string]any)["number"] = cp.number
	}
	if len(cp.numbers) > 0 {
		data["clone"].(map[string]any)["numbers"] = cp.numbers
	}
	if r.clone.inner {
		data["clone"].(map[string]any)["from"] = cp.from
		data["clone"].(map[string]any)["names"] = cp.to
		data["clone"].(map[string]any)["fresh"] = cp.fresh
	}
	return cp.text, nil
}

// cloneCopy is a copy of a member with fresh inner names and numbers.
type cloneCopy struct {
	text            string
	from, to, fresh []string
	// number is the copy's own fresh number, -1 when it has none;
	// numbers are every fresh number it took (those inside it too).
	number  int
	numbers []int
}

// copy is the text of member sib copied under name: with value in its
// value field (as syntax.Decl.Clone), with fresh names for the names
// declared inside it (inner), and with fresh numbers where numbers say.
// Fresh names are drawn from rng, none the input src has; fresh numbers
// are the smallest the input writes nowhere, in no range `A to B` of it,
// and on the same side of every size boundary (sizeClass) as the number
// each replaces where such a number is free.
// decls are the node types the kinds declare: with inner, a name inside
// sib is declared there when its node is of one of them (any, when the
// kinds name none).
func (ct *cloneT) copy(d *defs, decls map[string]bool, s *spot, sib *syntax.Decl, name, value string, src []byte, rng *rand.Rand) (*cloneCopy, error) {
	tsrc := sib.List.Tree.Src
	n := sib.Node
	start, _ := sib.Span()
	type repl struct {
		s, e int
		t    string
	}
	var rs []repl
	own := syntax.NameNode(n)
	if own != nil {
		rs = append(rs, repl{own.Start, own.End, name})
	}
	if value != "" {
		for _, c := range n.Children {
			if c.Field == "value" {
				rs = append(rs, repl{c.Start, c.End, value})
			}
		}
	}
	cp := &cloneCopy{number: -1}
	if ct.inner {
		// the names declared inside, in order, each given a fresh name;
		// a use of one is a leaf of the same node type and text (a
		// field's name is no use of a type of that spelling)
		type key struct{ kind, text string }
		renamed := map[key]string{}
		firstKind := map[string]string{} // the kind of the first declaration of a text
		if own != nil {
			renamed[key{own.Kind, own.Text(tsrc)}] = name
		}
		taken := map[string]bool{}
		var draws []string
		syntax.Walk(n, func(c *syntax.Node) bool {
			if c.Kind == "comment" {
				return false
			}
			// (a name of a node type no kind declares is a use: the
			// name of TypeScript's generic_type Array<…> or of a
			// nested_type_identifier Ns.Props, which a copy keeps)
			if c != own && isNameLeaf(c) && (len(decls) == 0 || c.Parent == nil || decls[c.Parent.Kind]) {
				old := c.Text(tsrc)
				if _, ok := renamed[key{c.Kind, old}]; !ok {
					f, err := d.fresh.Fresh(rng, src, taken)
					if err != nil {
						draws = append(draws, "") // reported below
						return false
					}
					taken[f] = true
					draws = append(draws, f)
					renamed[key{c.Kind, old}] = namecase.Like(old, f)
					if _, ok := firstKind[old]; !ok && c.Parent != nil && holdsNames(c.Parent, c) {
						// (a declaration with members of its own, a
						// nested type, is what a use of another node
						// type may name)
						firstKind[old] = c.Kind
					}
					cp.from = append(cp.from, old)
					cp.to = append(cp.to, renamed[key{c.Kind, old}])
				}
			}
			return true
		})
		if slices.Contains(draws, "") {
			return nil, fmt.Errorf("no fresh name left for the names inside %s", sib.Name)
		}
		cp.fresh = draws
		// every leaf that writes one of those names (their uses too): of
		// the same node type, or of another that names no declaration
		// outside the copy (a grammar that reads a nested enum's name as
		// one kind and a use of it as another)
		byText := map[string]string{}
		for text, kind := range firstKind {
			byText[text] = renamed[key{kind, text}]
		}
		// the names declared where the copy stands: those of the
		// declarations around it at each level up (not those nested in
		// other declarations, which a use inside the copy cannot mean)
		outside := map[string]bool{}
		for at, p := n, n.Parent; p != nil; at, p = p, p.Parent {
			for _, c := range p.Children {
				if c == at {
					continue
				}
				if isNameLeaf(c) {
					outside[c.Text(tsrc)] = true
				} else if nm := syntax.NameNode(c); nm != nil && isNameLeaf(nm) {
					outside[nm.Text(tsrc)] = true
				}
			}
		}
		// (the right side of a qualified name, `Ns.Member`, whose left
		// side is a declaration outside the copy names a member of that
		// one, which the copy does not rename: zod's
		// `StandardTypedV1.InferInput` in a copy of another namespace's
		// InferInput; `this.count` is the copy's own)
		copied := map[string]bool{}
		for k := range renamed {
			copied[k.text] = true
		}
		syntax.Walk(n, func(c *syntax.Node) bool {
			if c.Kind == "comment" || c == own {
				return false
			}
			if len(c.Children) == 0 && c.Named && c.End > c.Start {
				text := c.Text(tsrc)
				if q, ok := qualifier(c, tsrc); ok && outside[q] && !copied[q] {
					return true
				}
				if to, ok := renamed[key{c.Kind, text}]; ok {
					rs = append(rs, repl{c.Start, c.End, to})
				} else if to, ok := byText[text]; ok && !isNameLeaf(c) && !outside[text] {
					rs = append(rs, repl{c.Start, c.End, to})
				}
			}
			return true
		})
	}
	if len(ct.numbers) > 0 {
		nrs, own, err := ct.freshNumbers(d.numbers, s, sib, src)
		if err != nil {
			return nil, err
		}
		cp.number = own
		for _, nr := range nrs {
			rs = append(rs, repl{nr[0], nr[1], strconv.FormatInt(int64(nr[2]), 10)})
			cp.numbers = append(cp.numbers, nr[2])
		}
	}
	slices.SortFunc(rs, func(a, b repl) int { return a.s - b.s })
	var b strings.Builder
	at := start
	for _, r := range rs {
		if r.s < at || r.s < start || r.e > n.End {
			continue // (overlaps one before it)
		}
		b.Write(tsrc[at:r.s])
		b.WriteString(r.t)
		at = r.e
	}
	b.Write(tsrc[at:n.End])
	cp.text = b.String()
	return cp, nil
}

// qualifier is the left side of the qualified name whose right side is
// leaf c (`Ns` of `Ns.Member`, `a::b` of `a::b::c`): the text of the named
// node before it in its parent, when only a dot or `::` parts them.
func qualifier(c *syntax.Node, src []byte) (string, bool) {
	p := c.Parent
	if p == nil {
		return "", false
	}
	i := slices.Index(p.Children, c)
	for i--; i >= 0 && !p.Children[i].Named; i-- {
	}
	if i < 0 {
		return "", false
	}
	left := p.Children[i]
	if sep := strings.TrimSpace(string(src[left.End:c.Start])); sep != "." && sep != "::" {
		return "", false
	}
	return strings.TrimSpace(left.Text(src)), true
}

// isNameLeaf reports whether node c is a declared name: a leaf in the
// field name or new (tree-sitter's name, the grammar notation's @new).
func isNameLeaf(c *syntax.Node) bool {
	return (c.Field == "name" || c.Field == "new") && syntax.OnlyComments(c) && c.End > c.Start
}

// freshNumbers are the number literals of the copy of sib to replace, as
// [start, end, value] in the tree's source: in each declaration node of
// the copy that numbers name (sib's own, and with inner those inside it),
// the first literal of its number node, replaced by a fresh number.
func (ct *cloneT) freshNumbers(form numlit.Form, s *spot, sib *syntax.Decl, src []byte) (out [][3]int, own int, err error) {
	tsrc := sib.List.Tree.Src
	taken := usedNumbers(form, string(src))
	next := 1
	// (the smallest free number on the side of every size boundary that
	// the number it replaces is on, where one is free: else, for the
	// copy's own number, the smallest there that its list does not have;
	// else the smallest)
	alloc := func(above int, was int64, ownNode string) (int, error) {
		from := max(next, above+1)
		lo, hi := sizeClass(was)
		sets := []numberSet{taken}
		if ownNode != "" {
			if local, ok := ct.listNumbers(form, s, ownNode); ok {
				local.ranges = append(local.ranges, taken.ranges...)
				sets = append(sets, local)
			}
		}
		for _, set := range sets {
			for k := max(from, lo); k < hi && k <= 1<<30; k++ {
				if !set.holds(k) {
					next = k + 1
					return k, nil
				}
			}
		}
		k := from
		for ; taken.holds(k); k++ {
			if k > 1<<30 {
				return 0, fmt.Errorf("no fresh number left")
			}
		}
		next = k + 1
		return k, nil
	}
	slot := func(dn *syntax.Node, e cloneNumber) (numlit.Literal, bool) {
		var found *syntax.Node
		syntax.Walk(dn, func(c *syntax.Node) bool {
			if found != nil || c.Kind == "comment" {
				return false
			}
			if c != dn && c.Kind == e.in {
				found = c
				return false
			}
			return c == dn || !ct.isNumbered(c.Kind)
		})
		if found == nil {
			return numlit.Literal{}, false
		}
		lits := form.All(found.Text(tsrc))
		if len(lits) == 0 || lits[0].Max {
			return numlit.Literal{}, false
		}
		l := lits[0]
		l.Start += found.Start
		l.End += found.Start
		return l, true
	}
	// the member's own declaration node: the one that holds its name
	ownNode := sib.Node
	if nm := syntax.NameNode(sib.Node); nm != nil && nm.Parent != nil {
		ownNode = nm.Parent
	}
	own = -1
	syntax.Walk(sib.Node, func(c *syntax.Node) bool {
		if err != nil || c.Kind == "comment" {
			return false
		}
		e, ok := ct.numberOf(c.Kind)
		if !ok {
			return true
		}
		isTop := c == ownNode
		if !isTop && !ct.inner {
			return false
		}
		if !isTop && e.keepFirst && firstOfKind(c) {
			return true
		}
		l, ok := slot(c, e)
		if !ok {
			return true
		}
		above := 0
		if isTop && e.ascending {
			above = ct.listMax(form, s, e, slot)
		}
		var k int
		topKind := ""
		if isTop {
			topKind = c.Kind
		}
		if k, err = alloc(above, l.Value, topKind); err == nil {
			out = append(out, [3]int{l.Start, l.End, k})
			if isTop {
				own = k
			}
		}
		return true
	})
	return out, own, err
}

// sizeBoundaries are the numbers at which an encoding of a number grows by
// a byte: as a varint (2^7k), as a varint of the number shifted by three
// (a Protocol Buffers tag, 2^(7k-3): protoc's C++ writes a field's tag
// size, one byte below 16 and two from 16 on), as a fixed-size integer,
// signed or not (2^(8k-1), 2^8k).
var sizeBoundaries = []int{1 << 4, 1 << 7, 1 << 8, 1 << 11, 1 << 14, 1 << 15, 1 << 16, 1 << 18, 1 << 21, 1 << 23, 1 << 24, 1 << 25, 1 << 28, 1 << 30}

// sizeClass is the range [lo, hi) between the size boundaries around v: a
// fresh number in it is written by a generator as v is, in as many bytes.
func sizeClass(v int64) (lo, hi int) {
	lo, hi = 0, 1<<30+1
	for _, b := range sizeBoundaries {
		if int64(b) <= v {
			lo = b
		} else {
			hi = b
			break
		}
	}
	return lo, hi
}

// memberNumber is the number member m has where the copy takes its own
// fresh: the number of its declaration node, if numbers name its type.
func (ct *cloneT) memberNumber(form numlit.Form, m *syntax.Decl) (int64, bool) {
	src := m.List.Tree.Src
	var v int64
	found := false
	syntax.Walk(m.Node, func(c *syntax.Node) bool {
		if found || c.Kind == "comment" {
			return false
		}
		e, ok := ct.numberOf(c.Kind)
		if !ok {
			return true
		}
		syntax.Walk(c, func(x *syntax.Node) bool {
			if found {
				return false
			}
			if x != c && x.Kind == e.in {
				if lits := form.All(x.Text(src)); len(lits) > 0 && !lits[0].Max {
					v, found = lits[0].Value, true
				}
				return false
			}
			return x == c || !ct.isNumbered(x.Kind)
		})
		return false
	})
	return v, found
}

// listMax is the largest number the members of the spot's list have at
// the number e.
func (ct *cloneT) listMax(form numlit.Form, s *spot, e cloneNumber, slot func(*syntax.Node, cloneNumber) (numlit.Literal, bool)) int {
	hi := 0
	for _, m := range s.tree.List.Members {
		syntax.Walk(m.Node, func(c *syntax.Node) bool {
			if c.Kind != e.node {
				return c == m.Node
			}
			if l, ok := slot(c, e); ok && int(l.Value) > hi {
				hi = int(l.Value)
			}
			return false
		})
	}
	return hi
}

// listNumbers are the numbers written in the list of spot s outside the
// declarations there that hold none of node type node (a nested enum's
// values are no field numbers of the message; a reserved number, or a
// field of a oneof, is): those a copy's own number of type node must not
// be where the input writes every number of its size class elsewhere.
func (ct *cloneT) listNumbers(form numlit.Form, s *spot, node string) (numberSet, bool) {
	if s == nil || s.tree.List == nil || s.tree.List.Node == nil {
		return numberSet{}, false
	}
	ln, src := s.tree.List.Node, s.tree.List.Tree.Src
	// (a list inside a declaration, a oneof's, whose enclosing node has
	// declarations of node type of its own, the message's fields: they
	// share the numbers, and the list's numbers are those of the
	// enclosing node, up to where none is)
	for at, p := ln, ln.Parent; p != nil; at, p = p, p.Parent {
		found := false
		syntax.Walk(p, func(c *syntax.Node) bool {
			switch {
			case found || c == at:
				return false
			case c != p && c.Kind == node:
				found = true
				return false
			case c != p && syntax.NameNode(c) != nil:
				return false // (another declaration: its own numbers)
			}
			return true
		})
		if found {
			ln = p
		}
	}
	text := []byte(string(src[ln.Start:ln.End]))
	has := func(c *syntax.Node, pred func(*syntax.Node) bool) bool {
		found := false
		syntax.Walk(c, func(x *syntax.Node) bool {
			found = found || pred(x)
			return !found
		})
		return found
	}
	syntax.Walk(ln, func(c *syntax.Node) bool {
		if c != ln && c.Kind != node && has(c, isNameLeaf) && !has(c, func(x *syntax.Node) bool { return x.Kind == node }) {
			for i := c.Start; i < c.End; i++ {
				text[i-ln.Start] = ' '
			}
			return false
		}
		return true
	})
	return usedNumbers(form, string(text)), true
}

func (ct *cloneT) numberOf(kind string) (cloneNumber, bool) {
	for _, e := range ct.numbers {
		if e.node == kind {
			return e, true
		}
	}
	return cloneNumber{}, false
}

func (ct *cloneT) isNumbered(kind string) bool {
	_, ok := ct.numberOf(kind)
	return ok
}

// firstOfKind reports whether no sibling before node c has its type.
func firstOfKind(c *syntax.Node) bool {
	if c.Parent == nil {
		return true
	}
	for _, x := range c.Parent.Children {
		if x == c {
			return true
		}
		if x.Kind == c.Kind {
			return false
		}
	}
	return true
}

// numberSet is the numbers an input writes, and the ranges it writes
// (`1000 to max`), which a fresh number stays out of.
type numberSet struct {
	nums   map[int64]bool
	ranges [][2]int64
}

func (ns numberSet) holds(k int) bool {
	if ns.nums[int64(k)] {
		return true
	}
	for _, r := range ns.ranges {
		if int64(k) >= r[0] && int64(k) <= r[1] {
			return true
		}
	}
	return false
}

// usedNumbers reads the number literals of text in form, and the ranges
// of two literals joined by the word to.
func usedNumbers(form numlit.Form, text string) numberSet {
	ns := numberSet{nums: map[int64]bool{}}
	lits := form.All(text)
	for i, l := range lits {
		if !l.Max {
			ns.nums[l.Value] = true
		}
		if i+1 < len(lits) && strings.TrimSpace(text[l.End:lits[i+1].Start]) == "to" && !l.Max {
			hi := lits[i+1].Value
			if lits[i+1].Max {
				hi = 1 << 62
			}
			ns.ranges = append(ns.ranges, [2]int64{l.Value, hi})
		}
	}
	return ns
}

// holdsNames reports whether declaration node d declares names besides
// its own name leaf own.
func holdsNames(d, own *syntax.Node) bool {
	found := false
	syntax.Walk(d, func(c *syntax.Node) bool {
		if found || c.Kind == "comment" {
			return false
		}
		if c != own && isNameLeaf(c) {
			found = true
		}
		return !found
	})
	return found
}
