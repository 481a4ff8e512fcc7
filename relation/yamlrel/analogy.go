package yamlrel

import (
	"regexp"
	"slices"
	"strings"

	"github.com/mcpt-tool/mcpt/internal/namecase"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
)

var analogyKind = CheckerKind{
	Name: "analogy",
	Doc: "The lines o′ adds are those of a sibling declaration of the same shape in o, renamed (derived).\n" +
		"forms, files: as locality; sibling: the sibling (template), derived from the input when absent; keep_numbers: numbers are part of the shape; last: the sibling is last of its kind exactly when the new declaration is; common: only lines another declaration of its kind has too; ignore: lines of o left out (pattern); reflow: a line of the sibling's found wrapped over lines of o′.",
	New: newAnalogy,
}

type analogyYAML struct {
	Name        *String  `yaml:"name"`
	Forms       []String `yaml:"forms"`
	Files       []String `yaml:"files"`
	Sibling     *String  `yaml:"sibling"`
	KeepNumbers bool     `yaml:"keep_numbers"`
	// Last takes a sibling that is last of its kind exactly when the new
	// declaration is (a generator that writes the last otherwise).
	Last bool `yaml:"last"`
	// Common takes only the sibling's lines another declaration of its
	// kind has too.
	Common bool `yaml:"common"`
	// Skip leaves lines of o out (a serialized descriptor's string lines).
	Skip   *String `yaml:"ignore" was:"skip"`
	Reflow bool    `yaml:"reflow"`
}

type analogyT struct {
	*derived
	sibling     *tmpl // the sibling, when not derived
	keepNumbers bool
	last        bool
	common      bool
	skip        *regexp.Regexp // lines of o left out
	reflow      bool
}

func newAnalogy(spec *Spec) (Check, error) {
	var a analogyYAML
	if err := spec.Decode(&a); err != nil {
		return nil, err
	}
	d, err := newDerived(spec.unit(), "analogy", spec.name(a.Name), a.Forms, a.Files)
	if err != nil {
		return nil, err
	}
	c := &analogyT{derived: d, keepNumbers: a.KeepNumbers, last: a.Last, common: a.Common, reflow: a.Reflow}
	if c.sibling, err = spec.unit().optTemplate(a.Sibling); err != nil {
		return nil, err
	}
	if a.Skip != nil {
		if c.skip, err = compileRE(*a.Skip); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func (c *analogyT) Checker(mu *Mutation) (relation.Checker, error) {
	files, err := mu.renderAll(c.files)
	if err != nil {
		return nil, err
	}
	a := &oracle.Analogy{Name: c.name, Others: c.others(mu), Files: files, KeepNumbers: c.keepNumbers, Skip: c.skip, Common: c.common, Reflow: c.reflow}
	nd := mu.inserted()
	sib, loose := nd.sibling(mu, c.keepNumbers, c.last, c.alike)
	if nd.first != "" {
		a.Shape = shapeOf(nd.first, nd.names, c.keepNumbers)
	}
	if c.sibling != nil {
		s, err := mu.render(c.sibling)
		if err != nil {
			return nil, err
		}
		sib, loose = nil, nil
		if s != "" {
			sib = []string{s}
		}
	}
	names := nd.names
	if c.sibling == nil && mu.r.clone != nil && mu.r.clone.inner {
		// A copy whose inner names are fresh: its sibling is the member
		// copied, each of its names mapped to the copy's, or none (a
		// declaration of its shape has other inner names).
		sib, loose = nil, nil
		if from, to, ok := mu.cloneRenames(); ok && len(names) > 0 && nd.placedAlikeName(mu, from[0], c.last) {
			sib = from
			names = append([]string{names[0]}, to...)
		}
	}
	a.Renames = c.renames(mu, sib, names)
	for _, l := range loose {
		a.Loose = append(a.Loose, c.renames(mu, l, names))
	}
	for _, k := range nd.kin {
		if !slices.Contains(sib, k) {
			a.Kin = append(a.Kin, c.declaredName(mu, k))
		}
	}
	return a, nil
}

// renames maps the names of a sibling to the new declaration's.
func (c *analogyT) renames(mu *Mutation, sib, names []string) []oracle.Rename {
	var out []oracle.Rename
	for i := range min(len(sib), len(names)) {
		out = append(out, oracle.Rename{From: c.declaredName(mu, sib[i]), To: c.name1(names[i])})
	}
	return out
}

// cloneRenames are the names of the member a copy with fresh inner names
// copied (its own, then those declared inside it) and the copy's inner
// names, when the member may be a sibling: the input mentions it nowhere
// but in its declaration and no name of it is a generic word (a line of
// the generator's own would be renamed). ok is false otherwise, and for a
// relation of no such copy.
func (mu *Mutation) cloneRenames() (from, to []string, ok bool) {
	if mu.r.clone == nil || !mu.r.clone.inner {
		return nil, nil, false
	}
	cl, _ := mu.data["clone"].(map[string]any)
	of, _ := cl["of"].(string)
	inner, _ := cl["from"].([]string)
	to, _ = cl["names"].([]string)
	if of == "" || !mentionedOnce(mu.m.src, of) || isGeneric(mu.r.d.generic, of) {
		return nil, nil, false
	}
	for _, n := range inner {
		// (an inner name that holds the member's, or is held in it, is
		// written in lines that are the member's: Foo_args of Foo)
		lo, ln := strings.ToLower(of), strings.ToLower(n)
		if isGeneric(mu.r.d.generic, n) || otherForm(mu.m.src, n) || strings.Contains(ln, lo) || strings.Contains(lo, ln) {
			return nil, nil, false
		}
	}
	return append([]string{of}, inner...), to, true
}

// otherForm reports whether the input writes a word that is a form of
// name but not name as written (the type Bools beside the field bools):
// the output's lines of that word are not the name's, and would be
// renamed with it.
func otherForm(src, name string) bool {
	for _, f := range namecase.Names() {
		fn, _ := namecase.Form(f)
		v := fn(name)
		if v == name || v == "" {
			continue
		}
		rx, err := cachedRE(`\b` + regexp.QuoteMeta(v) + `\b`)
		if err == nil && rx.MatchString(src) {
			return true
		}
	}
	return false
}

// placedAlikeName reports whether the candidate sibling called name stands
// in its list as the new declaration does in its (see placedAlike).
func (nd *newDecl) placedAlikeName(mu *Mutation, name string, last bool) bool {
	placed := nd.placedAlike(mu, last)
	for _, dc := range nd.candidates {
		if dc.name == name {
			return placed(dc)
		}
	}
	return false
}
