package yamlrel

// The resolve pass: every template of a relation file is checked, when the
// file loads, against the bindings of the place where it is evaluated, so
// that a misspelt binding, kind, choice, let, table or field is an error
// at its line and column before any seed is read. A name is an error only
// when no spot can bind it: .prev.timer names a kind, and is no error
// where there is no timer before the spot (it is empty there).

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"text/template/parse"

	"github.com/mcpt-tool/mcpt/internal/suggest"
	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"github.com/mcpt-tool/mcpt/relation"
)

// shape is what the resolve pass knows of a value a template sees: a map
// whose keys are all known (keys, each the shape of its value; noun names
// what a key is, "kind" or "table"), or a list whose elements it knows
// (elem). A nil shape is a value of which nothing is known: a string, a
// number, a value a function returns. Nothing below it is checked.
type shape struct {
	noun string
	keys map[string]*shape
	elem *shape
}

func mapOf(noun string, keys ...string) *shape {
	s := &shape{noun: noun, keys: map[string]*shape{}}
	for _, k := range keys {
		s.keys[k] = nil
	}
	return s
}

func listOf(elem *shape) *shape { return &shape{elem: elem} }

// union is a shape that has every key and element of a and b: what one of
// two places binds. Of a value unknown in one of them, nothing is known.
func union(a, b *shape) *shape {
	if a == nil || b == nil {
		return nil
	}
	u := &shape{noun: a.noun}
	if a.keys != nil && b.keys != nil {
		u.keys = map[string]*shape{}
		for k, v := range a.keys {
			u.keys[k] = v
		}
		for k, v := range b.keys {
			if w, ok := u.keys[k]; ok {
				u.keys[k] = union(w, v)
			} else {
				u.keys[k] = v
			}
		}
	}
	if a.elem != nil && b.elem != nil {
		u.elem = union(a.elem, b.elem)
	}
	if u.keys == nil && u.elem == nil {
		return nil
	}
	return u
}

// set adds the key k of shape v to the map s.
func (s *shape) set(k string, v *shape) *shape {
	s.keys[k] = v
	return s
}

// groupNames are the named groups of a pattern.
func groupNames(re *regexp.Regexp) []string {
	if re == nil {
		return nil
	}
	var out []string
	for _, g := range re.SubexpNames() {
		if g != "" {
			out = append(out, g)
		}
	}
	return out
}

// regionGroups is the shape of .region's groups, and of an item's .region:
// the named groups of the region's from line (or, in a tree region, of its
// header, and outer).
func regionGroups(d *defs, name string) *shape {
	s := mapOf("group of region " + name)
	reg := d.regions[name]
	switch {
	case reg == nil:
		return nil
	case reg.tree != nil:
		s.keys["outer"] = nil // the declarations that hold the list's
		for _, g := range groupNames(reg.tree.header) {
			s.keys[g] = nil
		}
	default:
		for _, g := range groupNames(reg.from) {
			s.keys[g] = nil
		}
	}
	return s
}

// itemShape is what templates see of a declaration of a kind (itemMap,
// and the kind's lets).
func itemShape(d *defs, k *kind) *shape {
	s := mapOf("field of a "+k.name+" item", "kind", "name", "line", "text", "index", "leading")
	s.keys["names"] = nil
	s.keys["region"] = regionGroups(d, k.region)
	for _, g := range k.groupNames() {
		if _, taken := s.keys[g]; !taken {
			s.keys[g] = nil
		}
	}
	for _, l := range k.lets {
		s.keys[l.name] = nil
	}
	return s
}

// itemsOf is the shape of a list of the declarations of the kinds of
// region rname (all kinds when rname is "").
func itemsOf(d *defs, rname string) *shape {
	var u *shape
	for _, kn := range d.kindList {
		k := d.kinds[kn]
		if rname != "" && k.region != rname {
			continue
		}
		if u == nil {
			u = itemShape(d, k)
		} else {
			u = union(u, itemShape(d, k))
		}
	}
	if u != nil {
		u.noun = "field of an item"
	}
	return listOf(u)
}

// byKind is a map with a key per kind, each of shape v.
func byKind(d *defs, v func(*kind) *shape) *shape {
	s := mapOf("kind")
	for _, kn := range d.kindList {
		s.keys[kn] = v(d.kinds[kn])
	}
	givenInError(d, s, "kind")
	return s
}

// givenInError adds to the map s a key of unknown shape for every
// definition of what (kind, table) that was given but is in error: its
// error is reported, and a template naming it would say no more.
func givenInError(d *defs, s *shape, what string) {
	for key := range d.sources {
		if name, ok := strings.CutPrefix(key, what+" "); ok {
			if _, known := s.keys[name]; !known {
				s.keys[name] = nil
			}
		}
	}
}

// globalShape adds to s what every spot of a relation binds
// (globalData).
func globalShape(d *defs, s *shape) *shape {
	for _, c := range d.capOrder {
		s.keys[c] = nil
	}
	none := func(*kind) *shape { return nil }
	s.set("first", byKind(d, none)).set("last", byKind(d, none)).set("count", byKind(d, none))
	s.set("decls", byKind(d, func(k *kind) *shape { return listOf(itemShape(d, k)) }))
	tables := mapOf("table")
	for name, rows := range d.tables {
		row := mapOf("column of table " + name)
		for _, r := range rows {
			for c := range r {
				row.keys[c] = nil
			}
		}
		tables.keys[name] = listOf(row)
	}
	givenInError(d, tables, "table")
	s.set("tables", tables)
	return s
}

// spotShape adds to s what the relation's spots bind: prev, next and
// region at a boundary, list in a list (but not the lets of lists).
func (r *rel) spotShape(s *shape) *shape {
	d := r.d
	if reg := r.boundaries; reg != nil {
		none := func(*kind) *shape { return nil }
		s.set("prev", byKind(d, none)).set("next", byKind(d, none))
		region := regionGroups(d, reg.name)
		if region == nil {
			region = mapOf("key of .region")
		}
		region.noun = "key of .region"
		items := itemsOf(d, reg.name)
		region.set("items", items).set("before", items).set("after", items)
		region.set("index", nil).set("line", nil)
		region.set("names", byKind(d, func(*kind) *shape { return listOf(nil) }))
		region.set("first", byKind(d, none)).set("last", byKind(d, none)).set("count", byKind(d, none))
		s.set("region", region)
	}
	var list *shape
	for _, ls := range r.lists {
		l := mapOf("key of .list", "before", "after", "count", "kind", "index")
		l.keys["names"] = listOf(nil)
		for _, g := range ls.kind.groupNames() {
			if _, taken := l.keys[g]; !taken {
				l.keys[g] = nil
			}
		}
		if list == nil {
			list = l
		} else {
			list = union(list, l)
		}
	}
	if list != nil {
		s.set("list", list)
	}
	return s
}

// resolveRelation checks every template of the relation against what is
// bound where it is evaluated: the templates of the binding steps (lets,
// choices) against what the steps before them bind (bindSteps), the other
// templates, which its unit registered as they were made, against all of
// it and what the checks bind (for_each, read, .out, .clone).
func (r *rel) resolveRelation() error {
	rs := newResolving()
	s := rs.shapeSteps(r, bindSteps, mapOf("binding"))
	u := r.unit
	// The pass that sees every template gives each the number form.
	for _, t := range u.tmpls {
		t.run.form = r.d.numbers
	}
	o, o2 := mapOf("value read from o"), mapOf("value read from o′")
	for _, rd := range u.reads {
		if rd.o2 {
			o2.keys[rd.name] = nil
		} else {
			o.keys[rd.name] = nil
		}
	}
	if len(u.reads) > 0 {
		s.set("o", o).set("o2", o2)
	}
	for _, f := range u.each {
		s.keys[f.as] = nil
	}
	s.set("out", nil)
	if r.clone != nil {
		c := mapOf("key of .clone", "of", "text")
		if len(r.clone.numbers) > 0 {
			c.keys["number"] = nil
		}
		if r.clone.inner {
			c.keys["from"], c.keys["names"], c.keys["fresh"] = listOf(nil), listOf(nil), listOf(nil)
		}
		s.set("clone", c)
	}
	// The with of a substitute edit sees the other templates' bindings
	// and .match, the groups of its pattern.
	for _, w := range u.withs {
		ws := &shape{noun: s.noun, keys: maps.Clone(s.keys)}
		ws.keys["match"] = matchShape(w.pattern)
		rs.resolve(w.with, ws)
	}
	for _, t := range u.tmpls {
		rs.resolve(t, s)
	}
	for _, f := range u.each {
		if f.among.t == nil {
			rs.errs.Add(resolvePath(f.among.str, s))
		}
	}
	return rs.errs.Err()
}

// resolvePath checks a dotted path to a binding (among: E.names).
func resolvePath(p yamlpos.String, s *shape) *yamlpos.Error {
	off := 0
	for _, part := range strings.Split(p.Value, ".") {
		if s == nil || s.keys == nil {
			return nil
		}
		v, ok := s.keys[part]
		if !ok {
			return yamlpos.Errorf(p.PosAt(off), "%s", missing(s, p.Value[:max(off-1, 0)], part))
		}
		s = v
		off += len(part) + 1
	}
	return nil
}

// missing says that the map of shape s at path (".prev") has no key k.
func missing(s *shape, path, k string) string {
	known := slices.Sorted(func(yield func(string) bool) {
		for name := range s.keys {
			if !yield(name) {
				return
			}
		}
	})
	// A noun "field of a timer item" names what the map holds and, when
	// the path does not say (dot in a range), what the map is.
	noun, of, _ := strings.Cut(s.noun, " of ")
	where := ""
	switch {
	case path != "":
		where = " in " + path
	case of != "":
		where = " in " + of
	}
	msg := "no " + noun + " " + k + where
	if hint := suggest.DidYouMean(k, known); hint != "" {
		return msg + hint
	}
	if len(known) > 0 && len(known) <= 16 {
		return msg + " (there are: " + strings.Join(known, ", ") + ")"
	}
	return msg
}

// resolver walks the parse tree of one template.
type resolver struct {
	t    *tmpl
	root *shape
	errs *yamlpos.ErrorList
}

// resolveTemplate checks the names of the template t against root, what
// is bound where it is evaluated.
func resolveTemplate(t *tmpl, root *shape, errs *yamlpos.ErrorList) {
	rv := &resolver{t: t, root: root, errs: errs}
	for _, name := range sortedKeys(t.trees) {
		dot := root
		if t.trees[name] != t.tree {
			dot = nil // a defined template: its dot is what it is called with
		}
		rv.node(t.trees[name].Root, dot)
	}
}

func (rv *resolver) node(n parse.Node, dot *shape) {
	switch x := n.(type) {
	case *parse.ListNode:
		if x == nil {
			return
		}
		for _, c := range x.Nodes {
			rv.node(c, dot)
		}
	case *parse.ActionNode:
		rv.pipe(x.Pipe, dot)
	case *parse.IfNode:
		rv.pipe(x.Pipe, dot)
		rv.node(x.List, dot)
		rv.node(x.ElseList, dot)
	case *parse.WithNode:
		rv.node(x.List, rv.pipe(x.Pipe, dot))
		rv.node(x.ElseList, dot)
	case *parse.RangeNode:
		var elem *shape
		if s := rv.pipe(x.Pipe, dot); s != nil {
			elem = s.elem
		}
		rv.node(x.List, elem)
		rv.node(x.ElseList, dot)
	case *parse.TemplateNode:
		rv.pipe(x.Pipe, dot)
	}
}

// pipe checks a pipeline and returns the shape of its value, when it is
// a field or a variable alone.
func (rv *resolver) pipe(p *parse.PipeNode, dot *shape) *shape {
	if p == nil {
		return nil
	}
	var last *shape
	for _, c := range p.Cmds {
		last = nil
		for _, a := range c.Args {
			s := rv.arg(a, dot)
			if len(c.Args) == 1 {
				last = s
			}
		}
	}
	if len(p.Cmds) != 1 {
		return nil
	}
	return last
}

// arg checks an argument of a command and returns the shape of its value.
func (rv *resolver) arg(n parse.Node, dot *shape) *shape {
	switch x := n.(type) {
	case *parse.FieldNode:
		return rv.fields(dot, x.Ident, "."+strings.Join(x.Ident, "."), int(x.Pos), 0)
	case *parse.VariableNode:
		if x.Ident[0] != "$" || len(x.Ident) == 1 {
			if x.Ident[0] == "$" {
				return rv.root
			}
			return nil
		}
		return rv.fields(rv.root, x.Ident[1:], strings.Join(x.Ident, "."), int(x.Pos), 1)
	case *parse.ChainNode:
		s := rv.arg(x.Node, dot)
		if x.Node.Type() == parse.NodePipe {
			s = rv.pipe(x.Node.(*parse.PipeNode), dot)
		}
		return rv.fields(s, x.Field, "."+strings.Join(x.Field, "."), int(x.Pos), 0)
	case *parse.PipeNode:
		return rv.pipe(x, dot)
	}
	return nil
}

// fields follows the field names idents from the shape s, reporting the
// first that cannot be there. text is how the template writes them
// (".prev.timr", "$.E.names"), around offset at of its source (text/template
// places a chain at one of its names); lead is the length of what text
// has before its first dot.
func (rv *resolver) fields(s *shape, idents []string, text string, at, lead int) *shape {
	src := rv.t.src
	start := strings.LastIndex(src[:min(len(src), at+len(text))], text)
	for i, id := range idents {
		if s == nil || s.keys == nil {
			return nil
		}
		v, ok := s.keys[id]
		if !ok {
			off := at
			path := text[:lead]
			if start >= 0 {
				off = start + lead
				for _, prev := range idents[:i] {
					off += len(prev) + 1
				}
				path = text[:off-start]
				off++ // past the dot
			}
			rv.errs.Add(yamlpos.Errorf(rv.t.str.PosAt(off), "%s", missing(s, path, id)))
			return nil
		}
		s = v
	}
	return s
}

// resolveDefs checks the templates of the definitions: the lets of each
// kind against what a declaration's let sees (itemLets), and the lets of
// the file against what the spots of any of the relations spotted bind
// (the steps seen atSpot).
func resolveDefs(d *defs, spotted []*rel) error {
	var errs yamlpos.ErrorList
	for _, t := range d.unit.tmpls {
		t.run.form = d.numbers
	}
	global := globalShape(d, mapOf("binding"))
	for _, kn := range d.kindList {
		k := d.kinds[kn]
		s := itemShape(d, k)
		s.noun = "binding"
		s.set("decls", global.keys["decls"]).set("tables", global.keys["tables"])
		for _, c := range d.capOrder {
			s.keys[c] = nil
		}
		for _, l := range k.lets {
			resolveTemplate(l.tmpl, s, &errs)
		}
	}
	var spots *shape
	rs := newResolving()
	for _, r := range spotted {
		s := rs.shapeSteps(r, stepsThrough(atSpot), mapOf("binding"))
		if spots == nil {
			spots = s
		} else {
			spots = union(spots, s)
		}
	}
	if spots != nil {
		rs.bindLets(spots, d.lets, true)
	}
	errs = append(errs, rs.errs...)
	return errs.Err()
}

// flagsShape is what templates see of .flags: the dimensions the pack
// knows, when it says which; of a pack that does not, nothing is known.
func flagsShape(sup *relation.Supports) *shape {
	if sup == nil || sup.Flags == nil {
		return nil
	}
	return mapOf("flag the pack supports (supports.flags)", slices.Sorted(maps.Keys(sup.Flags))...)
}
