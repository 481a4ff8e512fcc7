package yamlrel

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/mcpt-tool/mcpt/grammar"
	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/syntax"
	"github.com/mcpt-tool/mcpt/syntax/lang"
)

// treeRegion is a region whose instances are lists of the input's syntax
// tree: the nodes of the list kinds whose header (the text of the
// declaration that holds the list, up to the list, white space collapsed)
// matches header and not except, and that lie in no node of the types
// outside.
type treeRegion struct {
	spec           syntax.ListSpec
	header, except *regexp.Regexp
	outside        []string
	labels         map[string]string // list node type -> its name in descriptions
	pos            yamlpos.Pos
}

// setSyntax resolves `syntax:` of the relation file name (display in
// messages): the name of a parser of the load, or a grammar file (a value
// ending in .grammar) relative to the relation file, read from the file set
// the relations are loaded from and read as a parser (grammar.NewParser).
func (l *loader) setSyntax(name, display string, s *yamlpos.String) error {
	if s == nil {
		return nil
	}
	d := l.d
	var (
		p         syntax.Parser
		key, show = s.Value, s.Value
	)
	if strings.HasSuffix(s.Value, ".grammar") {
		gname, gdisplay := l.includeName(name, display, s.Value)
		if !fs.ValidPath(gname) {
			return s.At("syntax %q: the grammar is not among the relation files", s.Value)
		}
		key, show = gname, gdisplay
		if d.parser != nil && d.parserKey == key {
			return nil
		}
		data, err := fs.ReadFile(l.fsys, gname)
		if err != nil {
			return s.At("syntax %q: cannot read the grammar: %v", s.Value, err)
		}
		if p, err = grammarParser(gdisplay, data); err != nil {
			return s.At("syntax %q: %v", s.Value, err)
		}
	}
	if d.parser != nil {
		if d.parserKey != key {
			return s.At("syntax %q: the relations already use %q (first at %s)", s.Value, d.parserShow, d.parserPos)
		}
		return nil
	}
	if p == nil {
		var ok bool
		if p, ok = l.parsers.Lookup(s.Value); !ok {
			d.parserPos = s.Pos // named: no region's error says it is not
			return s.At("syntax: %v", lang.Missing(s.Value, l.parsers))
		}
	}
	d.parser, d.parserPos, d.parserKey, d.parserShow = p, s.Pos, key, show
	return nil
}

// grammarParsers caches the parsers of grammar files by display name and
// content: loading the same relations again (a campaign's shards, resumes,
// tests) compiles each grammar once.
var (
	grammarMu      sync.Mutex
	grammarParsers = map[string]*grammar.Parser{}
)

const grammarCacheSize = 16

// grammarParser is the parser of the grammar file display with content data.
func grammarParser(display string, data []byte) (*grammar.Parser, error) {
	key := display + "\x00" + string(data)
	grammarMu.Lock()
	p, ok := grammarParsers[key]
	grammarMu.Unlock()
	if ok {
		return p, nil
	}
	g, err := grammar.Parse(display, data)
	if err != nil {
		return nil, err
	}
	p = grammar.NewParser(g)
	grammarMu.Lock()
	defer grammarMu.Unlock()
	if len(grammarParsers) >= grammarCacheSize {
		clear(grammarParsers)
	}
	grammarParsers[key] = p
	return p, nil
}

func (d *defs) addTreeRegion(name string, r regionYAML) error {
	pos := r.List[0].Pos
	if err := d.define("region", name, pos); err != nil {
		return err
	}
	if r.From.Value != "" || r.To.Value != "" || r.Whole != nil {
		return r.List[0].At("region %s: a region with list has no from, to or whole", name)
	}
	tr := &treeRegion{pos: pos}
	for _, l := range r.List {
		tr.spec.Lists = append(tr.spec.Lists, l.Value)
	}
	for _, l := range r.Members {
		tr.spec.Members = append(tr.spec.Members, l.Value)
	}
	for _, l := range r.Comments {
		tr.spec.Comments = append(tr.spec.Comments, l.Value)
	}
	for _, l := range r.Annotations {
		tr.spec.Annotations = append(tr.spec.Annotations, l.Value)
	}
	for _, l := range r.Outside {
		tr.outside = append(tr.outside, l.Value)
	}
	if r.Sep != nil {
		if v := r.Sep.Value; v != "," && v != ";" {
			return r.Sep.At("region %s: sep is \",\" or \";\", found %q", name, v)
		}
		tr.spec.Sep = r.Sep.Value
	}
	for typ, l := range r.Labels {
		if !slices.Contains(tr.spec.Lists, typ) {
			return l.At("region %s: labels: %s is none of the list types %v", name, typ, tr.spec.Lists)
		}
		if tr.labels == nil {
			tr.labels = map[string]string{}
		}
		tr.labels[typ] = l.Value
	}
	if r.Runs != nil {
		if v := r.Runs.Value; v != "true" && v != "false" {
			return r.Runs.At("region %s: runs is true or false, found %q", name, v)
		}
		tr.spec.Runs = r.Runs.Value == "true"
	}
	var err error
	if r.Header != nil {
		if tr.header, err = compileRE(*r.Header); err != nil {
			return err
		}
		if err := checkRegionGroups(*r.Header, tr.header); err != nil {
			return err
		}
	}
	if r.Except != nil {
		if tr.except, err = compileRE(*r.Except); err != nil {
			return err
		}
	}
	d.regions[name] = &region{name: name, tree: tr}
	return nil
}

// checkTreeRegions checks, once every file is loaded, that the tree
// regions have a parser: that syntax: names one (a name of no parser is
// its own error).
func (d *defs) checkTreeRegions() error {
	for _, name := range sortedKeys(d.regions) {
		if r := d.regions[name]; r.tree != nil && d.parser == nil && d.parserPos.Line == 0 {
			return yamlpos.Errorf(r.tree.pos, "region %s: a region with list needs the parser named by syntax: (e.g. syntax: typescript, or syntax: lang.grammar)", name)
		}
	}
	return nil
}

// buildTree parses the input and adds the instances of the tree regions
// and their declarations to m.
func (d *defs) buildTree(ctx context.Context, m *model) {
	if d.parser == nil {
		return
	}
	var t *syntax.Tree
	for _, rname := range sortedKeys(d.regions) {
		r := d.regions[rname]
		if r.tree == nil {
			continue
		}
		if t == nil {
			var err error
			if t, err = syntax.ParseContext(ctx, d.parser, "input", []byte(m.src)); err != nil {
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
			groups, ok := r.tree.instance(t.Src, l)
			if !ok {
				continue
			}
			inst := &regionInst{from: -1, to: len(m.lines), groups: groups, list: l}
			if l.Open != nil {
				inst.from, inst.to = lineIndex(m, l.Open.Start), lineIndex(m, l.Close.Start)
			}
			m.regions[rname] = append(m.regions[rname], inst)
			d.treeItems(m, rname, inst)
		}
	}
}

// instance reports whether list l is an instance of the region, with the
// named groups of its header.
func (tr *treeRegion) instance(src []byte, l *syntax.List) (map[string]string, bool) {
	for p := l.Node.Parent; p != nil && len(tr.outside) > 0; p = p.Parent {
		if slices.Contains(tr.outside, p.Kind) {
			return nil, false
		}
	}
	groups := map[string]string{"outer": outer(src, l)}
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
func outer(src []byte, l *syntax.List) string {
	var names []string
	p := l.Node.Parent
	if l.Open != nil && l.Open.Start > l.Node.Start {
		p = l.Node // a list of mcpt's grammar notation holds its declaration
	}
	for p = parentOf(p); p != nil; p = p.Parent {
		for _, c := range p.Children {
			if c.Field == "name" {
				names = append(names, c.Text(src))
				break
			}
		}
	}
	slices.Reverse(names)
	return strings.Join(names, ".")
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

var wsRE = regexp.MustCompile(`\s+`)

func collapse(s string) string { return strings.TrimSpace(wsRE.ReplaceAllString(s, " ")) }

func lineIndex(m *model, off int) int {
	i, _ := slices.BinarySearch(m.offsets, off+1)
	return i - 1
}

// treeItems adds the declarations of a tree region's instance: the members
// that a kind of the region takes (by node type) and matches (its pattern
// on the member's text, white space collapsed).
func (d *defs) treeItems(m *model, rname string, inst *regionInst) {
	src := inst.list.Tree.Src
	lists, decls := d.declTypes()
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

// lineText is the text templates see as a declaration's .text: its line,
// or in a tree region its member's text.
func (dc *decl) lineText(m *model) string {
	if dc.text != "" {
		return dc.text
	}
	return m.lines[dc.line]
}

// treeSpots are the spots of a tree region's instance: before its first
// member, between two, after the last; the inserted text takes its layout
// from the list (syntax.Spot.Insert).
func (r *rel) treeSpots(m *model, inst *regionInst, add func(*spot)) {
	b := 0 // the items before the spot (the spots come in order)
	for _, sp := range inst.list.Spots() {
		for b < len(inst.member) && inst.member[b] < sp.Index {
			b++
		}
		e := sp.Insert("")
		s := &spot{offset: e.Start, end: e.End, inst: inst, tree: sp, group: inst}
		if r.clone != nil && r.clone.source(s) == nil {
			continue // nothing to copy there: no spot
		}
		s.Desc, s.Kind = sp.Desc, r.boundaries.name
		s.text = func(ins string) string { return sp.Insert(ins).Text }
		b := b // (each spot's own)
		s.data = func() map[string]any { return r.boundaryData(m, inst, b) }
		add(s)
	}
}

// named gives a parse error of an input the input's name.
func named(err error, name string) error {
	var se *syntax.Error
	if errors.As(err, &se) {
		c := *se
		c.Name = name
		return fmt.Errorf("%w", &c)
	}
	return err
}

// memberText is inserted text as a kind of a tree region sees a member:
// without the list's separator at its end, white space collapsed.
func memberText(ins, sep string) string {
	t := strings.TrimSpace(ins)
	if sep != "" {
		t = strings.TrimSuffix(t, sep)
	}
	return collapse(t)
}

// nodeTypes are the node types of the syntax tree that the relation's spots
// are made of: the list types of the tree region whose boundaries are its
// spots, and the member types of its list kinds in a tree region (the
// region's list types when it names none). A relation on line regexps has
// none.
func (r *rel) nodeTypes() []string {
	var types []string
	if r.boundaries != nil && r.boundaries.tree != nil {
		types = append(types, r.boundaries.tree.spec.Lists...)
	}
	for _, ls := range r.lists {
		reg := r.d.regions[ls.kind.region]
		switch {
		case reg == nil || reg.tree == nil:
		case len(ls.kind.nodes) > 0:
			types = append(types, ls.kind.nodes...)
		case len(reg.tree.spec.Members) > 0:
			types = append(types, reg.tree.spec.Members...)
		default:
			types = append(types, reg.tree.spec.Lists...)
		}
	}
	slices.Sort(types)
	return slices.Compact(types)
}

// holds returns the first node type of the relation's (see nodeTypes) that
// the input's syntax tree has, "" when it has none. The tree is the one the
// spots are found in, parsed once per input.
func (r *rel) holds(ctx context.Context, in relation.Input) (string, error) {
	types := r.nodeTypes()
	if len(types) == 0 {
		return "", nil
	}
	m := r.d.parse(ctx, in.Src)
	if m.err != nil {
		return "", m.err
	}
	found := ""
	syntax.Walk(m.tree.Root, func(n *syntax.Node) bool {
		if found == "" && slices.Contains(types, n.Kind) {
			found = n.Kind
		}
		return found == ""
	})
	return found, nil
}

// treeList is the list of the elements of a list kind's declaration in a
// tree region: the first node of the declaration that, read as a list, has
// the elements as its members, in order (the values of `enumeration Color
// { Red, Green }`). sep is the separator of a list of one element.
func treeList(dc *decl, sep string) *syntax.List {
	t := dc.member.List.Tree
	var list *syntax.List
	syntax.Walk(dc.member.Node, func(n *syntax.Node) bool {
		if list != nil || len(n.Children) == 0 {
			return false
		}
		ls := syntax.Lists(t.Sub(n), syntax.ListSpec{Lists: []string{n.Kind}, Sep: sep})
		if len(ls) > 0 && ls[0].Node == n && len(ls[0].Members) == len(dc.names) {
			same := true
			for i, m := range ls[0].Members {
				same = same && m.Name == dc.names[i]
			}
			if same {
				list = ls[0]
			}
		}
		return list == nil
	})
	return list
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
func (d *defs) declTypes() (lists, decls map[string]bool) {
	d.typesOnce.Do(func() {
		d.lists, d.decls = map[string]bool{}, map[string]bool{}
		for _, r := range d.regions {
			if r.tree != nil {
				for _, t := range r.tree.spec.Lists {
					d.lists[t] = true
				}
			}
		}
		for _, k := range d.kinds {
			for _, t := range k.nodes {
				d.decls[t] = true
			}
		}
	})
	return d.lists, d.decls
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
