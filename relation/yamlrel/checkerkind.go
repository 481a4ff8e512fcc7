package yamlrel

// Checker kinds as values, in the way golang.org/x/tools/go/analysis has
// analyzers: each kind is a CheckerKind declared in a file of its own,
// beside the YAML spec it reads and the checker it builds, and listed in
// CheckerKinds. A check of a relation names its kind by its key
// (`- locality: {…}`); a program adds kinds of its own through
// Options.CheckerKinds (mcpt.Checkers).

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/mcpt-tool/mcpt/internal/suggest"
	"github.com/mcpt-tool/mcpt/internal/yamlpos"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/syntax"
	"github.com/mcpt-tool/mcpt/tree"
)

// CheckerKinds are the checker kinds every relation file may use, in the
// order docs/relations.md lists them. A new kind is a file declaring its
// CheckerKind and a line here.
var CheckerKinds = []CheckerKind{
	equivalenceKind,
	differenceKind,
	createdKind,
	localityKind,
	orderKind,
	analogyKind,
	blocksKind,
	confinedKind,
}

// A CheckerKind is a kind of check a relation file names by its key: the
// check `- locality: {forms: [snake]}` is of the kind named locality, with
// the spec {forms: [snake]}.
type CheckerKind struct {
	// Name is the key that names the kind in a check.
	Name string
	// Doc says what a check of the kind checks, and the keys of its spec;
	// its first line is its help line.
	Doc string
	// New compiles a check of the kind from its spec: it decodes the
	// spec (Spec.Decode), compiles its templates (Spec.Template) and
	// returns what makes the checker of each follow-up. Its errors carry
	// the file:line:col of what is wrong.
	New func(spec *Spec) (Check, error)
}

// A Check is a check of a relation, compiled: it makes the checker of each
// follow-up from the mutation that made the follow-up.
type Check interface {
	Checker(mu *Mutation) (relation.Checker, error)
}

// String is a YAML scalar with the position it was written at: the type of
// the values of a spec, whose errors then say where they are.
type String = yamlpos.String

// Spec is the YAML value a check gives its kind, to decode.
type Spec struct {
	// Kind is the kind's name, at the position of the key that names it.
	Kind String
	// Name is the check's name that `name` beside the kind gives (or the
	// old spelling `go: {kind, name, args}`), "" when none is given: the
	// kind's checkers go by it unless the spec names them.
	Name string

	node  yamlpos.Deferred
	kinds map[string]CheckerKind
	// decoded is the type the kind decoded the spec into: its yaml tags
	// are the kind's keys (the grammar of docs/relations.md lists them).
	decoded reflect.Type
	// u registers the templates the check makes, for the resolve pass.
	u *unit
}

// Decode decodes the spec into v, a pointer to a struct whose yaml tags
// are the spec's keys (String fields keep their positions). A key the
// struct does not have and a value of the wrong type are errors at their
// positions, every one of them.
func (s *Spec) Decode(v any) error {
	s.decoded = reflect.TypeOf(v)
	errs, _ := s.node.Decode(v)
	return errs.Err()
}

// name is the name a spec gives its checkers: name, else Spec.Name.
func (s *Spec) name(name *String) *String {
	if name == nil && s.Name != "" {
		return &String{Value: s.Name, Pos: s.Kind.Pos}
	}
	return name
}

// Errorf is an error at the key naming the kind.
func (s *Spec) Errorf(format string, args ...any) error {
	return s.Kind.At(format, args...)
}

// Template compiles a text/template of the spec, rendered for each
// follow-up by Mutation.Render; its errors are at its position.
func (s *Spec) Template(src String) (*Template, error) {
	t, err := s.unit().template(src)
	if err != nil {
		return nil, err
	}
	return &Template{t: t}, nil
}

// unit is the unit that registers what the check makes: the load's, or
// for a Spec made outside a load, one of its own.
func (s *Spec) unit() *unit {
	if s.u == nil {
		s.u = &unit{}
	}
	return s.u
}

// readsOut reports whether a template of the spec reads .out, the base
// output: the check is then made when it checks, o at hand.
func (s *Spec) readsOut() bool {
	return s.node.Node != nil && outRE.MatchString(s.node.Node.String())
}

// outRE finds .out in a template's action.
var outRE = regexp.MustCompile(`\{\{[^}]*\.out\b`)

// Template is a template of a spec.
type Template struct{ t *tmpl }

// Mutation is the follow-up a checker is made for, as the checks see it:
// its bindings (the template data), and for the derived checks of this
// package the input's model, the spot and the inserted text.
type Mutation struct {
	ctx  context.Context
	name string // the input's
	data map[string]any
	r    *rel
	m    *model
	s    *spot
	ins  string
	// pre is the follow-up before any declare, preLen the length of the
	// text the spot inserted there, raw the inserted text as rendered;
	// member is the inserted member's node (insertedMember) in memberSrc,
	// noMember true once looked for.
	pre       string
	preLen    int
	raw       string // the inserted text as rendered
	member    *syntax.Node
	memberSrc []byte
	noMember  bool
	// followUp is the follow-up input.
	followUp []byte
}

// FollowUp is the follow-up input, for a check that reads it (one that
// type-checks what the output declares against it).
func (mu *Mutation) FollowUp() []byte { return mu.followUp }

// Render renders a template of the check with the follow-up's bindings.
func (mu *Mutation) Render(t *Template) (string, error) { return mu.render(t.t) }

func (mu *Mutation) render(t *tmpl) (string, error) { return t.render(mu.ctx, mu.data) }

// context is the context the mutation is evaluated under.
func (mu *Mutation) context() context.Context {
	if mu.ctx == nil {
		return context.Background()
	}
	return mu.ctx
}

// renderOpt renders a template that may be absent ("").
func (mu *Mutation) renderOpt(t *tmpl) (string, error) {
	if t == nil {
		return "", nil
	}
	return mu.render(t)
}

// renderAll renders templates, leaving out those that render empty.
func (mu *Mutation) renderAll(ts []*tmpl) ([]string, error) {
	var out []string
	for _, t := range ts {
		f, err := mu.render(t)
		if err != nil {
			return nil, err
		}
		if f != "" {
			out = append(out, f)
		}
	}
	return out, nil
}

// Release is the transpiler's release the test case runs under
// (.release), "" when the campaign does not know it.
func (mu *Mutation) Release() string {
	v, _ := mu.data["release"].(string)
	return v
}

// Flags is the test case's combination of flags (.flags): dimension →
// value name, with "" for a dimension the pack lists and the campaign
// does not set.
func (mu *Mutation) Flags() map[string]string {
	m, _ := mu.data["flags"].(map[string]any)
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k], _ = v.(string)
	}
	return out
}

// Fresh are the fresh names the mutation drew: its fresh names, then the
// names of its fresh lists.
func (mu *Mutation) Fresh() []string {
	var out []string
	for _, k := range mu.r.freshKeys {
		switch v := mu.data[k].(type) {
		case string:
			out = append(out, v)
		case []string:
			out = append(out, v...)
		}
	}
	if c, ok := mu.data["clone"].(map[string]any); ok {
		// the fresh names of a copy's inner declarations
		fresh, _ := c["fresh"].([]string)
		out = append(out, fresh...)
	}
	return out
}

// checkYAML is a check as a relation file writes it: an if, a name and
// one key naming its kind, whose value is the kind's spec, decoded when
// the kind is known (compileCheck).
type checkYAML struct {
	// When, when it renders empty (or false, 0), leaves the check out of
	// the test case.
	When *String
	// Name names the checker, for a kind whose spec has no name of its
	// own (a Go kind whose name key names an element).
	Name  *String
	pos   yamlpos.Pos
	kind  String           // the key naming the kind
	node  yamlpos.Deferred // its value
	extra *String          // a second key naming a kind
}

// UnmarshalYAML implements yaml.NodeUnmarshalerContext.
func (c *checkYAML) UnmarshalYAML(ctx context.Context, n ast.Node) error {
	c.pos = yamlpos.PosOf(ctx, n)
	m, ok := n.(ast.MapNode)
	if !ok {
		return errAt(ctx, n, "a check is a mapping: a checker kind and its spec (equivalence: {…})")
	}
	for it := m.MapRange(); it.Next(); {
		k := it.Key()
		key := String{Value: k.GetToken().Value, Pos: yamlpos.PosOf(ctx, k)}
		if c.When == nil && c.Name == nil && c.kind.Value == "" {
			c.pos = key.Pos
		}
		if key.Value == "when" { // its old name
			yamlpos.Warn(ctx, key.Pos, yamlpos.Deprecated("when", "if"))
			key.Value = "if"
		}
		switch {
		case key.Value == "if" && c.When != nil:
			return errAt(ctx, k, "if given twice")
		case key.Value == "if":
			c.When = &String{}
			if err := c.When.UnmarshalYAML(ctx, it.Value()); err != nil {
				return err
			}
		case key.Value == "name" && c.Name != nil:
			return errAt(ctx, k, "name given twice")
		case key.Value == "name":
			c.Name = &String{}
			if err := c.Name.UnmarshalYAML(ctx, it.Value()); err != nil {
				return err
			}
		case c.kind.Value != "":
			if c.extra == nil {
				c.extra = &key
			}
		default:
			if key.Value == goSpelling { // the old spelling of a check
				yamlpos.Warn(ctx, key.Pos, yamlpos.Deprecated("go: {kind: KIND, name: N, args: SPEC}", "name: N beside KIND: SPEC"))
			}
			c.kind, c.node = key, yamlpos.Defer(ctx, it.Value())
		}
	}
	return nil
}

// checkT is a compiled check.
type checkT struct {
	check Check
	when  *tmpl // nil: always
	// late is true when a template of the check reads .out, the base
	// output: it is made when it checks, o at hand (a file found in the
	// output tree, `{{holding "^export enum E " .out}}`).
	late bool
	name string // the checker's name in a failure of its own rendering
}

// checkerKinds are the kinds a load offers: CheckerKinds and those of the
// options. A name given twice is an error.
func checkerKinds(extra []CheckerKind) (map[string]CheckerKind, error) {
	kinds := map[string]CheckerKind{}
	for _, k := range slices.Concat(CheckerKinds, []CheckerKind{goKind}, extra) {
		if k.Name == "" || k.New == nil {
			return nil, fmt.Errorf("checker kind %q: needs a name and New", k.Name)
		}
		if k.Name == "if" || k.Name == "name" || k.Name == "when" {
			return nil, fmt.Errorf("checker kind %q: the name is a key of every check", k.Name)
		}
		if _, dup := kinds[k.Name]; dup {
			return nil, fmt.Errorf("checker kind %s given twice", k.Name)
		}
		kinds[k.Name] = k
	}
	return kinds, nil
}

// kindNames are the names of the kinds, sorted, but the old spelling go.
func kindNames(kinds map[string]CheckerKind) []string {
	var names []string
	for _, n := range slices.Sorted(maps.Keys(kinds)) {
		if n != goSpelling {
			names = append(names, n)
		}
	}
	return names
}

// lookupKind finds the kind a check names.
func lookupKind(kinds map[string]CheckerKind, name String) (CheckerKind, error) {
	k, ok := kinds[name.Value]
	if !ok {
		return k, name.At("unknown checker kind %q%s", name.Value, suggest.DidYouMean(name.Value, append(kindNames(kinds), "if", "name")))
	}
	return k, nil
}

func compileCheck(u *unit, cy checkYAML, kinds map[string]CheckerKind) (checkT, error) {
	var c checkT
	if cy.extra != nil {
		return c, cy.extra.At("a check names one checker kind: %s or %s, not both", cy.kind.Value, cy.extra.Value)
	}
	if cy.kind.Value == "" {
		return c, yamlpos.Errorf(cy.pos, "a check names a checker kind: one of %s", strings.Join(kindNames(kinds), ", "))
	}
	k, err := lookupKind(kinds, cy.kind)
	if err != nil {
		return c, err
	}
	if c.when, err = u.optTemplate(cy.When); err != nil {
		return c, err
	}
	// What a check that does not compile made is not resolved: its
	// error is reported, and its templates would say no more.
	spec := &Spec{Kind: cy.kind, node: cy.node, kinds: kinds, u: &unit{}}
	if cy.Name != nil {
		spec.Name = cy.Name.Value
	}
	c.late = spec.readsOut()
	if c.check, err = k.New(spec); err != nil {
		return c, err
	}
	u.add(spec.u)
	c.name = k.Name
	if n, ok := c.check.(relation.Named); ok {
		c.name = n.CheckerName()
	}
	return c, nil
}

func (c checkT) instantiate(mu *Mutation) (relation.Checker, error) {
	if c.late {
		return &lateCheck{c: c, mu: mu}, nil
	}
	return c.check.Checker(mu)
}

// lateCheck is a check that reads .out, the base output: made when it
// checks. A template that fails fails the check.
type lateCheck struct {
	c  checkT
	mu *Mutation
}

// Check makes the checker with o as .out and runs it.
func (lc *lateCheck) Check(o, o2 tree.Tree) []oracle.Failure {
	mu := *lc.mu
	mu.data = maps.Clone(mu.data)
	mu.data["out"] = o
	chk, err := lc.c.check.Checker(&mu)
	if err != nil {
		return []oracle.Failure{{Checker: lc.c.name, Message: err.Error()}}
	}
	return chk.Check(o, o2)
}

// goKind is the old spelling `go: {kind: NAME, name: CHECK, args: {…}}`
// of the check `{name: CHECK, NAME: {…}}`, which kinds written in Go had
// before every kind was a key of its own. It loads with a warning and is
// no longer one of CheckerKinds: `kind` names a kind of declarations.
var goKind = CheckerKind{
	Name: goSpelling,
	Doc: "A check of another kind, spelt `go: {kind: NAME, name: CHECK, args: SPEC}`: the same as `NAME: SPEC`.\n" +
		"The spelling kinds written in Go had (`go: {kind: protobuf-descriptor, args: {…}}`); name is the checker's name in findings.",
	New: func(spec *Spec) (Check, error) {
		var g struct {
			Kind String  `yaml:"kind"`
			Name *String `yaml:"name"`
			Args rawYAML `yaml:"args"`
		}
		if err := spec.Decode(&g); err != nil {
			return nil, err
		}
		if g.Kind.Value == "" {
			return nil, spec.Errorf("go: needs kind, the checker kind's name")
		}
		k, err := lookupKind(spec.kinds, g.Kind)
		if err != nil {
			return nil, err
		}
		if k.Name == "go" {
			return nil, g.Kind.At("go: names a kind other than go")
		}
		sub := &Spec{Kind: g.Kind, node: g.Args.d, kinds: spec.kinds, u: spec.unit()}
		if g.Name != nil {
			sub.Name = g.Name.Value
		}
		return k.New(sub)
	},
}

// goSpelling is the key of goKind.
const goSpelling = "go"

// rawYAML is a YAML value kept as it is, to decode later.
type rawYAML struct{ d yamlpos.Deferred }

// UnmarshalYAML implements yaml.NodeUnmarshalerContext.
func (r *rawYAML) UnmarshalYAML(ctx context.Context, n ast.Node) error {
	r.d = yamlpos.Defer(ctx, n)
	return nil
}
