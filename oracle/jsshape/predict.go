package jsshape

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Where is where a new member lives at run time.
type Where int

// The places of a member.
const (
	InExport    Where = iota // an export of the module
	InStatic                 // an own property of a class (a static member)
	InPrototype              // an own property of a class's prototype (a method, an accessor)
	InInstance               // an own property of an instance made with no arguments
	InEnum                   // a member of an enum object: its name, and its value's name when a number
	InProperty               // an own property of an exported object
)

var whereNames = map[string]Where{"export": InExport, "static": InStatic, "prototype": InPrototype, "instance": InInstance, "enum": InEnum, "property": InProperty}

// String is the place's name.
func (w Where) String() string {
	for k, v := range whereNames {
		if v == w {
			return k
		}
	}
	return fmt.Sprintf("Where(%d)", int(w))
}

// ParseWhere reads a place: export, static, prototype, instance, enum or
// property.
func ParseWhere(s string) (Where, error) {
	w, ok := whereNames[s]
	if !ok {
		return 0, fmt.Errorf("unknown place %q (want export, static, prototype, instance, enum or property)", s)
	}
	return w, nil
}

// Kinds of member, which say its descriptor and its type.
var kindNames = []string{"field", "method", "getter", "setter", "accessor", "class", "function", "object", "value"}

// CheckKind checks the name of a member's kind.
func CheckKind(s string) error {
	if s == "" || slices.Contains(kindNames, s) {
		return nil
	}
	return fmt.Errorf("unknown member kind %q (want %s)", s, strings.Join(kindNames, ", "))
}

// Member is a member the mutation adds, as the check predicts it.
type Member struct {
	// Name is its key.
	Name string
	// In is where it lives; Of names what holds it: an export, or a path
	// of properties from one (NS.Shape), for all but Export.
	In Where
	Of string
	// Kind predicts its descriptor and type: field (a data property,
	// writable, enumerable, configurable), method (a function, not
	// enumerable), getter, setter, accessor (not enumerable), class,
	// function, object, value (any data). "" takes the place's usual
	// one: field for static, instance and property, method for
	// prototype, an enum member's descriptor for enum, anything for an
	// export.
	Kind string
	// Value, when set, is a JavaScript literal of its value, already
	// evaluated (Literal).
	Value *Value
	// Writable and Enumerable, when set, predict those flags instead of
	// Kind's.
	Writable, Enumerable *bool
	// Absent predicts that there is no such own property (a declared
	// field that only types know).
	Absent bool
	// After and Before name the keys the member is created after and
	// before, among its holder's own properties: the order in which a
	// class's static initialisers ran.
	After, Before string
}

// expect is what a prediction says of a property: it is new (added), its
// value is not predicted (anyValue) or its type only (typ), its
// descriptor is not predicted (anyFlags), it must be absent, or it must
// come after and before other keys; a reverse key of an enum may keep
// its old value (either).
type expect struct {
	added, anyValue, anyFlags, absent bool
	// holds marks a new export whose members the prediction names (of:
	// the export): they are compared, every one of them
	holds bool
	// literal marks a property of a new value that a literal predicts
	// whole: predicted, though o has no such property
	literal       bool
	typ           string
	after, before string
	either        *Value
}

// predicted is a shape with expectations: the base's with the new
// members added.
type predicted struct {
	Shape
	x map[*Prop]*expect
	// fresh holds the values of exports the mutation adds, by name, for
	// the members the prediction gives them (a new class's instance
	// members): skeletons of their kind, filled by predict
	fresh map[string]*Value
}

func (p *predicted) expect(pr *Prop) *expect { return p.x[pr] }

// predict applies the members to a copy of base. A member whose holder
// base lacks cannot be predicted: the error says which.
func predict(base *Shape, members []Member) (*predicted, error) {
	p := &predicted{Shape: Shape{Exports: cloneProps(base.Exports)}, x: map[*Prop]*expect{}, fresh: map[string]*Value{}}
	// A new export of a class, function or object may hold members of
	// its own that the prediction names.
	for _, m := range members {
		if m.In == InExport && (m.Kind == "class" || m.Kind == "function" || m.Kind == "object") && base.export(m.Name) == nil {
			v := &Value{T: m.Kind}
			if m.Kind == "class" {
				v.Inst = &Instance{}
			}
			p.fresh[m.Name] = v
		}
	}
	held := map[string]bool{}
	type addition struct {
		list *[]Prop
		prop Prop
		x    *expect
	}
	var adds []addition
	type mark struct {
		list *[]Prop
		key  string
		x    *expect
	}
	var marks []mark
	for _, m := range members {
		x := &expect{added: true, absent: m.Absent, after: m.After, before: m.Before}
		prop := Prop{K: m.Name, V: m.Value}
		if m.Value == nil {
			x.anyValue = true
			prop.V = &Value{T: "(any)"}
		}
		kind := m.Kind
		if kind == "" {
			switch m.In {
			case InStatic, InInstance, InProperty:
				kind = "field"
			case InPrototype:
				kind = "method"
			case InEnum:
				kind = "field"
			case InExport:
				kind = "value"
			}
		}
		switch kind {
		case "field", "value":
			prop.W, prop.E, prop.C = true, true, true
			x.anyFlags = kind == "value"
		case "method":
			prop.W, prop.C = true, true
			x.typ = "function"
		case "getter", "setter", "accessor":
			prop.A, prop.C = true, true
			prop.G = kind != "setter"
			prop.S = kind != "getter"
			x.anyValue = true
			prop.V = nil
		case "class", "function":
			prop.W, prop.E, prop.C = true, true, true
			x.typ = kind
		case "object":
			prop.W, prop.E, prop.C = true, true, true
			x.typ = "object"
		}
		if m.Writable != nil {
			prop.W = *m.Writable
		}
		if m.Enumerable != nil {
			prop.E = *m.Enumerable
		}
		if x.typ != "" && m.Value != nil && m.Value.T != x.typ {
			return nil, fmt.Errorf("%s: the predicted value %s is no %s", m.Name, m.Value, x.typ)
		}
		if m.In == InExport {
			x.anyFlags = true // exports show no descriptor
			if v := p.fresh[m.Name]; v != nil && m.Value == nil {
				prop.V = v // filled by the members that name it
				x.holds = true
			}
			adds = append(adds, addition{&p.Exports, prop, x})
			continue
		}
		holder, err := p.holder(m.Of)
		if err != nil && p.fresh[m.Of] != nil {
			holder, err = p.fresh[m.Of], nil
			held[m.Of] = true
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.Name, err)
		}
		var list *[]Prop
		switch m.In {
		case InStatic, InEnum, InProperty:
			list = &holder.Props
		case InPrototype:
			if holder.T != "class" && holder.T != "function" {
				return nil, fmt.Errorf("%s: %s is %s in o, which has no prototype", m.Name, m.Of, holder)
			}
			list = &holder.Proto
		case InInstance:
			if holder.Inst == nil {
				return nil, fmt.Errorf("%s: %s is %s in o, which makes no instance", m.Name, m.Of, holder)
			}
			if holder.Inst.Throws != "" {
				return nil, fmt.Errorf("%s: new %s() throws %s in o: no instance to compare", m.Name, m.Of, holder.Inst.Throws)
			}
			list = &holder.Inst.Props
		}
		adds = append(adds, addition{list, prop, x})
		if m.In == InEnum && m.Value != nil && m.Value.T == "number" && !m.Absent {
			// E[E["N"] = 5] = "N": the reverse key, created after the
			// name, named by the number as a key.
			key := m.Value.V
			if key == "-0" {
				key = "0"
			}
			rev := Prop{K: key, W: true, E: true, C: true, V: &Value{T: "string", V: jsString(m.Name)}}
			rx := &expect{added: true}
			if !isIndex(key) {
				rx.after = m.Name // an index comes first, whenever made
			}
			if old := find(*list, key); old != nil {
				// The member declared last names the number: the new one
				// or the one that had it.
				rx.either = old.V
				rx.added = false
				*old = rev
				marks = append(marks, mark{list, key, rx})
			} else {
				adds = append(adds, addition{list, rev, rx})
			}
		}
	}
	for _, a := range adds {
		if a.x.holds && !held[a.prop.K] {
			a.x.holds = false
			a.prop.V = &Value{T: "(any)"}
		}
	}
	// Properties are appended last, each list once grown, so that the
	// pointers in x stay those of the final slices.
	for _, a := range adds {
		// Where the prediction places it, for the reader: the order
		// itself is checked by After and Before.
		at := len(*a.list)
		if i := slices.IndexFunc(*a.list, func(p Prop) bool { return p.K == a.x.after }); a.x.after != "" && i >= 0 {
			at = i + 1
		} else if i := slices.IndexFunc(*a.list, func(p Prop) bool { return p.K == a.x.before }); a.x.before != "" && i >= 0 {
			at = i
		}
		*a.list = slices.Insert(*a.list, at, a.prop)
	}
	for _, a := range adds {
		marks = append(marks, mark{a.list, a.prop.K, a.x})
	}
	for _, a := range adds {
		sortIndexKeys(*a.list)
	}
	for _, m := range marks {
		if pr := find(*m.list, m.key); pr != nil {
			p.x[pr] = m.x
			pr.note = note(pr, m.x)
		}
	}
	for _, a := range adds {
		if n := countKey(*a.list, a.prop.K); n > 1 {
			return nil, fmt.Errorf("%s: o has it already", a.prop.K)
		}
	}
	return p, nil
}

// sortIndexKeys puts the array indices first, in ascending order, as
// every object lists its own keys.
func sortIndexKeys(ps []Prop) {
	slices.SortStableFunc(ps, func(a, b Prop) int {
		ia, ib := isIndex(a.K), isIndex(b.K)
		switch {
		case ia && ib:
			na, _ := strconv.ParseUint(a.K, 10, 32)
			nb, _ := strconv.ParseUint(b.K, 10, 32)
			return cmp.Compare(na, nb)
		case ia:
			return -1
		case ib:
			return 1
		}
		return 0
	})
}

// note is how a prediction shows a property it leaves partly open.
func note(p *Prop, x *expect) string {
	switch {
	case x.absent:
		return "no own property"
	case x.either != nil:
		return fmt.Sprintf("%s or %s %s", p.V, x.either, p.flags())
	case x.anyValue && !p.A:
		return describeExpected(p, x)
	}
	return ""
}

// article is the indefinite article of a word.
func article(w string) string {
	if w != "" && strings.ContainsRune("aeiou", rune(w[0])) {
		return "an " + w
	}
	return "a " + w
}

func countKey(ps []Prop, k string) int {
	n := 0
	for _, p := range ps {
		if p.K == k {
			n++
		}
	}
	return n
}

// holder finds the value a dotted path names: an export, then own
// properties.
func (p *predicted) holder(path string) (*Value, error) {
	if path == "" {
		return nil, fmt.Errorf("no holder named (of)")
	}
	parts := strings.Split(path, ".")
	e := p.export(parts[0])
	if e == nil {
		return nil, fmt.Errorf("o exports no %s", parts[0])
	}
	v := e.V
	for i, k := range parts[1:] {
		pr := find(v.Props, k)
		if pr == nil || pr.V == nil {
			return nil, fmt.Errorf("%s has no own property %s in o", strings.Join(parts[:i+1], "."), k)
		}
		v = pr.V
	}
	if v == nil || v.Cut {
		return nil, fmt.Errorf("o's %s is not described (too deep)", path)
	}
	return v, nil
}

// jsString writes a string as JSON.stringify does for plain text.
func jsString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// compare compares o′'s shape with the prediction and says every
// difference, a line each.
func (p *predicted) compare(act *Shape) []string {
	var out []string
	p.props(&out, "", p.Exports, act.Exports, true)
	return out
}

func (p *predicted) props(out *[]string, path string, pred, act []Prop, exports bool) {
	what := func(k string) string {
		if exports {
			return "export " + k
		}
		return path + k
	}
	for i := range pred {
		pp := &pred[i]
		x := p.expect(pp)
		a := find(act, pp.K)
		if x != nil && x.absent {
			if a != nil {
				*out = append(*out, fmt.Sprintf("%s: is an own property (%s %s), predicted none", what(pp.K), a.V, a.flags()))
			}
			continue
		}
		if a == nil {
			if x != nil && (x.added || x.literal) {
				*out = append(*out, fmt.Sprintf("%s: missing, predicted %s", what(pp.K), describeExpected(pp, x)))
			} else {
				*out = append(*out, fmt.Sprintf("%s: missing in o′, o has it (%s)", what(pp.K), pp.V))
			}
			continue
		}
		if !exports && (x == nil || !x.anyFlags) && pp.flags() != a.flags() {
			*out = append(*out, fmt.Sprintf("%s: descriptor %s, predicted %s", what(pp.K), a.flags(), pp.flags()))
		}
		if pp.A || a.A {
			continue
		}
		p.value(out, what(pp.K), pp.V, a.V, x)
	}
	for i := range act {
		a := &act[i]
		if pp := find(pred, a.K); pp == nil {
			*out = append(*out, fmt.Sprintf("%s: in o′ (%s), not predicted", what(a.K), a.V))
		}
	}
	if exports {
		return
	}
	// Old keys keep their order; a new one comes after and before the
	// keys its prediction names.
	var po, ao []string
	old := map[string]bool{}
	for i := range pred {
		pp := &pred[i]
		if x := p.expect(pp); (x == nil || !x.added && x.either == nil) && !isIndex(pp.K) && find(act, pp.K) != nil {
			po = append(po, pp.K)
			old[pp.K] = true
		}
	}
	for _, a := range act {
		if old[a.K] {
			ao = append(ao, a.K)
		}
	}
	if !slices.Equal(po, ao) {
		*out = append(*out, fmt.Sprintf("%sown properties in another order: o′ %s, o %s", prefix(path), strings.Join(ao, ", "), strings.Join(po, ", ")))
	}
	index := func(k string) int {
		return slices.IndexFunc(act, func(a Prop) bool { return a.K == k })
	}
	for i := range pred {
		pp := &pred[i]
		x := p.expect(pp)
		if x == nil || x.absent {
			continue
		}
		at := index(pp.K)
		if at < 0 {
			continue
		}
		if x.after != "" {
			if j := index(x.after); j >= 0 && j > at {
				*out = append(*out, fmt.Sprintf("%s: created before %s, predicted after it", what(pp.K), x.after))
			}
		}
		if x.before != "" {
			if j := index(x.before); j >= 0 && j < at {
				*out = append(*out, fmt.Sprintf("%s: created after %s, predicted before it", what(pp.K), x.before))
			}
		}
	}
}

func prefix(path string) string {
	if path == "" {
		return ""
	}
	return strings.TrimSuffix(path, ".") + ": "
}

func describeExpected(pp *Prop, x *expect) string {
	switch {
	case pp.A:
		return "an accessor " + pp.flags()
	case x.anyValue && x.typ != "" && x.anyFlags:
		return article(x.typ)
	case x.anyValue && x.typ != "":
		return article(x.typ) + " " + pp.flags()
	case x.anyValue && x.anyFlags:
		return "any value"
	case x.anyValue:
		return "an own property " + pp.flags()
	}
	return pp.V.String() + " " + pp.flags()
}

// value compares a value of o′ with the predicted one.
func (p *predicted) value(out *[]string, what string, pv, av *Value, x *expect) {
	if x != nil && x.either != nil {
		if !sameValue(av, pv) && !sameValue(av, x.either) {
			*out = append(*out, fmt.Sprintf("%s = %s, predicted %s or %s", what, av, pv, x.either))
		}
		return
	}
	if x != nil && x.anyValue {
		if x.typ != "" && av.T != x.typ {
			*out = append(*out, fmt.Sprintf("%s = %s, predicted %s", what, av, article(x.typ)))
			return
		}
		if x.holds {
			// a new export with members of its own: those, and no others
			p.props(out, what+".", pv.Props, av.Props, false)
			p.props(out, what+".prototype.", pv.Proto, av.Proto, false)
			switch {
			case pv.Inst == nil:
			case av.Inst == nil:
				*out = append(*out, fmt.Sprintf("%s: makes no instance, predicted one", what))
			case av.Inst.Throws != "":
				*out = append(*out, fmt.Sprintf("%s: new %s() throws %s", what, av.Name, av.Inst.Throws))
			default:
				p.props(out, what+".instance.", pv.Inst.Props, av.Inst.Props, false)
			}
		}
		return
	}
	if pv.T != av.T || pv.String() != av.String() || pv.Cut != av.Cut {
		*out = append(*out, fmt.Sprintf("%s = %s, predicted %s", what, av, pv))
		return
	}
	if x != nil && x.added {
		// A new object is predicted by its type and name, and by its own
		// properties when a literal predicts it (an enum object written
		// out: its members both ways).
		if pv.T == "object" || pv.T == "array" {
			for i := range pv.Props {
				p.x[&pv.Props[i]] = &expect{literal: true}
			}
			p.props(out, what+".", pv.Props, av.Props, false)
		}
		return
	}
	p.props(out, what+".", pv.Props, av.Props, false)
	p.props(out, what+".prototype.", pv.Proto, av.Proto, false)
	switch {
	case pv.Inst == nil && av.Inst == nil:
	case pv.Inst == nil || av.Inst == nil:
		*out = append(*out, fmt.Sprintf("%s: makes an instance in one of o and o′ only", what))
	case pv.Inst.Throws != av.Inst.Throws:
		*out = append(*out, fmt.Sprintf("%s: new %s() %s in o′, %s in o", what, pv.Name, throwsText(av.Inst), throwsText(pv.Inst)))
	default:
		p.props(out, what+".instance.", pv.Inst.Props, av.Inst.Props, false)
	}
}

func throwsText(in *Instance) string {
	if in.Throws == "" {
		return "succeeds"
	}
	return "throws " + in.Throws
}

// sameValue compares two values deeply.
func sameValue(a, b *Value) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.T != b.T || a.String() != b.String() || a.Cut != b.Cut || len(a.Props) != len(b.Props) || len(a.Proto) != len(b.Proto) || (a.Inst == nil) != (b.Inst == nil) {
		return false
	}
	sameProps := func(x, y []Prop) bool {
		for i := range x {
			if x[i].K != y[i].K || x[i].flags() != y[i].flags() || !sameValue(x[i].V, y[i].V) {
				return false
			}
		}
		return true
	}
	if !sameProps(a.Props, b.Props) || !sameProps(a.Proto, b.Proto) {
		return false
	}
	if a.Inst != nil {
		return a.Inst.Throws == b.Inst.Throws && len(a.Inst.Props) == len(b.Inst.Props) && sameProps(a.Inst.Props, b.Inst.Props)
	}
	return true
}
