package yamlrel

// What the derived checkers share: locality, order and analogy (each in a
// file of its own) take what they check from the mutation itself (the
// fresh names, the kind and neighbours of the inserted declaration, a
// sibling of the same shape) instead of a prediction written by hand.
// docs/relations.md documents them.

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/mcpt-tool/mcpt/internal/namecase"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/syntax"
)

// derived is what a derived check has besides its own keys: the
// checker's name, the forms of names it looks for, and its files.
type derived struct {
	name  string
	forms []func(string) string
	// formsKey names the forms: the derived checks with the same forms
	// share what they read of an input (derivedMemo).
	formsKey string
	files    []*tmpl // except (locality) or files (order, analogy)
}

// newDerived compiles what a derived check of the kind what has besides
// its own keys.
func newDerived(u *unit, what string, name *String, forms, files []String) (*derived, error) {
	d := &derived{name: what}
	if name != nil {
		d.name = name.Value
	}
	if len(forms) == 0 {
		// Every form, in the order in which they correspond between names.
		for _, f := range namecase.Forms {
			fn, _ := namecase.Form(f)
			d.forms = append(d.forms, fn)
		}
		d.formsKey = "*"
	}
	for _, f := range forms {
		fn, ok := namecase.Form(f.Value)
		if !ok {
			return nil, f.At("unknown name form %q (want one of %s)", f.Value, strings.Join(namecase.Names(), ", "))
		}
		d.forms = append(d.forms, fn)
		d.formsKey += f.Value + ","
	}
	var err error
	d.files, err = u.templates(files)
	return d, err
}

// CheckerName is the name of the check's failures.
func (d *derived) CheckerName() string { return d.name }

// name1 is a name in the check's forms; the empty name has none.
func (d *derived) name1(s string) oracle.Name {
	if s == "" {
		return oracle.Name{}
	}
	forms := make([]string, len(d.forms))
	for i, f := range d.forms {
		forms[i] = f(s)
	}
	return oracle.NewName(forms)
}

// derivedMemo is what the derived checks of the same forms share over the
// test cases of an input: the names it declares, and those names with
// their shadows found. The checkers only read them. (One for each check
// of every relation made them anew: hundreds of MB on a seed of 1 MiB.)
type derivedMemo struct {
	mu     sync.Mutex
	others []oracle.Name
	names  map[string]oracle.Name
}

func (d *derived) memo(mu *Mutation) *derivedMemo {
	m := mu.m
	m.foundMu.Lock()
	defer m.foundMu.Unlock()
	dm := m.derived[d.formsKey]
	if dm == nil {
		if m.derived == nil {
			m.derived = map[string]*derivedMemo{}
		}
		dm = &derivedMemo{others: d.declared(mu), names: map[string]oracle.Name{}}
		m.derived[d.formsKey] = dm
	}
	return dm
}

// others are every name the input declares.
func (d *derived) others(mu *Mutation) []oracle.Name { return d.memo(mu).others }

// declaredName is a name the input declares (a neighbour, a sibling) in
// the check's forms, with its shadows among the others.
func (d *derived) declaredName(mu *Mutation, s string) oracle.Name {
	if s == "" {
		return oracle.Name{}
	}
	dm := d.memo(mu)
	dm.mu.Lock()
	defer dm.mu.Unlock()
	n, ok := dm.names[s]
	if !ok {
		n = oracle.WithShadows(d.name1(s), dm.others)
		dm.names[s] = n
	}
	return n
}

func (d *derived) declared(mu *Mutation) []oracle.Name {
	var out []oracle.Name
	for _, kn := range mu.r.d.kindList {
		for _, dc := range mu.m.decls[kn] {
			if dc.kind.named {
				out = append(out, d.name1(dc.name))
			}
			for _, x := range dc.names {
				out = append(out, d.name1(x))
			}
		}
	}
	return out
}

// newDecl is the inserted declaration as the definitions see it: its
// names (its own, then its list's), its neighbours of the same kind and
// the declarations that could be its sibling, nearest first.
type newDecl struct {
	names      []string
	prev, next string
	first      string // the inserted declaration's line
	candidates []*decl
	listNames  []string // list spots: the other elements, nearest first
	kin        []string // the names of the declarations of its kind in its scope
}

// inserted parses the inserted text with the kinds of the spot's region
// (a boundary spot) or takes it as the new element (a list spot).
func (mu *Mutation) inserted() *newDecl {
	nd := &newDecl{}
	if list, ok := mu.data["list"].(map[string]any); ok {
		nd.names = []string{strings.TrimSpace(mu.ins)}
		nd.prev, _ = list["before"].(string)
		nd.next, _ = list["after"].(string)
		names, _ := list["names"].([]string)
		g, _ := list["index"].(int)
		nd.listNames = nearest(names, g)
		nd.kin = names
		return nd
	}
	first, _, _ := strings.Cut(mu.ins, "\n")
	for _, kn := range mu.r.d.kindList {
		k := mu.r.d.kinds[kn]
		if mu.r.boundaries == nil || k.region != mu.r.boundaries.name {
			continue
		}
		var dc *decl
		if k.match == nil {
			// a kind with fields reads the new member in the follow-up's tree
			msrc, mem := mu.insertedMember()
			if mem == nil {
				continue
			}
			lists, decls := mu.r.models.declTypes()
			groups, names, ok := k.fieldValues(msrc, mem, lists, decls)
			if !ok {
				continue
			}
			dc = &decl{kind: k, groups: groups, names: names, name: groups["name"]}
		} else {
			sub := k.match.FindStringSubmatchIndex(first)
			if sub == nil {
				continue
			}
			dc = &decl{kind: k, groups: map[string]string{}}
			for gi, g := range k.match.SubexpNames() {
				if g != "" && sub[2*gi] >= 0 {
					dc.groups[g] = first[sub[2*gi]:sub[2*gi+1]]
				}
			}
			if k.named {
				dc.name = dc.groups["name"]
			}
			if k.list != "" {
				dc.names, _ = splitList(dc.groups[k.list], 0, len(dc.groups[k.list]), k.sep)
			}
		}
		nd.names = declNames(dc)
		nd.first = first
		prev, _ := mu.data["prev"].(map[string]any)
		next, _ := mu.data["next"].(map[string]any)
		nd.prev, _ = prev[kn].(string)
		nd.next, _ = next[kn].(string)
		// Siblings and kin come from the region instance of the spot: a
		// field of the same struct. A spot of a tree region knows its
		// instance, and a nested struct's fields are not those of the
		// struct around it (whose lines name that struct).
		at := mu.s.Line - 1
		for _, inst := range mu.m.regions[mu.r.boundaries.name] {
			if mu.s.inst != nil && inst == mu.s.inst || mu.s.inst == nil && inst.from < at && at <= inst.to {
				for _, dc := range inst.items {
					if dc.kind == k {
						nd.candidates = append(nd.candidates, dc)
						nd.kin = append(nd.kin, declNames(dc)...)
					}
				}
			}
		}
		slices.SortStableFunc(nd.candidates, func(a, b *decl) int { return abs(a.line-at) - abs(b.line-at) })
		return nd
	}
	return nd
}

func abs(x int) int { return max(x, -x) }

// nearest orders the names of a list by their distance to gap g.
func nearest(names []string, g int) []string {
	out := slices.Clone(names)
	dist := func(i int) int {
		if i < g {
			return g - i
		}
		return i - g + 1
	}
	idx := map[string]int{}
	for i, n := range names {
		idx[n] = i
	}
	slices.SortStableFunc(out, func(a, b string) int { return dist(idx[a]) - dist(idx[b]) })
	return out
}

func declNames(dc *decl) []string {
	var out []string
	if dc.kind.named {
		out = append(out, dc.name)
	}
	return append(out, dc.names...)
}

var (
	spaceRE = regexp.MustCompile(`\s+`)
	// numberRE is a number standing alone, not the digits of a word
	// (int32); signRE its minus sign, not a subtraction's (n - 1).
	numberRE = regexp.MustCompile(`\b\d+\b`)
	signRE   = regexp.MustCompile(`(^|[^\w)\]#\s])(\s*)-\s*#`)
)

// shapeOf is a declaration line with its names masked (its own name and
// the names of its list differently), its numbers masked with their signs
// unless keep (the tag or value every declaration of a numbered IDL has
// its own of) and white space collapsed: two declarations of the same
// shape differ in their names and numbers only.
func shapeOf(line string, names []string, keep bool) string {
	s := strings.TrimSpace(line)
	for i, n := range names {
		if n == "" {
			continue
		}
		ph := "\x01"
		if i == 0 {
			ph = "\x00"
		}
		rx, err := cachedRE(`\b` + regexp.QuoteMeta(n) + `\b`)
		if err != nil {
			return ""
		}
		s = rx.ReplaceAllLiteralString(s, ph)
	}
	if !keep {
		s = signRE.ReplaceAllString(numberRE.ReplaceAllLiteralString(s, "#"), "${1}${2}#")
	}
	s = spaceRE.ReplaceAllString(s, " ")
	s = strings.ReplaceAll(s, " ,", ",")
	return strings.ReplaceAll(s, ", ", ",")
}

// sibling returns the names of the nearest declaration of the same kind
// and shape whose names the input mentions nowhere but in its declaration
// (a sibling used elsewhere has lines in o that are about its uses), or
// nil when there is none. Its names are alike the new ones (see alike).
// loose are the others, nearest first, but for their own name, which is
// not alike the new one's: the analogy check takes the first whose lines
// hold it in forms alike (oracle.Analogy's Loose), when there is no
// sibling.
func (nd *newDecl) sibling(mu *Mutation, keep, last bool, alike func(a, b string) bool) (sib []string, loose [][]string) {
	// ok reports whether the names may be a sibling's, and whether they
	// are alike the new ones.
	ok := func(names []string) (may, like bool) {
		may, like = true, true
		for i, n := range names {
			may = may && mentionedOnce(mu.m.src, n) && !isGeneric(mu.r.d.generic, n)
			if i < len(nd.names) && !sameEnds(n, nd.names[i]) {
				may = false // not even loosely: see alike
			}
			if i < len(nd.names) && !alike(n, nd.names[i]) {
				like = false
				may = may && i == 0 // the names of its list must be alike
			}
		}
		return may, like
	}
	if nd.listNames != nil {
		for _, n := range nd.listNames {
			if may, like := ok([]string{n}); like && may {
				return []string{n}, nil
			} else if may {
				loose = append(loose, []string{n})
			}
		}
		return nil, loose
	}
	shape := shapeOf(nd.first, nd.names, keep)
	placed := nd.placedAlike(mu, last)
	for _, dc := range nd.candidates {
		names := declNames(dc)
		if len(names) != len(nd.names) || !placed(dc) || shapeOf(dc.lineText(mu.m), names, keep) != shape {
			continue
		}
		if may, like := ok(names); like && may {
			return names, nil
		} else if may {
			loose = append(loose, names)
		}
	}
	return nil, loose
}

// alike reports whether names a and b are split into words alike: when
// two forms of one are the same letters (case aside), so are the same two
// forms of the other. A generator may write a form only where it differs
// from another (protoc-gen-go's json=unyrToijl beside name=unyr_toijl, left
// out for the one-word zqpgxlsh), so a sibling of more or fewer words has
// lines the new declaration rightly lacks, or lacks lines it has.
func (d *derived) alike(a, b string) bool {
	if !sameEnds(a, b) {
		return false
	}
	fa, fb := make([]string, len(d.forms)), make([]string, len(d.forms))
	for i, f := range d.forms {
		fa[i], fb[i] = strings.ToLower(f(a)), strings.ToLower(f(b))
	}
	for i := range fa {
		for j := i + 1; j < len(fa); j++ {
			if (fa[i] == fa[j]) != (fb[i] == fb[j]) {
				return false
			}
		}
	}
	return true
}

// isGeneric reports whether a form of the name is one of the generator's
// own words (signature.generic: a sibling called name is not seen in
// a generated field_indices_by_name).
func isGeneric(generic map[string]bool, name string) bool {
	if name == "" || len(generic) == 0 {
		return false
	}
	for _, f := range namecase.Forms {
		if fn, ok := namecase.Form(f); ok && generic[fn(name)] {
			return true
		}
	}
	return false
}

// mentionedOnce reports whether the input holds the name once, as a word,
// whatever its case (an enumerator OWNER and a parameter owner would share
// lines of the output).
func mentionedOnce(src, name string) bool {
	rx, err := cachedRE(`(?i)\b` + regexp.QuoteMeta(name) + `\b`)
	return err == nil && len(rx.FindAllStringIndex(src, 2)) == 1
}

// insertedMember is the member the mutation inserted, as a node of the
// syntax tree: its text read as a member node type of the spot's region
// where the parser reads fragments (syntax.FragmentParser), else the member
// of a list of the region that starts in the inserted text, in the tree of
// the follow-up (before any declare). It returns nil when the spot is of
// no tree region or the text does not parse.
func (mu *Mutation) insertedMember() (src []byte, n *syntax.Node) {
	if mu.member != nil || mu.noMember {
		return mu.memberSrc, mu.member
	}
	mu.noMember = true
	b := mu.r.boundaries
	if b == nil || b.tree == nil || mu.r.models.parser == nil || mu.s.tree.List == nil {
		return nil, nil
	}
	if fp, ok := mu.r.models.parser.(syntax.FragmentParser); ok && len(b.tree.spec.Members) > 0 {
		// (the text without the list's separator, which is not the member's)
		text := strings.TrimSpace(mu.raw)
		if sep := mu.s.tree.List.Layout.Sep; sep != "" {
			text = strings.TrimSpace(strings.TrimSuffix(text, sep))
		}
		for _, kind := range b.tree.spec.Members {
			if t, err := fp.ParseAs("inserted", kind, []byte(text)); err == nil {
				mu.memberSrc, mu.member = t.Src, t.Root
				return t.Src, t.Root
			}
		}
		// else, as for any parser, in the follow-up
	}
	// The declaration that holds the spot's list (an enum, a class) is
	// read alone first, as a file of its own: a parse of the few lines it
	// has rather than of the whole follow-up.
	delta := len(mu.pre) - len(mu.m.src)
	if p := mu.s.tree.List.Node.Parent; p != nil && p.Parent != nil && p.Start <= mu.s.offset && mu.s.offset <= p.End {
		src := mu.pre[p.Start : p.End+delta]
		if n := mu.memberIn(src, mu.s.offset-p.Start); n != nil {
			return mu.memberSrc, n
		}
	}
	mu.memberIn(mu.pre, mu.s.offset)
	return mu.memberSrc, mu.member
}

// memberIn parses src, a follow-up or a declaration cut from one in which
// the spot's text was inserted at off, and returns the member of a list of
// the spot's region that starts in the inserted text (remembered as the
// inserted member), or nil.
func (mu *Mutation) memberIn(src string, off int) *syntax.Node {
	t, err := syntax.ParseContext(mu.context(), mu.r.models.parser, "follow-up", []byte(src))
	if err != nil {
		return nil
	}
	lo, hi := off, off+mu.preLen
	for _, l := range syntax.Lists(t, mu.r.boundaries.tree.spec) {
		for _, d := range l.Members {
			if st, _ := d.Span(); st >= lo && st < hi {
				mu.memberSrc, mu.member = t.Src, d.Node
				return d.Node
			}
		}
	}
	return nil
}

// placedAlike tells the declarations that stand in their list as the new
// one does in its: first of its kind exactly when the new one is (and,
// with last, last exactly when it is). The first of a kind is often
// written otherwise (`out << "a="`, then `out << ", " << "b="`;
// `X() : a(), b()`), some generators the last (`MAX = X_LAST`).
func (nd *newDecl) placedAlike(mu *Mutation, last bool) func(dc *decl) bool {
	at, top, bottom := mu.s.Line-1, -1, -1
	// (in a tree region, by the members' places in their list: a spot
	// after the last member is on its line)
	pos := func(dc *decl) int { return dc.line }
	if mu.s.tree.List != nil {
		at = mu.s.tree.Index
		pos = func(dc *decl) int {
			if dc.member != nil {
				return dc.member.Index
			}
			return dc.line
		}
	}
	for _, dc := range nd.candidates {
		if top < 0 || pos(dc) < top {
			top = pos(dc)
		}
		bottom = max(bottom, pos(dc))
	}
	newFirst := top < 0 || at <= top
	newLast := bottom < 0 || at > bottom
	// A copy with a number of its own is first by number too, or not:
	// a generator that writes the list by number writes the first by
	// number otherwise (thrift's `if` of the lowest field id, then
	// `else if`). The sibling is first in each order the new one is.
	numFirst := func(*decl) bool { return false }
	newNumFirst := false
	if cl, ok := mu.data["clone"].(map[string]any); ok && mu.r.clone != nil {
		if n, ok := cl["number"].(int); ok {
			nums := map[*decl]int64{}
			low := int64(n)
			for _, dc := range nd.candidates {
				if dc.member == nil {
					continue
				}
				if v, ok := mu.r.clone.memberNumber(mu.r.d.numbers, dc.member); ok {
					nums[dc] = v
					low = min(low, v)
				}
			}
			newNumFirst = int64(n) == low
			numFirst = func(dc *decl) bool { v, ok := nums[dc]; return ok && v == low }
		}
	}
	return func(dc *decl) bool {
		return (pos(dc) == top) == newFirst && numFirst(dc) == newNumFirst && (!last || (pos(dc) == bottom) == newLast)
	}
}

// sameEnds reports whether names a and b both start with an underscore or
// neither, and both end with one or neither: a generator writes such an
// underscore apart (__SECOND_CHANCE_ISSET_ID of SECOND_CHANCE_).
func sameEnds(a, b string) bool {
	return strings.HasPrefix(a, "_") == strings.HasPrefix(b, "_") && strings.HasSuffix(a, "_") == strings.HasSuffix(b, "_")
}
