// Package yamlrel compiles relations declared in YAML into relation.Relation
// values. A relation file declares where spots are (declaration boundaries of
// a region, or gaps of delimited lists), which declaration kinds the input
// has (so that a relation can speak of "the preceding timer"), the line to
// insert with fresh names and choices among captured names, and the
// consistency checkers, whose expected lines and anchors are text/template
// templates over those bindings. docs/relations.md documents the language.
package yamlrel

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"text/template/parse"

	"github.com/mcpt-tool/mcpt/internal/suggest"
	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/numlit"
	"github.com/mcpt-tool/mcpt/snapshot"
	"github.com/mcpt-tool/mcpt/syntax"
	"github.com/mcpt-tool/mcpt/syntax/lang"
)

// defs are the definitions shared by the relations of a file and the files
// it includes.
type defs struct {
	generic  map[string]bool // Options.Generic
	checkers map[string]CheckerKind
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
	// parser parses inputs for the tree regions (syntax:); parserPos is
	// where it was named.
	// parserKey is what names it: the parser's name, or the grammar
	// file's name in the file set (shown in messages as parserShow).
	parser                syntax.Parser
	parserPos             yamlpos.Pos
	parserKey, parserShow string
	kindList              []string
	tables                map[string][]map[string]any
	// spotted are the relations whose spots compiled: the file's lets
	// are evaluated at their spots.
	spotted []*rel
	sources map[string]yamlpos.Pos // where each definition was made, for duplicate errors
	// supports is what the pack says it holds for (supports:), nil when
	// it says nothing.
	supports *relation.Supports

	cacheMu sync.Mutex
	cache   map[string]*model

	// lists and decls are the list types of the tree regions and the node
	// types of the kinds (declTypes)
	typesOnce    sync.Once
	lists, decls map[string]bool
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

// Load compiles the relations of the relation files names in fsys, and of
// every file they include. Names are slash-separated paths in fsys; an
// include is read relative to the file that names it, and one that leaves
// fsys is an error. Errors carry file:line:col, the file named as fsys's
// DisplayName(name string) string method names it, when it has one.
func Load(fsys fs.FS, names ...string) ([]*relation.Relation, error) {
	return LoadWith(Options{}, fsys, names...)
}

// Options are what loading relation files may take besides the files.
type Options struct {
	// Generic are the words the transpiler writes of its own (the
	// configuration's signature.generic): a declaration named so is no
	// neighbour of order and no sibling of analogy, whose lines cannot be
	// told from the generator's.
	Generic []string
	// CheckerKinds are checker kinds the files may use besides
	// CheckerKinds (a kind written in Go, such as relation/protorel's).
	CheckerKinds []CheckerKind
	// Parsers are the parsers the files may name by their name
	// (`syntax: typescript`) besides mcpt's own grammars (syntax/lang's
	// Builtin), such as the tree-sitter TypeScript grammar.
	Parsers *syntax.Parsers
	// Warn, when set, is given each warning of the loading, as
	// "file:line:col: message": a key written with its old name (which
	// loads as the new one), once per key written.
	Warn func(warning string)
}

// LoadWith is Load with options.
func LoadWith(o Options, fsys fs.FS, names ...string) ([]*relation.Relation, error) {
	l := &loader{d: newDefs(), seen: map[string]bool{}, fsys: fsys}
	var err error
	if l.d.checkers, err = checkerKinds(o.CheckerKinds); err != nil {
		return nil, err
	}
	if l.parsers, err = lang.With(o.Parsers); err != nil {
		return nil, err
	}
	for _, w := range o.Generic {
		if l.d.generic == nil {
			l.d.generic = map[string]bool{}
		}
		l.d.generic[w] = true
	}
	for _, name := range names {
		display := name
		if d, ok := fsys.(interface{ DisplayName(string) string }); ok {
			display = d.DisplayName(name)
		}
		l.loadFile(name, display, yamlpos.Pos{})
	}
	rels := l.compile()
	if o.Warn != nil {
		l.warns.Sort()
		for _, w := range l.warns {
			o.Warn(w.Error())
		}
	}
	if err := l.errs.Err(); err != nil {
		return nil, err
	}
	return rels, nil
}

// LoadFiles is Load for relation files on disk, named by path.
func LoadFiles(paths ...string) ([]*relation.Relation, error) {
	return LoadFilesWith(Options{}, paths...)
}

// LoadFilesWith is LoadFiles with options.
func LoadFilesWith(o Options, paths ...string) ([]*relation.Relation, error) {
	r := snapshot.NewReader()
	names := make([]string, len(paths))
	for i, p := range paths {
		name, err := r.FSName(p)
		if err != nil {
			return nil, err
		}
		names[i] = name
	}
	return LoadWith(o, r.FS(), names...)
}

// compile compiles the relations of every file read, once the
// definitions of all of them are in, adding the errors to l.errs.
func (l *loader) compile() []*relation.Relation {
	if l.d.fresh == nil {
		fp, _ := relation.ParseFreshPattern(DefaultFresh)
		l.d.fresh = fp
	}
	l.errs.AddError(l.d.checkKinds())
	var rels []*relation.Relation
	for _, ry := range l.rels {
		r, err := l.d.compileRelation(ry.r)
		if errors.Is(err, errReported) {
			continue
		}
		if err != nil {
			l.errs.AddError(err)
			continue
		}
		rels = append(rels, r)
	}
	l.errs.AddError(l.d.resolveDefs())
	return rels
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
			errs.Add(yamlpos.Errorf(d.sources["kind "+kn], "kind %s: fields are for a kind of a region with list (region %s has none)", kn, k.region))
		case len(k.nodes) > 0 && reg.tree == nil:
			errs.Add(yamlpos.Errorf(d.sources["kind "+kn], "kind %s: node is for a kind of a region with list (region %s has none)", kn, k.region))
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

// inError tells whether the definition (what: region, kind) called name
// was given but is in error: it is not there to use.
func (d *defs) inError(what, name string) bool {
	_, given := d.sources[what+" "+name]
	switch what {
	case "region":
		return given && d.regions[name] == nil
	case "kind":
		return given && d.kinds[name] == nil
	}
	return false
}

// DefaultFresh is the pattern of fresh names when a file sets none.
const DefaultFresh = "Zq[a-z]{6}"

func newDefs() *defs {
	checkers, _ := checkerKinds(nil) // CheckerKinds are sound (TestCheckerKindsDoc)
	return &defs{captures: map[string]*regexp.Regexp{}, regions: map[string]*region{}, kinds: map[string]*kind{}, sources: map[string]yamlpos.Pos{}, checkers: checkers}
}

type loader struct {
	d    *defs
	seen map[string]bool
	rels []pendingRel
	fsys fs.FS
	// parsers are those syntax: may name.
	parsers *syntax.Parsers
	// errs are the errors of every file read: one loading reports all;
	// warns the warnings (old spellings).
	errs, warns yamlpos.ErrorList
}

type pendingRel struct {
	r relYAML
}

// loadFile reads the relation file name of l.fsys, shown in messages as
// display, and the files it includes; from is the include that names it.
// Its errors go to l.errs, and it goes on past every one it can.
func (l *loader) loadFile(name, display string, from yamlpos.Pos) {
	if l.seen[name] {
		return // included twice: definitions are already there
	}
	l.seen[name] = true
	data, err := fs.ReadFile(l.fsys, name)
	if err != nil {
		if from.File != "" {
			l.errs.Add(yamlpos.Errorf(from, "cannot include: %v", err))
		} else {
			l.errs.AddError(err)
		}
		return
	}
	var f fileYAML
	errs, ok := yamlpos.DecodeAllWarn(display, data, &f, &l.warns)
	l.errs = append(l.errs, errs...)
	if !ok {
		return
	}
	for _, inc := range f.Include {
		iname, idisplay := l.includeName(name, display, inc.Value)
		if !fs.ValidPath(iname) {
			l.errs.Add(yamlpos.Errorf(inc.Pos, "cannot include %s: it is not among the relation files", inc.Value))
			continue
		}
		l.loadFile(iname, idisplay, inc.Pos)
	}
	l.errs.AddError(l.setSyntax(name, display, f.Syntax))
	l.errs.AddError(l.d.add(&f))
	for _, r := range f.Relations {
		l.rels = append(l.rels, pendingRel{r: r})
	}
}

// includeName is the name and the display name of the file that the file
// name (shown as display) includes as inc. An absolute inc names a file
// only in a file set of the disk, one with a method PathName(path string)
// (string, error) that names the file at a path; elsewhere it names none.
func (l *loader) includeName(name, display, inc string) (string, string) {
	if filepath.IsAbs(inc) {
		if d, ok := l.fsys.(interface{ PathName(string) (string, error) }); ok {
			if n, err := d.PathName(inc); err == nil {
				return n, inc
			}
		}
		return "", inc
	}
	return path.Join(path.Dir(name), filepath.ToSlash(inc)), filepath.Join(filepath.Dir(display), inc)
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
	lets, err := compileLets(f.Let)
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
	if kd.lets, err = compileLets(k.Let); err != nil {
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
	if kd.lets, err = compileLets(k.Let); err != nil {
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

func compileLets(ls []map[string]yamlpos.String) ([]let, error) {
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
			t, err := mkTmpl(v)
			if err != nil {
				errs.AddError(err)
				continue
			}
			out = append(out, let{name: name, tmpl: t})
		}
	}
	return out, errs.Err()
}

// tmpl is a compiled template with the position it was written at, and
// the instances that evaluate it within the limits of bounds.go.
type tmpl struct {
	tree  *parse.Tree            // as parsed, to analyse
	trees map[string]*parse.Tree // and the templates it defines, by name (tree among them)
	pos   yamlpos.Pos
	src   string
	str   yamlpos.String // as written, to place an error inside it
	run   *instances
}

// parseTemplate parses the template s as text/template does with the
// template functions, without making a template of it: a template holds a
// copy of its functions (some 9 KB), which 10,000 relations of 20
// templates each would take 1.8 GB for. Its name is its position, as
// text/template's messages give it.
func parseTemplate(s yamlpos.String) (map[string]*parse.Tree, error) {
	trees, err := parseTrees(s.Pos.String(), s.Value)
	if err != nil {
		return nil, parseError(s, err)
	}
	return trees, nil
}

// parseTrees parses src as the template name, with the template
// functions.
func parseTrees(name, src string) (map[string]*parse.Tree, error) {
	return parse.Parse(name, src, "", "", parseFuncs)
}

// tmplsMade counts the templates made, for the test that the resolve pass
// finds every one.
var tmplsMade atomic.Int64

func mkTmpl(s yamlpos.String) (*tmpl, error) {
	trees, err := parseTemplate(s)
	if err != nil {
		return nil, err
	}
	tmplsMade.Add(1)
	name := s.Pos.String()
	return &tmpl{tree: trees[name], trees: trees, pos: s.Pos, src: s.Value, str: s, run: &instances{name: name, src: s.Value}}, nil
}

// render evaluates the template on data, within the limits of one
// evaluation and until ctx is done; an error carries the position in the
// relation file of the action that failed, but for ctx's, which is
// returned as it is.
func (t *tmpl) render(ctx context.Context, data map[string]any) (string, error) {
	s, err := t.run.execute(ctx, data)
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", t.execError(err)
	}
	return s, nil
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
