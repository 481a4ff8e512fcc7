// Package goprobe is a semantic checker for protoc-gen-go: it builds the
// Go that protoc-gen-go wrote for o and o′ in a temporary module, with a
// probe program (package probe) that prints, through protoreflect, every
// message, field, enum value and rpc of the file: its number, name, JSON
// name, default, what the field's getter returns on an empty message,
// and deprecation; and reads from the Go source which of them carry a
// `Deprecated:` comment. o′'s must be o's plus exactly the added element,
// and the element must agree with itself (its getter returns its
// default, a deprecated element has the comment) and with what the check
// predicts. A generator that writes the default of a field whose enum
// comes from another package wrongly, or forgets a getter's Deprecated
// comment, writes the new field as it writes its siblings; the probe
// sees it.
//
// The runtime module the generated code imports (google.golang.org/protobuf,
// at the version of the file's header) is fetched and built once per
// campaign, as the user's go command fetches (GOPROXY); each check then
// builds without the network, in the shared build cache.
//
// Most checks build nothing: the Go of each side is first read without
// building (read.go: type-checked against the export data of the runtime,
// the descriptor decoded, the runtime's loading and the getters done
// here), and a reading that passes is the probe's pass. A side the
// reading does not model, and every failure, is built and run as above,
// so that what a check reports is what the built probe printed.
package goprobe

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/oracle/goprobe/probe"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/tree"
)

// Element is the kind of element a mutation added.
type Element int

// The elements go-probe takes out again.
const (
	Field     Element = iota // a field of a message (a member of a oneof, a map field with its entry)
	EnumValue                // a value of an enum
	Message                  // a message, with what it holds
	Enum                     // an enum, with its values
	RPC                      // an rpc of a service
)

var elementNames = map[string]Element{"field": Field, "enum-value": EnumValue, "message": Message, "enum": Enum, "rpc": RPC}

func (e Element) String() string {
	for k, v := range elementNames {
		if v == e {
			return k
		}
	}
	return "?"
}

// ParseElement reads an element kind: field, enum-value, message, enum or
// rpc.
func ParseElement(s string) (Element, error) {
	e, ok := elementNames[s]
	if !ok {
		return 0, fmt.Errorf("unknown element %q (want field, enum-value, message, enum or rpc)", s)
	}
	return e, nil
}

// Check is the go-probe check of one follow-up.
type Check struct {
	// Name names the check in findings ("go-probe" when empty).
	Name string
	// File is the .pb.go file of the element (its path in the output).
	File string
	// Element is the kind of the added element, Elem its name as the
	// .proto declares it.
	Element Element
	Elem    string
	// Predictions, each "" when not predicted: the element's number, a
	// field's JSON name, what its getter returns on an empty message (as
	// the probe writes it: 0, "text" quoted, an enum's number, nil), and
	// whether it is deprecated (true or false).
	Number, JSON, Default, Deprecated string
	// Runtime is the version of the runtime module to build with, "" for
	// the one the file's header names.
	Runtime string
	// Go is the go command ("" finds go on PATH).
	Go string
}

// CheckerName implements relation.Named.
func (c *Check) CheckerName() string {
	if c.Name == "" {
		return "go-probe"
	}
	return c.Name
}

// Check runs the check; failures only (see DecideContext).
func (c *Check) Check(o, o2 tree.Tree) []oracle.Failure {
	return c.DecideContext(context.Background(), o, o2).Fails
}

// DecideContext reads (or builds and runs the probe) and compares. It cannot decide
// when go cannot run or fetch the runtime, when o's Go does not build or
// imports a package the output does not hold.
func (c *Check) DecideContext(ctx context.Context, o, o2 tree.Tree) oracle.Verdict {
	undecided := func(format string, args ...any) oracle.Verdict {
		return oracle.Verdict{Undecided: []string{fmt.Sprintf(format, args...)}}
	}
	// found is what the check found of o′ when that is not act.
	fail := func(msg, exp, act string, found ...string) oracle.Verdict {
		f := oracle.Failure{Checker: c.CheckerName(), File: c.File, Message: msg, Expected: exp, Actual: act, Compared: c.compared(exp, act, msg)}
		if len(found) > 0 {
			f.Compared.Found = found[0]
		}
		return oracle.Verdict{Fails: []oracle.Failure{f}}
	}
	if _, ok := o[c.File]; !ok {
		return undecided("%s is not in o", c.File)
	}
	if _, ok := o2[c.File]; !ok {
		return fail(fmt.Sprintf("%s is in o but not in o′", c.File), "", "", c.File+" is not in o′")
	}
	goCmd := c.Go
	if goCmd == "" {
		goCmd = "go"
	}
	goCmd, err := exec.LookPath(goCmd)
	if err != nil {
		return undecided("the go command: %v", err)
	}
	m := &module{files: map[string][]byte{}, roots: map[string]*goPackage{}, sides: []string{"o", "f"}}
	if err := m.side(o, c.File, "o"); err != nil {
		return undecided("o: %v", err)
	}
	if err := m.side(o2, c.File, "f"); err != nil {
		return fail(fmt.Sprintf("o′: %v", err), "", "", err.Error())
	}
	version := c.Runtime
	if version == "" {
		version = m.roots["o"].files[0].version
	}
	if version == "" {
		return undecided("%s names no protoc-gen-go version in its header: give the runtime's (runtime:)", c.File)
	}
	sum, err := prepare(ctx, goCmd, version)
	if err != nil {
		return undecided("%v", err)
	}
	checks.Add(1)
	// o's shape, when a check of the same o before got it (the base of a
	// seed serves all its test cases): then o′ alone is built.
	key := baseKey(m, version)
	base, cached := bases.get(key)
	// Read statically first: a pass read so is the probe's pass; a
	// failure, or a side the reading does not model, is built.
	if !cached {
		if b, err := m.readSide(ctx, goCmd, version, sum, "o"); err == nil {
			base, cached = b, true
			bases.put(key, base)
		}
	}
	if cached {
		if fu, err := m.readSide(ctx, goCmd, version, sum, "f"); err == nil {
			if v := c.compare(base, fu); len(v.Fails) == 0 {
				read.Add(1)
				return v
			}
		}
		if ctx.Err() != nil {
			return undecided("%v", ctx.Err())
		}
	}
	built.Add(1)
	oFiles := maps.Clone(m.files)
	if cached {
		m.sides = []string{"f"}
		for k := range m.files {
			if strings.HasPrefix(k, "o/") {
				delete(m.files, k)
			}
		}
	}
	out, err := build(ctx, goCmd, m, sum, version)
	var be *buildError
	var re *runError
	switch {
	case errors.As(err, &be):
		sides := blame(be.out)
		if len(sides["o"]) > 0 || len(sides["f"]) == 0 {
			return undecided("o: %v", err)
		}
		return fail(fmt.Sprintf("the Go of o′ does not build, o's does: %s", strings.Join(sides["f"][:min(len(sides["f"]), 4)], "; ")), "", string(be.out))
	case errors.As(err, &re):
		// o's shape may have been read, not run: o is run alone.
		m.files = oFiles
		return c.runFailed(ctx, goCmd, m, sum, version, re)
	case err != nil:
		return undecided("%v", err)
	}
	var shapes []probe.Shape
	if err := json.Unmarshal(out, &shapes); err != nil || len(shapes) != len(m.sides) {
		return undecided("the probe printed %.200q: %v", out, err)
	}
	if !cached {
		base = facts(shapes[0], m.roots["o"].files[0])
		bases.put(key, base)
	}
	fu := facts(shapes[len(shapes)-1], m.roots["f"].files[0])
	return c.compare(base, fu)
}

// What the checks of this process did, for Stats.
var checks, read, built, started atomic.Int64

// Stats counts what go-probe did in this process: checks made (with the
// runtime prepared), checks decided by reading the Go source alone,
// checks that built the probe, and processes started (go commands and
// probes).
type Stats struct {
	Checks, Read, Built, Processes int64
}

// ReadStats returns the counts so far.
func ReadStats() Stats {
	return Stats{Checks: checks.Load(), Read: read.Load(), Built: built.Load(), Processes: started.Load()}
}

// baseKey identifies o's side of a module: its files and the runtime.
func baseKey(m *module, version string) [32]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00", version)
	for _, k := range slices.Sorted(maps.Keys(m.files)) {
		if strings.HasPrefix(k, "o/") {
			fmt.Fprintf(h, "%s\x00%d\x00", k, len(m.files[k]))
			h.Write(m.files[k])
		}
	}
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// baseCache keeps the facts of recent bases, a few: what it holds is
// bounded by its number of entries.
type baseCache struct {
	mu   sync.Mutex
	keys [][32]byte
	by   map[[32]byte]map[string]fact
}

var bases = &baseCache{by: map[[32]byte]map[string]fact{}}

func (b *baseCache) get(k [32]byte) (map[string]fact, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	f, ok := b.by[k]
	return f, ok
}

func (b *baseCache) put(k [32]byte, f map[string]fact) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.by[k]; ok {
		return
	}
	if len(b.keys) >= 16 {
		delete(b.by, b.keys[0])
		b.keys = b.keys[1:]
	}
	b.keys = append(b.keys, k)
	b.by[k] = f
}

// runFailed tells apart a probe that failed because of o′ (o's alone
// runs) from one that cannot run at all.
func (c *Check) runFailed(ctx context.Context, goCmd string, m *module, sum []byte, version string, re *runError) oracle.Verdict {
	alone := &module{files: map[string][]byte{}, roots: map[string]*goPackage{"o": m.roots["o"], "f": m.roots["o"]}, sides: []string{"o", "f"}}
	for k, v := range m.files {
		if strings.HasPrefix(k, "o/") {
			alone.files[k] = v
			alone.files["f/"+strings.TrimPrefix(k, "o/")] = v
		}
	}
	if _, err := build(ctx, goCmd, alone, sum, version); err != nil {
		return oracle.Verdict{Undecided: []string{fmt.Sprintf("o: %v", re)}}
	}
	msg := fmt.Sprintf("the Go of o′ fails when its package is loaded, o's does not: %v", re.err)
	return oracle.Verdict{Fails: []oracle.Failure{{Checker: c.CheckerName(), File: c.File,
		Message: msg, Actual: string(re.out), Compared: c.compared("", string(re.out), msg)}}}
}

// compared is the evidence of a failure: what the probe predicted of o′
// and what it found (or the output of a probe that failed), with the
// differences.
func (c *Check) compared(exp, act string, diffs ...string) *result.Compared {
	var pred []string
	for _, kv := range [][2]string{{"number", c.Number}, {"json", c.JSON}, {"got", c.Default}, {"deprecated", c.Deprecated}} {
		if kv[1] != "" {
			pred = append(pred, kv[0]+"="+kv[1])
		}
	}
	added := c.Element.String() + " " + c.Elem
	if len(pred) > 0 {
		added += " (" + strings.Join(pred, ", ") + ")"
	}
	return &result.Compared{Kind: "go-probe", Expected: exp, Found: act, Differences: diffs,
		Expects: fmt.Sprintf("%s of o′, built and read through protoreflect, holds the elements of o's unchanged and the added %s, consistent with itself (one line per element: its number, JSON name, default, the getter's value on an empty message, deprecation).", c.File, added)}
}

// A fact is an element of a shape, written as a line: its kind and full
// name (the key) and its attributes.
type fact struct {
	key   string
	attrs []string
	// elem is the element's kind and its name as declared.
	kind Element
	name string
	// of is the key of what holds it, mapEntry a map field's entry.
	of       string
	mapEntry bool
}

func (f fact) String() string { return f.key + " " + strings.Join(f.attrs, " ") }

// attr returns the value of the attribute k.
func (f fact) attr(k string) string {
	for _, a := range f.attrs {
		if v, ok := strings.CutPrefix(a, k+"="); ok {
			return v
		}
	}
	return ""
}

// facts writes a shape as facts, with the Deprecated comments of the Go
// source g.
func facts(s probe.Shape, g *goFile) map[string]fact {
	out := map[string]fact{}
	add := func(f fact) { out[f.key] = f }
	comment := func(id string) string {
		if id == "" {
			return "-"
		}
		return strconv.FormatBool(g.deprecated[id])
	}
	for _, m := range s.Messages {
		goType := m.Go
		add(fact{key: "message " + m.Name, kind: Message, name: last(m.Name), of: parent(m.Name), mapEntry: m.MapEntry,
			attrs: []string{"deprecated=" + strconv.FormatBool(m.Deprecated), "comment=" + comment(goType)}})
		for _, f := range m.Fields {
			goField := ""
			if f.Getter != "" {
				goField = strings.TrimPrefix(f.Getter, "Get")
			}
			attrs := []string{
				"number=" + strconv.Itoa(int(f.Number)), "json=" + f.JSON, "kind=" + f.Kind, "type=" + f.Type, "card=" + f.Card,
				"presence=" + strconv.FormatBool(f.Presence), "oneof=" + f.Oneof, "default=" + f.Default,
				"getter=" + f.Getter, "got=" + f.Got, "deprecated=" + strconv.FormatBool(f.Deprecated),
			}
			if goType != "" && goField != "" {
				attrs = append(attrs, "comment="+comment(goType+"."+goField), "getter-comment="+comment(goType+"."+f.Getter+"()"))
			}
			add(fact{key: "field " + m.Name + "." + f.Name, kind: Field, name: f.Name, of: "message " + m.Name, attrs: attrs})
		}
	}
	for i, e := range s.Enums {
		goType := ""
		if i < len(g.enums) {
			goType = g.enums[i]
		}
		add(fact{key: "enum " + e.Name, kind: Enum, name: last(e.Name), of: parent(e.Name), attrs: []string{"deprecated=" + strconv.FormatBool(e.Deprecated), "comment=" + comment(goType)}})
		for _, v := range e.Values {
			cst := ""
			for _, k := range g.consts[goType] {
				if strings.HasSuffix(k, "_"+v.Name) {
					cst = k
				}
			}
			add(fact{key: "enum-value " + e.Name + "." + v.Name, kind: EnumValue, name: v.Name, of: "enum " + e.Name,
				attrs: []string{"number=" + strconv.Itoa(int(v.Number)), "deprecated=" + strconv.FormatBool(v.Deprecated), "comment=" + comment(cst)}})
		}
	}
	for _, sv := range s.Services {
		add(fact{key: "service " + sv.Name, name: last(sv.Name), attrs: []string{"deprecated=" + strconv.FormatBool(sv.Deprecated)}, kind: -1})
		for _, md := range sv.Methods {
			add(fact{key: "rpc " + sv.Name + "." + md.Name, kind: RPC, name: md.Name, of: "service " + sv.Name, attrs: []string{
				"input=" + md.Input, "output=" + md.Output, "client-streaming=" + strconv.FormatBool(md.ClientStreaming),
				"server-streaming=" + strconv.FormatBool(md.ServerStreaming), "deprecated=" + strconv.FormatBool(md.Deprecated)}})
		}
	}
	return out
}

func last(full string) string {
	if i := strings.LastIndexByte(full, '.'); i >= 0 {
		return full[i+1:]
	}
	return full
}

func parent(full string) string {
	if i := strings.LastIndexByte(full, '.'); i >= 0 {
		return "message " + full[:i]
	}
	return ""
}

// compare checks o′'s facts against o's plus the added element.
func (c *Check) compare(base, fu map[string]fact) oracle.Verdict {
	var added []fact
	for _, k := range slices.Sorted(maps.Keys(fu)) {
		f := fu[k]
		if _, ok := base[k]; !ok && f.kind == c.Element && f.name == c.Elem {
			added = append(added, f)
		}
	}
	var diffs []string
	if len(added) != 1 {
		diffs = append(diffs, fmt.Sprintf("o′ has %d new %ss named %s, not 1", len(added), c.Element, c.Elem))
	}
	// What belongs to the new element: a message's or an enum's members,
	// a map field's entry message.
	belongs := func(f fact) bool {
		for _, a := range added {
			full := a.key[strings.IndexByte(a.key, ' ')+1:]
			name := f.key[strings.IndexByte(f.key, ' ')+1:]
			if (a.kind == Message || a.kind == Enum) && strings.HasPrefix(name, full+".") {
				return true
			}
			if a.kind == Field && f.mapEntry && f.of == a.of && f.name == mapEntryName(a.name) {
				return true
			}
			if a.kind == Field && strings.HasPrefix(name, strings.TrimPrefix(a.of, "message ")+"."+mapEntryName(a.name)+".") {
				return true
			}
		}
		return false
	}
	var members []fact // what belongs to the new element
	for _, k := range slices.Sorted(maps.Keys(fu)) {
		f := fu[k]
		b, ok := base[k]
		switch {
		case slices.ContainsFunc(added, func(a fact) bool { return a.key == k }):
		case !ok && belongs(f):
			members = append(members, f)
		case !ok:
			diffs = append(diffs, fmt.Sprintf("%s: in o′ only, not predicted", k))
		case b.String() != f.String():
			diffs = append(diffs, fmt.Sprintf("%s: changed: o %s, o′ %s", k, strings.Join(b.attrs, " "), strings.Join(f.attrs, " ")))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(base)) {
		if _, ok := fu[k]; !ok {
			diffs = append(diffs, fmt.Sprintf("%s: missing in o′", k))
		}
	}
	if len(added) == 1 {
		diffs = append(diffs, c.element(added[0])...)
	}
	for _, f := range members {
		diffs = append(diffs, consistent(f)...)
	}
	if len(diffs) == 0 {
		return oracle.Verdict{}
	}
	msg := fmt.Sprintf("%s in o′, built and read through protoreflect: %s", c.File, diffs[0])
	if len(diffs) > 1 {
		msg += fmt.Sprintf(" (and %d more: %s)", len(diffs)-1, strings.Join(diffs[1:min(len(diffs), 5)], "; "))
	}
	exp, act := c.predicted(base), listing(fu)
	return oracle.Verdict{Fails: []oracle.Failure{{Checker: c.CheckerName(), File: c.File, Message: msg,
		Expected: exp, Actual: act, Diff: oracle.Diff(c.File, exp, act), Compared: c.compared(exp, act, diffs...)}}}
}

// mapEntryName is the name of a map field's entry message (FooBarEntry
// for foo_bar).
func mapEntryName(field string) string {
	var b strings.Builder
	up := true
	for _, r := range field {
		switch {
		case r == '_':
			up = true
		case up && 'a' <= r && r <= 'z':
			b.WriteRune(r - 'a' + 'A')
			up = false
		default:
			b.WriteRune(r)
			up = false
		}
	}
	return b.String() + "Entry"
}

// element checks the added element against itself and the predictions.
func (c *Check) element(f fact) []string {
	var out []string
	want := func(attr, pred, what string) {
		if pred != "" && f.attr(attr) != pred {
			out = append(out, fmt.Sprintf("%s: %s %s, predicted %s", f.key, what, f.attr(attr), pred))
		}
	}
	want("number", c.Number, "number")
	want("json", c.JSON, "JSON name")
	want("deprecated", c.Deprecated, "deprecated")
	if f.kind == Field {
		want("got", c.Default, "the getter returns")
	}
	return append(out, consistent(f)...)
}

// consistent checks an element of o′ against itself: a field's getter
// returns its default on an empty message; a deprecated element has its
// Deprecated: comments.
func consistent(f fact) []string {
	var out []string
	if f.kind == Field {
		if f.attr("getter") != "" && f.attr("got") != f.attr("default") {
			out = append(out, fmt.Sprintf("%s: the getter %s returns %s on an empty message, the descriptor's default is %s", f.key, f.attr("getter"), f.attr("got"), f.attr("default")))
		}
	}
	if f.attr("deprecated") == "true" {
		for _, a := range []string{"comment", "getter-comment"} {
			if f.attr(a) == "false" {
				what := "its Go declaration"
				if a == "getter-comment" {
					what = "its getter " + f.attr("getter")
				}
				out = append(out, fmt.Sprintf("%s: deprecated, but %s has no Deprecated: comment", f.key, what))
			}
		}
	}
	return out
}

// predicted lists o's facts and the added element as predicted.
func (c *Check) predicted(base map[string]fact) string {
	var lines []string
	for _, f := range base {
		lines = append(lines, f.String())
	}
	p := []string{"(added) " + c.Element.String() + " " + c.Elem}
	for _, kv := range [][2]string{{"number", c.Number}, {"json", c.JSON}, {"got", c.Default}, {"deprecated", c.Deprecated}} {
		if kv[1] != "" {
			p = append(p, kv[0]+"="+kv[1])
		}
	}
	lines = append(lines, strings.Join(p, " "))
	slices.Sort(lines)
	return strings.Join(lines, "\n") + "\n"
}

func listing(fs map[string]fact) string {
	var lines []string
	for _, f := range fs {
		lines = append(lines, f.String())
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n") + "\n"
}
