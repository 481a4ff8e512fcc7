// Package release reads and compares the releases of a transpiler: the
// version number a command such as `tsc --version` prints (3.5.3, v1.26.0,
// 5.9.0-beta), and the ranges of releases a relation pack supports
// (`>=3.5.0 <6`). Versions compare as semantic versions do: numerically by
// major, minor and patch (a missing part is 0), a pre-release before its
// release, build metadata ignored.
package release

import (
	"cmp"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Version is a parsed version number.
type Version struct {
	// Major, Minor and Patch are the numbers, 0 where not written.
	Major, Minor, Patch int
	// Pre are the dot-separated identifiers of the pre-release ("beta",
	// "1" of 5.9.0-beta.1); none for a release.
	Pre []string
	// Text is the version as written (v1.26.0).
	Text string
}

func (v Version) String() string { return v.Text }

// number is a version number at a word's start: at least major.minor,
// with an optional v, patch, pre-release and build.
var number = regexp.MustCompile(`(?:^|[^0-9.])(v?(\d+)\.(\d+)(?:\.(\d+))?(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?)(?:$|[^0-9A-Za-z])`)

// whole is a version written alone, where a partial one (3, 3.5) is
// allowed: in a range and in a template's comparison.
var whole = regexp.MustCompile(`^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$`)

// Find returns the first version number in text (the output of a version
// command), one of at least two parts: "Version 5.9.3" gives 5.9.3,
// "protoc-gen-go v1.36.12" v1.36.12, "libprotoc 29.3" 29.3, "go
// version go1.26.0 linux/amd64" 1.26.0. ok is false when text holds none.
func Find(text string) (v Version, ok bool) {
	m := number.FindStringSubmatch(text)
	if m == nil {
		return Version{}, false
	}
	v, err := fromParts(m[1], m[2], m[3], m[4], m[5])
	return v, err == nil
}

// Parse reads a version written alone: 5.9.3, v1.26.0, 5.9.0-beta, or a
// partial one, 3 or 3.5, whose missing parts are 0.
func Parse(s string) (Version, error) {
	m := whole.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return Version{}, fmt.Errorf("%q is not a version (want numbers such as 3.5.3, v1.26.0 or 5.9.0-beta)", s)
	}
	return fromParts(strings.TrimSpace(s), m[1], m[2], m[3], m[4])
}

func fromParts(text, major, minor, patch, pre string) (Version, error) {
	v := Version{Text: text}
	for _, p := range []struct {
		s   string
		dst *int
	}{{major, &v.Major}, {minor, &v.Minor}, {patch, &v.Patch}} {
		if p.s == "" {
			continue
		}
		n, err := strconv.Atoi(p.s)
		if err != nil {
			return Version{}, fmt.Errorf("%q: %s is too large a number", text, p.s)
		}
		*p.dst = n
	}
	if pre != "" {
		v.Pre = strings.Split(pre, ".")
	}
	return v, nil
}

// Compare returns -1, 0 or +1 as a is older than, the same as or newer
// than b.
func Compare(a, b Version) int {
	if c := cmp.Compare(a.Major, b.Major); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Minor, b.Minor); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Patch, b.Patch); c != 0 {
		return c
	}
	switch {
	case len(a.Pre) == 0 && len(b.Pre) == 0:
		return 0
	case len(a.Pre) == 0:
		return +1 // a release after its pre-releases
	case len(b.Pre) == 0:
		return -1
	}
	for i := 0; i < len(a.Pre) && i < len(b.Pre); i++ {
		if c := comparePre(a.Pre[i], b.Pre[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a.Pre), len(b.Pre))
}

// comparePre compares two identifiers of a pre-release: numbers
// numerically and before words, words by their bytes.
func comparePre(a, b string) int {
	na, ea := strconv.Atoi(a)
	nb, eb := strconv.Atoi(b)
	switch {
	case ea == nil && eb == nil:
		return cmp.Compare(na, nb)
	case ea == nil:
		return -1
	case eb == nil:
		return +1
	}
	return strings.Compare(a, b)
}

// AtLeast tells whether the version v is min or newer; both are written
// alone (Parse).
func AtLeast(v, min string) (bool, error) {
	a, err := Parse(v)
	if err != nil {
		return false, err
	}
	b, err := Parse(min)
	if err != nil {
		return false, err
	}
	return Compare(a, b) >= 0, nil
}

// Range is a set of versions: alternatives separated by ||, each a list
// of comparisons separated by spaces that all hold (>=3.5.0 <6). The zero
// Range holds every version.
type Range struct {
	alts [][]comparison
	text string
}

type comparison struct {
	op string // one of >=, >, <=, <, =
	v  Version
}

var ops = []string{">=", "<=", ">", "<", "="}

// ParseRange reads a range: `>=3.5.0 <6`, `=5.9.3`, `>=1.26 <1.30 || >=1.31`.
// A version without an operator is one version (=).
func ParseRange(s string) (Range, error) {
	r := Range{text: strings.Join(strings.Fields(s), " ")}
	if r.text == "" {
		return Range{}, fmt.Errorf("an empty range of releases (want comparisons such as >=3.5.0 <6)")
	}
	for alt := range strings.SplitSeq(s, "||") {
		var cs []comparison
		fields := strings.Fields(alt)
		for i := 0; i < len(fields); i++ {
			f := fields[i]
			op := "="
			for _, o := range ops {
				if strings.HasPrefix(f, o) {
					op, f = o, f[len(o):]
					break
				}
			}
			if f == "" && i+1 < len(fields) { // ">= 3.5": the version after a space
				i++
				f = fields[i]
			}
			v, err := Parse(f)
			if err != nil {
				return Range{}, fmt.Errorf("range %q: %v", r.text, err)
			}
			cs = append(cs, comparison{op, v})
		}
		if len(cs) == 0 {
			return Range{}, fmt.Errorf("range %q: an alternative with no comparison", r.text)
		}
		r.alts = append(r.alts, cs)
	}
	return r, nil
}

// MustParseRange is ParseRange for ranges known to be right; it panics
// on a wrong one.
func MustParseRange(s string) Range {
	r, err := ParseRange(s)
	if err != nil {
		panic(err)
	}
	return r
}

// Contains tells whether v is in the range.
func (r Range) Contains(v Version) bool {
	if r.alts == nil {
		return true
	}
	for _, alt := range r.alts {
		if holdsAll(alt, v) {
			return true
		}
	}
	return false
}

func holdsAll(cs []comparison, v Version) bool {
	for _, c := range cs {
		d := Compare(v, c.v)
		var ok bool
		switch c.op {
		case ">=":
			ok = d >= 0
		case ">":
			ok = d > 0
		case "<=":
			ok = d <= 0
		case "<":
			ok = d < 0
		default:
			ok = d == 0
		}
		if !ok {
			return false
		}
	}
	return true
}

// IsZero tells whether r is the zero Range, which holds every version.
func (r Range) IsZero() bool { return r.alts == nil }

// String is the range as written, its spaces collapsed; "" for the zero
// Range.
func (r Range) String() string { return r.text }

// MarshalText writes the range as written.
func (r Range) MarshalText() ([]byte, error) { return []byte(r.text), nil }

// UnmarshalText reads a range; empty text is the zero Range.
func (r *Range) UnmarshalText(b []byte) error {
	if strings.TrimSpace(string(b)) == "" {
		*r = Range{}
		return nil
	}
	p, err := ParseRange(string(b))
	if err != nil {
		return err
	}
	*r = p
	return nil
}
