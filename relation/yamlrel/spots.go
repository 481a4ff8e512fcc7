package yamlrel

// The spots pass: the spots of a relation in the model of an input, and
// the conditions that keep or leave them out.

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/syntax"
)

// scopeKeys are the keys that boundary spots add to .region next to the
// named groups of its from pattern, which therefore may not use them.
var scopeKeys = []string{"items", "index", "before", "after", "names", "first", "last", "count", "line"}

// spot is a spot with everything Mutate needs. The spots of a region
// instance's boundaries are the same for every relation on it (but for
// their index among the relation's spots, which Spots sets): they are made
// once per model (regionInst.placesOf) and shared, so that a seed of many
// declarations holds each of them once, not once per relation. A spot
// keeps no closure: what it inserts and what templates see of it follow
// from its fields (text, data).
type spot struct {
	relation.Spot
	offset int         // where the insertion goes in the input
	end    int         // for a spot of a tree region: the inserted text replaces offset to end
	inst   *regionInst // the region instance of a spot of a tree region
	tree   syntax.Spot // and its spot in the list
	// group is the region instance of a boundary spot: its spots share
	// the spots conditions that read nothing of a spot (rel.perList).
	group *regionInst
	b     int // a boundary spot's place among group's items: how many are before it
	// a list spot: the declaration whose list it is in, its gap (0 before
	// the first element) and the relation's list it is a spot of
	dc *decl
	g  int
	ls *listSpot
}

// text is what the mutation inserts at the spot for ins, the rendered
// insert.
func (s *spot) text(ins string) string {
	switch {
	case s.tree.List != nil:
		// the layout is the list's: on its line, or an element a line
		return s.tree.Insert(ins).Text
	case s.ls == nil: // a boundary of a line region
		return ins + "\n"
	case len(s.dc.names) == 0:
		return ins
	case s.g == 0:
		return ins + s.ls.join
	}
	return s.ls.join + ins
}

// lets are the lets of the spot's list (list spots).
func (s *spot) lets() []let {
	if s.ls == nil {
		return nil
	}
	return s.ls.lets
}

// data is the spot's template data, a fresh map at each call.
func (r *rel) data(m *model, s *spot) map[string]any {
	if s.ls == nil {
		return r.boundaryData(m, s.group, s.b)
	}
	dc, n := s.dc, len(s.dc.names)
	before, after := "", ""
	if s.g > 0 {
		before = dc.names[s.g-1]
	}
	if s.g < n {
		after = dc.names[s.g]
	}
	list := map[string]any{"before": before, "after": after, "count": n, "names": dc.names, "kind": s.ls.kind.name, "index": s.g}
	for k, v := range dc.groups {
		if _, taken := list[k]; !taken {
			list[k] = v
		}
	}
	data := r.globalData(m)
	data["list"] = list
	return data
}

func (r *rel) spots(ctx context.Context, in relation.Input) ([]relation.Spot, error) {
	m := r.models.parse(ctx, in.Src)
	ss, err := r.find(ctx, m, in)
	if err != nil {
		return nil, err
	}
	out := make([]relation.Spot, len(ss))
	for i, s := range ss {
		out[i] = s.Spot
		out[i].Index = i
	}
	return out, nil
}

// applicable reports whether every kind a choice draws from has a
// declaration in the input.
func (r *rel) applicable(m *model) bool {
	for _, c := range r.choose {
		if c.from != nil && len(m.decls[c.from.name]) == 0 {
			return false
		}
	}
	return true
}

// find returns the spots of the relation in the input that m models. The
// spots are shared between callers and never changed: each call of a spot's
// data builds a fresh map.
func (r *rel) find(ctx context.Context, m *model, in relation.Input) ([]*spot, error) {
	k := foundKey{r, in.Name, settingKey(in)}
	m.foundMu.Lock()
	f, ok := m.found[k]
	m.foundMu.Unlock()
	if ok {
		return f.spots, f.err
	}
	ss, err := r.findAll(ctx, m, in)
	if ctx.Err() != nil {
		return nil, ctx.Err() // maybe cut short: not the spots of the input
	}
	m.foundMu.Lock()
	if m.found == nil {
		m.found = map[foundKey]foundSpots{}
	}
	m.found[k] = foundSpots{ss, err}
	m.foundMu.Unlock()
	return ss, err
}

func (r *rel) findAll(ctx context.Context, m *model, in relation.Input) ([]*spot, error) {
	if m.err != nil {
		return nil, named(m.err, in.Name)
	}
	if !r.applicable(m) {
		return nil, nil
	}
	var out []*spot
	var err error
	shared := map[condKey]bool{}
	add := func(s *spot) {
		if err != nil {
			return
		}
		ok, kerr := r.keep(ctx, s, m, in, shared)
		if kerr != nil {
			err = fmt.Errorf("relation %s: spots.if: %v", r.name, kerr)
		}
		if !ok {
			return
		}
		out = append(out, s)
	}
	if r.boundaries != nil {
		for _, inst := range m.regions[r.boundaries.name] {
			if inst.list != nil {
				r.treeSpots(m, inst, add)
				continue
			}
			r.boundarySpots(m, inst, add)
		}
	}
	for i := range r.lists {
		ls := &r.lists[i]
		for _, dc := range m.decls[ls.kind.name] {
			r.listSpots(m, ls, dc, add)
		}
	}
	return out, err
}

// boundarySpots are the spots of a region instance: its start, before each
// declaration but the first, and after the last one.
func (r *rel) boundarySpots(m *model, inst *regionInst, add func(*spot)) {
	for _, s := range inst.placesOf(m, r.boundaries.name) {
		add(s)
	}
}

// placesOf returns the boundary spots of the instance of region rname,
// made on first use and shared by the relations on it: for a tree region
// the spots of its list (syntax.Spot), else its start, before each
// declaration but the first, and after the last one.
func (inst *regionInst) placesOf(m *model, rname string) []*spot {
	inst.placesOnce.Do(func() {
		if inst.list != nil {
			inst.places = treePlaces(m, inst, rname)
			return
		}
		n := len(inst.items)
		inst.places = make([]*spot, n+1)
		all := make([]spot, n+1) // (one allocation for the instance's spots)
		for b := 0; b <= n; b++ {
			var off int
			var desc string
			switch {
			case b == 0:
				off = lineEnd(m, inst.from)
				desc = "start of " + rname
			default:
				off = lineEnd(m, inst.items[b-1].end)
				it := inst.items[b-1]
				desc = fmt.Sprintf("after %s %s", it.kind.name, it.key())
			}
			if b == n && n > 0 {
				desc += " (end of " + rname + ")"
			}
			s := &all[b]
			s.offset, s.group, s.b = off, inst, b
			s.Desc, s.Kind = desc, rname
			s.Line, s.Col = position(m, off)
			inst.places[b] = s
		}
	})
	return inst.places
}

// treePlaces are the spots of a tree region's instance: before its first
// member, between two, after the last; the inserted text takes its layout
// from the list (syntax.Spot.Insert).
func treePlaces(m *model, inst *regionInst, rname string) []*spot {
	sps := inst.list.Spots()
	out := make([]*spot, len(sps))
	all := make([]spot, len(sps))
	b := 0 // the items before the spot (the spots come in order)
	for i, sp := range sps {
		for b < len(inst.member) && inst.member[b] < sp.Index {
			b++
		}
		e := sp.Insert("")
		s := &all[i]
		s.offset, s.end, s.inst, s.tree, s.group, s.b = e.Start, e.End, inst, sp, inst, b
		s.Desc, s.Kind = sp.Desc, rname
		s.Line, s.Col = position(m, s.offset)
		out[i] = s
	}
	return out
}

// listSpots are the gaps of the list of a declaration: before the first
// element, between two, after the last.
func (r *rel) listSpots(m *model, ls *listSpot, dc *decl, add func(*spot)) {
	n := len(dc.names)
	var tl *syntax.List // the list in the syntax tree, for a declaration of a tree region
	var tspots []syntax.Spot
	if dc.member != nil {
		if tl = treeList(dc, strings.TrimSpace(ls.join)); tl == nil {
			return
		}
		tspots = tl.Spots()
	}
	all := make([]spot, n+1)
	for g := 0; g <= n; g++ {
		s := &all[g]
		s.dc, s.g, s.ls = dc, g, ls
		s.Kind = ls.kind.name
		before, after := "", ""
		if g > 0 {
			before = dc.names[g-1]
		}
		if g < n {
			after = dc.names[g]
		}
		where := fmt.Sprintf("%s list of line %d", ls.kind.name, dc.line+1)
		switch {
		case tl != nil:
			sp := tspots[g]
			e := sp.Insert("")
			s.offset, s.end, s.tree = e.Start, e.End, sp
			where = ls.kind.name + " list" // whatever its lines
			if dc.name != "" {
				where += " of " + dc.name
			}
		case n == 0:
			s.offset = dc.listBeg
		case g == 0:
			s.offset = dc.elems[0][0]
		default:
			s.offset = dc.elems[g-1][1]
		}
		switch {
		case before != "" && after != "":
			s.Desc = fmt.Sprintf("%s, between %s and %s", where, before, after)
		case after != "":
			s.Desc = fmt.Sprintf("%s, before %s", where, after)
		default:
			s.Desc = fmt.Sprintf("%s, after %s", where, before)
		}
		s.Line, s.Col = position(m, s.offset)
		add(s)
	}
}

func lineEnd(m *model, i int) int {
	if i+1 < len(m.offsets) {
		return m.offsets[i+1]
	}
	// The last line has no newline: a boundary after it starts a new line.
	return len(m.src)
}

// globalData is the template data every spot of an input shares: captures,
// first/last/count of each kind. The maps it holds are the model's, made
// once: a spot's data is made in time independent of the input's size.
func (r *rel) globalData(m *model) map[string]any {
	g := m.globals(r.d)
	data := make(map[string]any, len(r.d.capOrder)+5)
	for _, name := range r.d.capOrder {
		data[name] = m.captures[name]
	}
	data["first"], data["last"], data["count"] = g.first, g.last, g.count
	data["decls"], data["tables"] = m.declItems, r.d.tableData()
	return data
}

// globalMaps are the first, last and count of each kind in a model.
type globalMaps struct {
	first, last, count map[string]any
}

// globals returns the first, last and count of each kind, made on first
// use.
func (m *model) globals(d *defs) *globalMaps {
	m.globalOnce.Do(func() {
		g := &globalMaps{first: map[string]any{}, last: map[string]any{}, count: map[string]any{}}
		for _, kn := range d.kindList {
			ds := m.decls[kn]
			g.first[kn], g.last[kn], g.count[kn] = "", "", 0
			if len(ds) > 0 {
				g.first[kn] = ds[0].firstKey()
				g.last[kn] = ds[len(ds)-1].key()
			}
			n := 0
			for _, dc := range ds {
				if dc.kind.list != "" && !dc.kind.named {
					n += len(dc.names)
				} else {
					n++
				}
			}
			g.count[kn] = n
		}
		m.global = g
	})
	return m.global
}

func (d *decl) firstKey() string {
	if d.kind.named {
		return d.name
	}
	if len(d.names) > 0 {
		return d.names[0]
	}
	return ""
}

// boundaryData adds, for a boundary spot, the nearest declaration of each
// kind above it (prev) and below it (next).
func (r *rel) boundaryData(m *model, inst *regionInst, b int) map[string]any {
	data := r.globalData(m)
	sc := inst.scopeOf(r.d)
	prev, next := make(map[string]any, len(r.d.kindList)), make(map[string]any, len(r.d.kindList))
	for _, kn := range r.d.kindList {
		prev[kn], next[kn] = "", ""
		at := sc.at[kn]
		j, _ := slices.BinarySearch(at, b) // the first of the kind at or after b
		if j > 0 {
			prev[kn] = inst.items[at[j-1]].key()
		}
		if j < len(at) {
			next[kn] = inst.items[at[j]].firstKey()
		}
	}
	data["prev"], data["next"] = prev, next
	region := make(map[string]any, len(inst.groups)+len(scopeKeys))
	for k, v := range inst.groups {
		region[k] = v
	}
	region["items"] = sc.items
	region["index"] = b
	region["before"] = sc.items[:b:b]
	region["after"] = sc.items[b:]
	region["names"], region["first"], region["last"], region["count"] = sc.names, sc.first, sc.last, sc.count
	region["line"] = inst.from + 1
	data["region"] = region
	return data
}

// scope is what the boundary spots of a region instance see of its
// declarations (.region): all of them, and per kind their names, first,
// last and count; and where the declarations of each kind are among them.
type scope struct {
	items                     []map[string]any
	names, first, last, count map[string]any
	at                        map[string][]int
}

// scopeOf returns the scope of the instance: made on first use and kept
// for an instance of many declarations, whose spots share it; made again
// at each use for one of a few, which costs less than keeping it (a seed
// of thousands of small instances, a struct's fields, kept kilobytes for
// each).
func (inst *regionInst) scopeOf(d *defs) *scope {
	if len(inst.items) < memoMin {
		return inst.makeScope(d)
	}
	inst.scopeOnce.Do(func() { inst.scope = inst.makeScope(d) })
	return inst.scope
}

// noNames is the names of a kind without a declaration in a scope: one
// value for all of them (never written to: a name is appended to a copy).
var noNames any = []string{}

func (inst *regionInst) makeScope(d *defs) *scope {
	sc := &scope{items: make([]map[string]any, len(inst.items)),
		names: make(map[string]any, len(d.kindList)), first: make(map[string]any, len(d.kindList)),
		last: make(map[string]any, len(d.kindList)), count: make(map[string]any, len(d.kindList)), at: map[string][]int{}}
	for i, dc := range inst.items {
		sc.items[i] = dc.item
	}
	wholeList(sc.items) // (.region.before and .region.after are its parts)
	for _, kn := range d.kindList {
		sc.names[kn], sc.first[kn], sc.last[kn], sc.count[kn] = noNames, "", "", 0
	}
	for i, dc := range inst.items {
		kn := dc.kind.name
		ns := append(sc.names[kn].([]string), dc.key())
		sc.names[kn] = ns
		if len(ns) == 1 {
			sc.first[kn] = dc.firstKey()
		}
		sc.last[kn] = dc.key()
		sc.count[kn] = len(ns)
		sc.at[kn] = append(sc.at[kn], i)
	}
	return sc
}

// position is the line and column (1-based, counting bytes) of offset off
// of the model's input.
func position(m *model, off int) (line, col int) {
	i := lineIndex(m, off)
	start := m.offsets[i]
	if nl := strings.LastIndexByte(m.src[start:off], '\n'); nl >= 0 {
		// (the end of an input whose last line ends with a newline)
		return i + 2, off - (start + nl)
	}
	return i + 1, off - start + 1
}

// condKey names a spots condition (0 when, 1… the excepts) of the spots
// of a region instance.
type condKey struct {
	group *regionInst
	cond  int
}

// keep reports whether a spot passes the relation's spots.when condition
// and none of its excepts. A condition that reads nothing of a boundary
// spot but its region instance is evaluated once for the instance: its
// value is in shared.
func (r *rel) keep(ctx context.Context, s *spot, m *model, in relation.Input, shared map[condKey]bool) (bool, error) {
	if r.when == nil && len(r.except) == 0 {
		return true, nil
	}
	var data map[string]any
	bind := func() error {
		b := &binding{ctx: ctx, r: r, m: m, s: s, in: in}
		err := b.evalSteps(stepsThrough(atCondition))
		data = b.data
		return err
	}
	if s.group == nil || r.spotLets {
		// (the lets, and what they say of this spot, at every spot)
		if err := bind(); err != nil {
			return false, err
		}
	}
	eval := func(i int, t *tmpl) (bool, error) {
		k := condKey{s.group, i}
		if v, ok := shared[k]; ok && s.group != nil && r.perList[i] {
			return v, nil
		}
		if data == nil {
			if err := bind(); err != nil {
				return false, err
			}
		}
		x, err := t.render(ctx, data)
		if err != nil {
			return false, err
		}
		if s.group != nil && r.perList[i] {
			shared[k] = truthy(x)
		}
		return truthy(x), nil
	}
	for i, e := range r.except {
		x, err := eval(i+1, e)
		if err != nil || x {
			return false, err
		}
	}
	if r.when == nil {
		return true, nil
	}
	return eval(0, r.when)
}

type foundKey struct {
	r       *rel
	name    string
	setting string // the release and flags (settingKey), which spots.if may look at
}

type foundSpots struct {
	spots []*spot
	err   error
}

// treeSpots are the spots of a tree region's instance (placesOf) where
// the relation has something to insert.
func (r *rel) treeSpots(m *model, inst *regionInst, add func(*spot)) {
	for _, s := range inst.placesOf(m, r.boundaries.name) {
		if r.clone != nil && r.clone.source(s) == nil {
			continue // nothing to copy there: no spot
		}
		add(s)
	}
}

// named gives a parse error of an input, or its refusal, the input's
// name.
func named(err error, name string) error {
	if big, ok := err.(*seedTooLarge); ok {
		c := *big
		c.name = name
		return &c
	}
	var se *syntax.Error
	if errors.As(err, &se) {
		c := *se
		c.Name = name
		return fmt.Errorf("%w", &c)
	}
	return err
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
	m := r.models.parse(ctx, in.Src)
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

// settingKey is what of the input, besides its name and text, the spots
// of a relation may depend on: the release and the flags.
func settingKey(in relation.Input) string {
	var b strings.Builder
	b.WriteString(in.Release)
	for _, dim := range slices.Sorted(maps.Keys(in.Flags)) {
		b.WriteString("\x00" + dim + "=" + in.Flags[dim])
	}
	return b.String()
}
