package protodesc

import (
	"fmt"
	"math"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/tree"
)

// GoField is the check of the Go protoc-gen-go writes for a field added to
// a message, against the field as o′'s descriptor declares it (number,
// name, JSON name, packing, default):
//
//   - the getter (GetF) of a message where the field is unset returns the
//     field's default: its [default], else the zero value of its type,
//     for an enum its first value; compared as values, whatever the Go
//     spelling (int32(-7) or -7, math.Inf(+1), []byte("\x00"), an enum
//     constant by name, of this package or another, or a number converted
//     to the enum type);
//   - the struct tag (`protobuf:"…"`) of the field, in its message or in
//     its oneof's wrapper, holds its number, name=NAME, json=JSON exactly
//     when its JSON name is not its name, and packed exactly when it is
//     packed (a repeated scalar number: [packed = true], or proto3 unless
//     [packed = false]).
//
// An enum declared in another file is known by Values, when the relation
// gives them: without, a default the getter writes as a number, or the
// first value of such an enum, is undecided.
type GoField struct {
	// Name names the check in findings.
	Name string
	// File is the Go file (its path in the output tree).
	File string
	// Field is the added field's name as the .proto declares it.
	Field string
	// Values are the values of the enum of another file that is the
	// field's type, in declaration order, when known.
	Values []NamedNumber
}

// NamedNumber is a value of an enum: its name and number.
type NamedNumber struct {
	Name   string
	Number int32
}

// ParseEnumValues reads "NAME=NUMBER NAME=NUMBER…" (any white space).
func ParseEnumValues(s string) ([]NamedNumber, error) {
	var out []NamedNumber
	for _, f := range strings.Fields(s) {
		name, num, ok := strings.Cut(f, "=")
		n, err := strconv.ParseInt(num, 0, 32)
		if !ok || name == "" || err != nil {
			return nil, fmt.Errorf("%q is no NAME=NUMBER", f)
		}
		out = append(out, NamedNumber{name, int32(n)})
	}
	return out, nil
}

// Check runs Decide and keeps its failures.
func (c *GoField) Check(o, o2 tree.Tree) []oracle.Failure { return c.Decide(o, o2).Fails }

// Decide checks the field's getter and tag in o′.
func (c *GoField) Decide(o, o2 tree.Tree) oracle.Verdict {
	name := c.Name
	if name == "" {
		name = "go-field"
	}
	var v oracle.Verdict
	fail := func(msg, exp, act string) oracle.Verdict {
		v.Fails = append(v.Fails, oracle.Failure{Checker: name, File: c.File, Message: c.File + " in o′: " + msg, Expected: exp, Actual: act})
		return v
	}
	src, ok := o2[c.File]
	if !ok {
		return fail("missing", "", "")
	}
	fd, err := Decode(string(src))
	if err != nil {
		return fail(err.Error(), "", "")
	}
	path, f := findField(fd.MessageType, c.Field)
	if f == nil {
		return fail(fmt.Sprintf("the descriptor holds no single field named %s", c.Field), "", "")
	}
	g := &goFile{lines: strings.Split(string(src), "\n")}
	goMsg := goMessageName(path)
	goField := GoCamelCase(f.GetName())

	// The tag of the field in its struct (or its oneof's wrapper).
	tagRE := regexp.MustCompile(`^\t` + goField + ` .*` + "`" + `protobuf:"([^"]*)"`)
	var tags []string
	for _, l := range g.lines {
		if m := tagRE.FindStringSubmatch(l); m != nil {
			tags = append(tags, m[1])
		}
	}
	if len(tags) != 1 {
		return fail(fmt.Sprintf("%d struct fields %s with a protobuf tag, where the field %s has one", len(tags), goField, f.GetName()), "", strings.Join(tags, "\n"))
	}
	if msg, exp := c.checkTag(tags[0], f, fd.GetSyntax() == "proto3"); msg != "" {
		fail(msg, exp, tags[0])
	}

	// The getter's value when the field is unset.
	ret, err := getterReturn(g.lines, goMsg, goField)
	if err != nil {
		return fail(err.Error(), "", "")
	}
	got, err := g.eval(ret, 0)
	if err != nil {
		v.Undecided = append(v.Undecided, fmt.Sprintf("the value of Get%s: %v", goField, err))
		return v
	}
	want, err := c.expected(fd, f)
	if err != nil {
		return fail(err.Error(), "", "")
	}
	same, why := c.sameDefault(fd, f, want, got)
	switch {
	case why != "":
		v.Undecided = append(v.Undecided, why)
	case !same:
		fail(fmt.Sprintf("Get%s() of a %s without %s returns %s (return %s), where the field's default is %s", goField, goMsg, f.GetName(), got, ret, want), want.String(), got.String())
	}
	return v
}

// checkTag compares the protobuf struct tag with the field; it returns
// what is wrong and what the tag should hold, or "".
func (c *GoField) checkTag(tag string, f *descriptorpb.FieldDescriptorProto, proto3 bool) (string, string) {
	parts := strings.Split(tag, ",")
	if len(parts) < 3 {
		return fmt.Sprintf("the tag %q has no wire type, number and label", tag), ""
	}
	var exp []string
	if parts[1] != strconv.Itoa(int(f.GetNumber())) {
		exp = append(exp, "number "+strconv.Itoa(int(f.GetNumber())))
	}
	keys := map[string]string{}
	flags := map[string]bool{}
	for _, p := range parts[3:] {
		if k, v, ok := strings.Cut(p, "="); ok {
			keys[k] = v
		} else {
			flags[p] = true
		}
	}
	if keys["name"] != f.GetName() {
		exp = append(exp, "name="+f.GetName())
	}
	if j, has := keys["json"]; f.GetJsonName() != f.GetName() && j != f.GetJsonName() {
		exp = append(exp, "json="+f.GetJsonName())
	} else if f.GetJsonName() == f.GetName() && has {
		exp = append(exp, "no json= (the JSON name is the name)")
	}
	if want := packed(f, proto3); flags["packed"] != want {
		if want {
			exp = append(exp, "packed")
		} else {
			exp = append(exp, "not packed")
		}
	}
	if len(exp) == 0 {
		return "", ""
	}
	return fmt.Sprintf("the tag of %s says otherwise than its descriptor: want %s", f.GetName(), strings.Join(exp, ", ")), strings.Join(exp, ", ")
}

// packed says whether a field is encoded packed: a repeated field of a
// scalar number type, packed when it says so, in proto3 unless it says
// not.
func packed(f *descriptorpb.FieldDescriptorProto, proto3 bool) bool {
	if f.GetLabel() != descriptorpb.FieldDescriptorProto_LABEL_REPEATED {
		return false
	}
	switch f.GetType() {
	case descriptorpb.FieldDescriptorProto_TYPE_STRING, descriptorpb.FieldDescriptorProto_TYPE_BYTES,
		descriptorpb.FieldDescriptorProto_TYPE_MESSAGE, descriptorpb.FieldDescriptorProto_TYPE_GROUP:
		return false
	}
	if f.GetOptions() != nil && f.GetOptions().Packed != nil {
		return f.GetOptions().GetPacked()
	}
	return proto3
}

// expected is the value the getter of an unset field returns.
func (c *GoField) expected(fd *descriptorpb.FileDescriptorProto, f *descriptorpb.FieldDescriptorProto) (value, error) {
	if f.GetLabel() == descriptorpb.FieldDescriptorProto_LABEL_REPEATED {
		return value{kind: vNil}, nil
	}
	def, has := f.GetDefaultValue(), f.DefaultValue != nil
	t := f.GetType()
	switch t {
	case descriptorpb.FieldDescriptorProto_TYPE_MESSAGE, descriptorpb.FieldDescriptorProto_TYPE_GROUP:
		return value{kind: vNil}, nil
	case descriptorpb.FieldDescriptorProto_TYPE_BOOL:
		return value{kind: vBool, b: def == "true"}, nil
	case descriptorpb.FieldDescriptorProto_TYPE_STRING:
		return value{kind: vString, s: def}, nil
	case descriptorpb.FieldDescriptorProto_TYPE_BYTES:
		if !has || def == "" {
			return value{kind: vNil}, nil // nil and empty bytes read alike
		}
		s, err := unescapeC(def)
		if err != nil {
			return value{}, fmt.Errorf("the default of %s: %v", f.GetName(), err)
		}
		return value{kind: vBytes, s: s}, nil
	case descriptorpb.FieldDescriptorProto_TYPE_DOUBLE, descriptorpb.FieldDescriptorProto_TYPE_FLOAT:
		x := 0.0
		if has {
			var err error
			if x, err = strconv.ParseFloat(def, 64); err != nil {
				return value{}, fmt.Errorf("the default of %s: %v", f.GetName(), err)
			}
		}
		if t == descriptorpb.FieldDescriptorProto_TYPE_FLOAT {
			x = float64(float32(x))
		}
		return value{kind: vFloat, f: x}, nil
	case descriptorpb.FieldDescriptorProto_TYPE_ENUM:
		if has {
			return value{kind: vEnum, s: def}, nil
		}
		vals := c.enumValues(fd, f.GetTypeName())
		if len(vals) == 0 {
			return value{kind: vEnum}, nil // the first value of an enum not known
		}
		return value{kind: vEnum, s: vals[0].Name, i: big.NewInt(int64(vals[0].Number)), enumOK: true}, nil
	}
	i := new(big.Int)
	if has {
		if _, ok := i.SetString(def, 10); !ok {
			return value{}, fmt.Errorf("the default of %s: %q is no integer", f.GetName(), def)
		}
	}
	return value{kind: vInt, i: i}, nil
}

// enumValues are the values of the enum typeName (".pkg.E"), from fd when
// it declares it, else Values.
func (c *GoField) enumValues(fd *descriptorpb.FileDescriptorProto, typeName string) []NamedNumber {
	if e := findEnum(fd, typeName); e != nil {
		var out []NamedNumber
		for _, v := range e.Value {
			out = append(out, NamedNumber{v.GetName(), v.GetNumber()})
		}
		return out
	}
	return c.Values
}

// sameDefault compares the getter's value with the default; why says
// what could not be decided.
func (c *GoField) sameDefault(fd *descriptorpb.FileDescriptorProto, f *descriptorpb.FieldDescriptorProto, want, got value) (same bool, why string) {
	switch want.kind {
	case vNil:
		return got.kind == vNil || got.kind == vBytes && got.s == "", ""
	case vBool:
		return got.kind == vBool && got.b == want.b, ""
	case vString:
		return got.kind == vString && got.s == want.s, ""
	case vBytes:
		return got.kind == vBytes && got.s == want.s, ""
	case vInt:
		return got.kind == vInt && got.i.Cmp(want.i) == 0, ""
	case vFloat:
		if got.kind == vInt { // an untyped constant, return 0
			f, _ := new(big.Float).SetInt(got.i).Float64()
			got = value{kind: vFloat, f: f}
		}
		// Go constants have no negative zero: -0 reads as 0.
		return got.kind == vFloat && (got.f == want.f || math.IsNaN(got.f) && math.IsNaN(want.f)), ""
	}
	// An enum: its value's name, and its number when known.
	if got.kind != vEnum {
		return false, ""
	}
	vals := c.enumValues(fd, f.GetTypeName())
	if want.s == "" {
		return false, fmt.Sprintf("the first value of %s, declared in another file the relation gives no values of", f.GetTypeName())
	}
	num := func(n string) (*big.Int, bool) {
		for _, v := range vals {
			if v.Name == n {
				return big.NewInt(int64(v.Number)), true
			}
		}
		return nil, false
	}
	wantNum, known := num(want.s)
	switch {
	case got.enumOK && known:
		return got.i.Cmp(wantNum) == 0, ""
	case got.enumOK:
		return false, fmt.Sprintf("the number of %s, declared in another file the relation gives no values of", want.s)
	}
	// By name: a constant P_NAME, of this package or another (P is the
	// enum's Go type, or for an enum in a message that message's Go name).
	return strings.HasSuffix(got.s, "_"+want.s), ""
}

// findField finds the one field named name among the messages and their
// nested messages, and the path of messages that holds it.
func findField(ms []*descriptorpb.DescriptorProto, name string) ([]*descriptorpb.DescriptorProto, *descriptorpb.FieldDescriptorProto) {
	var path []*descriptorpb.DescriptorProto
	var found *descriptorpb.FieldDescriptorProto
	n := 0
	var walk func(stack []*descriptorpb.DescriptorProto, ms []*descriptorpb.DescriptorProto)
	walk = func(stack []*descriptorpb.DescriptorProto, ms []*descriptorpb.DescriptorProto) {
		for _, m := range ms {
			st := append(slices.Clip(stack), m)
			for _, f := range m.Field {
				if f.GetName() == name {
					n++
					path, found = st, f
				}
			}
			walk(st, m.NestedType)
		}
	}
	walk(nil, ms)
	if n != 1 {
		return nil, nil
	}
	return path, found
}

// findEnum finds the enum of the full name typeName (".pkg.M.E") in fd.
func findEnum(fd *descriptorpb.FileDescriptorProto, typeName string) *descriptorpb.EnumDescriptorProto {
	prefix := "."
	if fd.GetPackage() != "" {
		prefix += fd.GetPackage() + "."
	}
	rest, ok := strings.CutPrefix(typeName, prefix)
	if !ok {
		return nil
	}
	var look func(es []*descriptorpb.EnumDescriptorProto, ms []*descriptorpb.DescriptorProto, rest string) *descriptorpb.EnumDescriptorProto
	look = func(es []*descriptorpb.EnumDescriptorProto, ms []*descriptorpb.DescriptorProto, rest string) *descriptorpb.EnumDescriptorProto {
		for _, e := range es {
			if e.GetName() == rest {
				return e
			}
		}
		head, tail, ok := strings.Cut(rest, ".")
		if !ok {
			return nil
		}
		for _, m := range ms {
			if m.GetName() == head {
				return look(m.EnumType, m.NestedType, tail)
			}
		}
		return nil
	}
	return look(fd.EnumType, fd.MessageType, rest)
}

// goMessageName is the Go type of the innermost message of path.
func goMessageName(path []*descriptorpb.DescriptorProto) string {
	parts := make([]string, len(path))
	for i, m := range path {
		parts[i] = GoCamelCase(m.GetName())
	}
	return strings.Join(parts, "_")
}

// getterReturn finds the getter GetF of the message's Go type and returns
// the expression of its last return: what it returns when the field is
// unset.
func getterReturn(lines []string, goMsg, goField string) (string, error) {
	head := regexp.MustCompile(`^func \(\w+ \*` + regexp.QuoteMeta(goMsg) + `\) Get` + regexp.QuoteMeta(goField) + `\(\) `)
	at := -1
	for i, l := range lines {
		if head.MatchString(l) {
			if at >= 0 {
				return "", fmt.Errorf("two getters Get%s of %s", goField, goMsg)
			}
			at = i
		}
	}
	if at < 0 {
		return "", fmt.Errorf("no getter Get%s of %s", goField, goMsg)
	}
	ret := ""
	for _, l := range lines[at+1:] {
		if l == "}" {
			break
		}
		if r, ok := strings.CutPrefix(l, "\treturn "); ok {
			ret = r
		}
	}
	if ret == "" {
		return "", fmt.Errorf("the getter Get%s of %s returns nothing at its end", goField, goMsg)
	}
	return ret, nil
}
