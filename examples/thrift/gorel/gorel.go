// Package gorel is the Thrift pack's add-service-method relation written in
// Go: the exact relation of relations/add-service-method.yaml, the same
// spots, the same draws and the same predicted difference of the C++ and
// Python generators of thrift 0.17, with the YAML's thousand lines of
// templates replaced by Go that models what the generators write. Its spots
// come from the syntax tree that thrift.grammar reads (packages grammar and
// syntax): the boundaries of a service's method list, whatever the layout of
// the file. Its checkers are those of package oracle, as YAML relations'
// are. An mcpt built with it (gorel/mcpt) runs it from ../go-relation.yaml.
//
// The YAML relation language is the derived checkers plus short exact
// edits; a relation that needs more, as this one does, is written in Go
// this way (docs/relations.md, "When YAML is not enough").
package gorel

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/mcpt-tool/mcpt/examples/thrift"
	"github.com/mcpt-tool/mcpt/grammar"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/syntax"
)

// Name is the name of the relation, the YAML relation's.
const Name = "add-service-method"

// AddServiceMethod returns the relation.
func AddServiceMethod() *relation.Relation {
	return &relation.Relation{
		Name: Name,
		Doc: `A method adds, in declaration order, its declarations, helper structs, client, processor and skeleton code to the C++ service files and its interface, client, processor and helper classes to the Python service module and remote tool.
Mutation: ` + "`R N(1: T1 a[, 2: T2 b])`" + ` at any boundary of a service body, R void, a number or bool, or string; one or two parameters of a number, bool, string or binary type. Written in Go (examples/thrift/gorel); the same relation as relations/add-service-method.yaml.
E: every file but SERVICE.h, SERVICE.cpp, SERVICE_server.skeleton.cpp, SERVICE.py and SERVICE-remote is byte-identical.
D: each of those files gains the method's items right after those of the preceding method of the service, else right before those of the next (a new first command of the remote tool takes the ` + "`if`" + ` of the old first).`,
		Spots:  spots,
		Mutate: mutate,
		Holds:  holds,
		Source: "github.com/mcpt-tool/mcpt/examples/thrift/gorel",
	}
}

// parser reads Thrift IDL with the Thrift example's grammar.
var parser = sync.OnceValues(func() (syntax.Parser, error) {
	g, err := grammar.Parse("thrift.grammar", thrift.Grammar)
	if err != nil {
		return nil, err
	}
	return grammar.NewParser(g), nil
})

var services = syntax.ListSpec{Lists: []string{"service_body"}}

// gap is a spot of the relation: a boundary of the method list of a
// service that extends none, with the methods either side.
type gap struct {
	spot       syntax.Spot
	service    string
	prev, next *syntax.Decl // the methods before and after it, or nil
}

// gaps lists the spots of a Thrift file. A service that extends another is
// left out (its generated classes inherit the base's methods), and so is
// one that another service of the file extends (that one's Python remote
// tool lists the base's methods too), and the place before a method with a
// doc comment (/** */), which the C++ generator writes before that
// method's declarations, where the relation places the new method's.
func gaps(in relation.Input) ([]gap, *syntax.Tree, error) {
	p, err := parser()
	if err != nil {
		return nil, nil, err
	}
	tr, err := p.Parse(in.Name, in.Src)
	if err != nil {
		return nil, nil, err
	}
	lists := syntax.Lists(tr, services)
	base := func(svc *syntax.Node) string { // the service svc extends, or ""
		for _, n := range svc.Children {
			if n.Kind == "extends" && n.End > n.Start {
				return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(n.Text(tr.Src)), "extends"))
			}
		}
		return ""
	}
	extended := map[string]bool{}
	for _, l := range lists {
		if l.Node.Parent != nil {
			extended[base(l.Node.Parent)] = true
		}
	}
	var out []gap
	for _, l := range lists {
		svc := l.Node.Parent
		if len(l.Members) == 0 || svc == nil || base(svc) != "" || extended[syntax.NameOf(tr.Src, svc)] {
			continue
		}
		for _, sp := range l.Spots() {
			if sp.After != nil && slices.ContainsFunc(sp.After.Leading, func(c *syntax.Node) bool { return strings.HasPrefix(c.Text(tr.Src), "/**") }) {
				continue
			}
			out = append(out, gap{spot: sp, service: syntax.NameOf(tr.Src, svc), prev: sp.Before, next: sp.After})
		}
	}
	return out, tr, nil
}

func spots(_ context.Context, in relation.Input) ([]relation.Spot, error) {
	gs, _, err := gaps(in)
	if err != nil {
		return nil, err
	}
	out := make([]relation.Spot, len(gs))
	for i, g := range gs {
		line, col := syntax.Position(in.Src, g.spot.Insert("").Start)
		out[i] = relation.Spot{Index: i, Line: line, Col: col, Desc: g.spot.Desc, Kind: "service"} // the YAML relation's region
	}
	return out, nil
}

func holds(_ context.Context, in relation.Input) (string, error) {
	_, tr, err := gaps(in)
	if err != nil {
		return "", err
	}
	if len(syntax.Lists(tr, services)) > 0 {
		return "service_body", nil
	}
	return "", nil
}

// typ is a type the relation gives a parameter or the result, with what the
// generators make of it: the C++ type, setter argument and initial value,
// the wire type and protocol method, the Python read, write and spec
// annotation, the zero value and the name the remote tool shows.
type typ struct {
	thrift, cpp, arg, init, ttype, rw, pyread, pywrite, spec, zero, shown string
}

func (t typ) text() bool { return t.ttype == "STRING" }

// The types to draw from, in the order of the YAML relation's tables.
var (
	numbers = []typ{
		{"i32", "int32_t", "const int32_t", "0", "I32", "I32", "iprot.readI32()", "oprot.writeI32(self.%s)", "None", "0", "i32"},
		{"i64", "int64_t", "const int64_t", "0", "I64", "I64", "iprot.readI64()", "oprot.writeI64(self.%s)", "None", "0", "i64"},
		{"i16", "int16_t", "const int16_t", "0", "I16", "I16", "iprot.readI16()", "oprot.writeI16(self.%s)", "None", "0", "i16"},
		{"i8", "int8_t", "const int8_t", "0", "BYTE", "Byte", "iprot.readByte()", "oprot.writeByte(self.%s)", "None", "0", "i8"},
		{"bool", "bool", "const bool", "0", "BOOL", "Bool", "iprot.readBool()", "oprot.writeBool(self.%s)", "None", "false", "bool"},
		{"double", "double", "const double", "0", "DOUBLE", "Double", "iprot.readDouble()", "oprot.writeDouble(self.%s)", "None", "0.0", "double"},
	}
	texts = []typ{
		{"string", "std::string", "const std::string&", "", "STRING", "String",
			"iprot.readString().decode('utf-8', errors='replace') if sys.version_info[0] == 2 else iprot.readString()",
			"oprot.writeString(self.%[1]s.encode('utf-8') if sys.version_info[0] == 2 else self.%[1]s)", "'UTF8'", "", "string"},
		{"binary", "std::string", "const std::string&", "", "STRING", "Binary", "iprot.readBinary()", "oprot.writeBinary(self.%s)", "'BINARY'", "", "string"},
	}
	void  = typ{thrift: "void", cpp: "void", shown: "void"}
	fresh = mustPattern("zq[a-z]{6}")
)

func mustPattern(p string) *relation.FreshPattern {
	fp, err := relation.ParseFreshPattern(p)
	if err != nil {
		panic(err)
	}
	return fp
}

// field is a field of a struct the generators write: a parameter in the
// method's args, its result in the method's result.
type field struct {
	id   int
	name string
	t    typ
}

// method is the method the mutation adds to service svc, and what it is
// placed by: the methods before and after it.
type method struct {
	svc, name  string
	params     []field
	ret        typ    // void when it has no result
	prev, next string // the neighbouring methods' names, or ""
	prevOneway bool   // the method before is oneway: it has no result struct and no recv_
}

// draw makes the method's random choices, in the YAML relation's order, so
// that the same rng state gives the same method: a fresh name, one or two
// fresh parameter names, the parameters' types and the result type.
func draw(rng *rand.Rand, src []byte) (name string, params []field, ret typ, err error) {
	taken := map[string]bool{}
	if name, err = fresh.Fresh(rng, src, taken); err != nil {
		return
	}
	params = make([]field, 1+rng.IntN(2))
	for i := range params {
		if params[i].name, err = fresh.Fresh(rng, src, taken); err != nil {
			return
		}
		params[i].id = i + 1
	}
	pick := func(tables ...[]typ) typ { ts := tables[rng.IntN(len(tables))]; return ts[rng.IntN(len(ts))] }
	p1, p2 := pick(numbers, texts), pick(numbers, texts)
	for i, t := range []typ{p1, p2}[:len(params)] {
		params[i].t = t
	}
	ret = pick([]typ{void}, numbers, texts)
	return
}

func mutate(_ context.Context, in relation.Input, sp relation.Spot, rng *rand.Rand) (*relation.FollowUp, error) {
	gs, tr, err := gaps(in)
	if err != nil {
		return nil, err
	}
	if sp.Index < 0 || sp.Index >= len(gs) {
		return nil, fmt.Errorf("relation %s: no spot %d in %s (it has %d)", Name, sp.Index, in.Name, len(gs))
	}
	g := gs[sp.Index]
	m := &method{svc: g.service}
	if m.name, m.params, m.ret, err = draw(rng, in.Src); err != nil {
		return nil, err
	}
	if g.prev != nil {
		m.prev = g.prev.Name
		m.prevOneway = slices.ContainsFunc(g.prev.Node.Children, func(n *syntax.Node) bool { return n.Kind == "oneway" })
	}
	if g.next != nil {
		m.next = g.next.Name
	}
	_ = tr
	return &relation.FollowUp{
		Src:      g.spot.Insert(m.thrift()).Apply(in.Src),
		Bindings: map[string]string{"M": m.name, "p": strings.Join(m.names(), ", "), "V": m.svc, "R": m.ret.thrift, "prev.method": m.prev, "next.method": m.next},
		Fresh:    []string{"M", "p"},
		Checks:   m.checks(),
	}, nil
}

// thrift is the method as the follow-up declares it.
func (m *method) thrift() string {
	ps := make([]string, len(m.params))
	for i, p := range m.params {
		ps[i] = fmt.Sprintf("%d: %s %s", p.id, p.t.thrift, p.name)
	}
	return fmt.Sprintf("%s %s(%s),", m.ret.thrift, m.name, strings.Join(ps, ", "))
}

func (m *method) names() []string {
	out := make([]string, len(m.params))
	for i, p := range m.params {
		out[i] = p.name
	}
	return out
}

// results are the fields of the method's result struct: success, unless
// the method returns nothing.
func (m *method) results() []field {
	if m.ret == void {
		return nil
	}
	return []field{{0, "success", m.ret}}
}

// checks are the equivalence of every other file and the difference of
// each service file.
func (m *method) checks() []relation.Checker {
	py := "py/**/" + m.svc
	return []relation.Checker{
		&oracle.Equivalence{Except: []string{"cpp/" + m.svc + ".h", "cpp/" + m.svc + ".cpp", "cpp/" + m.svc + "_server.skeleton.cpp", py + ".py", py + "-remote"}},
		&oracle.Difference{Name: "service-declarations", File: "cpp/" + m.svc + ".h", Edits: m.cppHeader()},
		&oracle.Difference{Name: "service-definitions", File: "cpp/" + m.svc + ".cpp", Edits: m.cppSource()},
		&oracle.Difference{Name: "server-skeleton", File: "cpp/" + m.svc + "_server.skeleton.cpp", Edits: m.skeleton()},
		&oracle.Difference{Name: "python-service", File: py + ".py", Edits: m.python()},
		&oracle.Difference{Name: "remote-tool", File: py + "-remote", Edits: m.remote()},
	}
}

// Predicting edits: an insert goes right after a line of what the
// preceding method got (a path of lines from a class or function header),
// else right before a line of what the next method got.

// text matches a line exactly; re by a regular expression, where %s
// stands for a name.
func text(format string, names ...any) oracle.Matcher {
	return oracle.Matcher{Text: fmt.Sprintf(format, names...)}
}

func re(format string, names ...any) oracle.Matcher {
	for i, n := range names {
		if s, ok := n.(string); ok {
			names[i] = regexp.QuoteMeta(s)
		}
	}
	return oracle.Matcher{Re: regexp.MustCompile(fmt.Sprintf(format, names...))}
}

func after(path ...oracle.Matcher) oracle.Anchor  { return oracle.Anchor{Path: path} }
func before(path ...oracle.Matcher) oracle.Anchor { return oracle.Anchor{Path: path, Before: true} }

// insert is the edit that inserts the lines of text at the first anchor
// found; a trailing newline of text ends its last line.
func insert(text string, anchors ...oracle.Anchor) oracle.Edit {
	return oracle.Edit{Op: oracle.Insert, Lines: strings.Split(strings.TrimSuffix(text, "\n"), "\n"), Anchors: anchors}
}

// afterElseBefore places an insert after the preceding method's line, when
// there is a preceding method, else before the next one's.
func (m *method) afterElseBefore(text string, prev, next oracle.Anchor) oracle.Edit {
	if m.prev == "" {
		return insert(text, next)
	}
	return insert(text, prev, next)
}

// either places an insert after the preceding method's line, when there
// is a preceding method, else before the next one's.
func (m *method) either(text string, prev, next oracle.Anchor) oracle.Edit {
	if m.prev == "" {
		return insert(text, next)
	}
	return insert(text, prev)
}

// beside places a block of lines: after the preceding method's, with
// blanks blank lines before it, else before the next method's, with
// blanks blank lines after it (and the one the block ends with).
func (m *method) beside(block string, blanks int, prev, next oracle.Anchor) oracle.Edit {
	if m.prev == "" {
		return insert(block+strings.Repeat("\n", blanks+1), next)
	}
	return insert(strings.Repeat("\n", blanks)+block, prev)
}

// last is what the preceding method's client code ends with: its recv_,
// or its send_ when it is oneway.
func (m *method) last() string {
	if m.prevOneway {
		return "send_" + m.prev
	}
	return "recv_" + m.prev
}
