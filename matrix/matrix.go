// Package matrix is the flag matrix of a campaign: named dimensions of
// transpiler flags (target, module …), each with named values that stand
// for the arguments they add to the transpiler's command line. A seed runs
// under every combination of one value per dimension, and the combination
// is part of each test case.
package matrix

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpt-tool/mcpt/internal/suggest"
)

// Matrix is the dimensions of a campaign's flags, in the order the
// configuration gives them. A matrix without dimensions has one
// combination, which adds no argument.
type Matrix []Dimension

// Dimension is one flag of the transpiler and the values a campaign
// tries, in the order the configuration gives them.
type Dimension struct {
	Name   string  `json:"name"`
	Values []Value `json:"values"`
}

// Value is one value of a dimension: its name, and the arguments it adds.
type Value struct {
	Name string   `json:"name"`
	Args []string `json:"args"`
}

// Setting is the value a combination takes in one dimension.
type Setting struct {
	Dimension string   `json:"dimension"`
	Value     string   `json:"value"`
	Args      []string `json:"args,omitempty"`
}

// Combination is one value per dimension of a matrix, in the matrix's
// order of dimensions; the zero Combination is that of a matrix without
// dimensions.
type Combination []Setting

var (
	dimensionRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	valueRE     = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.+-]*$`)
)

// CheckDimension says why name cannot name a dimension: a dimension is an
// identifier, which templates read as .flags.NAME.
func CheckDimension(name string) error {
	if !dimensionRE.MatchString(name) {
		return fmt.Errorf("flag dimension %q is not an identifier (letters, digits and _, not starting with a digit)", name)
	}
	return nil
}

// CheckValue says why name cannot name a value: letters, digits and _ . + -,
// so that a combination reads as dimension=value,dimension=value.
func CheckValue(name string) error {
	if !valueRE.MatchString(name) {
		return fmt.Errorf("flag value %q: a value's name is letters, digits and _ . + - (not starting with . + -)", name)
	}
	return nil
}

// Check says what is wrong with m: a dimension or value named wrongly or
// twice, a dimension without values.
func (m Matrix) Check() error {
	dims := map[string]bool{}
	for _, d := range m {
		if err := CheckDimension(d.Name); err != nil {
			return err
		}
		if dims[d.Name] {
			return fmt.Errorf("flag dimension %s given twice", d.Name)
		}
		dims[d.Name] = true
		if len(d.Values) == 0 {
			return fmt.Errorf("flag dimension %s has no value", d.Name)
		}
		vals := map[string]bool{}
		for _, v := range d.Values {
			if err := CheckValue(v.Name); err != nil {
				return fmt.Errorf("%s: %w", d.Name, err)
			}
			if vals[v.Name] {
				return fmt.Errorf("flag %s: value %s given twice", d.Name, v.Name)
			}
			vals[v.Name] = true
		}
	}
	return nil
}

// Size is the number of combinations of m.
func (m Matrix) Size() int {
	n := 1
	for _, d := range m {
		n *= len(d.Values)
	}
	return n
}

// Combinations lists every combination of m, the last dimension varying
// fastest: for target {es2017, es2022} × module {commonjs, esnext},
// target=es2017,module=commonjs first and target=es2022,module=esnext last.
// A matrix without dimensions has one combination, the zero one.
func (m Matrix) Combinations() []Combination {
	out := []Combination{nil}
	for _, d := range m {
		var next []Combination
		for _, c := range out {
			for _, v := range d.Values {
				next = append(next, append(slices.Clip(c), Setting{Dimension: d.Name, Value: v.Name, Args: v.Args}))
			}
		}
		out = next
	}
	return out
}

// Dimension returns the dimension named name, or nil.
func (m Matrix) Dimension(name string) *Dimension {
	for i := range m {
		if m[i].Name == name {
			return &m[i]
		}
	}
	return nil
}

// Names lists the names of the dimensions of m.
func (m Matrix) Names() []string {
	out := make([]string, len(m))
	for i, d := range m {
		out[i] = d.Name
	}
	return out
}

// Value returns the value of d named name, or nil.
func (d *Dimension) Value(name string) *Value {
	for i := range d.Values {
		if d.Values[i].Name == name {
			return &d.Values[i]
		}
	}
	return nil
}

// ValueNames lists the names of the values of d.
func (d *Dimension) ValueNames() []string {
	out := make([]string, len(d.Values))
	for i, v := range d.Values {
		out[i] = v.Name
	}
	return out
}

// String is the combination as mcpt writes it in reports and reads it on
// the command line: dimension=value pairs joined by commas
// (target=es2017,module=esnext); "" for the zero combination.
func (c Combination) String() string {
	parts := make([]string, len(c))
	for i, s := range c {
		parts[i] = s.Dimension + "=" + s.Value
	}
	return strings.Join(parts, ",")
}

// Args are the arguments the combination adds to the transpiler's
// command line: those of each value, in the order of the dimensions.
func (c Combination) Args() []string {
	var out []string
	for _, s := range c {
		out = append(out, s.Args...)
	}
	return out
}

// Map is the combination as templates see it: dimension → value name.
func (c Combination) Map() map[string]string {
	m := make(map[string]string, len(c))
	for _, s := range c {
		m[s.Dimension] = s.Value
	}
	return m
}

// Pair is one dimension=value of a combination as written.
type Pair struct{ Dimension, Value string }

// ParsePairs reads dimension=value pairs, each item of list holding one
// or several joined by commas (as --flags takes them, and as a finding
// records its combination).
func ParsePairs(list ...string) ([]Pair, error) {
	var out []Pair
	for _, item := range list {
		for p := range strings.SplitSeq(item, ",") {
			p = strings.TrimSpace(p)
			if p == "" {
				continue
			}
			d, v, ok := strings.Cut(p, "=")
			if !ok || d == "" || v == "" {
				return nil, fmt.Errorf("%q: want DIMENSION=VALUE (target=es2022)", p)
			}
			out = append(out, Pair{d, v})
		}
	}
	return out, nil
}

// lookup finds the dimension and value a pair names in m.
func (m Matrix) lookup(p Pair) (*Dimension, *Value, error) {
	d := m.Dimension(p.Dimension)
	if d == nil {
		if len(m) == 0 {
			return nil, nil, fmt.Errorf("%s=%s: the configuration has no flags", p.Dimension, p.Value)
		}
		return nil, nil, fmt.Errorf("%s=%s: no flag dimension %s (dimensions: %s)%s", p.Dimension, p.Value, p.Dimension,
			strings.Join(m.Names(), ", "), suggest.DidYouMean(p.Dimension, m.Names()))
	}
	v := d.Value(p.Value)
	if v == nil {
		return nil, nil, fmt.Errorf("%s=%s: %s has no value %s (values: %s)%s", p.Dimension, p.Value, d.Name, p.Value,
			strings.Join(d.ValueNames(), ", "), suggest.DidYouMean(p.Value, d.ValueNames()))
	}
	return d, v, nil
}

// Restrict keeps, of each dimension that pairs name, the values they name
// (a dimension named twice keeps both values); the other dimensions keep
// all theirs. A pair naming a dimension or value m does not have is an
// error, saying which it has.
func (m Matrix) Restrict(pairs []Pair) (Matrix, error) {
	keep := map[string][]string{}
	for _, p := range pairs {
		d, v, err := m.lookup(p)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(keep[d.Name], v.Name) {
			keep[d.Name] = append(keep[d.Name], v.Name)
		}
	}
	out := make(Matrix, len(m))
	for i, d := range m {
		out[i] = Dimension{Name: d.Name}
		for _, v := range d.Values {
			if names, ok := keep[d.Name]; !ok || slices.Contains(names, v.Name) {
				out[i].Values = append(out[i].Values, v)
			}
		}
	}
	return out, nil
}

// Combination is the combination of m that pairs name, one value for
// every dimension of m: the combination a finding records (its String),
// with the arguments m gives its values.
func (m Matrix) Combination(pairs []Pair) (Combination, error) {
	byDim := map[string]Pair{}
	for _, p := range pairs {
		d, _, err := m.lookup(p)
		if err != nil {
			return nil, err
		}
		if old, dup := byDim[d.Name]; dup && old.Value != p.Value {
			return nil, fmt.Errorf("%s given twice: %s and %s", d.Name, old.Value, p.Value)
		}
		byDim[d.Name] = p
	}
	var c Combination
	var missing []string
	for _, d := range m {
		p, ok := byDim[d.Name]
		if !ok {
			missing = append(missing, d.Name)
			continue
		}
		c = append(c, Setting{Dimension: d.Name, Value: p.Value, Args: d.Value(p.Value).Args})
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("no value for %s (a combination gives one for each of %s)", strings.Join(missing, ", "), strings.Join(m.Names(), ", "))
	}
	return c, nil
}

// Fingerprint is m in one line, for a journal's fingerprint and for
// people: every dimension, value and argument, in order
// (`target: es2017 ["--target" "es2017"], es2022 ["--target" "es2022"]`).
func (m Matrix) Fingerprint() string {
	var b strings.Builder
	for i, d := range m {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(d.Name + ":")
		for j, v := range d.Values {
			if j > 0 {
				b.WriteString(",")
			}
			b.WriteString(" " + v.Name + " [")
			for k, a := range v.Args {
				if k > 0 {
					b.WriteString(" ")
				}
				b.WriteString(strconv.Quote(a))
			}
			b.WriteString("]")
		}
	}
	return b.String()
}
