package yamlrel

// The resolve pass, definitions: what the files define (regions, kinds,
// captures, lets, tables, the pattern of fresh names, the form of
// numbers, the parser, what the pack supports) goes into defs, the symbol
// table the relations are compiled against.

import (
	"errors"
	"regexp"
	"slices"
	"strings"

	"github.com/mcpt-tool/mcpt/internal/suggest"
	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"github.com/mcpt-tool/mcpt/matrix"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/numlit"
	"github.com/mcpt-tool/mcpt/release"
	"github.com/mcpt-tool/mcpt/syntax"
)

// defs are the definitions shared by the relations of a file and the files
// it includes, the symbol table of the resolve pass: what each name
// defines, and where. Nothing in it changes once the files are defined.
type defs struct {
	generic  map[string]bool // Options.Generic: the transpiler's own words
	fresh    *relation.FreshPattern
	freshPos yamlpos.Pos
	// numbers is how the seeds write integers (numbers:), numbersPos
	// where it was named.
	numbers    numlit.Form
	numbersPos *yamlpos.Pos
	skip       *regexp.Regexp
	captures   map[string]*regexp.Regexp
	capOrder   []string
	lets       []let
	regions    map[string]*region
	kinds      map[string]*kind
	// syntax is the parser of the tree regions (syntax:), nil when the
	// files name none.
	syntax   *syntaxDef
	kindList []string
	tables   map[string][]map[string]any
	sources  map[string]yamlpos.Pos // where each definition was made, for duplicate errors
	// supports is what the pack says it holds for (supports:), nil when
	// it says nothing.
	supports *relation.Supports
	// unit made the templates of the definitions (their lets).
	unit unit
}

// syntaxDef is the parser that syntax: names, and where it was named:
// key is what names it, the parser's name or the grammar file's name in
// the file set (shown in messages as show).
type syntaxDef struct {
	parser    syntax.Parser
	pos       yamlpos.Pos
	key, show string
}

type let struct {
	name string
	tmpl *tmpl
}

type region struct {
	name     string
	from, to *regexp.Regexp
	whole    bool // the whole input, without a from line
	tree     *treeRegion
}

type kind struct {
	name   string
	region string
	match  *regexp.Regexp
	nodes  []string // the member node types it takes, in a tree region (all if none)
	list   string   // the named group holding a delimited list, if any
	sep    string
	named  bool  // the pattern has a group called "name"
	lets   []let // computed attributes of each declaration
	// fields, of a kind without a pattern in a tree region: the node types
	// each attribute is read from (see fieldValues)
	fields map[string][]string
}

// groupNames are the attributes a declaration of k has besides those of
// every item: the named groups of its pattern, or its fields.
func (k *kind) groupNames() []string {
	if k.match == nil {
		return sortedKeys(k.fields)
	}
	return groupNames(k.match)
}

// checkKinds checks what the kinds of every file read say of regions:
// each names one, and a kind with node one with list. A kind in error is
// dropped (see inError).
func (d *defs) checkKinds() error {
	var errs yamlpos.ErrorList
	var kept []string
	for _, kn := range d.kindList {
		k := d.kinds[kn]
		switch reg := d.regions[k.region]; {
		case k.region == "": // reported by add
		case reg == nil && d.inError("region", k.region):
		case reg == nil:
			errs.Add(yamlpos.Errorf(d.sources["kind "+kn], "kind %s: no region named %q", kn, k.region))
		case k.match == nil && reg.tree == nil:
			errs.Add(yamlpos.Errorf(d.sources["kind "+kn], "kind %s: fields are for a kind of a tree region (region %s has no node)", kn, k.region))
		case len(k.nodes) > 0 && reg.tree == nil:
			errs.Add(yamlpos.Errorf(d.sources["kind "+kn], "kind %s: node is for a kind of a tree region (region %s has no node)", kn, k.region))
		default:
			kept = append(kept, kn)
			continue
		}
		delete(d.kinds, kn)
	}
	d.kindList = kept
	errs.AddError(d.checkTreeRegions())
	return errs.Err()
}

// errReported is the error of a relation that uses a definition in
// error: that error is reported, and the relation's would say no more.
var errReported = errors.New("a definition it uses is in error")

// inError tells whether the definition (what: region, kind, syntax)
// called name was given but is in error: it is not there to use.
func (d *defs) inError(what, name string) bool {
	_, given := d.sources[what+" "+name]
	switch what {
	case "region":
		return given && d.regions[name] == nil
	case "kind":
		return given && d.kinds[name] == nil
	case "syntax":
		return given && d.syntax == nil
	}
	return false
}

// DefaultFresh is the pattern of fresh names when a file sets none.
const DefaultFresh = "Zq[a-z]{6}"

func newDefs() *defs {
	return &defs{captures: map[string]*regexp.Regexp{}, regions: map[string]*region{}, kinds: map[string]*kind{}, sources: map[string]yamlpos.Pos{}}
}

func (d *defs) define(what, name string, pos yamlpos.Pos) error {
	key := what + " " + name
	if old, ok := d.sources[key]; ok {
		return yamlpos.Errorf(pos, "%s %q defined twice (first at %s)", what, name, old)
	}
	d.sources[key] = pos
	return nil
}

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func (d *defs) add(f *fileYAML) error {
	var errs yamlpos.ErrorList
	if f.Fresh != nil {
		if d.fresh != nil {
			errs.Add(f.Fresh.At("fresh-name pattern defined twice (first at %s)", d.freshPos))
		} else if fp, err := relation.ParseFreshPattern(f.Fresh.Value); err != nil {
			errs.Add(f.Fresh.At("%v", err))
		} else {
			d.fresh, d.freshPos = fp, f.Fresh.Pos
		}
	}
	if f.Numbers != nil {
		form, ok := numlit.Lookup(f.Numbers.Value)
		switch {
		case !ok:
			errs.Add(f.Numbers.At("numbers %q: no such form (the forms: %s)%s", f.Numbers.Value, strings.Join(numlit.Names(), ", "), suggest.DidYouMean(f.Numbers.Value, numlit.Names())))
		case d.numbersPos != nil && form != d.numbers:
			errs.Add(f.Numbers.At("numbers %q: the relations already read numbers as %s (first at %s)", f.Numbers.Value, d.numbers, *d.numbersPos))
		default:
			d.numbers, d.numbersPos = form, &f.Numbers.Pos
		}
	}
	if f.Skip != nil {
		re, err := compileRE(*f.Skip)
		errs.AddError(err)
		d.skip = re
	}
	errs.AddError(d.addCaptures(f.Captures))
	lets, err := compileLets(&d.unit, f.Let)
	errs.AddError(err)
	d.lets = append(d.lets, lets...)
	errs.AddError(d.addRegions(f.Regions))
	for _, name := range sortedKeys(f.Kinds) {
		errs.AddError(d.addKind(name, f.Kinds[name]))
	}
	errs.AddError(d.addTables(f.Tables))
	errs.AddError(d.addSupports(f.Supports))
	// Regions named by kinds are checked once every file is loaded.
	for _, name := range sortedKeys(f.Kinds) {
		k := f.Kinds[name]
		if k.Region.Value == "" {
			errs.Add(k.Match.At("kind %s: no region", name))
		}
	}
	return errs.Err()
}

func (d *defs) addCaptures(caps map[string]yamlpos.String) error {
	var errs yamlpos.ErrorList
	for _, name := range sortedKeys(caps) {
		s := caps[name]
		if err := d.define("capture", name, s.Pos); err != nil {
			errs.AddError(err)
			continue
		}
		re, err := compileRE(s)
		if err != nil {
			errs.AddError(err)
			continue
		}
		if re.NumSubexp() < 1 {
			errs.Add(s.At("capture %s: the pattern needs a group for the captured value", name))
			continue
		}
		d.captures[name] = re
		d.capOrder = append(d.capOrder, name)
	}
	return errs.Err()
}

func (d *defs) addRegions(regions map[string]regionYAML) error {
	var errs yamlpos.ErrorList
	for _, name := range sortedKeys(regions) {
		errs.AddError(d.addRegion(name, regions[name]))
	}
	return errs.Err()
}

// addRegion defines one region: a tree region, the whole input, or lines
// from a pattern to another.
func (d *defs) addRegion(name string, r regionYAML) error {
	if len(r.List) > 0 {
		return d.addTreeRegion(name, r)
	}
	if r.Whole != nil {
		return d.addWhole(name, r)
	}
	if err := d.define("region", name, r.From.Pos); err != nil {
		return err
	}
	var errs yamlpos.ErrorList
	from, err := compileRE(r.From)
	errs.AddError(err)
	to, err := compileRE(r.To)
	errs.AddError(err)
	if from != nil {
		errs.AddError(checkRegionGroups(r.From, from))
	}
	if err := errs.Err(); err != nil {
		return err
	}
	d.regions[name] = &region{name: name, from: from, to: to}
	return nil
}

func (d *defs) addKind(name string, k kindYAML) error {
	if !identRE.MatchString(name) {
		return k.Match.At("kind name %q must be an identifier", name)
	}
	if len(k.Fields) > 0 {
		return d.addFieldKind(name, k)
	}
	if k.Match.Value == "" {
		// No pattern and no fields (the key alone has no position here:
		// the first of the kind's values that has one).
		at := k.Match
		for _, v := range append(append([]yamlpos.String{k.Match}, k.Node...), k.Region) {
			if v.Pos.Line > 0 {
				at = v
				break
			}
		}
		if len(k.Node) > 0 {
			return at.At("kind %s: node: needs fields: (the node types its attributes are read from, one called name or a list field); or give match: and no node:", name)
		}
		return at.At("kind %s: no match: (the pattern of its declarations), and no fields: (with node:, for a tree region)", name)
	}
	if err := d.define("kind", name, k.Match.Pos); err != nil {
		return err
	}
	re, err := compileRE(k.Match)
	if err != nil {
		return err
	}
	kd := &kind{name: name, region: k.Region.Value, match: re, sep: ","}
	kd.named = slices.Contains(re.SubexpNames(), "name")
	if k.List != nil {
		if !slices.Contains(re.SubexpNames(), k.List.Value) {
			return k.List.At("kind %s: the pattern has no group named %q", name, k.List.Value)
		}
		kd.list = k.List.Value
	}
	if k.Sep != nil {
		kd.sep = k.Sep.Value
	}
	if !kd.named && kd.list == "" {
		return k.Match.At("kind %s: the pattern needs a group called name, or a list group", name)
	}
	for _, n := range k.Node {
		kd.nodes = append(kd.nodes, n.Value)
	}
	if kd.lets, err = compileLets(&d.unit, k.Let); err != nil {
		return err
	}
	d.kinds[name] = kd
	d.kindList = append(d.kindList, name)
	return nil
}

// addFieldKind defines a kind of a tree region whose declarations are the
// members of the node types node (or holding one) and whose attributes are
// read from the nodes of the types of its fields: no pattern.
func (d *defs) addFieldKind(name string, k kindYAML) error {
	keys := sortedKeys(k.Fields)
	pos := k.Fields[keys[0]]
	at := yamlpos.String{Pos: k.Region.Pos}
	if len(pos) > 0 {
		at = pos[0]
	}
	if err := d.define("kind", name, at.Pos); err != nil {
		return err
	}
	if k.Match.Value != "" {
		return k.Match.At("kind %s: match or fields, not both", name)
	}
	if len(k.Node) == 0 {
		return at.At("kind %s: fields need node: the node types of its declarations", name)
	}
	kd := &kind{name: name, region: k.Region.Value, sep: ",", fields: map[string][]string{}}
	for _, g := range keys {
		if !identRE.MatchString(g) {
			return at.At("kind %s: field name %q must be an identifier", name, g)
		}
		if len(k.Fields[g]) == 0 {
			return at.At("kind %s: field %q names no node type", name, g)
		}
		for _, t := range k.Fields[g] {
			kd.fields[g] = append(kd.fields[g], t.Value)
		}
	}
	kd.named = kd.fields["name"] != nil
	if k.List != nil {
		if kd.fields[k.List.Value] == nil {
			return k.List.At("kind %s: no field named %q", name, k.List.Value)
		}
		kd.list = k.List.Value
	}
	if !kd.named && kd.list == "" {
		return at.At("kind %s: the fields need one called name, or a list field", name)
	}
	for _, n := range k.Node {
		kd.nodes = append(kd.nodes, n.Value)
	}
	var err error
	if kd.lets, err = compileLets(&d.unit, k.Let); err != nil {
		return err
	}
	d.kinds[name] = kd
	d.kindList = append(d.kindList, name)
	return nil
}

// addWhole defines a region that is the whole input.
func (d *defs) addWhole(name string, r regionYAML) error {
	if err := d.define("region", name, r.Whole.Pos); err != nil {
		return err
	}
	if r.Whole.Value != "true" {
		return r.Whole.At("region %s: whole is true or absent", name)
	}
	if r.From.Value != "" || r.To.Value != "" {
		return r.Whole.At("region %s: a whole region has no from or to", name)
	}
	d.regions[name] = &region{name: name, whole: true}
	return nil
}

func compileRE(s yamlpos.String) (*regexp.Regexp, error) {
	if s.Value == "" {
		return nil, s.At("empty pattern")
	}
	re, err := regexp.Compile(s.Value)
	if err != nil {
		return nil, s.At("bad pattern: %v", err)
	}
	return re, nil
}

func compileLets(u *unit, ls []map[string]yamlpos.String) ([]let, error) {
	var out []let
	var errs yamlpos.ErrorList
	for _, m := range ls {
		if len(m) != 1 {
			for _, name := range sortedKeys(m) {
				errs.Add(m[name].At("each let item defines one name"))
				break
			}
			if len(m) == 0 {
				errs.AddError(errors.New("empty let item"))
			}
			continue
		}
		for name, v := range m {
			if !identRE.MatchString(name) {
				errs.Add(v.At("let name %q must be an identifier", name))
				continue
			}
			t, err := u.template(v)
			if err != nil {
				errs.AddError(err)
				continue
			}
			out = append(out, let{name: name, tmpl: t})
		}
	}
	return out, errs.Err()
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// tableData is .tables: every table as a list of records.
func (d *defs) tableData() map[string]any {
	out := map[string]any{}
	for name, rows := range d.tables {
		out[name] = rows
	}
	return out
}

func (d *defs) addTables(tables map[string][]map[string]yamlpos.String) error {
	for _, name := range sortedKeys(tables) {
		rows := tables[name]
		pos := yamlpos.Pos{}
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
			return yamlpos.Errorf(pos, "table name %q must be an identifier", name)
		}
		if err := d.define("table", name, pos); err != nil {
			return err
		}
		if len(rows) == 0 {
			return yamlpos.Errorf(pos, "table %s has no rows", name)
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
func checkRegionGroups(from yamlpos.String, re *regexp.Regexp) error {
	for _, g := range re.SubexpNames() {
		for _, k := range scopeKeys {
			if g == k {
				return from.At("region group %q is reserved (.region.%s is the scope of a boundary spot)", g, k)
			}
		}
	}
	return nil
}

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

func (d *defs) addTreeRegion(name string, r regionYAML) error {
	pos := r.List[0].Pos
	if err := d.define("region", name, pos); err != nil {
		return err
	}
	if r.From.Value != "" || r.To.Value != "" || r.Whole != nil {
		return r.List[0].At("region %s: a region with node has no from, to or whole", name)
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
// regions have a parser.
func (d *defs) checkTreeRegions() error {
	for _, name := range sortedKeys(d.regions) {
		if r := d.regions[name]; r.tree != nil && d.syntax == nil && !d.inError("syntax", "") {
			return yamlpos.Errorf(r.tree.pos, "region %s: a region with node needs the parser named by syntax: (e.g. syntax: typescript, or syntax: lang.grammar)", name)
		}
	}
	return nil
}

// addSupports takes what a file says its pack supports; a pack says it
// once.
func (d *defs) addSupports(y *supportsYAML) error {
	if y == nil {
		return nil
	}
	if d.supports != nil {
		return yamlpos.Errorf(y.pos, "supports given twice (first at %s)", d.supports.Source)
	}
	var errs yamlpos.ErrorList
	s := &relation.Supports{Source: y.pos.String()}
	if y.Release != nil {
		r, err := release.ParseRange(y.Release.Value)
		if err != nil {
			errs.Add(y.Release.At("supports: release: %v", err))
		}
		s.Releases = r
	}
	if y.given {
		s.Flags = map[string][]string{}
		for _, f := range y.Flags {
			if err := matrix.CheckDimension(f.dim.Value); err != nil {
				errs.Add(f.dim.At("supports: %v", err))
				continue
			}
			if _, dup := s.Flags[f.dim.Value]; dup {
				errs.Add(f.dim.At("supports: flag %s given twice", f.dim.Value))
				continue
			}
			values := []string{}
			for i, v := range f.values {
				if err := matrix.CheckValue(v.Value); err != nil {
					errs.Add(v.At("supports: %s: %v", f.dim.Value, err))
					continue
				}
				if slices.Contains(values, v.Value) {
					errs.Add(v.At("supports: %s: value %s given twice", f.dim.Value, v.Value))
					continue
				}
				values = append(values, v.Value)
				rs, ok := f.releases[i]
				if !ok {
					continue
				}
				r, err := release.ParseRange(rs.Value)
				if err != nil {
					errs.Add(rs.At("supports: %s: %s: %v", f.dim.Value, v.Value, err))
					continue
				}
				if s.ValueReleases == nil {
					s.ValueReleases = map[string]map[string]release.Range{}
				}
				if s.ValueReleases[f.dim.Value] == nil {
					s.ValueReleases[f.dim.Value] = map[string]release.Range{}
				}
				s.ValueReleases[f.dim.Value][v.Value] = r
			}
			s.Flags[f.dim.Value] = values
		}
	}
	d.supports = s
	return errs.Err()
}
