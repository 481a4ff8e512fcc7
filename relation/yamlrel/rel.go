package yamlrel

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpt-tool/mcpt/config"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
)

// rel is a compiled YAML relation.
type rel struct {
	d          *defs
	name       string
	pos        config.Pos
	boundaries *region
	lists      []listSpot
	when       *tmpl // spots.when: the condition a spot must meet
	fresh      []string
	freshLists []freshList
	freshKeys  []string // the bindings that hold fresh names: fresh, then fresh lists
	choose     []choice
	lets       []let
	insert     *tmpl
	checks     []checkT
}

type listSpot struct {
	kind *kind
	join string
	lets []let
}

type freshList struct {
	name     string
	min, max int
}

type choice struct {
	name    string
	from    *kind
	among   string // dotted path to a list binding
	amongT  *tmpl  // the path, when it is a template ("tables.{{.which}}")
	options []*tmpl
}

type checkT struct {
	equiv   *equivT
	diff    *diffT
	created *createdT
	derived *derivedT
}

type equivT struct {
	name   string
	except []*tmpl
}

type diffT struct {
	name  *tmpl
	file  *tmpl
	edits []editT
}

type editT struct {
	op          oracle.Op
	lines       *tmpl
	blankBefore bool
	anchors     []anchorT
	through     []matcherT
	when        *tmpl // the edit applies only when this renders non-empty
	pattern     *tmpl // substitute, renumber
	with        *tmpl // substitute
	by          *tmpl // renumber
}

type anchorT struct {
	when   *tmpl
	end    bool // at the end of the file
	before bool
	path   []matcherT
}

type matcherT struct {
	t  *tmpl
	re bool
}

func (d *defs) compileRelation(ry relYAML) (*relation.Relation, error) {
	r := &rel{d: d, name: ry.Name.Value, pos: ry.Name.Pos}
	if ry.Name.Value == "" {
		return nil, ry.Insert.At("relation without a name")
	}
	if ry.Spots.Boundaries == nil && len(ry.Spots.Lists) == 0 {
		return nil, ry.Name.At("relation %s: spots needs boundaries or lists", r.name)
	}
	if ry.Spots.Boundaries != nil {
		reg := d.regions[ry.Spots.Boundaries.Value]
		if reg == nil {
			return nil, ry.Spots.Boundaries.At("no region named %q", ry.Spots.Boundaries.Value)
		}
		r.boundaries = reg
	}
	for _, ls := range ry.Spots.Lists {
		k := d.kinds[ls.Kind.Value]
		if k == nil {
			return nil, ls.Kind.At("no kind named %q", ls.Kind.Value)
		}
		if k.list == "" {
			return nil, ls.Kind.At("kind %s has no list group", ls.Kind.Value)
		}
		join := k.sep + " "
		if ls.Join != nil {
			join = ls.Join.Value
		}
		lets, err := compileLets(ls.Let)
		if err != nil {
			return nil, err
		}
		r.lists = append(r.lists, listSpot{kind: k, join: join, lets: lets})
	}
	if ry.Spots.When != nil {
		t, err := mkTmpl(*ry.Spots.When)
		if err != nil {
			return nil, err
		}
		r.when = t
	}
	for _, kn := range d.kindList {
		if k := d.kinds[kn]; d.regions[k.region] == nil {
			return nil, config.Errorf(d.sources["kind "+kn], "kind %s: no region named %q", kn, k.region)
		}
	}
	seen := map[string]config.Pos{}
	bind := func(s config.String) error {
		if !identRE.MatchString(s.Value) {
			return s.At("%q is not an identifier", s.Value)
		}
		if old, ok := seen[s.Value]; ok {
			return s.At("%s bound twice (first at %s)", s.Value, old)
		}
		seen[s.Value] = s.Pos
		return nil
	}
	for _, f := range ry.Fresh {
		if err := bind(f); err != nil {
			return nil, err
		}
		r.fresh = append(r.fresh, f.Value)
	}
	for _, fl := range ry.FreshLists {
		if err := bind(fl.Name); err != nil {
			return nil, err
		}
		if fl.Min < 1 || fl.Max < fl.Min || fl.Max > 100 {
			return nil, fl.Name.At("fresh list %s: need 1 <= min <= max <= 100", fl.Name.Value)
		}
		r.freshLists = append(r.freshLists, freshList{name: fl.Name.Value, min: fl.Min, max: fl.Max})
	}
	r.freshKeys = slices.Clone(r.fresh)
	for _, fl := range r.freshLists {
		r.freshKeys = append(r.freshKeys, fl.name)
	}
	for _, c := range ry.Choose {
		if err := bind(c.Name); err != nil {
			return nil, err
		}
		ch := choice{name: c.Name.Value}
		n := 0
		if c.From != nil {
			n++
			ch.from = d.kinds[c.From.Value]
			if ch.from == nil {
				return nil, c.From.At("no kind named %q", c.From.Value)
			}
		}
		if c.Among != nil {
			n++
			ch.among = c.Among.Value
			if strings.Contains(ch.among, "{{") {
				t, err := mkTmpl(*c.Among)
				if err != nil {
					return nil, err
				}
				ch.amongT = t
			}
		}
		if len(c.Options) > 0 {
			n++
			for _, o := range c.Options {
				t, err := mkTmpl(o)
				if err != nil {
					return nil, err
				}
				ch.options = append(ch.options, t)
			}
		}
		if n != 1 {
			return nil, c.Name.At("choice %s needs exactly one of from, among, options", c.Name.Value)
		}
		r.choose = append(r.choose, ch)
	}
	lets, err := compileLets(ry.Let)
	if err != nil {
		return nil, err
	}
	r.lets = lets
	if ry.Insert.Value == "" {
		return nil, ry.Name.At("relation %s: nothing to insert", r.name)
	}
	if r.insert, err = mkTmpl(ry.Insert); err != nil {
		return nil, err
	}
	if len(ry.Checks) == 0 {
		return nil, ry.Name.At("relation %s: no checks", r.name)
	}
	for _, cy := range ry.Checks {
		c, err := compileCheck(cy, ry.Name)
		if err != nil {
			return nil, err
		}
		r.checks = append(r.checks, c)
	}
	return &relation.Relation{
		Name:   r.name,
		Doc:    strings.TrimSpace(ry.Doc.Value),
		Spots:  r.spots,
		Mutate: r.mutate,
		Source: r.pos.String(),
	}, nil
}

func compileCheck(cy checkYAML, relName config.String) (checkT, error) {
	var c checkT
	if n := btoi(cy.Equivalence != nil) + btoi(cy.Difference != nil) + btoi(cy.Created != nil) +
		btoi(cy.Locality != nil) + btoi(cy.Order != nil) + btoi(cy.Analogy != nil); n != 1 {
		return c, relName.At("relation %s: each check is one of equivalence, difference, created, locality, order, analogy", relName.Value)
	}
	if cy.Locality != nil || cy.Order != nil || cy.Analogy != nil {
		var err error
		c.derived, err = compileDerived(cy)
		return c, err
	}
	if cy.Created != nil {
		var err error
		c.created, err = compileCreated(cy.Created, relName)
		return c, err
	}
	if e := cy.Equivalence; e != nil {
		c.equiv = &equivT{name: "equivalence"}
		if e.Name != nil {
			c.equiv.name = e.Name.Value
		}
		for _, x := range e.Except {
			t, err := mkTmpl(x)
			if err != nil {
				return c, err
			}
			c.equiv.except = append(c.equiv.except, t)
		}
		return c, nil
	}
	dy := cy.Difference
	dt := &diffT{}
	var err error
	if dt.file, err = mkTmpl(dy.File); err != nil {
		return c, err
	}
	if dy.File.Value == "" {
		return c, relName.At("relation %s: a difference check needs a file", relName.Value)
	}
	if dy.Name != nil {
		if dt.name, err = mkTmpl(*dy.Name); err != nil {
			return c, err
		}
	}
	if len(dy.Edits) == 0 {
		return c, dy.File.At("difference check on %s: no edits", dy.File.Value)
	}
	for _, ey := range dy.Edits {
		e, err := compileEdit(ey, dy.File)
		if err != nil {
			return c, err
		}
		dt.edits = append(dt.edits, e)
	}
	c.diff = dt
	return c, nil
}

func compileEdit(ey editYAML, file config.String) (editT, error) {
	var e editT
	ops := 0
	var body *config.String
	if ey.Insert != nil {
		ops++
		e.op, body = oracle.Insert, ey.Insert
	}
	if ey.Replace != nil {
		ops++
		e.op, body = oracle.Replace, ey.Replace
	}
	if ey.Delete {
		ops++
		e.op = oracle.Delete
	}
	if ey.Substitute != nil {
		ops++
		e.op = oracle.Substitute
	}
	if ey.Renumber != nil {
		ops++
		e.op = oracle.Renumber
	}
	if ops != 1 {
		return e, file.At("an edit of %s is exactly one of insert, replace, delete, substitute, renumber", file.Value)
	}
	if e.op == oracle.Insert && len(ey.Through) > 0 {
		return e, ey.Through[0].Text.At("an insert has no range: through is for replace, delete, substitute and renumber")
	}
	if err := compileRewrite(ey, &e); err != nil {
		return e, err
	}
	if body != nil {
		t, err := mkTmpl(*body)
		if err != nil {
			return e, err
		}
		e.lines = t
	}
	e.blankBefore = ey.BlankBefore
	if len(ey.Where) == 0 {
		return e, file.At("an edit of %s needs where", file.Value)
	}
	for _, ay := range ey.Where {
		var a anchorT
		if ay.When != nil {
			t, err := mkTmpl(*ay.When)
			if err != nil {
				return e, err
			}
			a.when = t
		}
		var path []matcherYAML
		n := 0
		if ay.End {
			if e.op != oracle.Insert || len(ay.After)+len(ay.Before)+len(ay.At) > 0 {
				return e, file.At("end: true places an insert at the end of %s, alone", file.Value)
			}
			a.end = true
			e.anchors = append(e.anchors, a)
			continue
		}
		if len(ay.After) > 0 {
			n++
			path = ay.After
		}
		if len(ay.Before) > 0 {
			n++
			path, a.before = ay.Before, true
		}
		if len(ay.At) > 0 {
			n++
			path = ay.At
		}
		if n != 1 {
			at := file
			for _, l := range [][]matcherYAML{ay.After, ay.Before, ay.At} {
				if len(l) > 0 {
					at = l[0].Text
					break
				}
			}
			return e, at.At("each where item has exactly one of after, before, at")
		}
		if (e.op == oracle.Insert) != (len(ay.At) == 0) {
			if e.op == oracle.Insert {
				return e, path[0].Text.At("an insert is placed with after or before, not at")
			}
			return e, path[0].Text.At("a replace, delete, substitute or renumber is placed with at")
		}
		for _, m := range path {
			t, err := mkTmpl(m.Text)
			if err != nil {
				return e, err
			}
			a.path = append(a.path, matcherT{t: t, re: m.Re})
		}
		e.anchors = append(e.anchors, a)
	}
	return e, nil
}

// spot is a spot with everything Mutate needs.
type spot struct {
	relation.Spot
	offset int // where the insertion goes in the input
	text   func(ins string) string
	data   func() map[string]any // the spot's template data, built on demand
	lets   []let
}

func (r *rel) spots(in relation.Input) ([]relation.Spot, error) {
	m := r.d.parse(in.Src)
	ss, err := r.find(m, in.Name)
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
func (r *rel) find(m *model, name string) ([]*spot, error) {
	k := foundKey{r, name}
	m.foundMu.Lock()
	f, ok := m.found[k]
	m.foundMu.Unlock()
	if ok {
		return f.spots, f.err
	}
	ss, err := r.findAll(m, name)
	m.foundMu.Lock()
	if m.found == nil {
		m.found = map[foundKey]foundSpots{}
	}
	m.found[k] = foundSpots{ss, err}
	m.foundMu.Unlock()
	return ss, err
}

func (r *rel) findAll(m *model, name string) ([]*spot, error) {
	if m.err != nil {
		return nil, m.err
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
		ok, kerr := r.keep(s, name, m.src)
		if kerr != nil {
			err = fmt.Errorf("relation %s: spots.when: %v", r.name, kerr)
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
			// Boundaries: the start of the region, before each declaration
			// but the first, and after the last one.
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
	}
	for _, ls := range r.lists {
		for _, dc := range m.decls[ls.kind.name] {
			n := len(dc.names)
			for g := 0; g <= n; g++ {
				s := &spot{lets: ls.lets}
				before, after := "", ""
				if g > 0 {
					before = dc.names[g-1]
				}
				if g < n {
					after = dc.names[g]
				}
				join := ls.join
				switch {
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
					s.Desc = fmt.Sprintf("%s list of line %d, between %s and %s", ls.kind.name, dc.line+1, before, after)
				case after != "":
					s.Desc = fmt.Sprintf("%s list of line %d, before %s", ls.kind.name, dc.line+1, after)
				default:
					s.Desc = fmt.Sprintf("%s list of line %d, after %s", ls.kind.name, dc.line+1, before)
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
	}
	return out, err
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

func (r *rel) mutate(in relation.Input, sp relation.Spot, rng *rand.Rand) (*relation.FollowUp, error) {
	m := r.d.parse(in.Src)
	ss, err := r.find(m, in.Name)
	if err != nil {
		return nil, err
	}
	if sp.Index < 0 || sp.Index >= len(ss) {
		return nil, fmt.Errorf("relation %s: no spot %d in %s (it has %d)", r.name, sp.Index, in.Name, len(ss))
	}
	s := ss[sp.Index]
	data := s.data()
	data["input"] = inputData(in.Name, m.src)
	if err := evalLets(r.d.lets, data); err != nil {
		return nil, err
	}
	if err := evalLets(s.lets, data); err != nil {
		return nil, err
	}
	taken := map[string]bool{}
	for _, name := range r.fresh {
		n, err := r.d.fresh.Fresh(rng, in.Src, taken)
		if err != nil {
			return nil, err
		}
		data[name] = n
	}
	for _, fl := range r.freshLists {
		k := fl.min + rng.IntN(fl.max-fl.min+1)
		names := make([]string, k)
		for i := range names {
			n, err := r.d.fresh.Fresh(rng, in.Src, taken)
			if err != nil {
				return nil, err
			}
			names[i] = n
		}
		data[fl.name] = names
	}
	for _, c := range r.choose {
		switch {
		case c.from != nil:
			ds := m.decls[c.from.name]
			dc := ds[rng.IntN(len(ds))]
			inst := map[string]any{"name": dc.key(), "names": dc.names, "line": dc.line + 1}
			for k, v := range dc.groups {
				if _, taken := inst[k]; !taken {
					inst[k] = v
				}
			}
			data[c.name] = inst
		case c.among != "":
			path := c.among
			if c.amongT != nil {
				if path, err = c.amongT.render(data); err != nil {
					return nil, err
				}
			}
			v, err := lookup(data, path)
			if err != nil {
				return nil, fmt.Errorf("relation %s: choice %s: %v", r.name, c.name, err)
			}
			switch xs := v.(type) {
			case []string:
				if len(xs) > 0 {
					data[c.name] = xs[rng.IntN(len(xs))]
					continue
				}
			case []map[string]any:
				if len(xs) > 0 {
					data[c.name] = xs[rng.IntN(len(xs))]
					continue
				}
			}
			return nil, fmt.Errorf("relation %s: choice %s: %s is not a non-empty list", r.name, c.name, c.among)
		default:
			o := c.options[rng.IntN(len(c.options))]
			v, err := o.render(data)
			if err != nil {
				return nil, err
			}
			data[c.name] = v
		}
	}
	if err := evalLets(r.lets, data); err != nil {
		return nil, err
	}
	ins, err := r.insert.render(data)
	if err != nil {
		return nil, err
	}
	src := m.src[:s.offset] + s.text(ins) + m.src[s.offset:]
	if s.offset == len(m.src) && len(m.src) > 0 && !strings.HasSuffix(m.src, "\n") {
		src = m.src + "\n" + s.text(ins)
	}
	fu := &relation.FollowUp{Src: []byte(src), Bindings: flatten(data), Fresh: r.freshKeys}
	mu := &mutation{r: r, m: m, s: s, ins: ins, data: data}
	for _, c := range r.checks {
		var chk relation.Checker
		if c.derived != nil {
			chk, err = c.derived.instantiate(mu)
		} else {
			chk, err = c.instantiate(data)
		}
		if err != nil {
			return nil, err
		}
		fu.Checks = append(fu.Checks, chk)
	}
	return fu, nil
}

func evalLets(ls []let, data map[string]any) error {
	for _, l := range ls {
		var b strings.Builder
		if err := l.tmpl.Execute(&b, data); err != nil {
			return fmt.Errorf("let %s: %v", l.name, err)
		}
		data[l.name] = b.String()
	}
	return nil
}

// lookup resolves a dotted path such as "E.names" in the data.
func lookup(data map[string]any, path string) (any, error) {
	var cur any = data
	for _, part := range strings.Split(path, ".") {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: %q is not a map", path, part)
		}
		if cur, ok = mm[part]; !ok {
			return nil, fmt.Errorf("%s: no %q", path, part)
		}
	}
	return cur, nil
}

// flatten renders the bindings as strings for findings: nested maps become
// dotted keys, lists are joined with commas.
func flatten(data map[string]any) map[string]string {
	out := map[string]string{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, y := range x {
				if prefix == "region" && slices.Contains(scopeKeys, k) && k != "index" || prefix == "input" && k == "text" {
					continue // the declarations around the spot, the input: context
				}
				p := k
				if prefix != "" {
					p = prefix + "." + k
				}
				walk(p, y)
			}
		case []string:
			out[prefix] = strings.Join(x, ", ")
		case []map[string]any:
			// lists of items (.region.items, tables) are context, not bindings
		case string:
			if x != "" {
				out[prefix] = x
			}
		case int:
			out[prefix] = strconv.Itoa(x)
		default:
			out[prefix] = fmt.Sprint(x)
		}
	}
	ctx := map[string]bool{"first": true, "last": true, "next": true, "count": true, "decls": true, "tables": true}
	for k, v := range data {
		if !ctx[k] {
			walk(k, v)
		}
	}
	return out
}

func (c checkT) instantiate(data map[string]any) (relation.Checker, error) {
	if c.created != nil {
		return c.created.instantiate(data)
	}
	if c.equiv != nil {
		e := &oracle.Equivalence{Name: c.equiv.name}
		for _, t := range c.equiv.except {
			f, err := t.render(data)
			if err != nil {
				return nil, err
			}
			if f != "" {
				e.Except = append(e.Except, f)
			}
		}
		return e, nil
	}
	dt := c.diff
	file, err := dt.file.render(data)
	if err != nil {
		return nil, err
	}
	d := &oracle.Difference{File: file}
	if dt.name != nil {
		if d.Name, err = dt.name.render(data); err != nil {
			return nil, err
		}
	}
	for _, et := range dt.edits {
		if on, err := et.applies(data); err != nil {
			return nil, err
		} else if !on {
			continue
		}
		e := oracle.Edit{Op: et.op}
		if et.lines != nil {
			body, err := et.lines.render(data)
			if err != nil {
				return nil, err
			}
			body = strings.TrimSuffix(body, "\n")
			e.Lines = strings.Split(body, "\n")
			if et.blankBefore {
				e.Lines = append([]string{""}, e.Lines...)
			}
		}
		for _, at := range et.anchors {
			if at.when != nil {
				w, err := at.when.render(data)
				if err != nil {
					return nil, err
				}
				if !truthy(w) {
					continue
				}
			}
			a := oracle.Anchor{Before: at.before, End: at.end}
			for _, mt := range at.path {
				s, err := mt.t.render(data)
				if err != nil {
					return nil, err
				}
				if mt.re {
					re, err := cachedRE(s)
					if err != nil {
						return nil, fmt.Errorf("%s: %v", mt.t.pos, err)
					}
					a.Path = append(a.Path, oracle.Matcher{Re: re})
				} else {
					a.Path = append(a.Path, oracle.Matcher{Text: s})
				}
			}
			e.Anchors = append(e.Anchors, a)
		}
		if err := et.instantiateRewrite(data, &e); err != nil {
			return nil, err
		}
		d.Edits = append(d.Edits, e)
	}
	return d, nil
}
