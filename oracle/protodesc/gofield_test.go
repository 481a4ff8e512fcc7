package protodesc

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/mcpt-tool/mcpt/tree"
)

// fieldFile is a proto2 file with a local enum E {A = 5; B = 40;} and a
// message M whose fields are given.
func fieldFile(fields ...*descriptorpb.FieldDescriptorProto) *descriptorpb.FileDescriptorProto {
	return &descriptorpb.FileDescriptorProto{
		Name:    proto.String("x.proto"),
		Package: proto.String("p"),
		Syntax:  proto.String("proto2"),
		EnumType: []*descriptorpb.EnumDescriptorProto{{Name: proto.String("E"), Value: []*descriptorpb.EnumValueDescriptorProto{
			{Name: proto.String("A"), Number: proto.Int32(5)},
			{Name: proto.String("B"), Number: proto.Int32(40)},
		}}},
		MessageType: []*descriptorpb.DescriptorProto{{Name: proto.String("M"), Field: fields}},
	}
}

func field(name string, t descriptorpb.FieldDescriptorProto_Type, def, typeName string) *descriptorpb.FieldDescriptorProto {
	f := &descriptorpb.FieldDescriptorProto{
		Name: proto.String(name), Number: proto.Int32(1), JsonName: proto.String(GoCamelCase(name)),
		Label: descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(), Type: t.Enum(),
	}
	f.JsonName = proto.String(strings.ToLower(f.GetJsonName()[:1]) + f.GetJsonName()[1:])
	if def != "" {
		f.DefaultValue = proto.String(def)
	}
	if typeName != "" {
		f.TypeName = proto.String(typeName)
	}
	return f
}

// goOf writes the Go of one field of M as protoc-gen-go does: its
// struct field with tag, the declaration of its default, its getter.
func goOf(t *testing.T, fd *descriptorpb.FileDescriptorProto, tag, decl, ret string) tree.Tree {
	t.Helper()
	goName := GoCamelCase(fd.MessageType[0].Field[0].GetName())
	src := "package p\n\nconst (\n\tE_A E = 5\n\tE_B E = 40\n)\n\ntype M struct {\n\t" + goName + " *int32 `protobuf:\"" + tag + "\" json:\"x\"`\n}\n\n" +
		decl + "\n\nfunc (x *M) Get" + goName + "() int32 {\n\tif x != nil && x." + goName + " != nil {\n\t\treturn *x." + goName + "\n\t}\n\treturn " + ret + "\n}\n\n" +
		embed(t, fd, formString)
	return tree.Tree{"x.pb.go": []byte(src)}
}

// TestGoFieldDefaults: the getter's value of an unset field is compared
// with the field's default as a value, whatever the Go spelling of
// either release; a wrong value fails, one the check cannot read is
// undecided.
func TestGoFieldDefaults(t *testing.T) {
	for _, c := range []struct {
		name      string
		f         *descriptorpb.FieldDescriptorProto
		decl, ret string
		values    string
		want      string // "pass", "fail" or "undecided"
	}{
		{"int const", field("zq", descriptorpb.FieldDescriptorProto_TYPE_INT32, "-7", ""), "const (\n\tDefault_M_Zq = int32(-7)\n)", "Default_M_Zq", "", "pass"},
		{"int const alone", field("zq", descriptorpb.FieldDescriptorProto_TYPE_INT32, "-7", ""), "const Default_M_Zq int32 = -7", "Default_M_Zq", "", "pass"},
		{"int wrong", field("zq", descriptorpb.FieldDescriptorProto_TYPE_INT32, "-7", ""), "const Default_M_Zq int32 = 7", "Default_M_Zq", "", "fail"},
		{"uint64 max", field("zq", descriptorpb.FieldDescriptorProto_TYPE_UINT64, "18446744073709551615", ""), "const (\n\tDefault_M_Zq = uint64(18446744073709551615)\n)", "Default_M_Zq", "", "pass"},
		{"inf", field("zq", descriptorpb.FieldDescriptorProto_TYPE_DOUBLE, "-inf", ""), "var (\n\tDefault_M_Zq = float64(math.Inf(-1))\n)", "Default_M_Zq", "", "pass"},
		{"inf wrong sign", field("zq", descriptorpb.FieldDescriptorProto_TYPE_DOUBLE, "-inf", ""), "var Default_M_Zq float64 = math.Inf(1)", "Default_M_Zq", "", "fail"},
		{"nan", field("zq", descriptorpb.FieldDescriptorProto_TYPE_FLOAT, "nan", ""), "var Default_M_Zq float32 = float32(math.NaN())", "Default_M_Zq", "", "pass"},
		{"float32 rounding", field("zq", descriptorpb.FieldDescriptorProto_TYPE_FLOAT, "0.1", ""), "const Default_M_Zq float32 = 0.1", "Default_M_Zq", "", "pass"},
		{"zero float", field("zq", descriptorpb.FieldDescriptorProto_TYPE_DOUBLE, "", ""), "", "0", "", "pass"},
		{"string escapes", field("zq", descriptorpb.FieldDescriptorProto_TYPE_STRING, "a\"b\n", ""), "const (\n\tDefault_M_Zq = string(\"a\\\"b\\n\")\n)", "Default_M_Zq", "", "pass"},
		{"empty string default, not declared", field("zq", descriptorpb.FieldDescriptorProto_TYPE_STRING, "", ""), "", `""`, "", "pass"},
		{"bytes escapes", field("zq", descriptorpb.FieldDescriptorProto_TYPE_BYTES, `\000\377"z`, ""), "var (\n\tDefault_M_Zq = []byte(\"\\x00\\xff\\\"z\")\n)", "append([]byte(nil), Default_M_Zq...)", "", "pass"},
		{"bytes wrong", field("zq", descriptorpb.FieldDescriptorProto_TYPE_BYTES, `\000\377"z`, ""), "var Default_M_Zq []byte = []byte(\"\\x00\\xfe\\\"z\")", "append([]byte(nil), Default_M_Zq...)", "", "fail"},
		{"bool", field("zq", descriptorpb.FieldDescriptorProto_TYPE_BOOL, "true", ""), "const Default_M_Zq bool = true", "Default_M_Zq", "", "pass"},
		{"local enum first value", field("zq", descriptorpb.FieldDescriptorProto_TYPE_ENUM, "", ".p.E"), "", "E_A", "", "pass"},
		{"local enum default", field("zq", descriptorpb.FieldDescriptorProto_TYPE_ENUM, "B", ".p.E"), "const (\n\tDefault_M_Zq = E_B\n)", "Default_M_Zq", "", "pass"},
		{"local enum wrong", field("zq", descriptorpb.FieldDescriptorProto_TYPE_ENUM, "B", ".p.E"), "const Default_M_Zq E = E_A", "Default_M_Zq", "", "fail"},
		{"remote enum by name", field("zq", descriptorpb.FieldDescriptorProto_TYPE_ENUM, "", ".q.L"), "", "q.L_HIGH", "HIGH=40 LOW=1", "pass"},
		{"remote enum by number", field("zq", descriptorpb.FieldDescriptorProto_TYPE_ENUM, "", ".q.L"), "", "q.L(40)", "HIGH=40 LOW=1", "pass"},
		{"remote enum in base 32", field("zq", descriptorpb.FieldDescriptorProto_TYPE_ENUM, "", ".q.L"), "", "q.L(18)", "HIGH=40 LOW=1", "fail"},
		{"remote enum default by number", field("zq", descriptorpb.FieldDescriptorProto_TYPE_ENUM, "LOW", ".q.L"), "const (\n\tDefault_M_Zq = q.L(1) // q.L_LOW\n)", "Default_M_Zq", "HIGH=40 LOW=1", "pass"},
		{"remote enum, values not known", field("zq", descriptorpb.FieldDescriptorProto_TYPE_ENUM, "", ".q.L"), "", "q.L(40)", "", "undecided"},
		{"unreadable", field("zq", descriptorpb.FieldDescriptorProto_TYPE_INT32, "", ""), "", "f()", "", "undecided"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fd := fieldFile(c.f)
			o2 := goOf(t, fd, "varint,1,opt,name=zq", c.decl, c.ret)
			vals, err := ParseEnumValues(c.values)
			if err != nil {
				t.Fatal(err)
			}
			v := (&GoField{File: "x.pb.go", Field: "zq", Values: vals}).Decide(nil, o2)
			got := "pass"
			switch {
			case len(v.Fails) > 0:
				got = "fail"
			case len(v.Undecided) > 0:
				got = "undecided"
			}
			if got != c.want {
				t.Errorf("%s, want %s: %v", got, c.want, v)
			}
		})
	}
}

// TestGoFieldTag: the struct tag holds the field's number, name, JSON
// name (when it is not the name) and packing.
func TestGoFieldTag(t *testing.T) {
	plain := field("zq_a", descriptorpb.FieldDescriptorProto_TYPE_INT32, "", "")
	same := field("zq", descriptorpb.FieldDescriptorProto_TYPE_INT32, "", "")
	same.JsonName = proto.String("zq")
	rep := field("zq", descriptorpb.FieldDescriptorProto_TYPE_INT32, "", "")
	rep.JsonName = proto.String("zq")
	rep.Label = descriptorpb.FieldDescriptorProto_LABEL_REPEATED.Enum()
	rep.Options = &descriptorpb.FieldOptions{Packed: proto.Bool(true)}
	for _, c := range []struct {
		name string
		f    *descriptorpb.FieldDescriptorProto
		tag  string
		ok   bool
	}{
		{"json", plain, "varint,1,opt,name=zq_a,json=zqA", true},
		{"json missing", plain, "varint,1,opt,name=zq_a", false},
		{"json wrong", plain, "varint,1,opt,name=zq_a,json=zq_a", false},
		{"json same as name", same, "varint,1,opt,name=zq", true},
		{"json same as name, written", same, "varint,1,opt,name=zq,json=zq", false},
		{"number wrong", same, "varint,2,opt,name=zq", false},
		{"packed", rep, "varint,1,rep,packed,name=zq", true},
		{"packed missing", rep, "varint,1,rep,name=zq", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			fd := fieldFile(c.f)
			ret := "0"
			if c.f.GetLabel() == descriptorpb.FieldDescriptorProto_LABEL_REPEATED {
				ret = "nil"
			}
			v := (&GoField{File: "x.pb.go", Field: c.f.GetName()}).Decide(nil, goOf(t, fd, c.tag, "", ret))
			if ok := len(v.Fails) == 0; ok != c.ok {
				t.Errorf("passes: %v, want %v: %v", ok, c.ok, v.Fails)
			}
		})
	}
}

// TestDeprecated: the declarations of each kind of element are found,
// with the comment above them or after them on their line.
func TestDeprecated(t *testing.T) {
	src := `package p

const (
	// Deprecated: Marked as deprecated in x.proto.
	E_ZQ E = 1
	E_OK E = 2 // Deprecated: Do not use.
	E_NO E = 3
)

// Deprecated: Do not use.
type Zqold struct {
}

type Zqnew struct {
}

// Deprecated: Marked as deprecated in x.proto.
func (x *M) GetZqa() int32 {
	return 0
}

func (x *M) GetZqb() int32 {
	return 0
}

type SClient interface {
	// Deprecated: Do not use.
	Zqrpc(ctx context.Context, in *M, opts ...grpc.CallOption) (*M, error)
}

func (c *sClient) Zqrpc(ctx context.Context, in *M, opts ...grpc.CallOption) (*M, error) {
}

type SServer interface {
	// Deprecated: Do not use.
	Zqrpc(context.Context, *M) (*M, error)
}
`
	o2 := tree.Tree{"x.go": []byte(src)}
	for _, c := range []struct {
		what      Added
		name      string
		is, holds bool
	}{
		{EnumValue, "ZQ", true, true}, {EnumValue, "OK", true, true}, {EnumValue, "NO", true, false}, {EnumValue, "NO", false, true},
		{Message, "Zqold", true, true}, {Message, "Zqnew", true, false}, {Message, "Zqnew", false, true},
		{Field, "zqa", true, true}, {Field, "zqb", true, false}, {Field, "zqb", false, true}, {Field, "zqa", false, false},
		{Method, "zqrpc", true, false}, // the client's implementation lacks it
		{Field, "zqnone", false, false},
	} {
		f := (&Deprecated{File: "x.go", What: c.what, Element: c.name, Is: c.is}).Check(nil, o2)
		if holds := f == nil; holds != c.holds {
			t.Errorf("%v %s deprecated=%v: holds %v, want %v (%v)", c.what, c.name, c.is, holds, c.holds, f)
		}
	}
}

// TestGRPCNames: the method paths and names a service gains name the
// rpc as declared; those o had already are not looked at.
func TestGRPCNames(t *testing.T) {
	o := tree.Tree{"s.go": []byte(`err := c.cc.Invoke(ctx, "/p.S/Old_one", in, out)` + "\n\t\tMethodName: \"Old_one\",\n")}
	for _, c := range []struct {
		src  string
		pass bool
	}{
		{`"/p.S/say_hello"` + "\nFullMethod: \"/p.S/say_hello\",\n\t\tMethodName: \"say_hello\",\n", true},
		{`"/p.S/say_hello"` + "\nFullMethod: \"/p.S/SayHello\",\n\t\tMethodName: \"say_hello\",\n", false},
		{`"/p.S/say_hello"` + "\n\t\tMethodName: \"SayHello\",\n", false},
		{"\t\tMethodName: \"say_hello\",\n", false}, // no method path at all
	} {
		o2 := tree.Tree{"s.go": append(append([]byte(nil), o["s.go"]...), c.src...)}
		f := (&GRPCNames{File: "s.go", Method: "say_hello"}).Check(o, o2)
		if (f == nil) != c.pass {
			t.Errorf("%q: passes %v, want %v (%v)", c.src, f == nil, c.pass, f)
		}
	}
}

// TestGoCamelCase: the Go names protoc-gen-go gives.
func TestGoCamelCase(t *testing.T) {
	for in, want := range map[string]string{"zqabcdef": "Zqabcdef", "say_hello": "SayHello", "_x": "XX", "a_1": "A_1", "created_at": "CreatedAt", "Zq": "Zq", "foo_bar_": "FooBar_"} {
		if got := GoCamelCase(in); got != want {
			t.Errorf("GoCamelCase(%q) = %q, want %q", in, got, want)
		}
	}
}
