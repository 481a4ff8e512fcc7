package protodesc

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/tree"
)

// EnumLines is the check of the Go declarations protoc-gen-go writes for a
// value added to an enum. protoc-gen-go writes, for each enum, a type
// (`type T int32`), a block of constants (`P_NAME T = NUMBER`) and two
// maps, T_name (number to name) and T_value (name to number), each in the
// order the .proto declares the values; in T_name a value whose number an
// earlier value has is a comment (`// Duplicate value: 1: "B",`). The
// enums come in the file's order: the file's own, then each message's,
// message by message, a message before the messages it nests.
//
// o′'s file must be o's with exactly three lines added: the value's
// constant, its entry in T_name and its entry in T_value, each after the
// entry of the value declared before it (first when none is). If an
// earlier value has its number, its T_name entry is such a comment; if
// not, the first later value with its number turns into one. The
// serialized descriptor (Check compares it) and the alignment gofmt gives
// (a run of blanks counts as one) are not compared.
type EnumLines struct {
	// Name names the check in findings.
	Name string
	// File is the Go file (its path in the output tree).
	File string
	// Value is the added value's name as the .proto declares it.
	Value string
}

var enumTypeRE = regexp.MustCompile(`^type (\w+) int32$`)

// Check predicts File of o′ from File of o and o′'s descriptor.
func (c *EnumLines) Check(o, o2 tree.Tree) []oracle.Failure {
	name := c.Name
	if name == "" {
		name = "enum-lines"
	}
	expects := fmt.Sprintf("The Go of %s in o′, its lines in a canonical form, is o's with the constant and the map entries of %s added after those of the value before it, as o′'s descriptor orders the enum.", c.File, c.Value)
	fail := func(in, msg string) []oracle.Failure {
		m := fmt.Sprintf("%s in %s: %s", c.File, in, msg)
		return []oracle.Failure{{Checker: name, File: c.File, Message: m,
			Compared: &result.Compared{Kind: "enum-lines", Expects: expects, Differences: []string{m}}}}
	}
	a, ok1 := o[c.File]
	b, ok2 := o2[c.File]
	if !ok1 || !ok2 {
		return fail("o or o′", "missing")
	}
	fd, err := Decode(string(b))
	if err != nil {
		return fail("o′", err.Error())
	}
	enums := flatEnums(fd)
	j, i := -1, -1
	for ej, e := range enums {
		for vi, v := range e.Value {
			if v.GetName() == c.Value {
				if j >= 0 {
					return fail("o′", fmt.Sprintf("the descriptor holds more than one enum value named %s", c.Value))
				}
				j, i = ej, vi
			}
		}
	}
	if j < 0 {
		return fail("o′", fmt.Sprintf("the descriptor holds no enum value named %s", c.Value))
	}
	e := enums[j]
	lines, err := predictEnumLines(canonLines(string(a)), e, i, j, len(enums))
	if err != nil {
		return fail("o", err.Error())
	}
	exp, act := strings.Join(lines, "\n"), strings.Join(canonLines(string(b)), "\n")
	if exp == act {
		return nil
	}
	return []oracle.Failure{{
		Checker:  name,
		File:     c.File,
		Message:  fmt.Sprintf("%s in o′: the Go of enum %s is not o's with %s's constant and map entries added after %s", c.File, e.GetName(), c.Value, prevName(e, i)),
		Expected: exp,
		Actual:   act,
		Diff:     oracle.Diff(c.File, exp, act),
		Compared: &result.Compared{Kind: "enum-lines", Expects: expects, Expected: exp, Found: act,
			Differences: []string{fmt.Sprintf("the lines of enum %s differ from the prediction", e.GetName())}},
	}}
}

func prevName(e *descriptorpb.EnumDescriptorProto, i int) string {
	if i == 0 {
		return "the start of each block"
	}
	return e.Value[i-1].GetName()
}

// flatEnums lists the enums of fd in the order protoc-gen-go writes them.
func flatEnums(fd *descriptorpb.FileDescriptorProto) []*descriptorpb.EnumDescriptorProto {
	out := append([]*descriptorpb.EnumDescriptorProto(nil), fd.EnumType...)
	var walk func([]*descriptorpb.DescriptorProto)
	walk = func(ms []*descriptorpb.DescriptorProto) {
		for _, m := range ms {
			out = append(out, m.EnumType...)
			walk(m.NestedType)
		}
	}
	walk(fd.MessageType)
	return out
}

// canonLines splits src into lines, the serialized descriptor as one line
// and every run of blanks after the indentation as one blank; deprecation
// comments, whole lines or after a declaration, are left out (the check
// protobuf-go-deprecated reads them).
func canonLines(src string) []string {
	if m, _, _ := descSpan(src); m != nil {
		src = src[:m[0]] + "const file_rawDesc = …\n\n" + src[m[1]:]
	}
	var lines []string
	for _, l := range strings.Split(src, "\n") {
		rest := strings.TrimLeft(l, "\t")
		indent := l[:len(l)-len(rest)]
		if strings.HasPrefix(rest, "// Deprecated: ") {
			continue
		}
		if i := strings.Index(rest, " // Deprecated: "); i >= 0 {
			rest = rest[:i]
		}
		lines = append(lines, indent+strings.Join(strings.Fields(rest), " "))
	}
	return lines
}

// predictEnumLines adds the lines of value i of enum j (of n) to the
// lines of o.
func predictEnumLines(lines []string, e *descriptorpb.EnumDescriptorProto, i, j, n int) ([]string, error) {
	var types []int
	for k, l := range lines {
		if enumTypeRE.MatchString(l) {
			types = append(types, k)
		}
	}
	if len(types) != n {
		return nil, fmt.Errorf("%d enum types (type T int32) where the descriptor has %d enums", len(types), n)
	}
	at := types[j]
	typ := enumTypeRE.FindStringSubmatch(lines[at])[1]
	v := e.Value[i]
	num := strconv.Itoa(int(v.GetNumber()))
	prev := ""
	if i > 0 {
		prev = e.Value[i-1].GetName()
	}
	dup := false
	for _, w := range e.Value[:i] {
		dup = dup || w.GetNumber() == v.GetNumber()
	}

	// The constants: P_NAME T = NUMBER, P from the first constant of o.
	constRE := regexp.MustCompile(`^\t(\w+) ` + typ + ` = -?\d+( //.*)?$`)
	start, end, err := block(lines, at, "const (", ")")
	if err != nil {
		return nil, err
	}
	first := -1
	for k := start + 1; k < end && first < 0; k++ {
		if constRE.MatchString(lines[k]) {
			first = k
		}
	}
	v0 := e.Value[0].GetName()
	if i == 0 && len(e.Value) > 1 {
		v0 = e.Value[1].GetName()
	}
	if first < 0 || !strings.HasSuffix(constRE.FindStringSubmatch(lines[first])[1], "_"+v0) {
		return nil, fmt.Errorf("no constant of %s's value %s in its const block", typ, v0)
	}
	ident := constRE.FindStringSubmatch(lines[first])[1]
	prefix := ident[:len(ident)-len(v0)]
	lines, err = insertAfter(lines, start, end, regexp.MustCompile(`^\t`+prefix+regexp.QuoteMeta(prev)+` `+typ+` = -?\d+( //.*)?$`), prev, "\t"+prefix+v.GetName()+" "+typ+" = "+num)
	if err != nil {
		return nil, fmt.Errorf("%s's constants: %v", typ, err)
	}

	// T_name: the number to the name, a comment for a duplicate number.
	// The maps are in a var block (google.golang.org/protobuf) or each a
	// var of its own (github.com/golang/protobuf's own generator).
	entry := num + `: ` + strconv.Quote(v.GetName()) + ","
	if dup {
		entry = "// Duplicate value: " + entry
	}
	start, end, in, err := mapBlock(lines, at, typ+"_name = map[int32]string{")
	if err != nil {
		return nil, err
	}
	if !dup {
		for _, w := range e.Value[i+1:] {
			if w.GetNumber() != v.GetNumber() {
				continue
			}
			was := in + num + `: ` + strconv.Quote(w.GetName()) + ","
			k := slices.Index(lines[start:end], was)
			if k < 0 {
				return nil, fmt.Errorf("%s_name has no line %q", typ, strings.TrimSpace(was))
			}
			lines[start+k] = in + "// Duplicate value: " + strings.TrimSpace(was)
			break
		}
	}
	lines, err = insertAfter(lines, start, end, regexp.MustCompile(`^`+in+`(// Duplicate value: )?-?\d+: `+regexp.QuoteMeta(strconv.Quote(prev))+`,$`), prev, in+entry)
	if err != nil {
		return nil, fmt.Errorf("%s_name: %v", typ, err)
	}

	// T_value: the name to the number.
	start, end, in, err = mapBlock(lines, at, typ+"_value = map[string]int32{")
	if err != nil {
		return nil, err
	}
	lines, err = insertAfter(lines, start, end, regexp.MustCompile(`^`+in+regexp.QuoteMeta(strconv.Quote(prev))+`: -?\d+,$`), prev, in+strconv.Quote(v.GetName())+": "+num+",")
	if err != nil {
		return nil, fmt.Errorf("%s_value: %v", typ, err)
	}
	return lines, nil
}

// mapBlock finds the map literal decl after line from, in a var block
// (`\tdecl` … `\t}`) or as a var of its own (`var decl` … `}`), and
// returns its lines and the indentation of its entries.
func mapBlock(lines []string, from int, decl string) (int, int, string, error) {
	s, e, err := block(lines, from, "\t"+decl, "\t}")
	if err == nil {
		return s, e, "\t\t", nil
	}
	if s, e, err2 := block(lines, from, "var "+decl, "}"); err2 == nil {
		return s, e, "\t", nil
	}
	return 0, 0, "", err
}

// block finds the first line open at or after from and the first line
// close after it.
func block(lines []string, from int, open, close string) (int, int, error) {
	s := slices.Index(lines[from:], open)
	if s < 0 {
		return 0, 0, fmt.Errorf("no line %q after line %d", open, from+1)
	}
	s += from
	e := slices.Index(lines[s+1:], close)
	if e < 0 {
		return 0, 0, fmt.Errorf("%q at line %d is not closed", open, s+1)
	}
	return s, s + 1 + e, nil
}

// insertAfter inserts line after the line of (start, end) that prev
// matches, or after start when there is no predecessor (name "").
func insertAfter(lines []string, start, end int, prev *regexp.Regexp, name, line string) ([]string, error) {
	at := start
	if name != "" {
		at = -1
		for k := start + 1; k < end; k++ {
			if prev.MatchString(lines[k]) {
				at = k
				break
			}
		}
		if at < 0 {
			return nil, fmt.Errorf("no entry of %s, the value before the new one", name)
		}
	}
	return append(lines[:at+1:at+1], append([]string{line}, lines[at+1:]...)...), nil
}
