package protodesc

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/mcpt-tool/mcpt/tree"
)

// sampleFile is a descriptor with an enum of three values, one of them
// added by a mutation (ZQ), and a message.
func sampleFile(withNew bool) *descriptorpb.FileDescriptorProto {
	values := []*descriptorpb.EnumValueDescriptorProto{
		{Name: proto.String("A"), Number: proto.Int32(0)},
		{Name: proto.String("B"), Number: proto.Int32(1)},
	}
	if withNew {
		values = append(values, &descriptorpb.EnumValueDescriptorProto{Name: proto.String("ZQ"), Number: proto.Int32(7)})
	}
	return &descriptorpb.FileDescriptorProto{
		Name:     proto.String("x.proto"),
		Package:  proto.String("p"),
		EnumType: []*descriptorpb.EnumDescriptorProto{{Name: proto.String("E"), Value: values}},
		MessageType: []*descriptorpb.DescriptorProto{{
			Name:  proto.String("M"),
			Field: []*descriptorpb.FieldDescriptorProto{{Name: proto.String("f"), Number: proto.Int32(1), Type: descriptorpb.FieldDescriptorProto_TYPE_INT32.Enum(), Label: descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum()}},
		}},
	}
}

// The forms in which releases of protoc-gen-go embed the descriptor.
const (
	formString = "string" // google.golang.org/protobuf v1.36 on
	formBytes  = "bytes"  // v1.20 to v1.35
	formGzip   = "gzip"   // github.com/golang/protobuf v1.3 and before
)

// embed writes the serialized fd as a release of that form does.
func embed(t *testing.T, fd *descriptorpb.FileDescriptorProto, form string) string {
	t.Helper()
	raw, err := proto.Marshal(fd)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	hexLines := func(data []byte) {
		for i := 0; i < len(data); i += 16 {
			b.WriteString("\t")
			for j := i; j < min(i+16, len(data)); j++ {
				fmt.Fprintf(&b, "0x%02x,", data[j])
				if j+1 < min(i+16, len(data)) {
					b.WriteString(" ")
				}
			}
			b.WriteString("\n")
		}
	}
	switch form {
	case formString:
		b.WriteString("const file_x_proto_rawDesc = \"\" +\n")
		for i := 0; i < len(raw); i += 20 {
			b.WriteString("\t" + strconv.Quote(string(raw[i:min(i+20, len(raw))])))
			if i+20 < len(raw) {
				b.WriteString(" +")
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	case formBytes:
		b.WriteString("var file_x_proto_rawDesc = []byte{\n")
		hexLines(raw)
		b.WriteString("}\n\n")
	case formGzip:
		var z bytes.Buffer
		w := gzip.NewWriter(&z)
		w.Write(raw)
		w.Close()
		b.WriteString("var fileDescriptor_0123456789abcdef = []byte{\n")
		fmt.Fprintf(&b, "\t// %d bytes of a gzipped FileDescriptorProto\n", z.Len())
		hexLines(z.Bytes())
		b.WriteString("}\n")
	}
	return b.String()
}

// TestDecodeForms: the descriptor is read back from each form a release
// writes, and a damaged one is an error that says what is wrong.
func TestDecodeForms(t *testing.T) {
	want := sampleFile(true)
	for _, form := range []string{formString, formBytes, formGzip} {
		t.Run(form, func(t *testing.T) {
			src := "package p\n\n" + embed(t, want, form) + "func init() {}\n"
			got, err := Decode(src)
			if err != nil {
				t.Fatal(err)
			}
			if !proto.Equal(got, want) {
				t.Errorf("decoded %v, want %v", got, want)
			}
		})
	}
	for _, c := range []struct{ name, src, msg string }{
		{"none", "package p\n", "no serialized descriptor"},
		{"not hex", "var file_x_proto_rawDesc = []byte{\n\t0x0a, zz,\n}\n", `"zz" is no byte`},
		{"not gzip", "var fileDescriptor_0123456789abcdef = []byte{\n\t0x0a, 0x01,\n}\n", "rawDesc"},
		{"not a string", "const file_x_proto_rawDesc = \"\" +\n\tabc\n\n", "no string literal"},
	} {
		if _, err := Decode(c.src); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.msg)
		}
	}
}

// TestCheckForms: the descriptor check holds for a follow-up with
// exactly the new value in every form, and fails when the follow-up's
// descriptor lost something else.
func TestCheckForms(t *testing.T) {
	for _, form := range []string{formString, formBytes, formGzip} {
		t.Run(form, func(t *testing.T) {
			o := tree.Tree{"x.pb.go": []byte(embed(t, sampleFile(false), form))}
			o2 := tree.Tree{"x.pb.go": []byte(embed(t, sampleFile(true), form))}
			c := &Check{File: "x.pb.go", What: EnumValue, Element: "ZQ"}
			if f := c.Check(o, o2); f != nil {
				t.Errorf("correct follow-up: %s", f[0].Message)
			}
			broken := sampleFile(true)
			broken.MessageType[0].Field = nil
			o2 = tree.Tree{"x.pb.go": []byte(embed(t, broken, form))}
			if f := c.Check(o, o2); f == nil {
				t.Error("a follow-up whose message lost its field passes")
			}
		})
	}
}

// enumGo writes the Go of enum E of sampleFile as a release writes it:
// the maps in a var block (google.golang.org/protobuf) or each a var of
// its own (github.com/golang/protobuf's own generator), then the
// descriptor in that release's form.
func enumGo(t *testing.T, withNew bool, form string) string {
	t.Helper()
	fd := sampleFile(withNew)
	var b strings.Builder
	b.WriteString("package p\n\ntype E int32\n\nconst (\n")
	for _, v := range fd.EnumType[0].Value {
		fmt.Fprintf(&b, "\tE_%s E = %d\n", v.GetName(), v.GetNumber())
	}
	b.WriteString(")\n\n")
	open, close, in := "\t", "\t}\n", "\t\t"
	if form == formGzip {
		open, close, in = "var ", "}\n\n", "\t"
	} else {
		b.WriteString("var (\n")
	}
	b.WriteString(open + "E_name = map[int32]string{\n")
	for _, v := range fd.EnumType[0].Value {
		fmt.Fprintf(&b, "%s%d: %q,\n", in, v.GetNumber(), v.GetName())
	}
	b.WriteString(close)
	b.WriteString(open + "E_value = map[string]int32{\n")
	for _, v := range fd.EnumType[0].Value {
		fmt.Fprintf(&b, "%s%q: %d,\n", in, v.GetName(), v.GetNumber())
	}
	b.WriteString(close)
	if form != formGzip {
		b.WriteString(")\n\n")
	}
	b.WriteString(embed(t, fd, form))
	return b.String()
}

// TestEnumLinesLayouts: protobuf-go-enum predicts the value's lines in
// both layouts of the maps, and sees an entry missing in either.
func TestEnumLinesLayouts(t *testing.T) {
	for _, form := range []string{formString, formBytes, formGzip} {
		t.Run(form, func(t *testing.T) {
			o := tree.Tree{"x.pb.go": []byte(enumGo(t, false, form))}
			good := enumGo(t, true, form)
			c := &EnumLines{File: "x.pb.go", Value: "ZQ"}
			if f := c.Check(o, tree.Tree{"x.pb.go": []byte(good)}); f != nil {
				t.Fatalf("correct follow-up: %s\n%s", f[0].Message, f[0].Diff)
			}
			bad := strings.Replace(good, `"ZQ": 7,`, "", 1)
			if bad == good {
				t.Fatal("no entry of ZQ in E_value")
			}
			if f := c.Check(o, tree.Tree{"x.pb.go": []byte(bad)}); f == nil {
				t.Error("a follow-up without ZQ's entry in E_value passes")
			}
		})
	}
}

// TestEnumLinesDeprecated: a deprecation comment, on its own line above
// the constant or after it, is no line the prediction compares.
func TestEnumLinesDeprecated(t *testing.T) {
	for _, form := range []string{formString, formGzip} {
		o := tree.Tree{"x.pb.go": []byte(enumGo(t, false, form))}
		good := enumGo(t, true, form)
		for _, dep := range []string{
			strings.Replace(good, "\tE_ZQ E = 7\n", "\t// Deprecated: Marked as deprecated in x.proto.\n\tE_ZQ E = 7\n", 1),
			strings.Replace(good, "\tE_ZQ E = 7\n", "\tE_ZQ E = 7 // Deprecated: Do not use.\n", 1),
		} {
			if dep == good {
				t.Fatal("no constant E_ZQ")
			}
			c := &EnumLines{File: "x.pb.go", Value: "ZQ"}
			if f := c.Check(o, tree.Tree{"x.pb.go": []byte(dep)}); f != nil {
				t.Errorf("%s: %s\n%s", form, f[0].Message, f[0].Diff)
			}
		}
	}
}

// TestCheckAlias: a value that aliases another, with allow_alias set on
// its enum by the same mutation, passes with Alias and only with it.
func TestCheckAlias(t *testing.T) {
	base := sampleFile(false)
	fu := sampleFile(false)
	fu.EnumType[0].Value = append(fu.EnumType[0].Value, &descriptorpb.EnumValueDescriptorProto{Name: proto.String("ZQ"), Number: proto.Int32(0)})
	fu.EnumType[0].Options = &descriptorpb.EnumOptions{AllowAlias: proto.Bool(true)}
	o := tree.Tree{"x.pb.go": []byte(embed(t, base, formString))}
	o2 := tree.Tree{"x.pb.go": []byte(embed(t, fu, formString))}
	if f := (&Check{File: "x.pb.go", What: EnumValue, Element: "ZQ", Alias: true}).Check(o, o2); f != nil {
		t.Errorf("with Alias: %s", f[0].Message)
	}
	if f := (&Check{File: "x.pb.go", What: EnumValue, Element: "ZQ"}).Check(o, o2); f == nil {
		t.Error("without Alias, allow_alias set on the enum passes")
	}
}
