package yamlrel

import (
	"regexp"
	"slices"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
)

var analogyKind = CheckerKind{
	Name: "analogy",
	Doc: "The lines o′ adds are those of a sibling declaration of the same shape in o, renamed (derived).\n" +
		"forms, files: as locality; sibling: the sibling (template), derived from the input when absent; keep_numbers: numbers are part of the shape; skip: lines of o left out (pattern); reflow: a line of the sibling's found wrapped over lines of o′.",
	New: newAnalogy,
}

type analogyYAML struct {
	Name        *String  `yaml:"name"`
	Forms       []String `yaml:"forms"`
	Files       []String `yaml:"files"`
	Sibling     *String  `yaml:"sibling"`
	KeepNumbers bool     `yaml:"keep_numbers"`
	// Skip leaves lines of o out (a serialized descriptor's string lines).
	Skip   *String `yaml:"skip"`
	Reflow bool    `yaml:"reflow"`
}

type analogyT struct {
	*derived
	sibling     *tmpl // the sibling, when not derived
	keepNumbers bool
	skip        *regexp.Regexp // lines of o left out
	reflow      bool
}

func newAnalogy(spec *Spec) (Check, error) {
	var a analogyYAML
	if err := spec.Decode(&a); err != nil {
		return nil, err
	}
	d, err := newDerived("analogy", spec.name(a.Name), a.Forms, a.Files)
	if err != nil {
		return nil, err
	}
	c := &analogyT{derived: d, keepNumbers: a.KeepNumbers, reflow: a.Reflow}
	if c.sibling, err = optTmpl(a.Sibling); err != nil {
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
	a := &oracle.Analogy{Name: c.name, Others: c.others(mu), Files: files, KeepNumbers: c.keepNumbers, Skip: c.skip, Reflow: c.reflow}
	nd := mu.inserted()
	sib, loose := nd.sibling(mu, c.keepNumbers, c.alike)
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
	a.Renames = c.renames(mu, sib, nd.names)
	for _, l := range loose {
		a.Loose = append(a.Loose, c.renames(mu, l, nd.names))
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
