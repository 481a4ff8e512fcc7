// Package protodesc is a domain checker for protoc-gen-go: it decodes the
// serialized file descriptor that protoc-gen-go embeds in the Go file it
// writes (file_NAME_proto_rawDesc, or the gzipped fileDescriptor_… of
// github.com/golang/protobuf's own releases) from o and o′, and
// checks that the follow-up's descriptor is the base's plus exactly the
// added element. The descriptor's length prefixes change with every
// addition, so line checks cannot predict it; the decoded descriptors can
// be compared.
package protodesc

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/tree"
)

// Added is what a mutation added to a .proto file.
type Added int

// The elements a descriptor check knows how to take out again.
const (
	EnumValue Added = iota // a value of an enum, top level or nested
	Field                  // a field of a message (a map field with its entry message, a proto3 optional one with its synthetic oneof)
	Message                // a message, top level or nested
	Method                 // an rpc of a service
)

var addedNames = map[string]Added{"enum-value": EnumValue, "field": Field, "message": Message, "rpc": Method}

// ParseAdded reads the name of an element kind: enum-value, field,
// message or rpc.
func ParseAdded(s string) (Added, error) {
	a, ok := addedNames[s]
	if !ok {
		return 0, fmt.Errorf("unknown element %q (want enum-value, field, message or rpc)", s)
	}
	return a, nil
}

// Check is the descriptor check of one follow-up.
type Check struct {
	// Name names the check in findings.
	Name string
	// File is the Go file (its path in the output tree) holding the
	// descriptor.
	File string
	// What is the kind of the added element, Element its name as the
	// .proto file declares it.
	What    Added
	Element string
	// Imports are files the mutation imports as well: o′'s descriptor
	// lists them as dependencies, o's does not.
	Imports []string
	// Alias says that the mutation set allow_alias on the enum of the
	// added value as well (an alias in an enum that had none).
	Alias bool
}

// The three forms in which protoc-gen-go releases embed the serialized
// descriptor: a string constant (google.golang.org/protobuf v1.36 on), a
// byte slice (v1.20 to v1.35, and github.com/golang/protobuf v1.4 and v1.5,
// which run that generator) and a gzipped byte slice named after the file
// (github.com/golang/protobuf's own generator, v1.3 and before).
var (
	rawDescStringRE = regexp.MustCompile(`(?ms)^const file_\w+_rawDesc = (.*?)\n\n`)
	rawDescBytesRE  = regexp.MustCompile(`(?ms)^var file_\w+_rawDesc = \[\]byte\{\n(.*?)^\}\n`)
	gzipDescRE      = regexp.MustCompile(`(?ms)^var fileDescriptor_\w+ = \[\]byte\{\n(.*?)^\}\n`)
)

// descSpan returns where the serialized descriptor is declared in src and
// the text of its value, nil when src declares none in a known form.
func descSpan(src string) (span []int, body string, form *regexp.Regexp) {
	for _, re := range []*regexp.Regexp{rawDescStringRE, rawDescBytesRE, gzipDescRE} {
		if m := re.FindStringSubmatchIndex(src); m != nil {
			return m[:2], src[m[2]:m[3]], re
		}
	}
	return nil, "", nil
}

// Decode returns the file descriptor embedded in the Go source src, in
// any of the forms protoc-gen-go releases write.
func Decode(src string) (*descriptorpb.FileDescriptorProto, error) {
	span, body, form := descSpan(src)
	if span == nil {
		return nil, fmt.Errorf("no serialized descriptor (const file_…_rawDesc, var file_…_rawDesc or var fileDescriptor_…)")
	}
	var raw []byte
	var err error
	switch form {
	case rawDescStringRE:
		raw, err = stringLiterals(body)
	default:
		raw, err = byteLiterals(body)
		if err == nil && form == gzipDescRE {
			raw, err = gunzip(raw)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("rawDesc: %v", err)
	}
	fd := &descriptorpb.FileDescriptorProto{}
	if err := proto.Unmarshal(raw, fd); err != nil {
		return nil, fmt.Errorf("rawDesc: %v", err)
	}
	return fd, nil
}

// stringLiterals reads `"" +` and one quoted string a line, joined.
func stringLiterals(body string) ([]byte, error) {
	var b strings.Builder
	for _, part := range strings.Split(body, "\n") {
		part = strings.TrimSuffix(strings.TrimSpace(part), " +")
		s, err := strconv.Unquote(part)
		if err != nil {
			return nil, fmt.Errorf("%q is no string literal", part)
		}
		b.WriteString(s)
	}
	return []byte(b.String()), nil
}

// byteLiterals reads the bytes of a []byte literal written in hex, a
// comma after each, comments skipped.
func byteLiterals(body string) ([]byte, error) {
	var out []byte
	for _, line := range strings.Split(body, "\n") {
		line, _, _ = strings.Cut(line, "//")
		for _, f := range strings.Split(line, ",") {
			f = strings.TrimSpace(f)
			if f == "" {
				continue
			}
			v, err := strconv.ParseUint(f, 0, 8)
			if err != nil {
				return nil, fmt.Errorf("%q is no byte", f)
			}
			out = append(out, byte(v))
		}
	}
	return out, nil
}

// gunzip decompresses a gzipped descriptor, at most maxDescriptor bytes.
func gunzip(b []byte) ([]byte, error) {
	r, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	out, err := io.ReadAll(io.LimitReader(r, maxDescriptor+1))
	if err != nil {
		return nil, err
	}
	if len(out) > maxDescriptor {
		return nil, fmt.Errorf("the gzipped descriptor holds more than %d bytes", maxDescriptor)
	}
	return out, nil
}

// maxDescriptor bounds a decompressed descriptor: the output trees are
// bounded, but a gzipped stream is not by its size.
const maxDescriptor = 64 << 20

// Check decodes the descriptor of File in o and o′ and compares o's with
// o′'s less the added element.
func (c *Check) Check(o, o2 tree.Tree) []oracle.Failure {
	name := c.Name
	if name == "" {
		name = "descriptor"
	}
	fail := func(msg string, exp, act string) []oracle.Failure {
		return []oracle.Failure{{Checker: name, File: c.File, Message: msg, Expected: exp, Actual: act,
			Compared: &result.Compared{Kind: "descriptor", Differences: []string{msg}, Expected: exp, Found: act,
				Expects: fmt.Sprintf("The file descriptor embedded in %s of o′, less the added %s, is the one of o: the expected column is o's, the found one o′'s without it.", c.File, c.Element)}}}
	}
	a, ok1 := o[c.File]
	b, ok2 := o2[c.File]
	if !ok1 || !ok2 {
		return fail(fmt.Sprintf("%s is missing in o or o′", c.File), "", "")
	}
	base, err := Decode(string(a))
	if err != nil {
		return fail(fmt.Sprintf("%s in o: %v", c.File, err), "", "")
	}
	fu, err := Decode(string(b))
	if err != nil {
		return fail(fmt.Sprintf("%s in o′: %v", c.File, err), "", "")
	}
	for _, imp := range c.Imports {
		if slices.Contains(base.Dependency, imp) {
			continue
		}
		k := len(fu.Dependency)
		fu.Dependency = slices.DeleteFunc(fu.Dependency, func(d string) bool { return d == imp })
		if k-len(fu.Dependency) != 1 {
			return fail(fmt.Sprintf("%s in o′: the descriptor depends %d times on %s, which the mutation imports once", c.File, k-len(fu.Dependency), imp), "", "")
		}
	}
	var from []*descriptorpb.EnumDescriptorProto
	n := remove(fu, c.What, c.Element, &from)
	if c.Alias && n == 1 && len(from) == 1 && from[0].GetOptions().AllowAlias != nil {
		e := from[0]
		e.Options.AllowAlias = nil
		if proto.Size(e.Options) == 0 {
			e.Options = nil
		}
	}
	if n != 1 {
		return fail(fmt.Sprintf("%s in o′: the descriptor holds %d elements named %s where it must hold 1", c.File, n, c.Element), "", "")
	}
	if !proto.Equal(base, fu) {
		opt := prototext.MarshalOptions{Multiline: true}
		return fail(fmt.Sprintf("%s in o′: the descriptor less %s is not the descriptor of o", c.File, c.Element), opt.Format(base), opt.Format(fu))
	}
	return nil
}

// remove takes the element out of fd and returns how many it removed;
// the enums an enum value was taken out of go to from.
func remove(fd *descriptorpb.FileDescriptorProto, what Added, name string, from *[]*descriptorpb.EnumDescriptorProto) int {
	n := 0
	switch what {
	case Message:
		fd.MessageType, n = dropMessages(fd.MessageType, name)
	case Method:
		for _, s := range fd.Service {
			k := len(s.Method)
			s.Method = drop(s.Method, func(m *descriptorpb.MethodDescriptorProto) bool { return m.GetName() == name })
			n += k - len(s.Method)
		}
	case EnumValue:
		n += dropValues(fd.EnumType, name, from)
	}
	for _, m := range fd.MessageType {
		n += removeIn(m, what, name, from)
	}
	return n
}

func removeIn(m *descriptorpb.DescriptorProto, what Added, name string, from *[]*descriptorpb.EnumDescriptorProto) int {
	n := 0
	switch what {
	case Message:
		var k int
		m.NestedType, k = dropMessages(m.NestedType, name)
		n += k
	case EnumValue:
		n += dropValues(m.EnumType, name, from)
	case Field:
		for i, f := range m.Field {
			if f.GetName() != name {
				continue
			}
			n++
			m.Field = append(m.Field[:i:i], m.Field[i+1:]...)
			if f.GetProto3Optional() && f.OneofIndex != nil {
				dropOneof(m, f.GetOneofIndex())
			}
			if f.GetLabel() == descriptorpb.FieldDescriptorProto_LABEL_REPEATED && f.GetTypeName() != "" {
				entry := f.GetTypeName()[strings.LastIndex(f.GetTypeName(), ".")+1:]
				m.NestedType = drop(m.NestedType, func(d *descriptorpb.DescriptorProto) bool {
					return d.GetName() == entry && d.GetOptions().GetMapEntry()
				})
			}
			break
		}
	}
	for _, nm := range m.NestedType {
		n += removeIn(nm, what, name, from)
	}
	return n
}

// dropOneof removes the synthetic oneof of a proto3 optional field and
// renumbers the oneof indices after it.
func dropOneof(m *descriptorpb.DescriptorProto, i int32) {
	m.OneofDecl = append(m.OneofDecl[:i:i], m.OneofDecl[i+1:]...)
	for _, f := range m.Field {
		if f.OneofIndex != nil && f.GetOneofIndex() > i {
			f.OneofIndex = proto.Int32(f.GetOneofIndex() - 1)
		}
	}
}

func dropMessages(ms []*descriptorpb.DescriptorProto, name string) ([]*descriptorpb.DescriptorProto, int) {
	k := len(ms)
	ms = drop(ms, func(d *descriptorpb.DescriptorProto) bool { return d.GetName() == name })
	return ms, k - len(ms)
}

func dropValues(es []*descriptorpb.EnumDescriptorProto, name string, from *[]*descriptorpb.EnumDescriptorProto) int {
	n := 0
	for _, e := range es {
		k := len(e.Value)
		e.Value = drop(e.Value, func(v *descriptorpb.EnumValueDescriptorProto) bool { return v.GetName() == name })
		if len(e.Value) < k {
			n += k - len(e.Value)
			*from = append(*from, e)
		}
	}
	return n
}

func drop[T any](xs []T, del func(T) bool) []T {
	out := xs[:0:0]
	for _, x := range xs {
		if !del(x) {
			out = append(out, x)
		}
	}
	return out
}
