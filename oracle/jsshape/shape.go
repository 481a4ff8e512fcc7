package jsshape

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Shape is the runtime shape of one module: its exports, sorted by name
// (an ES module's namespace lists them so; a CommonJS module's are put in
// that order too, since the order in which tsc assigns them says nothing).
type Shape struct {
	Exports []Prop `json:"exports"`
}

// Value is the shape of a value: its type (t: number, string, boolean,
// undefined, null, bigint, symbol, function, class, object, array, and
// error for a property whose reading threw), a primitive's value as
// JavaScript writes it (v), and an object's own properties in creation
// order (props: a class's static members, an enum's members in both
// directions), a class's prototype members (proto) and the own properties
// of an instance made with no arguments (inst).
type Value struct {
	T     string    `json:"t"`
	V     string    `json:"v,omitempty"`
	Name  string    `json:"name,omitempty"`
	Len   *int      `json:"len,omitempty"`
	Cls   string    `json:"cls,omitempty"`
	Props []Prop    `json:"props,omitempty"`
	Proto []Prop    `json:"proto,omitempty"`
	Inst  *Instance `json:"inst,omitempty"`
	Cut   bool      `json:"cut,omitempty"`
	Cycle bool      `json:"cycle,omitempty"`
}

// Instance is what `new C()` gave: its own properties, or the error it
// threw.
type Instance struct {
	Props  []Prop `json:"props,omitempty"`
	Throws string `json:"throws,omitempty"`
}

// Prop is an own property: its key, its descriptor (an accessor's getter
// and setter, a data property's writable flag and value), whether it is
// enumerable and configurable.
type Prop struct {
	K string `json:"k"`
	A bool   `json:"a,omitempty"` // an accessor
	G bool   `json:"g,omitempty"` // with a getter
	S bool   `json:"s,omitempty"` // with a setter
	W bool   `json:"w,omitempty"`
	E bool   `json:"e,omitempty"`
	C bool   `json:"c,omitempty"`
	V *Value `json:"v,omitempty"`

	// note, in a prediction, stands for what is predicted of a
	// property whose value or existence is left open.
	note string
}

// flags writes a descriptor as [w e c], a dash for a flag not set;
// an accessor as [get set e c].
func (p *Prop) flags() string {
	f := func(on bool, s string) string {
		if on {
			return s
		}
		return "-"
	}
	if p.A {
		return "[" + f(p.G, "get") + " " + f(p.S, "set") + " " + f(p.E, "e") + " " + f(p.C, "c") + "]"
	}
	return "[" + f(p.W, "w") + " " + f(p.E, "e") + " " + f(p.C, "c") + "]"
}

// String is one line of a value: its type and what identifies it.
func (v *Value) String() string {
	if v == nil {
		return "?"
	}
	switch v.T {
	case "class", "function":
		s := v.T
		if v.Name != "" {
			s += " " + v.Name
		}
		if v.Len != nil {
			s += "(" + strconv.Itoa(*v.Len) + ")"
		}
		return s
	case "object", "array":
		s := v.T
		if v.Cls != "" {
			s += " " + v.Cls
		}
		if v.Cycle {
			s += " (seen above)"
		}
		return s
	case "error":
		return "(reading it threw " + v.V + ")"
	}
	return v.V
}

// write renders a value's members, indented, a line each.
func (v *Value) write(b *strings.Builder, indent string) {
	if v == nil {
		return
	}
	for i := range v.Props {
		v.Props[i].write(b, indent, "")
	}
	for i := range v.Proto {
		v.Proto[i].write(b, indent, "prototype.")
	}
	if v.Inst != nil {
		if v.Inst.Throws != "" {
			fmt.Fprintf(b, "%snew %s() throws %s\n", indent, v.Name, v.Inst.Throws)
		}
		for i := range v.Inst.Props {
			v.Inst.Props[i].write(b, indent, "instance.")
		}
	}
}

func (p *Prop) write(b *strings.Builder, indent, prefix string) {
	if p.note != "" {
		fmt.Fprintf(b, "%s%s%s: %s\n", indent, prefix, p.K, p.note)
		return
	}
	if p.A {
		fmt.Fprintf(b, "%s%s%s: accessor %s\n", indent, prefix, p.K, p.flags())
		return
	}
	fmt.Fprintf(b, "%s%s%s = %s %s\n", indent, prefix, p.K, p.V, p.flags())
	p.V.write(b, indent+"  ")
}

// Text renders a shape a line per member, for findings.
func (s *Shape) Text() string {
	var b strings.Builder
	for i := range s.Exports {
		e := &s.Exports[i]
		if e.note != "" {
			fmt.Fprintf(&b, "export %s: %s\n", e.K, e.note)
			e.V.write(&b, "  ") // the members predicted of a new export
			continue
		}
		fmt.Fprintf(&b, "export %s = %s\n", e.K, e.V)
		e.V.write(&b, "  ")
	}
	return b.String()
}

// export returns the export named k.
func (s *Shape) export(k string) *Prop {
	for i := range s.Exports {
		if s.Exports[i].K == k {
			return &s.Exports[i]
		}
	}
	return nil
}

// find returns the value of the property named k among props.
func find(props []Prop, k string) *Prop {
	for i := range props {
		if props[i].K == k {
			return &props[i]
		}
	}
	return nil
}

// clone copies a value deeply.
func (v *Value) clone() *Value {
	if v == nil {
		return nil
	}
	c := *v
	c.Props = cloneProps(v.Props)
	c.Proto = cloneProps(v.Proto)
	if v.Inst != nil {
		in := *v.Inst
		in.Props = cloneProps(v.Inst.Props)
		c.Inst = &in
	}
	return &c
}

func cloneProps(ps []Prop) []Prop {
	if ps == nil {
		return nil
	}
	out := slices.Clone(ps)
	for i := range out {
		out[i].V = out[i].V.clone()
	}
	return out
}

// isIndex reports whether a key is an array index, which every object
// lists first, in ascending order, whatever the order of creation.
func isIndex(k string) bool {
	n, err := strconv.ParseUint(k, 10, 32)
	return err == nil && n < 1<<32-1 && strconv.FormatUint(n, 10) == k
}

// without is a copy of s whose members (not exports) with a key re
// matches are left out, at every depth; s is not changed (shapes are
// cached).
func (s *Shape) without(re *regexp.Regexp) *Shape {
	out := &Shape{Exports: make([]Prop, len(s.Exports))}
	for i, p := range s.Exports {
		p.V = p.V.without(re)
		out.Exports[i] = p
	}
	return out
}

func (v *Value) without(re *regexp.Regexp) *Value {
	if v == nil {
		return nil
	}
	c := *v
	c.Props, c.Proto = propsWithout(v.Props, re), propsWithout(v.Proto, re)
	if v.Inst != nil {
		in := *v.Inst
		in.Props = propsWithout(v.Inst.Props, re)
		c.Inst = &in
	}
	return &c
}

func propsWithout(ps []Prop, re *regexp.Regexp) []Prop {
	var out []Prop
	for _, p := range ps {
		if re.MatchString(p.K) {
			continue
		}
		p.V = p.V.without(re)
		out = append(out, p)
	}
	return out
}
