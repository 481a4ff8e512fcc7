package protojs

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/tree"
	"google.golang.org/protobuf/encoding/protowire"
)

// Check is the protobuf-js check of one follow-up: the facts of o′ are
// those of o plus the facts of the added declarations, and those hold.
type Check struct {
	// Name names the check in findings ("protobuf-js" when empty).
	Name string
}

// CheckerName implements relation.Named.
func (c *Check) CheckerName() string {
	if c.Name == "" {
		return "protobuf-js"
	}
	return c.Name
}

// Check runs the check; failures only (see Decide).
func (c *Check) Check(o, o2 tree.Tree) []oracle.Failure { return c.Decide(o, o2).Fails }

// Decide reads the facts of o and o′ and judges the declarations o′
// adds. A tree without facts (the output of a generator the probe does
// not run with) gives nothing to check: the check holds. It cannot
// decide when the probe could not load the generated module of o, or
// when o′ adds no declaration the facts show.
func (c *Check) Decide(o, o2 tree.Tree) oracle.Verdict {
	name := c.CheckerName()
	fo, err := Read(o)
	if err != nil {
		return oracle.Verdict{Undecided: []string{"the facts of o: " + err.Error()}}
	}
	fo2, err := Read(o2)
	if err != nil {
		return fail(name, "", "the facts of o′: "+err.Error())
	}
	if len(fo.Files) == 0 && len(fo2.Files) == 0 {
		return oracle.Verdict{}
	}
	for _, f := range fo.Files {
		if !slices.Contains(fo2.Files, f) {
			return fail(name, f, fmt.Sprintf("%s is in o but not in o′: the probe wrote no facts", f))
		}
	}
	for _, p := range []Fact{fo.Probe, fo2.Probe} {
		if p.Untested != "" {
			return oracle.Verdict{Undecided: []string{"the probe could not run the code: " + p.Untested}}
		}
	}
	if fo.Probe.Error != "" {
		return oracle.Verdict{Undecided: []string{"the probe could not run the code of o: " + fo.Probe.Error}}
	}
	file := fo2.Files[0]
	if fo2.Probe.Error != "" {
		return fail(name, file, "the probe could not run the code of o′, it could o's: "+fo2.Probe.Error)
	}
	conv := conventionsOf(fo2.Probe)
	var v oracle.Verdict
	report := func(what string, args ...any) {
		msg := fmt.Sprintf(what, args...)
		v.Fails = append(v.Fails, oracle.Failure{Checker: name, File: file, Message: msg})
	}
	// every declaration of o keeps its facts
	for _, key := range fo.Order {
		a := fo.ByElement[key]
		b, ok := fo2.ByElement[key]
		switch {
		case !ok:
			report("%s: o′ has no facts of it, o has", key)
		case !sameFacts(conv, a, b):
			report("%s: its facts changed: o %s, o′ %s", key, a.line, b.line)
		}
	}
	added := 0
	for _, key := range fo2.Order {
		if _, ok := fo.ByElement[key]; ok {
			continue
		}
		added++
		f := fo2.ByElement[key]
		if f.Untested != "" {
			v.Undecided = append(v.Undecided, fmt.Sprintf("%s %s: %s", f.Kind, f.Element, f.Untested))
			continue
		}
		for _, why := range judge(conv, f, fo2) {
			report("%s %s (%s): %s", f.Kind, f.Element, conv, why)
		}
	}
	if n := len(v.Fails); n > 1 {
		// one failure, with the others in its message
		var more []string
		for _, f := range v.Fails[1:min(n, 8)] {
			more = append(more, f.Message)
		}
		v.Fails[0].Message += fmt.Sprintf(" (and %d more: %s)", n-1, strings.Join(more, "; "))
		v.Fails = v.Fails[:1]
	}
	if len(v.Fails) > 0 {
		return v
	}
	if added == 0 {
		v.Undecided = append(v.Undecided, "o′ adds no declaration the facts show")
	}
	return v
}

func fail(name, file, msg string) oracle.Verdict {
	return oracle.Verdict{Fails: []oracle.Failure{{Checker: name, File: file, Message: msg}}}
}

// sameFacts compares the facts of one declaration in o and o′ (by c's
// conventions). A field whose sample changed (an enum field, whose sample
// is a value of its enum, when a value is added to that enum) is compared
// but for the sample. An enum's values and members grow with a value
// added to it; the members the generator adds of its own stay, but that
// a value added may take the number of one (ts-proto's UNRECOGNIZED, -1).
func sameFacts(c conventions, a, b *Fact) bool {
	if a.line == b.line {
		return true
	}
	x, y := *a, *b
	x.line, y.line = "", ""
	switch a.Kind {
	case "field":
		if x.Sample != y.Sample {
			x.Sample, x.Value, x.JSONBack = "", "", nil
			y.Sample, y.Value, y.JSONBack = "", "", nil
		}
	case "enum":
		ey := c.extras(&y)
		for _, m := range c.extras(&x) {
			i := slices.IndexFunc(ey, func(n Member) bool { return n.Key == m.Key })
			switch {
			case i >= 0 && !reflect.DeepEqual(ey[i], m):
				return false
			case i >= 0:
				ey = slices.Delete(ey, i, i+1)
			case !slices.ContainsFunc(y.Members, func(n Member) bool { return n.Value == m.Value }):
				return false
			}
		}
		if len(ey) > 0 {
			return false
		}
		x.Values, y.Values, x.Members, y.Members = nil, nil, nil, nil
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return string(ja) == string(jb)
}

// extras are the members of enum e that stand for none of its values:
// those the generator adds of its own.
func (c conventions) extras(e *Fact) []Member {
	var out []Member
	for _, m := range e.Members {
		own := false
		for _, v := range e.Values {
			if c.enumKey(e.Element, v, e.Values) == m.Key {
				own = true
				break
			}
		}
		if !own {
			out = append(out, m)
		}
	}
	return out
}

// judge says what is wrong with the facts of a declaration o′ adds.
func judge(c conventions, f *Fact, all *Facts) []string {
	if f.Error != "" {
		return []string{f.Error}
	}
	switch f.Kind {
	case "field":
		return judgeField(c, f)
	case "enum":
		return judgeEnum(c, c.extras(f))
	case "enum-value":
		return judgeValue(c, f, all)
	}
	return nil
}

func judgeField(c conventions, f *Fact) []string {
	var bad []string
	if want := c.prop(f); f.Prop != want {
		bad = append(bad, fmt.Sprintf("its property is %s, not %s", f.Prop, want))
	}
	if !sameValue(f, f.Value, f.Sample) {
		bad = append(bad, fmt.Sprintf("decoding %s reads %s", f.Sample, f.Value))
	}
	if f.Wire != "same" {
		bad = append(bad, "encoding it back writes other bytes: "+f.Wire+packing(f))
	}
	if want := c.unset(f); want != nil {
		got := "(not read)"
		if f.Unset != nil {
			got = *f.Unset
		}
		if !slices.ContainsFunc(want, func(w string) bool { return sameValueAs(f, got, w, c.approximate(f)) }) {
			bad = append(bad, fmt.Sprintf("unset, it reads %s, not %s", got, strings.Join(want, " or ")))
		}
	}
	if key, ok := c.jsonKey(f); ok && f.JSONKeys != nil {
		if len(f.JSONKeys) != 1 || f.JSONKeys[0] != key {
			bad = append(bad, fmt.Sprintf("its JSON key is %s, not %s", strings.Join(f.JSONKeys, ", "), key))
		}
		if f.JSONBack != nil && !sameValue(f, *f.JSONBack, f.Value) {
			bad = append(bad, fmt.Sprintf("its JSON reads back %s, not %s", *f.JSONBack, f.Value))
		}
	}
	return bad
}

// packing names the difference of field f between the bytes the
// generated code wrote and those it read, when the wire difference the
// probe saw ("WROTE for READ", in hex) is one of packing (a repeated
// field) or the field left out: "" when it is neither, or when the bytes
// cannot be read.
func packing(f *Fact) string {
	wrote, read, ok := strings.Cut(f.Wire, " for ")
	if !ok || f.Number <= 0 {
		return ""
	}
	w, r := wireTypes(wrote, protowire.Number(f.Number)), wireTypes(read, protowire.Number(f.Number))
	switch {
	case w == nil || r == nil:
		return ""
	case len(w) == 0 && len(r) > 0:
		return fmt.Sprintf(" (it leaves the field out, a %s %s field)", f.Syntax, f.Label)
	case f.Label != "repeated":
		return ""
	}
	packed := func(ts []protowire.Type) bool { return slices.Contains(ts, protowire.BytesType) }
	switch {
	case packed(w) && !packed(r):
		return " (it writes the field packed, the bytes it read have it unpacked" + packedOption(f) + ")"
	case !packed(w) && packed(r) && len(w) > 0:
		return " (it writes the field unpacked, the bytes it read have it packed" + packedOption(f) + ")"
	}
	return ""
}

// packedOption says what f's declaration makes of its packing.
func packedOption(f *Fact) string {
	if f.Packed {
		return "; the field is packed"
	}
	return "; the field is not packed"
}

// wireTypes lists the wire types with which the top-level fields of the
// message in hex h have number n; nil when h is not a message.
func wireTypes(h string, n protowire.Number) []protowire.Type {
	b, err := hex.DecodeString(h)
	if err != nil {
		return nil
	}
	out := []protowire.Type{}
	for len(b) > 0 {
		num, typ, l := protowire.ConsumeTag(b)
		if l < 0 {
			return nil
		}
		b = b[l:]
		v := protowire.ConsumeFieldValue(num, typ, b)
		if v < 0 {
			return nil
		}
		b = b[v:]
		if num == n {
			out = append(out, typ)
		}
	}
	return out
}

// quoted is a name as the probe shows a string, in JSON.
func quoted(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// judgeEnum checks the members a generator adds to a new enum: each
// helper maps such a member to its name and its number, and back.
func judgeEnum(c conventions, extras []Member) []string {
	var bad []string
	for _, x := range extras {
		if x.ToJSON != nil && *x.ToJSON != quoted(x.Key) {
			bad = append(bad, fmt.Sprintf("its member %s goes to JSON as %s", x.Key, *x.ToJSON))
		}
		if x.JSONBack != nil && *x.JSONBack != x.Value {
			bad = append(bad, fmt.Sprintf("its member %s (%s) comes back from its JSON as %s", x.Key, x.Value, *x.JSONBack))
		}
		if x.NumberBack != nil && *x.NumberBack != x.Value {
			bad = append(bad, fmt.Sprintf("its member %s (%s) comes back from its number %s as %s", x.Key, x.Value, deref(x.ToNumber), *x.NumberBack))
		}
	}
	return bad
}

func deref(s *string) string {
	if s == nil {
		return "(none)"
	}
	return *s
}

func judgeValue(c conventions, f *Fact, all *Facts) []string {
	enum := parent(f.Element)
	var values []string
	if e, ok := all.ByElement["enum "+enum]; ok {
		values = e.Values
	}
	name := lastName(f.Element)
	key := c.enumKey(enum, name, values)
	num := fmt.Sprint(f.Number)
	member := num
	if c.stringEnums() {
		member = quoted(name)
	}
	// the names of the values of its number, and their members' keys
	names := make([]string, len(f.Aliases))
	keys := make([]string, len(f.Aliases))
	for i, a := range f.Aliases {
		names[i] = quoted(a)
		keys[i] = quoted(c.enumKey(enum, a, values))
	}
	var bad []string
	i := slices.Index(f.Keys, key)
	switch {
	case i < 0:
		bad = append(bad, fmt.Sprintf("the enum has no member %s (members standing for it: %s)", key, strings.Join(f.Keys, ", ")))
	case i < len(f.Shown) && f.Shown[i] != member:
		bad = append(bad, fmt.Sprintf("its member %s is %s, not %s", key, f.Shown[i], member))
	}
	if !c.stringEnums() && f.ByNumber != nil && !slices.Contains(keys, *f.ByNumber) {
		bad = append(bad, fmt.Sprintf("the enum's member %d is %s, not the member of a value of that number (%s)", f.Number, *f.ByNumber, strings.Join(keys, ", ")))
	}
	// ts-proto's helpers: fromJSON takes a name or a number, toJSON
	// gives the name, toNumber the number
	ofNumber := []string{num}
	if c.stringEnums() {
		ofNumber = names
	}
	if f.FromName != nil && *f.FromName != member {
		bad = append(bad, fmt.Sprintf("fromJSON(%s) is %s, not %s", quoted(name), *f.FromName, member))
	}
	if f.FromNumber != nil && !slices.Contains(ofNumber, *f.FromNumber) {
		bad = append(bad, fmt.Sprintf("fromJSON(%d) is %s, not %s", f.Number, *f.FromNumber, strings.Join(ofNumber, " or ")))
	}
	if f.ToJSON != nil && !slices.Contains(names, *f.ToJSON) {
		bad = append(bad, fmt.Sprintf("toJSON of its member is %s, not %s", *f.ToJSON, strings.Join(names, " or ")))
	}
	if f.ToNumber != nil && *f.ToNumber != num {
		bad = append(bad, fmt.Sprintf("toNumber of its member is %s, not %s", *f.ToNumber, num))
	}
	return bad
}
