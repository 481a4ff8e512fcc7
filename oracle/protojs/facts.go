// Package protojs is a semantic checker for the Protocol Buffers
// generators of JavaScript and TypeScript (ts-proto, protobufjs's pbjs,
// protoc-gen-es). It reads what a probe observed of the generated code at
// run time — the probe of examples/protobuf/js, which runs with the
// generator and writes the facts into the output tree, one line of JSON per
// declaration in a file NAME.facts.jsonl — and checks the declarations the
// mutation added against the encoding and the JSON mapping of Protocol
// Buffers and the generator's own naming: a new field is kept in the
// property the generator's naming gives it, reads back the value of its
// bytes and writes them back alike, reads its default when the message
// does not set it (its type's zero, the proto2 default it declares, or
// nothing for a oneof member, a message or a field with presence), and
// is written to JSON under its JSON name; a new enum value is a member of
// the generated enum under its name, and the generated helpers map it
// both ways. Every declaration of o keeps its facts in o′.
//
// The probe runs the code with the runtime the generator's release needs,
// so the facts come from the transpiler's run and are part of its output:
// a finding's bundle holds them, and the checker runs nothing.
package protojs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/mcpt-tool/mcpt/tree"
)

// Suffix ends the name of a file of facts.
const Suffix = ".facts.jsonl"

// Fact is one line of a file of facts: what the probe observed of one
// declaration (or, the first line, of the run: the generator, its release
// and options, the module it loaded).
type Fact struct {
	Element string `json:"element"`
	Kind    string `json:"kind"` // probe, message, field, enum, enum-value
	Error   string `json:"error,omitempty"`

	// the probe line
	Generator string            `json:"generator,omitempty"`
	Release   string            `json:"release,omitempty"`
	Options   map[string]string `json:"options,omitempty"`
	Module    string            `json:"module,omitempty"`

	// a field: its declaration (from protoc's descriptor) …
	Number         int    `json:"number,omitempty"`
	Type           string `json:"type,omitempty"`
	Label          string `json:"label,omitempty"`
	Syntax         string `json:"syntax,omitempty"`
	Oneof          string `json:"oneof,omitempty"`
	Proto3Optional bool   `json:"proto3Optional,omitempty"`
	JSONName       string `json:"jsonName,omitempty"`
	Packed         bool   `json:"packed,omitempty"`
	DefaultValue   string `json:"defaultValue,omitempty"`
	// Zero is the value of the field's type that sets nothing ("" for a
	// message): an enum's first value, "", 0, false.
	Zero string `json:"zero,omitempty"`
	// Untested says why the probe did not try the field (its type comes
	// from a file whose generated code the output does not hold).
	Untested string `json:"untested,omitempty"`
	// … and what the generated code did: the sample's value as the probe
	// wrote its bytes, the property that held it, the value read there, the
	// bytes written back ("same"), the value of the property decoded from
	// no bytes, the JSON keys and the value read back from that JSON
	Sample   string   `json:"sample,omitempty"`
	Prop     string   `json:"prop,omitempty"`
	Value    string   `json:"value,omitempty"`
	Wire     string   `json:"wire,omitempty"`
	Unset    *string  `json:"unset,omitempty"`
	JSONKeys []string `json:"jsonKeys,omitempty"`
	JSONBack *string  `json:"jsonBack,omitempty"`

	// an enum: its values' names, and the members of the generated enum
	// with what the helpers make of each
	Values  []string `json:"values,omitempty"`
	Members []Member `json:"members,omitempty"`

	// an enum value: the names of the values of its number, the members
	// that stand for it and their values, the member of its number, and
	// what the helpers made of its name, its number and its member
	Aliases    []string `json:"aliases,omitempty"`
	Keys       []string `json:"keys,omitempty"`
	Shown      []string `json:"shown,omitempty"`
	ByNumber   *string  `json:"byNumber,omitempty"`
	FromName   *string  `json:"fromName,omitempty"`
	FromNumber *string  `json:"fromNumber,omitempty"`
	ToJSON     *string  `json:"toJSON,omitempty"`
	ToNumber   *string  `json:"toNumber,omitempty"`

	line string // the line as written
}

// Member is a member of a generated enum, and what the helpers made of
// it: its JSON and its number, and the member each of them gives back.
type Member struct {
	Key        string  `json:"key"`
	Value      string  `json:"value"`
	ToJSON     *string `json:"toJSON,omitempty"`
	ToNumber   *string `json:"toNumber,omitempty"`
	JSONBack   *string `json:"jsonBack,omitempty"`
	NumberBack *string `json:"numberBack,omitempty"`
}

// Facts are the facts of one output tree.
type Facts struct {
	// Files are the files of facts, in name order.
	Files []string
	// Probe is the first line of the first file.
	Probe Fact
	// ByElement holds every declaration's facts; Order lists the
	// declarations as the files do.
	ByElement map[string]*Fact
	Order     []string
}

// Read reads the files of facts of t; none is no error (a tree of another
// generator).
func Read(t tree.Tree) (*Facts, error) {
	fs := &Facts{ByElement: map[string]*Fact{}}
	for name := range t {
		if strings.HasSuffix(name, Suffix) {
			fs.Files = append(fs.Files, name)
		}
	}
	sort.Strings(fs.Files)
	for i, name := range fs.Files {
		for n, line := range bytes.Split(t[name], []byte("\n")) {
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			f := &Fact{line: string(line)}
			if err := json.Unmarshal(line, f); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", name, n+1, err)
			}
			if f.Kind == "probe" {
				if i == 0 && fs.Probe.Kind == "" {
					fs.Probe = *f
				}
				continue
			}
			key := f.Kind + " " + f.Element
			if _, dup := fs.ByElement[key]; dup {
				return nil, fmt.Errorf("%s:%d: %s %s twice", name, n+1, f.Kind, f.Element)
			}
			fs.ByElement[key] = f
			fs.Order = append(fs.Order, key)
		}
	}
	return fs, nil
}

// lastName is the last part of a dotted name.
func lastName(full string) string { return path.Ext("." + full)[1:] }

// parent is a dotted name without its last part.
func parent(full string) string {
	if i := strings.LastIndexByte(full, '.'); i >= 0 {
		return full[:i]
	}
	return ""
}
