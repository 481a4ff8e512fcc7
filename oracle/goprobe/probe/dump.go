// Package probe is the program go-probe (package oracle/goprobe) builds
// beside the Go output of protoc-gen-go, copied into a temporary module
// with a main of its own that passes each side's file descriptor and Go
// message types to Dump. Dump prints, as JSON, what protoreflect says of
// every message, field, enum, enum value, service and method of the file,
// and what each field's getter returns on an empty message.
package probe

import (
	"encoding/json"
	"os"
	"reflect"
	"strconv"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

// Side is the Go output of one side (o or o′): its file descriptor, an
// empty message of each Go message type of its package, and the getter of
// each field by Go type and field name, as the Go source declares them.
type Side struct {
	File     protoreflect.FileDescriptor
	Messages []proto.Message
	Getters  map[string]map[string]string
}

// Shape is what Dump prints of one side.
type Shape struct {
	Messages []Message `json:"messages"`
	Enums    []Enum    `json:"enums"`
	Services []Service `json:"services"`
}

// Message is a message: its full name, its Go type, deprecation.
type Message struct {
	Name       string  `json:"name"`
	Go         string  `json:"go,omitempty"`
	Deprecated bool    `json:"deprecated,omitempty"`
	MapEntry   bool    `json:"map_entry,omitempty"`
	Fields     []Field `json:"fields"`
}

// Field is a field as protoreflect sees it, with what its getter returns
// on an empty message (Got, "" without a getter).
type Field struct {
	Name       string `json:"name"`
	Number     int32  `json:"number"`
	JSON       string `json:"json"`
	Kind       string `json:"kind"`
	Type       string `json:"type,omitempty"`
	Card       string `json:"card"`
	Presence   bool   `json:"presence,omitempty"`
	Oneof      string `json:"oneof,omitempty"`
	Default    string `json:"default"`
	Getter     string `json:"getter,omitempty"`
	Got        string `json:"got,omitempty"`
	Deprecated bool   `json:"deprecated,omitempty"`
}

// Enum is an enum with its values.
type Enum struct {
	Name       string  `json:"name"`
	Deprecated bool    `json:"deprecated,omitempty"`
	Values     []Value `json:"values"`
}

// Value is an enum value.
type Value struct {
	Name       string `json:"name"`
	Number     int32  `json:"number"`
	Deprecated bool   `json:"deprecated,omitempty"`
}

// Service is a service with its methods.
type Service struct {
	Name       string   `json:"name"`
	Deprecated bool     `json:"deprecated,omitempty"`
	Methods    []Method `json:"methods"`
}

// Method is an rpc.
type Method struct {
	Name            string `json:"name"`
	Input           string `json:"input"`
	Output          string `json:"output"`
	ClientStreaming bool   `json:"client_streaming,omitempty"`
	ServerStreaming bool   `json:"server_streaming,omitempty"`
	Deprecated      bool   `json:"deprecated,omitempty"`
}

// Dump prints the shapes of the sides as a JSON array on standard output.
func Dump(sides ...Side) {
	out := make([]Shape, len(sides))
	for i, s := range sides {
		out[i] = ShapeOf(s.File, newRuntimeGo(s))
	}
	enc := json.NewEncoder(os.Stdout)
	if err := enc.Encode(out); err != nil {
		os.Exit(3)
	}
}

// GoSide says what the Go of a file gives its messages: the Go type of a
// message ("" when the file has none for it), and a field's getter on an
// empty message of that type with what it returns ("", "" when it has
// none). Dump asks the running program; go-probe asks the Go source, read
// without building it.
type GoSide interface {
	GoType(md protoreflect.MessageDescriptor) string
	Get(goType string, fd protoreflect.FieldDescriptor) (getter, got string)
}

// runtimeGo is the GoSide of a linked side: the message types' own
// descriptors and their getters called through reflection.
type runtimeGo struct {
	byName  map[protoreflect.FullName]proto.Message
	getters map[string]map[string]string
	insts   map[string]proto.Message
}

func newRuntimeGo(s Side) *runtimeGo {
	r := &runtimeGo{byName: map[protoreflect.FullName]proto.Message{}, getters: s.Getters, insts: map[string]proto.Message{}}
	for _, m := range s.Messages {
		r.byName[m.ProtoReflect().Descriptor().FullName()] = m
	}
	for _, m := range r.byName {
		r.insts[reflect.TypeOf(m).Elem().Name()] = m
	}
	return r
}

func (r *runtimeGo) GoType(md protoreflect.MessageDescriptor) string {
	if inst := r.byName[md.FullName()]; inst != nil {
		return reflect.TypeOf(inst).Elem().Name()
	}
	return ""
}

func (r *runtimeGo) Get(goType string, fd protoreflect.FieldDescriptor) (string, string) {
	inst := r.insts[goType]
	g := r.getters[goType][string(fd.Name())]
	if g == "" || inst == nil {
		return "", ""
	}
	if m := reflect.ValueOf(inst).MethodByName(g); m.IsValid() && m.Type().NumIn() == 0 && m.Type().NumOut() == 1 {
		return g, render(m.Call(nil)[0])
	}
	return "", ""
}

// ShapeOf is the shape of a file: what its descriptor says of every
// message, field, enum, value, service and method, with what go says of
// the Go types and getters.
func ShapeOf(file protoreflect.FileDescriptor, g GoSide) Shape {
	var sh Shape
	var messages func(ms protoreflect.MessageDescriptors)
	enums := func(es protoreflect.EnumDescriptors) {
		for i := 0; i < es.Len(); i++ {
			e := es.Get(i)
			en := Enum{Name: string(e.FullName()), Deprecated: e.Options().(*descriptorpb.EnumOptions).GetDeprecated(), Values: []Value{}}
			for j := 0; j < e.Values().Len(); j++ {
				v := e.Values().Get(j)
				en.Values = append(en.Values, Value{Name: string(v.Name()), Number: int32(v.Number()), Deprecated: v.Options().(*descriptorpb.EnumValueOptions).GetDeprecated()})
			}
			sh.Enums = append(sh.Enums, en)
		}
	}
	messages = func(ms protoreflect.MessageDescriptors) {
		for i := 0; i < ms.Len(); i++ {
			md := ms.Get(i)
			m := Message{Name: string(md.FullName()), Deprecated: md.Options().(*descriptorpb.MessageOptions).GetDeprecated(), MapEntry: md.IsMapEntry(), Fields: []Field{}}
			m.Go = g.GoType(md)
			for j := 0; j < md.Fields().Len(); j++ {
				f := field(md.Fields().Get(j))
				if m.Go != "" {
					f.Getter, f.Got = g.Get(m.Go, md.Fields().Get(j))
				}
				m.Fields = append(m.Fields, f)
			}
			sh.Messages = append(sh.Messages, m)
			enums(md.Enums())
			messages(md.Messages())
		}
	}
	enums(file.Enums())
	messages(file.Messages())
	for i := 0; i < file.Services().Len(); i++ {
		sd := file.Services().Get(i)
		sv := Service{Name: string(sd.FullName()), Deprecated: sd.Options().(*descriptorpb.ServiceOptions).GetDeprecated(), Methods: []Method{}}
		for j := 0; j < sd.Methods().Len(); j++ {
			md := sd.Methods().Get(j)
			sv.Methods = append(sv.Methods, Method{
				Name: string(md.Name()), Input: string(md.Input().FullName()), Output: string(md.Output().FullName()),
				ClientStreaming: md.IsStreamingClient(), ServerStreaming: md.IsStreamingServer(),
				Deprecated: md.Options().(*descriptorpb.MethodOptions).GetDeprecated(),
			})
		}
		sh.Services = append(sh.Services, sv)
	}
	return sh
}

// field is what the descriptor says of a field.
func field(fd protoreflect.FieldDescriptor) Field {
	f := Field{
		Name: string(fd.Name()), Number: int32(fd.Number()), JSON: fd.JSONName(), Kind: fd.Kind().String(),
		Card: fd.Cardinality().String(), Presence: fd.HasPresence(), Default: descDefault(fd),
		Deprecated: fd.Options().(*descriptorpb.FieldOptions).GetDeprecated(),
	}
	switch {
	case fd.IsMap():
		f.Type = "map"
	case fd.Enum() != nil:
		f.Type = string(fd.Enum().FullName())
	case fd.Message() != nil:
		f.Type = string(fd.Message().FullName())
	}
	if o := fd.ContainingOneof(); o != nil && !o.IsSynthetic() {
		f.Oneof = string(o.Name())
	}
	return f
}

// descDefault is the default the descriptor gives a field, written as
// render writes a getter's value.
func descDefault(fd protoreflect.FieldDescriptor) string {
	switch {
	case fd.IsMap():
		return "map[0]"
	case fd.IsList():
		return "[0]"
	case fd.Message() != nil:
		return "nil"
	}
	v := fd.Default()
	switch fd.Kind() {
	case protoreflect.EnumKind:
		return strconv.Itoa(int(v.Enum()))
	case protoreflect.BoolKind:
		return strconv.FormatBool(v.Bool())
	case protoreflect.StringKind:
		return strconv.Quote(v.String())
	case protoreflect.BytesKind:
		return strconv.Quote(string(v.Bytes()))
	case protoreflect.FloatKind:
		return strconv.FormatFloat(v.Float(), 'g', -1, 32)
	case protoreflect.DoubleKind:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind, protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return strconv.FormatInt(v.Int(), 10)
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return strconv.FormatUint(v.Uint(), 10)
	}
	return "?"
}

// render writes the value a getter returned.
func render(v reflect.Value) string {
	if v.IsValid() && v.CanInterface() {
		if e, ok := v.Interface().(protoreflect.Enum); ok {
			return strconv.Itoa(int(e.Number()))
		}
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return "nil"
		}
		return "non-nil " + v.Type().String()
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return strconv.Quote(string(v.Bytes()))
		}
		return "[" + strconv.Itoa(v.Len()) + "]"
	case reflect.Map:
		return "map[" + strconv.Itoa(v.Len()) + "]"
	case reflect.String:
		return strconv.Quote(v.String())
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(v.Uint(), 10)
	case reflect.Float32:
		return strconv.FormatFloat(v.Float(), 'g', -1, 32)
	case reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	}
	return v.Type().String()
}
