package yamlrel

// The instantiate pass: an input read into a model, the instances of the
// regions and the declarations of the kinds in them; instantiatetree.go
// reads the tree regions.

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/mcpt-tool/mcpt/syntax"
)

// models reads the inputs of the relations of a load into models (the
// instantiate pass): the instances of the regions in an input and the
// declarations of the kinds in them, with its parser (syntax:) for the
// tree regions. A model is built once per input and kept in a small
// cache, and never changed.
type models struct {
	d      *defs
	parser syntax.Parser // nil when the files name none

	cacheMu sync.Mutex
	cache   map[string]*model

	// lists and decls are the list types of the tree regions and the node
	// types of the kinds (declTypes)
	typesOnce    sync.Once
	lists, decls map[string]bool
}

// newModels is what reads the inputs of relations of the definitions d.
func newModels(d *defs) *models {
	ms := &models{d: d}
	if d.syntax != nil {
		ms.parser = d.syntax.parser
	}
	return ms
}

// model is what the definitions see of one input: its lines, the captured
// values, and the declarations found in each instance of each region.
type model struct {
	src      string
	lines    []string
	offsets  []int // byte offset of the start of each line
	captures map[string]string
	regions  map[string][]*regionInst
	decls    map[string][]*decl // by kind, in source order, over all regions
	// declItems is .decls: per kind, the item maps of its declarations.
	declItems map[string]any
	err       error        // a kind's let failed on this input
	tree      *syntax.Tree // the input's syntax tree, when a tree region needed it

	// found memoises each relation's spots in this input (per input name,
	// release and flags, which spots.if may look at): the engine mutates the same seed at
	// one spot after another, and finding the spots is the costly part.
	foundMu sync.Mutex
	found   map[foundKey]foundSpots
	// derived memoises, per forms of derived checks (derived.formsKey),
	// the names the input declares (under foundMu).
	derived map[string]*derivedMemo
	// global is what every spot's data holds of the declarations: made
	// once (globals).
	globalOnce sync.Once
	global     *globalMaps
}

type regionInst struct {
	from, to int // line index of the from line (-1 for a whole region), and of the to line (or len(lines))
	groups   map[string]string
	items    []*decl // declarations inside, in order
	// list is the list of a tree region's instance, and member the index
	// in list.Members of each item.
	list   *syntax.List
	member []int
	// scope is what its boundary spots see of its declarations, made
	// once (scopeOf).
	scopeOnce sync.Once
	scope     *scope
	// places are its boundary spots, made once (placesOf).
	placesOnce sync.Once
	places     []*spot
}

// decl is one declaration: a line that a kind's pattern matches.
type decl struct {
	kind    *kind
	line    int // line index
	end     int // index of the last line that belongs to it
	name    string
	names   []string // the list, for list kinds
	groups  map[string]string
	listBeg int // byte offset (in src) of the list group, for list kinds
	listEnd int
	elems   [][2]int       // byte offsets of each list element
	item    map[string]any // what templates see of it (see itemMap)
	text    string         // in a tree region: the member's text, white space collapsed
	leading []string       // in a tree region: the comments and annotations attached before it
	member  *syntax.Decl   // in a tree region: the member it is
}

// key is the name by which a declaration is "the preceding X": its name
// group, else the last name of its list.
func (d *decl) key() string {
	if d.kind.named {
		return d.name
	}
	if len(d.names) > 0 {
		return d.names[len(d.names)-1]
	}
	return ""
}

// parse returns the model of src, from a small cache: the engine mutates
// the same seeds over and over, and a model is never changed once built.
func (ms *models) parse(ctx context.Context, src []byte) *model {
	if len(src) > MaxSeed {
		// (refused before it is parsed: not kept, made again when asked)
		return &model{err: &seedTooLarge{size: len(src)}}
	}
	ms.cacheMu.Lock()
	m, ok := ms.cache[string(src)]
	ms.cacheMu.Unlock()
	if ok {
		return m
	}
	m = ms.build(ctx, src)
	if ctx.Err() != nil {
		return m // maybe cut short: built again when asked again
	}
	ms.cacheMu.Lock()
	defer ms.cacheMu.Unlock()
	if ms.cache == nil {
		ms.cache = map[string]*model{}
	}
	if len(ms.cache) >= modelCacheSize {
		clear(ms.cache) // simple and bounded; seeds come back in rounds
	}
	ms.cache[string(src)] = m
	return m
}

const modelCacheSize = 512

// MaxSeed is the size of the largest seed the relations read: what they
// keep of a seed (its syntax tree, its declarations and their
// attributes, the spots of every relation) takes up to about 300 bytes a
// seed byte, and a mutation's checks more while they run, so that a seed
// of 4 MiB costs a gigabyte or more, one of 16 MiB (the limit of an input
// file) ran out of memory. A larger seed is refused, before it is parsed,
// by every relation, which so skips it (docs/campaigns.md).
const MaxSeed = 4 << 20

// seedTooLarge is the error of a seed over MaxSeed.
type seedTooLarge struct {
	name string
	size int
}

func (e *seedTooLarge) Error() string {
	return fmt.Sprintf("%s: %d bytes, over the %d MiB limit of a seed the relations read (split it into seeds of fewer declarations)", e.name, e.size, MaxSeed>>20)
}

func (ms *models) build(ctx context.Context, src []byte) *model {
	d := ms.d
	m := &model{src: string(src), captures: map[string]string{}, regions: map[string][]*regionInst{}, decls: map[string][]*decl{}}
	text := m.src
	off := 0
	for {
		i := strings.IndexByte(text[off:], '\n')
		m.offsets = append(m.offsets, off)
		if i < 0 {
			m.lines = append(m.lines, text[off:])
			break
		}
		m.lines = append(m.lines, text[off:off+i])
		off += i + 1
		if off == len(text) {
			break
		}
	}
	for _, name := range d.capOrder {
		re := d.captures[name]
		for _, l := range m.lines {
			if sm := re.FindStringSubmatch(l); sm != nil {
				m.captures[name] = sm[1]
				break
			}
		}
	}
	for _, rname := range sortedKeys(d.regions) {
		r := d.regions[rname]
		if r.tree != nil {
			continue // buildTree
		}
		if r.whole {
			inst := &regionInst{from: -1, to: len(m.lines), groups: map[string]string{}}
			m.regions[rname] = append(m.regions[rname], inst)
			ms.scanRegion(m, rname, inst)
			continue
		}
		for i := 0; i < len(m.lines); i++ {
			sm := r.from.FindStringSubmatch(m.lines[i])
			if sm == nil {
				continue
			}
			inst := &regionInst{from: i, to: len(m.lines), groups: map[string]string{}}
			for gi, gn := range r.from.SubexpNames() {
				if gn != "" {
					inst.groups[gn] = sm[gi]
				}
			}
			for j := i + 1; j < len(m.lines); j++ {
				if r.to.MatchString(m.lines[j]) {
					inst.to = j
					break
				}
			}
			m.regions[rname] = append(m.regions[rname], inst)
			ms.scanRegion(m, rname, inst)
			i = inst.to
		}
	}
	ms.buildTree(ctx, m)
	ms.finish(ctx, m)
	return m
}

func (ms *models) scanRegion(m *model, rname string, inst *regionInst) {
	d := ms.d
	var last *decl
	for i := inst.from + 1; i < inst.to; i++ {
		line := m.lines[i]
		var found *decl
		for _, kn := range d.kindList {
			k := d.kinds[kn]
			if k.region != rname {
				continue
			}
			idx := k.match.FindStringSubmatchIndex(line)
			if idx == nil {
				continue
			}
			dc := &decl{kind: k, line: i, end: i, groups: map[string]string{}}
			for gi, gn := range k.match.SubexpNames() {
				if gn == "" || idx[2*gi] < 0 {
					continue
				}
				dc.groups[gn] = line[idx[2*gi]:idx[2*gi+1]]
			}
			dc.name = dc.groups["name"]
			if k.list != "" {
				gi := k.match.SubexpIndex(k.list)
				if idx[2*gi] >= 0 {
					base := m.offsets[i]
					dc.listBeg, dc.listEnd = base+idx[2*gi], base+idx[2*gi+1]
					dc.names, dc.elems = splitList(m.src, dc.listBeg, dc.listEnd, k.sep)
				}
			}
			found = dc
			break
		}
		if found != nil {
			inst.items = append(inst.items, found)
			m.decls[found.kind.name] = append(m.decls[found.kind.name], found)
			last = found
			continue
		}
		// A line that starts no declaration continues the one above it,
		// unless it is a line to skip (blank or comment).
		if last != nil && (d.skip == nil || !d.skip.MatchString(line)) {
			last.end = i
		}
	}
}

// splitList splits src[beg:end] at sep into trimmed, non-empty elements and
// their byte ranges.
func splitList(src string, beg, end int, sep string) ([]string, [][2]int) {
	var names []string
	var spans [][2]int
	start := beg
	for start <= end {
		j := strings.Index(src[start:end], sep)
		stop := end
		if j >= 0 {
			stop = start + j
		}
		a, b := start, stop
		for a < b && isSpace(src[a]) {
			a++
		}
		for b > a && isSpace(src[b-1]) {
			b--
		}
		if a < b {
			names = append(names, src[a:b])
			spans = append(spans, [2]int{a, b})
		}
		if j < 0 {
			break
		}
		start = stop + len(sep)
	}
	return names, spans
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// itemMap is how templates see one declaration: its kind, name (the name
// group, else the last name of its list), list of names, 1-based line, the
// text of its line, its index within its region instance, the named groups
// of that instance's from line (region), and every named group of its
// kind's pattern (empty when the group did not take part).
//
// The items of an instance share their region map, and the items without
// names or leading comments one empty list (never written to): a map or
// a list for each of thousands of declarations was a third of a seed's
// model.
func itemMap(m *model, region map[string]any, dc *decl, index int) map[string]any {
	it := make(map[string]any, 8+len(dc.kind.groupNames())+len(dc.kind.lets))
	it["kind"], it["name"], it["names"], it["line"], it["text"], it["index"], it["region"] = dc.kind.name, dc.key(), dc.names, dc.line+1, dc.lineText(m), index, region
	if dc.names == nil {
		it["names"] = noNames
	}
	it["leading"] = dc.leading
	if dc.leading == nil {
		it["leading"] = noNames
	}
	for _, g := range dc.kind.groupNames() {
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
func (ms *models) finish(ctx context.Context, m *model) {
	d := ms.d
	m.declItems = map[string]any{}
	for _, kn := range d.kindList {
		m.declItems[kn] = []map[string]any{}
	}
	for _, rname := range sortedKeys(m.regions) {
		for _, inst := range m.regions[rname] {
			region := make(map[string]any, len(inst.groups))
			for k, v := range inst.groups {
				region[k] = v
			}
			for i, dc := range inst.items {
				dc.item = itemMap(m, region, dc, i)
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
	if err := ms.itemLets(ctx, m); m.err == nil {
		m.err = err
	}
}

// itemLets computes the attributes that kinds define with let, for every
// declaration: each template sees the declaration's item map, the captures,
// .decls and .tables, and its value is added to the item map (a Thrift
// field's true type after typedefs, say). Lets are computed in rounds: the
// first let of every declaration, then the second, and so on, so that the
// k-th let of a declaration sees the lets before k of every declaration
// (a field's copy is noexcept when the fields of the struct it names are).
func (ms *models) itemLets(ctx context.Context, m *model) error {
	d := ms.d
	tables := d.tableData()
	var b letBudget
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
				s, err := l.tmpl.render(ctx, data)
				if err == nil {
					err = b.take(l, len(s))
				}
				if err != nil {
					return fmt.Errorf("kind %s, line %d: let %s: %v", kn, dc.line+1, l.name, err)
				}
				vals[i] = s
			}
			set = append(set, func() {
				for i, dc := range m.decls[kn] {
					dc.item[l.name] = vals[i]
				}
			})
		}
		// Set after the round, so that a let sees no value of its own round
		// (and what the list functions remembered of the items is stale).
		for _, f := range set {
			f()
		}
		memoGen.Add(1)
		if !more {
			return nil
		}
	}
}

var wsRE = regexp.MustCompile(`\s+`)

func collapse(s string) string { return strings.TrimSpace(wsRE.ReplaceAllString(s, " ")) }

func lineIndex(m *model, off int) int {
	i, _ := slices.BinarySearch(m.offsets, off+1)
	return i - 1
}

// lineText is the text templates see as a declaration's .text: its line,
// or in a tree region its member's text.
func (dc *decl) lineText(m *model) string {
	if dc.text != "" {
		return dc.text
	}
	return m.lines[dc.line]
}
