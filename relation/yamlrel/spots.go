package yamlrel

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/syntax"
)

// scopeKeys are the keys that boundary spots add to .region next to the
// named groups of its from pattern, which therefore may not use them.
var scopeKeys = []string{"items", "index", "before", "after", "names", "first", "last", "count", "line"}

// spot is a spot with everything Mutate needs.
type spot struct {
	relation.Spot
	offset int // where the insertion goes in the input
	end    int // for a spot of a tree region: the inserted text replaces offset to end
	text   func(ins string) string
	inst   *regionInst           // the region instance of a spot of a tree region
	tree   syntax.Spot           // and its spot in the list
	data   func() map[string]any // the spot's template data, built on demand
	lets   []let
}

func (r *rel) spots(ctx context.Context, in relation.Input) ([]relation.Spot, error) {
	m := r.d.parse(ctx, in.Src)
	ss, err := r.find(ctx, m, in)
	if err != nil {
		return nil, err
	}
	out := make([]relation.Spot, len(ss))
	for i, s := range ss {
		out[i] = s.Spot
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
	add := func(s *spot) {
		if err != nil {
			return
		}
		ok, kerr := r.keep(ctx, s, in, m.src)
		if kerr != nil {
			err = fmt.Errorf("relation %s: spots.only: %v", r.name, kerr)
		}
		if !ok {
			return
		}
		s.Index = len(out)
		line := 1 + strings.Count(m.src[:s.offset], "\n")
		col := s.offset - strings.LastIndexByte(m.src[:s.offset], '\n')
		s.Line, s.Col = line, col
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
	for _, ls := range r.lists {
		for _, dc := range m.decls[ls.kind.name] {
			r.listSpots(m, ls, dc, add)
		}
	}
	return out, err
}

// boundarySpots are the spots of a region instance: its start, before each
// declaration but the first, and after the last one.
func (r *rel) boundarySpots(m *model, inst *regionInst, add func(*spot)) {
	n := len(inst.items)
	for b := 0; b <= n; b++ {
		var off int
		var desc string
		switch {
		case b == 0:
			off = lineEnd(m, inst.from)
			desc = "start of " + r.boundaries.name
		default:
			off = lineEnd(m, inst.items[b-1].end)
			it := inst.items[b-1]
			desc = fmt.Sprintf("after %s %s", it.kind.name, it.key())
		}
		if b == n && n > 0 {
			desc += " (end of " + r.boundaries.name + ")"
		}
		s := &spot{offset: off, data: func() map[string]any { return r.boundaryData(m, inst, b) }}
		s.Desc = desc
		s.text = func(ins string) string { return ins + "\n" }
		add(s)
	}
}

// listSpots are the gaps of the list of a declaration: before the first
// element, between two, after the last.
func (r *rel) listSpots(m *model, ls listSpot, dc *decl, add func(*spot)) {
	n := len(dc.names)
	var tl *syntax.List // the list in the syntax tree, for a declaration of a tree region
	if dc.member != nil {
		if tl = treeList(dc, strings.TrimSpace(ls.join)); tl == nil {
			return
		}
	}
	for g := 0; g <= n; g++ {
		s := &spot{lets: ls.lets}
		before, after := "", ""
		if g > 0 {
			before = dc.names[g-1]
		}
		if g < n {
			after = dc.names[g]
		}
		where := fmt.Sprintf("%s list of line %d", ls.kind.name, dc.line+1)
		join := ls.join
		switch {
		case tl != nil:
			// the layout is the list's: on its line, or an element a line
			sp := tl.Spots()[g]
			e := sp.Insert("")
			s.offset, s.end, s.tree = e.Start, e.End, sp
			s.text = func(ins string) string { return sp.Insert(ins).Text }
			where = ls.kind.name + " list" // whatever its lines
			if dc.name != "" {
				where += " of " + dc.name
			}
		case n == 0:
			s.offset = dc.listBeg
			s.text = func(ins string) string { return ins }
		case g == 0:
			s.offset = dc.elems[0][0]
			s.text = func(ins string) string { return ins + join }
		default:
			s.offset = dc.elems[g-1][1]
			s.text = func(ins string) string { return join + ins }
		}
		switch {
		case before != "" && after != "":
			s.Desc = fmt.Sprintf("%s, between %s and %s", where, before, after)
		case after != "":
			s.Desc = fmt.Sprintf("%s, before %s", where, after)
		default:
			s.Desc = fmt.Sprintf("%s, after %s", where, before)
		}
		list := map[string]any{"before": before, "after": after, "count": n, "names": dc.names, "kind": ls.kind.name, "index": g}
		for k, v := range dc.groups {
			if _, taken := list[k]; !taken {
				list[k] = v
			}
		}
		s.data = func() map[string]any {
			data := r.globalData(m)
			data["list"] = list
			return data
		}
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
// first/last/count of each kind.
func (r *rel) globalData(m *model) map[string]any {
	data := map[string]any{}
	for _, name := range r.d.capOrder {
		data[name] = m.captures[name]
	}
	first, last, count := map[string]any{}, map[string]any{}, map[string]any{}
	for _, kn := range r.d.kindList {
		ds := m.decls[kn]
		first[kn], last[kn], count[kn] = "", "", 0
		if len(ds) > 0 {
			first[kn] = ds[0].firstKey()
			last[kn] = ds[len(ds)-1].key()
		}
		n := 0
		for _, dc := range ds {
			if dc.kind.list != "" && !dc.kind.named {
				n += len(dc.names)
			} else {
				n++
			}
		}
		count[kn] = n
	}
	data["first"], data["last"], data["count"] = first, last, count
	data["decls"], data["tables"] = m.declItems, r.d.tableData()
	return data
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
	prev, next := map[string]any{}, map[string]any{}
	for _, kn := range r.d.kindList {
		prev[kn], next[kn] = "", ""
	}
	for i := 0; i < b; i++ {
		it := inst.items[i]
		prev[it.kind.name] = it.key()
	}
	for i := len(inst.items) - 1; i >= b; i-- {
		it := inst.items[i]
		next[it.kind.name] = it.firstKey()
	}
	data["prev"], data["next"] = prev, next
	region := map[string]any{}
	for k, v := range inst.groups {
		region[k] = v
	}
	r.addScope(region, inst, b)
	data["region"] = region
	return data
}

// addScope adds to the .region map of a boundary spot the declarations of
// its region instance: all of them, those before and after the spot, and
// per kind their names, first, last and count.
func (r *rel) addScope(region map[string]any, inst *regionInst, b int) {
	items := make([]map[string]any, len(inst.items))
	for i, dc := range inst.items {
		items[i] = dc.item
	}
	names, first, last, count := map[string]any{}, map[string]any{}, map[string]any{}, map[string]any{}
	for _, kn := range r.d.kindList {
		names[kn], first[kn], last[kn], count[kn] = []string{}, "", "", 0
	}
	for _, dc := range inst.items {
		kn := dc.kind.name
		ns := append(names[kn].([]string), dc.key())
		names[kn] = ns
		if len(ns) == 1 {
			first[kn] = dc.firstKey()
		}
		last[kn] = dc.key()
		count[kn] = len(ns)
	}
	region["items"] = items
	region["index"] = b
	region["before"] = items[:b:b]
	region["after"] = items[b:]
	region["names"], region["first"], region["last"], region["count"] = names, first, last, count
	region["line"] = inst.from + 1
}

// keep reports whether a spot passes the relation's spots.when condition.
func (r *rel) keep(ctx context.Context, s *spot, in relation.Input, src string) (bool, error) {
	if r.when == nil && len(r.except) == 0 {
		return true, nil
	}
	data := s.data()
	data["input"] = inputData(in.Name, src)
	r.d.settingData(data, in)
	if err := evalLets(ctx, r.d.lets, data); err != nil {
		return false, err
	}
	if err := evalLets(ctx, s.lets, data); err != nil {
		return false, err
	}
	for _, e := range r.except {
		x, err := e.render(ctx, data)
		if err != nil {
			return false, err
		}
		if truthy(x) {
			return false, nil
		}
	}
	if r.when == nil {
		return true, nil
	}
	w, err := r.when.render(ctx, data)
	if err != nil {
		return false, err
	}
	return truthy(w), nil
}
