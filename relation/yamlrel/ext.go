package yamlrel

// The parts of the language that relation packs for real IDL compilers
// (Thrift, FlatBuffers) needed beyond the CLL catalogue: the input's file
// name, the declarations of the region instance around a spot, tables of
// records to choose from, spot conditions, edits over ranges of lines that
// rewrite or renumber what a mutation shifts, and checks of files that a
// mutation creates. docs/relations.md documents them.

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/mcpt-tool/mcpt/config"
	"github.com/mcpt-tool/mcpt/oracle"
)

type substYAML struct {
	Re   config.String `yaml:"re"`
	With config.String `yaml:"with"`
}

type renumberYAML struct {
	Re config.String `yaml:"re"`
	By config.String `yaml:"by"`
}

type createdYAML struct {
	Name    *config.String `yaml:"name"`
	File    config.String  `yaml:"file"`
	Content config.String  `yaml:"content"`
}

type createdT struct {
	name    *tmpl
	file    *tmpl
	content *tmpl
}

// scopeKeys are the keys that boundary spots add to .region next to the
// named groups of its from pattern, which therefore may not use them.
var scopeKeys = []string{"items", "index", "before", "after", "names", "first", "last", "count", "line"}

// inputData is .input: the name of the input file, that name without its
// extension (code generators name output files after it) and the text of
// the input.
func inputData(name, src string) map[string]any {
	return map[string]any{"name": name, "stem": strings.TrimSuffix(name, path.Ext(name)), "text": src}
}

// itemMap is how templates see one declaration: its kind, name (the name
// group, else the last name of its list), list of names, 1-based line, the
// text of its line, its index within its region instance, the named groups
// of that instance's from line (region), and every named group of its
// kind's pattern (empty when the group did not take part).
func itemMap(m *model, inst *regionInst, dc *decl, index int) map[string]any {
	groups := map[string]any{}
	for k, v := range inst.groups {
		groups[k] = v
	}
	it := map[string]any{"kind": dc.kind.name, "name": dc.key(), "names": dc.names, "line": dc.line + 1, "text": m.lines[dc.line], "index": index, "region": groups}
	if dc.names == nil {
		it["names"] = []string{}
	}
	for _, g := range dc.kind.match.SubexpNames() {
		if g == "" {
			continue
		}
		if _, taken := it[g]; !taken {
			it[g] = dc.groups[g]
		}
	}
	return it
}

// finish builds what templates see of the declarations of a model: an item
// map per declaration and the lists of .decls.
func (d *defs) finish(m *model) {
	m.declItems = map[string]any{}
	for _, kn := range d.kindList {
		m.declItems[kn] = []map[string]any{}
	}
	for _, rname := range sortedKeys(m.regions) {
		for _, inst := range m.regions[rname] {
			for i, dc := range inst.items {
				dc.item = itemMap(m, inst, dc, i)
			}
		}
	}
	for _, kn := range d.kindList {
		var items []map[string]any
		for _, dc := range m.decls[kn] {
			items = append(items, dc.item)
		}
		if items != nil {
			m.declItems[kn] = items
		}
	}
	m.err = d.itemLets(m)
}

// itemLets computes the attributes that kinds define with let, for every
// declaration: each template sees the declaration's item map, the captures,
// .decls and .tables, and its value is added to the item map (a Thrift
// field's true type after typedefs, say). Lets are computed in rounds: the
// first let of every declaration, then the second, and so on, so that the
// k-th let of a declaration sees the lets before k of every declaration
// (a field's copy is noexcept when the fields of the struct it names are).
func (d *defs) itemLets(m *model) error {
	tables := d.tableData()
	for round := 0; ; round++ {
		more := false
		var set []func()
		for _, kn := range d.kindList {
			k := d.kinds[kn]
			if round >= len(k.lets) {
				continue
			}
			more = true
			l := k.lets[round]
			vals := make([]string, len(m.decls[kn]))
			for i, dc := range m.decls[kn] {
				data := map[string]any{"decls": m.declItems, "tables": tables}
				for _, c := range d.capOrder {
					data[c] = m.captures[c]
				}
				for key, v := range dc.item {
					data[key] = v
				}
				var b strings.Builder
				if err := l.tmpl.Execute(&b, data); err != nil {
					return fmt.Errorf("kind %s, line %d: let %s: %v", kn, dc.line+1, l.name, err)
				}
				vals[i] = b.String()
			}
			set = append(set, func() {
				for i, dc := range m.decls[kn] {
					dc.item[l.name] = vals[i]
				}
			})
		}
		// Set after the round, so that a let sees no value of its own round.
		for _, f := range set {
			f()
		}
		if !more {
			return nil
		}
	}
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

// tableData is .tables: every table as a list of records.
func (d *defs) tableData() map[string]any {
	out := map[string]any{}
	for name, rows := range d.tables {
		out[name] = rows
	}
	return out
}

func (d *defs) addTables(tables map[string][]map[string]config.String) error {
	for _, name := range sortedKeys(tables) {
		rows := tables[name]
		pos := config.Pos{}
		for _, row := range rows {
			for _, v := range row {
				pos = v.Pos
				break
			}
			if pos.Line > 0 {
				break
			}
		}
		if !identRE.MatchString(name) {
			return config.Errorf(pos, "table name %q must be an identifier", name)
		}
		if err := d.define("table", name, pos); err != nil {
			return err
		}
		if len(rows) == 0 {
			return config.Errorf(pos, "table %s has no rows", name)
		}
		var out []map[string]any
		for _, row := range rows {
			rec := map[string]any{}
			for k, v := range row {
				if !identRE.MatchString(k) {
					return v.At("table %s: column %q must be an identifier", name, k)
				}
				rec[k] = v.Value
			}
			out = append(out, rec)
		}
		if d.tables == nil {
			d.tables = map[string][]map[string]any{}
		}
		d.tables[name] = out
	}
	return nil
}

// checkRegionGroups refuses a from pattern whose named groups would hide
// the scope keys of .region.
func checkRegionGroups(from config.String, re *regexp.Regexp) error {
	for _, g := range re.SubexpNames() {
		for _, k := range scopeKeys {
			if g == k {
				return from.At("region group %q is reserved (.region.%s is the scope of a boundary spot)", g, k)
			}
		}
	}
	return nil
}

// keep reports whether a spot passes the relation's spots.when condition.
func (r *rel) keep(s *spot, name, src string) (bool, error) {
	if r.when == nil {
		return true, nil
	}
	data := s.data()
	data["input"] = inputData(name, src)
	if err := evalLets(r.d.lets, data); err != nil {
		return false, err
	}
	if err := evalLets(s.lets, data); err != nil {
		return false, err
	}
	w, err := r.when.render(data)
	if err != nil {
		return false, err
	}
	return truthy(w), nil
}

// truthy reports whether a rendered condition holds: anything but white
// space, false, 0, and the renderings of an empty list or map (what `and`
// and `or` return when they stop at an empty select).
func truthy(s string) bool {
	switch strings.TrimSpace(s) {
	case "", "false", "0", "[]", "map[]":
		return false
	}
	return true
}

// compileRewrite compiles the substitute and renumber edits.
func compileRewrite(ey editYAML, e *editT) error {
	if s := ey.Substitute; s != nil {
		if s.Re.Value == "" {
			return s.Re.At("substitute needs re")
		}
		var err error
		if e.pattern, err = mkTmpl(s.Re); err != nil {
			return err
		}
		if e.with, err = mkTmpl(s.With); err != nil {
			return err
		}
	}
	if n := ey.Renumber; n != nil {
		if n.Re.Value == "" {
			return n.Re.At("renumber needs re")
		}
		if n.By.Value == "" {
			return n.Re.At("renumber needs by")
		}
		var err error
		if e.pattern, err = mkTmpl(n.Re); err != nil {
			return err
		}
		if e.by, err = mkTmpl(n.By); err != nil {
			return err
		}
	}
	if ey.When != nil {
		var err error
		if e.when, err = mkTmpl(*ey.When); err != nil {
			return err
		}
	}
	for _, m := range ey.Through {
		t, err := mkTmpl(m.Text)
		if err != nil {
			return err
		}
		e.through = append(e.through, matcherT{t: t, re: m.Re})
	}
	return nil
}

// applies reports whether an edit's when condition holds.
func (et editT) applies(data map[string]any) (bool, error) {
	if et.when == nil {
		return true, nil
	}
	w, err := et.when.render(data)
	if err != nil {
		return false, err
	}
	return truthy(w), nil
}

// instantiateRewrite renders the parts of an edit that the extensions added.
func (et editT) instantiateRewrite(data map[string]any, e *oracle.Edit) error {
	if et.pattern != nil {
		src, err := et.pattern.render(data)
		if err != nil {
			return err
		}
		re, err := cachedRE(src)
		if err != nil {
			return fmt.Errorf("%s: %v", et.pattern.pos, err)
		}
		e.Pattern = re
	}
	if et.with != nil {
		w, err := et.with.render(data)
		if err != nil {
			return err
		}
		e.With = w
	}
	if et.by != nil {
		b, err := et.by.render(data)
		if err != nil {
			return err
		}
		n, err := strconv.Atoi(strings.TrimSpace(b))
		if err != nil {
			return fmt.Errorf("%s: renumber by %q: not an integer", et.by.pos, b)
		}
		e.By = n
	}
	for _, mt := range et.through {
		m, err := mt.matcher(data)
		if err != nil {
			return err
		}
		e.Through = append(e.Through, m)
	}
	return nil
}

func (mt matcherT) matcher(data map[string]any) (oracle.Matcher, error) {
	s, err := mt.t.render(data)
	if err != nil {
		return oracle.Matcher{}, err
	}
	if !mt.re {
		return oracle.Matcher{Text: s}, nil
	}
	re, err := cachedRE(s)
	if err != nil {
		return oracle.Matcher{}, fmt.Errorf("%s: %v", mt.t.pos, err)
	}
	return oracle.Matcher{Re: re}, nil
}

func compileCreated(cy *createdYAML, relName config.String) (*createdT, error) {
	if cy.File.Value == "" {
		return nil, relName.At("relation %s: a created check needs a file", relName.Value)
	}
	c := &createdT{}
	var err error
	if c.file, err = mkTmpl(cy.File); err != nil {
		return nil, err
	}
	if c.content, err = mkTmpl(cy.Content); err != nil {
		return nil, err
	}
	if cy.Name != nil {
		if c.name, err = mkTmpl(*cy.Name); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func (c *createdT) instantiate(data map[string]any) (*oracle.Creation, error) {
	cr := &oracle.Creation{}
	var err error
	if cr.File, err = c.file.render(data); err != nil {
		return nil, err
	}
	if cr.Content, err = c.content.render(data); err != nil {
		return nil, err
	}
	if c.name != nil {
		if cr.Name, err = c.name.render(data); err != nil {
			return nil, err
		}
	}
	return cr, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
