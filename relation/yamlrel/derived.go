package yamlrel

// Derived checkers: locality, order and analogy take what they check from
// the mutation itself (the fresh names, the kind and neighbours of the
// inserted declaration, a sibling of the same shape) instead of a
// prediction written by hand. docs/relations.md documents them.

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpt-tool/mcpt/internal/namecase"
	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
)

type localityYAML struct {
	Name        *yamlpos.String  `yaml:"name"`
	Forms       []yamlpos.String `yaml:"forms"`
	Except      []yamlpos.String `yaml:"except"`
	Numbers     *yamlpos.String  `yaml:"numbers"`
	Punctuation *yamlpos.String  `yaml:"punctuation"`
	Hunks       bool             `yaml:"hunks"`
	By          *yamlpos.String  `yaml:"by"`
	Also        []yamlpos.String `yaml:"also"`
	Grows       []yamlpos.String `yaml:"grows"`
	Renamed     bool             `yaml:"renamed"`
	// Files restricts the check to these files (names or patterns).
	Files []yamlpos.String `yaml:"files"`
}

type orderYAML struct {
	Name   *yamlpos.String  `yaml:"name"`
	Forms  []yamlpos.String `yaml:"forms"`
	Files  []yamlpos.String `yaml:"files"`
	Before *yamlpos.String  `yaml:"before"`
	After  *yamlpos.String  `yaml:"after"`
	Places *yamlpos.String  `yaml:"places"`
	Unique bool             `yaml:"unique"`
	// NotPlaces leaves places out.
	NotPlaces *yamlpos.String `yaml:"not_places"`
}

type analogyYAML struct {
	Name        *yamlpos.String  `yaml:"name"`
	Forms       []yamlpos.String `yaml:"forms"`
	Files       []yamlpos.String `yaml:"files"`
	Sibling     *yamlpos.String  `yaml:"sibling"`
	KeepNumbers bool             `yaml:"keep_numbers"`
	// Skip leaves lines of o out (a serialized descriptor's string lines).
	Skip *yamlpos.String `yaml:"skip"`
}

// derivedT is a compiled derived check: one of locality, order, analogy.
type derivedT struct {
	what        string
	name        string
	forms       []func(string) string
	files       []*tmpl // except (locality) or files (order, analogy)
	numbers     int
	punctuation int
	hunks       bool
	renamed     bool
	by          int
	also        []*regexp.Regexp // locality: more lines that may change
	grows       []*regexp.Regexp // locality: lines that may only gain words
	only        []*tmpl          // locality: the files looked at
	places      *regexp.Regexp   // order: the places checked
	unique      bool             // order: neighbours the input mentions once only
	notPlaces   *regexp.Regexp   // order: the places left out
	before      *tmpl            // order: the neighbours, when not derived
	after       *tmpl
	sibling     *tmpl // analogy: the sibling, when not derived
	keepNumbers bool
	skip        *regexp.Regexp // analogy: lines of o left out
}

func compileDerived(cy checkYAML) (*derivedT, error) {
	d := &derivedT{}
	var name *yamlpos.String
	var forms, files []yamlpos.String
	var err error
	switch {
	case cy.Locality != nil:
		l := cy.Locality
		d.what, name, forms, files = "locality", l.Name, l.Forms, l.Except
		err = d.compileLocality(l)
	case cy.Order != nil:
		o := cy.Order
		d.what, name, forms, files = "order", o.Name, o.Forms, o.Files
		err = d.compileOrder(o)
	default:
		a := cy.Analogy
		d.what, name, forms, files, d.keepNumbers = "analogy", a.Name, a.Forms, a.Files, a.KeepNumbers
		if a.Sibling != nil {
			d.sibling, err = mkTmpl(*a.Sibling)
		}
		if err == nil && a.Skip != nil {
			d.skip, err = compileRE(*a.Skip)
		}
	}
	if err != nil {
		return nil, err
	}
	d.name = d.what
	if name != nil {
		d.name = name.Value
	}
	if len(forms) == 0 {
		// Every form, in the order in which they correspond between names.
		for _, f := range namecase.Forms {
			fn, _ := namecase.Form(f)
			d.forms = append(d.forms, fn)
		}
	}
	for _, f := range forms {
		fn, ok := namecase.Form(f.Value)
		if !ok {
			return nil, f.At("unknown name form %q (want one of %s)", f.Value, strings.Join(namecase.Forms, ", "))
		}
		d.forms = append(d.forms, fn)
	}
	for _, f := range files {
		t, err := mkTmpl(f)
		if err != nil {
			return nil, err
		}
		d.files = append(d.files, t)
	}
	return d, nil
}

func (d *derivedT) compileLocality(l *localityYAML) error {
	d.hunks, d.renamed = l.Hunks, l.Renamed
	var err error
	if d.numbers, err = allowance(l.Numbers); err != nil {
		return err
	}
	if d.punctuation, err = allowance(l.Punctuation); err != nil {
		return err
	}
	for _, a := range l.Also {
		re, err := compileRE(a)
		if err != nil {
			return err
		}
		d.also = append(d.also, re)
	}
	for _, a := range l.Grows {
		re, err := compileRE(a)
		if err != nil {
			return err
		}
		d.grows = append(d.grows, re)
	}
	for _, f := range l.Files {
		t, err := mkTmpl(f)
		if err != nil {
			return err
		}
		d.only = append(d.only, t)
	}
	if l.By != nil {
		if d.by, err = strconv.Atoi(l.By.Value); err != nil || d.by == 0 {
			return l.By.At("by: want a non-zero integer, not %q", l.By.Value)
		}
	}
	return nil
}

func (d *derivedT) compileOrder(o *orderYAML) error {
	d.unique = o.Unique
	var err error
	if o.Places != nil {
		if d.places, err = compileRE(*o.Places); err != nil {
			return err
		}
	}
	if o.NotPlaces != nil {
		if d.notPlaces, err = compileRE(*o.NotPlaces); err != nil {
			return err
		}
	}
	if (o.Before == nil) != (o.After == nil) {
		at := o.Before
		if at == nil {
			at = o.After
		}
		return at.At("order: give both before and after, or neither (derived from the spot)")
	}
	if o.Before != nil {
		if d.before, err = mkTmpl(*o.Before); err != nil {
			return err
		}
		if d.after, err = mkTmpl(*o.After); err != nil {
			return err
		}
	}
	return nil
}

// allowance reads numbers: and punctuation: of a locality check, a count
// of lines or any.
func allowance(s *yamlpos.String) (int, error) {
	if s == nil {
		return 0, nil
	}
	if s.Value == "any" {
		return oracle.Any, nil
	}
	n, err := strconv.Atoi(s.Value)
	if err != nil || n < 0 {
		return 0, s.At("want a number of lines or any, not %q", s.Value)
	}
	return n, nil
}

// mutation is what a derived check is instantiated from: the input's
// model, the spot, the inserted text and the template data.
type mutation struct {
	r    *rel
	m    *model
	s    *spot
	ins  string
	data map[string]any
}

func (d *derivedT) instantiate(ctx context.Context, mu *mutation) (relation.Checker, error) {
	files, err := renderAll(ctx, d.files, mu.data)
	if err != nil {
		return nil, err
	}
	switch d.what {
	case "locality":
		only, err := renderAll(ctx, d.only, mu.data)
		if err != nil {
			return nil, err
		}
		if len(d.only) > 0 && len(only) == 0 {
			only = []string{""} // every file left out: none is looked at
		}
		l := d.locality(mu, files)
		l.Files = only
		return l, nil
	case "order":
		return d.order(ctx, mu, files)
	}
	return d.analogy(ctx, mu, files)
}

// renderAll renders file templates, leaving out those that render empty.
func renderAll(ctx context.Context, ts []*tmpl, data map[string]any) ([]string, error) {
	var out []string
	for _, t := range ts {
		f, err := t.render(ctx, data)
		if err != nil {
			return nil, err
		}
		if f != "" {
			out = append(out, f)
		}
	}
	return out, nil
}

func (d *derivedT) locality(mu *mutation, files []string) *oracle.Locality {
	var fresh []oracle.Name
	for _, k := range mu.r.freshKeys {
		switch v := mu.data[k].(type) {
		case string:
			fresh = append(fresh, d.name1(v))
		case []string:
			for _, x := range v {
				fresh = append(fresh, d.name1(x))
			}
		}
	}
	return &oracle.Locality{Name: d.name, Fresh: fresh, Except: files, Numbers: d.numbers, Punctuation: d.punctuation, Hunks: d.hunks, By: d.by, Also: d.also, Grows: d.grows, Renamed: d.renamed}
}

func (d *derivedT) order(ctx context.Context, mu *mutation, files []string) (*oracle.Order, error) {
	nd := mu.inserted()
	prev, next := nd.prev, nd.next
	if d.before != nil {
		var err error
		if prev, err = d.before.render(ctx, mu.data); err != nil {
			return nil, err
		}
		if next, err = d.after.render(ctx, mu.data); err != nil {
			return nil, err
		}
	}
	newName := ""
	if len(nd.names) > 0 {
		newName = nd.names[0]
	}
	// A neighbour whose name the input declares twice (fields of two
	// structs) cannot be told apart from its namesake at a place: only
	// its line in the new line's block counts (shared).
	// A neighbour named by a word of the generator's (signature.generic)
	// cannot be told from that word: none.
	if d.unique && prev != "" && !mentionedOnce(mu.m.src, prev) || isGeneric(mu.r.d.generic, prev) {
		prev = ""
	}
	if d.unique && next != "" && !mentionedOnce(mu.m.src, next) || isGeneric(mu.r.d.generic, next) {
		next = ""
	}
	return &oracle.Order{Name: d.name, New: d.name1(newName), Prev: d.declaredName(mu, prev), Next: d.declaredName(mu, next), Others: d.others(mu), Files: files, Places: d.places, NotPlaces: d.notPlaces,
		PrevShared: declaredTwice(mu.m, prev), NextShared: declaredTwice(mu.m, next)}, nil
}

func (d *derivedT) analogy(ctx context.Context, mu *mutation, files []string) (*oracle.Analogy, error) {
	a := &oracle.Analogy{Name: d.name, Others: d.others(mu), Files: files, KeepNumbers: d.keepNumbers, Skip: d.skip}
	nd := mu.inserted()
	sib := nd.sibling(mu, d.keepNumbers)
	if nd.first != "" {
		a.Shape = shapeOf(nd.first, nd.names, d.keepNumbers)
	}
	if d.sibling != nil {
		s, err := d.sibling.render(ctx, mu.data)
		if err != nil {
			return nil, err
		}
		sib = nil
		if s != "" {
			sib = []string{s}
		}
	}
	for i := range min(len(sib), len(nd.names)) {
		a.Renames = append(a.Renames, oracle.Rename{From: d.declaredName(mu, sib[i]), To: d.name1(nd.names[i])})
	}
	for _, k := range nd.kin {
		if !slices.Contains(sib, k) {
			a.Kin = append(a.Kin, d.declaredName(mu, k))
		}
	}
	return a, nil
}

// declaredTwice reports whether more than one declaration of the input
// has the name.
func declaredTwice(m *model, name string) bool {
	if name == "" {
		return false
	}
	n := 0
	for _, ds := range m.decls {
		for _, dc := range ds {
			if dc.kind.named && dc.name == name {
				n++
			}
			for _, x := range dc.names {
				if x == name {
					n++
				}
			}
		}
	}
	return n > 1
}

// name1 is a name in the check's forms; the empty name has none.
func (d *derivedT) name1(s string) oracle.Name {
	if s == "" {
		return oracle.Name{}
	}
	forms := make([]string, len(d.forms))
	for i, f := range d.forms {
		forms[i] = f(s)
	}
	return oracle.NewName(forms)
}

// derivedMemo is what the derived checks of one check share over the test
// cases of an input: the names it declares, and those names with their
// shadows found. The checkers only read them.
type derivedMemo struct {
	mu     sync.Mutex
	others []oracle.Name
	names  map[string]oracle.Name
}

func (d *derivedT) memo(mu *mutation) *derivedMemo {
	m := mu.m
	m.foundMu.Lock()
	defer m.foundMu.Unlock()
	dm := m.derived[d]
	if dm == nil {
		if m.derived == nil {
			m.derived = map[*derivedT]*derivedMemo{}
		}
		dm = &derivedMemo{others: d.declared(mu), names: map[string]oracle.Name{}}
		m.derived[d] = dm
	}
	return dm
}

// others are every name the input declares.
func (d *derivedT) others(mu *mutation) []oracle.Name { return d.memo(mu).others }

// declaredName is a name the input declares (a neighbour, a sibling) in
// the check's forms, with its shadows among the others.
func (d *derivedT) declaredName(mu *mutation, s string) oracle.Name {
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

func (d *derivedT) declared(mu *mutation) []oracle.Name {
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
func (mu *mutation) inserted() *newDecl {
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
		sub := k.match.FindStringSubmatchIndex(first)
		if sub == nil {
			continue
		}
		dc := &decl{kind: k, groups: map[string]string{}}
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
		nd.names = declNames(dc)
		nd.first = first
		prev, _ := mu.data["prev"].(map[string]any)
		next, _ := mu.data["next"].(map[string]any)
		nd.prev, _ = prev[kn].(string)
		nd.next, _ = next[kn].(string)
		// Siblings and kin come from the region instance of the spot: a
		// field of the same struct.
		at := mu.s.Line - 1
		for _, inst := range mu.m.regions[mu.r.boundaries.name] {
			if inst.from < at && at <= inst.to {
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
// nil when there is none.
func (nd *newDecl) sibling(mu *mutation, keep bool) []string {
	if nd.listNames != nil {
		for _, n := range nd.listNames {
			if mentionedOnce(mu.m.src, n) && !isGeneric(mu.r.d.generic, n) {
				return []string{n}
			}
		}
		return nil
	}
	shape := shapeOf(nd.first, nd.names, keep)
	// The first of a kind is often written otherwise (`out << "a="`, then
	// `out << ", " << "b="`; `X() : a(), b()`): the sibling is the first
	// of its kind in o exactly when the new declaration is in o′.
	at, top := mu.s.Line-1, -1
	for _, dc := range nd.candidates {
		if top < 0 || dc.line < top {
			top = dc.line
		}
	}
	newFirst := top < 0 || at <= top
	for _, dc := range nd.candidates {
		names := declNames(dc)
		if len(names) != len(nd.names) || (dc.line == top) != newFirst || shapeOf(dc.lineText(mu.m), names, keep) != shape {
			continue
		}
		ok := true
		for _, n := range names {
			ok = ok && mentionedOnce(mu.m.src, n) && !isGeneric(mu.r.d.generic, n)
		}
		if ok {
			return names
		}
	}
	return nil
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

func (d *derivedT) String() string { return fmt.Sprintf("%s check %s", d.what, d.name) }
