package infer

import (
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/mcpt-tool/mcpt/relation/numlit"
	"github.com/mcpt-tool/mcpt/syntax"
)

// List is a node type of the seeds' trees that holds declarations: a
// list of declarations or members (a file's definitions, a struct's
// fields, an enum's values).
type List struct {
	// Type is the node type of the lists.
	Type string
	// Members are the node types of the children that are declarations
	// (or hold one, as an export holds a class).
	Members []string
	// Kinds are the kinds of declarations its lists hold.
	Kinds []*Kind
	// Instances is how many lists of the type the seeds have, Seeds in
	// how many seeds.
	Instances, Seeds int
	// Root is true for the root of the trees: the top-level declarations.
	Root bool
	// Sep is the separator the lists write between their members ("," or
	// ";"), for a list of one member, which shows none; "" when none.
	Sep string
	// Positional are patterns of the output lines that a declaration of
	// the list has because it is the first or the last (Habits).
	Positional []string
	// Last is true when the outputs write the last declaration of a list
	// otherwise than the others: a sibling is last exactly when the new
	// declaration is.
	Last bool
	// Places are the places (oracle.PlaceOf) at which the outputs list
	// the declarations of the lists in the order of the input, as
	// patterns: where the seeds show it (a list whose order by name or by
	// number differs from the input's is listed in the input's order
	// there) and never show otherwise. NumberPlaces are those at which
	// they list them by their numbers (thrift's writers, by field id).
	Places, NumberPlaces []string
}

// Kind is a kind of declaration in a list: the node type that holds a
// declared name.
type Kind struct {
	// Name is the kind's name in the relation files.
	Name string
	// Node is the node type of the declarations.
	Node string
	// NameTypes are the node types of their names.
	NameTypes []string
	// Count is how many the seeds declare in lists of the list type.
	Count int
	// Inner is true when the declarations declare names inside them (a
	// struct its fields): a copy gives them fresh names too.
	Inner bool
	// Numbers are the numbers a copy takes fresh: those the declarations
	// of a list never share.
	Numbers []Number
	// KeepFirst is true when the first declaration of a list has a number
	// its language fixes (protobuf's first enum value): a copy is no
	// first declaration.
	KeepFirst bool
	// Ascending is true when the numbers of a list ascend: a copy goes
	// after the last declaration only.
	Ascending bool
	// Step, when not 0, is the amount by which the follow-ups tried on
	// the seeds (two or more) changed every number they changed in lines
	// that name nothing new (a count grown by one), where the checks held
	// to it failed on none of them more than without: the locality check
	// holds them to it (by).
	Step int
	// Unordered is true when the follow-ups tried on the seeds put the
	// copy out of its neighbours' order on two seeds or more: the
	// transpiler does not list a new declaration among its neighbours
	// (json2ts writes a definition that nothing refers to after the
	// others), and the relation checks no order.
	Unordered bool
	// Singular are words that a list has in one of its declarations of
	// the kind at most, in every list of the seeds that has them (three
	// at least), and in one of its declarations of any kind at most: a
	// key, a constructor, not a type's name that declarations of another
	// kind write too (a Boolean parameter beside Boolean variables). A
	// declaration that has one is not copied.
	Singular []string
	// RejectedOn are the seeds (base names) on which the transpiler
	// rejected the follow-up a probe made there, with the first line of
	// its message on the first of them: the relation is not run there
	// (the program constrains the list: an object literal that must have
	// every property of the type a copy adds to, a name destructured from
	// an object that has no such member).
	RejectedOn []string
	RejectedBy string
}

// Number is where a declaration of a kind writes a number of its own.
type Number struct {
	// Node is the declarations' node type, In the node type of the child
	// that holds the number.
	Node, In string
	// KeepFirst: inside a copy, the first declaration of its list keeps
	// its number; Ascending: the numbers of a list ascend.
	KeepFirst, Ascending bool
}

// Structure finds the lists of declarations in the trees: the node types
// one of whose nodes holds two declarations or more, a declaration being a
// child that holds a declared name (a name leaf in the field name or new,
// or a node with one, looked for as syntax.NameOf does). form reads the
// numbers of the language.
func Structure(trees []*syntax.Tree, form numlit.Form) []*List {
	st := &structure{form: form, lists: map[string]*listStats{}}
	for _, t := range trees {
		st.add(t)
	}
	return st.result()
}

type listStats struct {
	typ       string
	instances int
	seeds     map[string]bool
	multi     bool // an instance holds two declarations or more
	root      bool
	members   map[string]bool
	seps      map[string]int
	kinds     map[string]*kindStats
	slots     map[string]*slotStats // the numbers, by the node type that holds them
	// plural counts, by word, the lists in which two declarations of
	// any kinds have it (a type's name: Boolean in a parameter and in a
	// variable)
	plural map[string]int
}

type kindStats struct {
	node string
	// plural and singular count, by word, the lists in which two
	// declarations have it, and one
	plural, singular map[string]int
	names            map[string]bool
	count            int
	inner            bool
	slotOrder        []string // the node types of its children that hold a number
}

// slotStats is what the lists show of a number of a kind: in how many
// lists its values are all distinct, ascend, and what the first is.
type slotStats struct {
	lists, distinct, ascending, dense int // lists with two values or more
	firsts                            map[int64]int
	withFirst                         int
}

type structure struct {
	form  numlit.Form
	lists map[string]*listStats
	order []string
}

func (st *structure) stats(typ string) *listStats {
	ls := st.lists[typ]
	if ls == nil {
		ls = &listStats{typ: typ, seeds: map[string]bool{}, members: map[string]bool{}, seps: map[string]int{}, kinds: map[string]*kindStats{}, slots: map[string]*slotStats{}, plural: map[string]int{}}
		st.lists[typ] = ls
		st.order = append(st.order, typ)
	}
	return ls
}

// add reads one tree: every named node with children is a candidate list,
// read as syntax.Lists reads it.
func (st *structure) add(t *syntax.Tree) {
	types := map[string]bool{}
	syntax.Walk(t.Root, func(n *syntax.Node) bool {
		if n.Named && len(n.Children) > 0 && n.Kind != "comment" {
			types[n.Kind] = true
		}
		return true
	})
	lists := syntax.Lists(t, syntax.ListSpec{Lists: slices.Sorted(mapKeys(types))})
	for _, l := range lists {
		var decls, names []*syntax.Node
		var members []*syntax.Decl
		own := directName(l.Node)
		for _, m := range l.Members {
			if m.Node == own {
				continue // the name of the declaration that is the list
			}
			if d, nm := declNode(m.Node); d != nil {
				decls = append(decls, d)
				names = append(names, nm)
				members = append(members, m)
			}
		}
		if len(decls) == 0 {
			continue
		}
		ls := st.stats(l.Node.Kind)
		ls.instances++
		ls.seeds[t.Name] = true
		ls.root = ls.root || l.Node == t.Root
		if len(decls) >= 2 {
			ls.multi = true
			if l.Layout.Sep != "" {
				ls.seps[l.Layout.Sep]++
			}
		}
		byKind := map[string][]*syntax.Node{}
		for i, d := range decls {
			ls.members[members[i].Node.Kind] = true
			ks := ls.kinds[d.Kind]
			if ks == nil {
				ks = &kindStats{node: d.Kind, names: map[string]bool{}, plural: map[string]int{}, singular: map[string]int{}}
				ls.kinds[d.Kind] = ks
			}
			ks.count++
			ks.names[names[i].Kind] = true
			if !ks.inner && declaresInside(d) {
				ks.inner = true
			}
			byKind[d.Kind] = append(byKind[d.Kind], d)
		}
		st.numbers(t.Src, ls, decls)
		// the words of the declarations, but their names, by kind
		wordsIn := map[string]map[string]int{}
		for i, d := range decls {
			ks := ls.kinds[d.Kind]
			if wordsIn[d.Kind] == nil {
				wordsIn[d.Kind] = map[string]int{}
			}
			seen := map[string]bool{}
			text := members[i].Text()
			own := names[i].Text(t.Src)
			for _, w := range wordRE.FindAllString(text, -1) {
				if w != own && !seen[w] {
					seen[w] = true
					wordsIn[d.Kind][w]++
				}
			}
			_ = ks
		}
		inList := map[string]int{}
		for _, ws := range wordsIn {
			for w, n := range ws {
				inList[w] += n
			}
		}
		for w, n := range inList {
			if n >= 2 {
				ls.plural[w]++
			}
		}
		for k, ws := range wordsIn {
			ks := ls.kinds[k]
			for w, n := range ws {
				if n >= 2 {
					ks.plural[w]++
				} else {
					ks.singular[w]++
				}
			}
		}
	}
}

// numbers records the numbers of the declarations ds of one list of ls:
// for each child of a declaration that is or holds one number literal (by
// the child's node type), the values the list gives it, whatever the kind
// of the declaration (a message's fields and map fields number alike).
func (st *structure) numbers(src []byte, ls *listStats, ds []*syntax.Node) {
	vals := map[string][]int64{}
	var order []string
	for _, d := range ds {
		seen := map[string]bool{}
		for _, c := range d.Children {
			if !c.Named || c.Kind == "comment" || seen[c.Kind] || c == nameOf(d) {
				continue
			}
			if v, ok := st.literal(src, c); ok {
				seen[c.Kind] = true
				if _, ok := vals[c.Kind]; !ok {
					order = append(order, c.Kind)
				}
				vals[c.Kind] = append(vals[c.Kind], v)
				ks := ls.kinds[d.Kind]
				if !slices.Contains(ks.slotOrder, c.Kind) {
					ks.slotOrder = append(ks.slotOrder, c.Kind)
				}
			}
		}
	}
	for _, in := range order {
		vs := vals[in]
		ss := ls.slots[in]
		if ss == nil {
			ss = &slotStats{firsts: map[int64]int{}}
			ls.slots[in] = ss
		}
		ss.firsts[vs[0]]++
		ss.withFirst++
		if len(vs) < 2 {
			continue
		}
		ss.lists++
		distinct, asc := true, true
		seen := map[int64]bool{}
		for i, v := range vs {
			distinct = distinct && !seen[v]
			seen[v] = true
			asc = asc && (i == 0 || v > vs[i-1])
		}
		if distinct {
			ss.distinct++
		}
		if asc {
			ss.ascending++
		}
		lo, hi := slices.Min(vs), slices.Max(vs)
		if hi-lo < int64(3*len(vs)) {
			ss.dense++
		}
	}
}

// literal reads node c as one integer literal, or a node holding exactly
// one (a field id `1:`), nothing else named in it.
func (st *structure) literal(src []byte, c *syntax.Node) (int64, bool) {
	text := strings.TrimSpace(c.Text(src))
	lits := st.form.All(text)
	if len(lits) != 1 || lits[0].Max {
		return 0, false
	}
	rest := text[:lits[0].Start] + text[lits[0].End:]
	if strings.ContainsFunc(rest, func(r rune) bool {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '"' || r == '\''
	}) {
		return 0, false
	}
	return lits[0].Value, true
}

// result is the lists found: the node types one of whose nodes holds two
// declarations or more, in the order first met.
func (st *structure) result() []*List {
	var out []*List
	used := map[string]int{}
	for _, typ := range st.order {
		ls := st.lists[typ]
		if !ls.multi {
			continue
		}
		for k := range ls.kinds {
			used[k]++
		}
	}
	for _, typ := range st.order {
		ls := st.lists[typ]
		if !ls.multi {
			continue
		}
		l := &List{Type: typ, Instances: ls.instances, Seeds: len(ls.seeds), Root: ls.root, Members: slices.Sorted(mapKeys(ls.members))}
		for sep, n := range ls.seps {
			if n > ls.seps[l.Sep] || n == ls.seps[l.Sep] && sep < l.Sep {
				l.Sep = sep
			}
		}
		for _, k := range slices.Sorted(mapKeys(ls.kinds)) {
			ks := ls.kinds[k]
			kd := &Kind{Name: ident(k), Node: k, NameTypes: slices.Sorted(mapKeys(ks.names)), Count: ks.count, Inner: ks.inner}
			if used[k] > 1 {
				kd.Name = ident(typ + "_" + k)
			}
			if len(kd.NameTypes) == 0 {
				kd.NameTypes = []string{k} // a declaration that is its name
			}
			for w, n := range ks.singular {
				if n >= 3 && ks.plural[w] == 0 && ls.plural[w] == 0 {
					kd.Singular = append(kd.Singular, w)
				}
			}
			slices.Sort(kd.Singular)
			for _, in := range ks.slotOrder {
				ss := ls.slots[in]
				// A number the lists never share (at most one in ten
				// lists of two or more shares one: an alias) is the
				// declaration's own, which a copy takes fresh.
				// (ids are dense, values such as constants' are not)
				if ss.lists == 0 || ss.distinct*10 < ss.lists*9 || ss.dense*10 < ss.lists*7 {
					continue
				}
				n := Number{Node: k, In: in}
				// The first of nearly every list has the same number:
				// the language fixes it (a first enum value of 0).
				if ss.withFirst >= 3 {
					for _, c := range ss.firsts {
						if c*5 >= ss.withFirst*4 {
							n.KeepFirst = true
						}
					}
				}
				n.Ascending = ss.ascending*10 >= ss.lists*9
				kd.Numbers = append(kd.Numbers, n)
				kd.KeepFirst = kd.KeepFirst || n.KeepFirst
				kd.Ascending = kd.Ascending || n.Ascending
			}
			l.Kinds = append(l.Kinds, kd)
		}
		out = append(out, l)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Root && !out[j].Root })
	return out
}

// declNode is the declaration that member m is or holds, and the node of
// its name: m itself when it is a name leaf (an enum member written
// alone); else m or the one node it wraps (an export its class, a
// definition its struct; a wrapper holds one named node and no brackets),
// with a name among its children: a name leaf, or a node that holds one
// and nothing else (typedef_name = @new(type)). It returns nil when m
// declares no name.
func declNode(m *syntax.Node) (d, name *syntax.Node) {
	n := m
	for range 4 {
		if isName(n) {
			return n, n
		}
		if nm := directName(n); nm != nil {
			return n, nm
		}
		var only *syntax.Node
		count := 0
		for _, c := range n.Children {
			if c.Named && c.Kind != "comment" && !syntax.OnlyComments(c) || c.Named && isName(c) {
				only = c
				count++
			}
		}
		if count != 1 || bracketed(n) {
			return nil, nil
		}
		n = only
	}
	return nil, nil
}

// directName is the child of n that is its name: a name leaf, or a node
// holding one and nothing else; nil when none is.
func directName(n *syntax.Node) *syntax.Node {
	for _, c := range n.Children {
		if isName(c) {
			return c
		}
	}
	for _, c := range n.Children {
		if c.Named && len(c.Children) > 0 {
			var inner []*syntax.Node
			for _, cc := range c.Children {
				if cc.Kind != "comment" {
					inner = append(inner, cc)
				}
			}
			if len(inner) == 1 && isName(inner[0]) {
				return c
			}
		}
	}
	return nil
}

// bracketed reports whether n is a body in brackets: its first and last
// children are punctuation (a struct's `{ … }`, a throws clause's `( … )`).
func bracketed(n *syntax.Node) bool {
	k := len(n.Children)
	return k >= 2 && !n.Children[0].Named && !n.Children[k-1].Named
}

// nameOf is the name leaf of the declaration node d.
func nameOf(d *syntax.Node) *syntax.Node {
	if isName(d) {
		return d
	}
	nm := directName(d)
	if nm != nil && !isName(nm) {
		for _, c := range nm.Children {
			if isName(c) {
				return c
			}
		}
	}
	return nm
}

// isName reports whether n is a declared name: a leaf in the field name
// (tree-sitter) or new (mcpt's grammar notation).
func isName(n *syntax.Node) bool {
	if !(n.Field == "name" || n.Field == "new") || !syntax.OnlyComments(n) || n.End <= n.Start {
		return false
	}
	// Tree-sitter grammars name the type in a type expression name too
	// (generic_type, nested_type_identifier): a use, not a declaration.
	if p := n.Parent; n.Field == "name" && p != nil {
		for _, suffix := range []string{"_type", "_identifier", "_expression"} {
			if strings.HasSuffix(p.Kind, suffix) {
				return false
			}
		}
	}
	return true
}

// declaresInside reports whether the declaration node d declares names
// below its own.
func declaresInside(d *syntax.Node) bool {
	own := nameOf(d)
	found := false
	syntax.Walk(d, func(c *syntax.Node) bool {
		if found || c.Kind == "comment" {
			return false
		}
		if c != own && c != d && isName(c) {
			found = true
		}
		return !found
	})
	return found
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

var wordRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// ident makes a node type an identifier (kind and region names): its
// characters but letters, digits and _ as _.
func ident(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			b[i] = '_'
		}
	}
	if len(b) == 0 || b[0] >= '0' && b[0] <= '9' {
		return "k" + string(b)
	}
	return string(b)
}
