package protojs

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/mcpt-tool/mcpt/release"
)

// conventions are what a generator's documentation (and, where it says
// nothing, its releases) make of a declaration: the property a field is
// kept in, its JSON key, the value it reads when unset, the member of an
// enum value. The probe line says which generator wrote the code, its
// release and its options.
type conventions struct {
	gen     string // ts-proto, pbjs, es
	release string
	opts    map[string]string
}

func conventionsOf(p Fact) conventions {
	return conventions{gen: p.Generator, release: p.Release, opts: p.Options}
}

// atLeast tells whether the release is min or newer; an unknown release is
// taken as the newest.
func (c conventions) atLeast(min string) bool {
	ok, err := release.AtLeast(c.release, min)
	return err != nil || ok
}

// tsProtoJSONFormat is the first release of ts-proto whose option
// protoJsonFormat, on by default, writes the JSON names whatever
// snakeToCamel says.
const tsProtoJSONFormat = "2.11.0"

// tsKeys are the parts of ts-proto's snakeToCamel option: keys (property
// names in camel case) and json (JSON keys in camel case), both by
// default.
func (c conventions) tsKeys() (keys, json bool) {
	v, ok := c.opts["snakeToCamel"]
	switch {
	case !ok || v == "true":
		return true, true
	case v == "false":
		return false, false
	}
	parts := strings.Split(v, "_")
	return slices.Contains(parts, "keys"), slices.Contains(parts, "json")
}

// tsSnakeToCamel is ts-proto's camel case of a name with underscores: the
// words after the first capitalised, each word lowered first when the
// name has no lower-case letter.
func tsSnakeToCamel(name string) string {
	lower := strings.IndexFunc(name, unicode.IsLower) >= 0
	words := strings.Split(name, "_")
	for i, w := range words {
		if !lower {
			w = strings.ToLower(w)
		}
		if i > 0 && w != "" {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		words[i] = w
	}
	return strings.Join(words, "")
}

// pbjsCamel is protobufjs's camel case: the letter after an underscore
// in upper case, that underscore dropped, the first character kept.
func pbjsCamel(name string) string {
	if name == "" {
		return name
	}
	var b strings.Builder
	b.WriteByte(name[0])
	rest := name[1:]
	for i := 0; i < len(rest); i++ {
		if rest[i] == '_' && i+1 < len(rest) && rest[i+1] >= 'a' && rest[i+1] <= 'z' {
			b.WriteByte(rest[i+1] - 'a' + 'A')
			i++
			continue
		}
		b.WriteByte(rest[i])
	}
	return b.String()
}

// esSafe is protoc-gen-es's escape of a property name that JavaScript's
// objects have already.
func esSafe(name string) string {
	switch name {
	case "constructor", "toString", "toJSON", "valueOf":
		return name + "$"
	}
	return name
}

// esCamel is protobuf-es's protoCamelCase: protoc's JSON name, but that a
// digit takes away the upper case an underscore gave the next letter.
func esCamel(name string) string {
	var b strings.Builder
	up := false
	for _, r := range name {
		switch {
		case r == '_':
			up = true
		case r >= '0' && r <= '9':
			b.WriteRune(r)
			up = false
		case up:
			b.WriteRune(unicode.ToUpper(r))
			up = false
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// propName is the property a generator keeps a field (or a oneof) named
// name in.
func (c conventions) propName(name, jsonName string) string {
	switch c.gen {
	case "ts-proto":
		if c.opts["useJsonName"] == "true" && jsonName != "" {
			return jsonName
		}
		if keys, _ := c.tsKeys(); keys && strings.Contains(name, "_") {
			return tsSnakeToCamel(name)
		}
		return name
	case "pbjs":
		if c.opts["keep-case"] == "true" {
			return name
		}
		return pbjsCamel(name)
	case "es":
		return esSafe(esCamel(name))
	}
	return name
}

// prop is the property path of field f: its property, or ONEOF.CASE for
// a member of a oneof that the generator keeps as one property
// (protoc-gen-es always, ts-proto with oneof=unions).
func (c conventions) prop(f *Fact) string {
	name := lastName(f.Element)
	p := c.propName(name, f.JSONName)
	if f.Oneof == "" || f.Proto3Optional {
		return p
	}
	switch {
	case c.gen == "es", c.gen == "ts-proto" && strings.HasPrefix(c.opts["oneof"], "unions"):
		return c.propName(f.Oneof, "") + "." + p
	}
	return p
}

// jsonKey is the key of field f in the JSON the generated code writes;
// ok is false when the generator writes no JSON under its options.
func (c conventions) jsonKey(f *Fact) (key string, ok bool) {
	name := lastName(f.Element)
	switch c.gen {
	case "ts-proto":
		if c.opts["outputJsonMethods"] == "false" {
			return "", false
		}
		if c.opts["useJsonName"] == "true" {
			return f.JSONName, true
		}
		_, json := c.tsKeys()
		switch {
		case !c.atLeast("1.92.0"):
			// before json_name support (stephenh/ts-proto#408): the
			// field's name, in camel case with json in snakeToCamel
			if json {
				return tsSnakeToCamel(name), true
			}
			return name, true
		case json, !c.atLeast("1.95.0"), c.atLeast(tsProtoJSONFormat):
			// protoc's JSON name; before 1.95 snakeToCamel did not reach
			// the JSON, and protoJsonFormat, on by default, makes it
			// camel case again
			return f.JSONName, true
		case tsSnakeToCamel(name) != f.JSONName:
			// the field declares a JSON name of its own (ts-proto tells
			// so by comparing with its camel case of the name)
			return f.JSONName, true
		}
		return name, true
	case "pbjs":
		// toJSON writes the properties (protobufjs reads no json_name)
		return c.prop(f), true
	case "es":
		return f.JSONName, true
	}
	return "", false
}

// notSet are the values that say a field has no value.
var notSet = []string{"undefined", "null", "unset"}

// unset is the values field f may read when the message does not set
// it; nil when the check does not apply (a required field, which the
// decoders of some generators will not leave out).
func (c conventions) unset(f *Fact) []string {
	switch {
	case f.Label == "required":
		return nil
	case f.Label == "repeated":
		return []string{"[]"}
	case f.Label == "map":
		return []string{"{}"}
	case f.Oneof != "" && !f.Proto3Optional:
		if c.gen == "pbjs" && c.opts["target"] == "json-module" && f.Zero != "" {
			// protobufjs's reflection keeps every field's default on the
			// prototype, a oneof member's too (its static code has null
			// there since 6.11: protobufjs/protobuf.js#1597)
			return append(slices.Clone(notSet), f.Zero)
		}
		return notSet
	case f.Proto3Optional, isMessage(f):
		return []string{"undefined", "null"}
	}
	if f.Syntax == "proto2" {
		if c.gen == "es" && !c.atLeast("2.0.0") {
			// protoc-gen-es 1 leaves a proto2 field undefined until
			// set, its default in its field info
			return []string{"undefined"}
		}
		if f.DefaultValue != "" && c.proto2Defaults(f) {
			return []string{f.DefaultValue}
		}
	}
	return []string{zeroOf(f)}
}

// proto2Defaults tells whether the generated code gives an unset proto2
// field the default it declares: ts-proto does from 1.169 (not for bytes,
// which its code leaves for later, nor with disableProto2DefaultValues).
func (c conventions) proto2Defaults(f *Fact) bool {
	if c.gen != "ts-proto" {
		return true
	}
	return c.atLeast("1.169.0") && f.Type != "bytes" && c.opts["disableProto2DefaultValues"] != "true"
}

// approximate tells whether the generated code keeps f's 64-bit values as
// JavaScript numbers, exact to 2^53 only (ts-proto's forceLong=number,
// its default): its values compare as float64.
func (c conventions) approximate(f *Fact) bool {
	if c.gen != "ts-proto" || !strings.HasSuffix(f.Type, "64") || f.Type == "double" {
		return false
	}
	switch c.opts["forceLong"] {
	case "", "number":
		return true
	}
	return false
}

// isMessage tells a field whose type is a message (or a group): the
// probe gives no zero for it.
func isMessage(f *Fact) bool { return f.Zero == "" }

// zeroOf is the value of a field of f's type that sets nothing: the
// probe's, which knows an enum's first value.
func zeroOf(f *Fact) string { return f.Zero }

// sameValue compares two values as the probe renders them; a float
// field's numbers compare as float32 do.
func sameValue(f *Fact, a, b string) bool { return sameValueAs(f, a, b, false) }

// sameValueAs compares two values as the probe renders them; a float
// field's numbers compare as float32 do, and approximate ones as float64
// (64-bit integers kept as JavaScript numbers).
func sameValueAs(f *Fact, a, b string, approximate bool) bool {
	if a == b {
		return true
	}
	if (f.Type == "float" || approximate) && strings.HasPrefix(a, "n:") && strings.HasPrefix(b, "n:") {
		x, err1 := strconv.ParseFloat(a[2:], 64)
		y, err2 := strconv.ParseFloat(b[2:], 64)
		if f.Type == "float" {
			return err1 == nil && err2 == nil && float32(x) == float32(y)
		}
		return err1 == nil && err2 == nil && x == y
	}
	return false
}

// enumKey is the member of the generated enum that stands for value of
// the enum whose values are values.
func (c conventions) enumKey(enum, value string, values []string) string {
	if c.gen != "es" {
		return value
	}
	// protoc-gen-es drops the enum's name, in upper snake case, from the
	// front of every value when every value starts with it and keeps a
	// name that does not start with a digit
	prefix := esSnake(lastName(enum)) + "_"
	for _, v := range values {
		short := ""
		if strings.HasPrefix(strings.ToLower(v), prefix) {
			short = v[len(prefix):]
		}
		if short == "" || short[0] >= '0' && short[0] <= '9' {
			return esSafe(value)
		}
	}
	return esSafe(value[len(prefix):])
}

// esSnake is protobuf-es's camelToSnakeCase: an underscore before every
// upper-case letter but the first, all in lower case.
func esSnake(name string) string {
	var b strings.Builder
	for i, r := range name {
		if i > 0 && unicode.IsUpper(r) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// stringEnums tells whether the generated enums are strings (ts-proto's
// stringEnums).
func (c conventions) stringEnums() bool {
	return c.gen == "ts-proto" && c.opts["stringEnums"] == "true"
}

func (c conventions) String() string {
	var opts []string
	for k, v := range c.opts {
		opts = append(opts, k+"="+v)
	}
	slices.Sort(opts)
	s := c.gen + " " + c.release
	if len(opts) > 0 {
		s += fmt.Sprintf(" (%s)", strings.Join(opts, ", "))
	}
	return s
}
