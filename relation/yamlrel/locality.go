package yamlrel

import (
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
)

var localityKind = CheckerKind{
	Name: "locality",
	Doc: "Every line that differs between o and o′ mentions a fresh name, in one of its forms (derived).\n" +
		"forms: the name forms looked for; except, files: files left out, files looked at (templates); numbers, punctuation: lines allowed to differ otherwise (a count, or any); hunks, by, also, grows, renamed, reflow, helpers, repeats, renumbered, clone: see Derived checkers.",
	New: newLocality,
}

type localityYAML struct {
	Name        *String  `yaml:"name"`
	Forms       []String `yaml:"forms"`
	Except      []String `yaml:"except"`
	Numbers     *String  `yaml:"numbers"`
	Punctuation *String  `yaml:"punctuation"`
	Hunks       bool     `yaml:"hunks"`
	By          *String  `yaml:"by"`
	Also        []String `yaml:"also"`
	Grows       []String `yaml:"grows"`
	Renamed     bool     `yaml:"renamed"`
	Reflow      bool     `yaml:"reflow"`
	Helpers     []String `yaml:"helpers"`
	// Repeats lets a line gain a copy of a run of its own words.
	Repeats bool `yaml:"repeats"`
	// Renumbered lets a file that names nothing new change in numbers.
	Renumbered bool `yaml:"renumbered"`
	// Files restricts the check to these files (names or patterns).
	Files []String `yaml:"files"`
	// Clone takes as the copy's (clone) the lines that hold its fresh
	// numbers, or repeat a line of o naming what its text names.
	Clone bool `yaml:"clone"`
}

type localityT struct {
	*derived
	numbers     int
	punctuation int
	hunks       bool
	renamed     bool
	repeats     bool
	renumbered  bool
	copies      bool
	by          int
	also        []*regexp.Regexp // more lines that may change
	grows       []*regexp.Regexp // lines that may only gain words
	reflow      bool
	helpers     []*regexp.Regexp // first lines of blocks the generator adds whole
	only        []*tmpl          // the files looked at
}

func newLocality(spec *Spec) (Check, error) {
	var l localityYAML
	if err := spec.Decode(&l); err != nil {
		return nil, err
	}
	d, err := newDerived(spec.unit(), "locality", spec.name(l.Name), l.Forms, l.Except)
	if err != nil {
		return nil, err
	}
	c := &localityT{derived: d, hunks: l.Hunks, renamed: l.Renamed, reflow: l.Reflow, repeats: l.Repeats, renumbered: l.Renumbered, copies: l.Clone}
	if c.numbers, err = allowance(l.Numbers); err != nil {
		return nil, err
	}
	if c.punctuation, err = allowance(l.Punctuation); err != nil {
		return nil, err
	}
	if c.also, err = compileREs(l.Also); err != nil {
		return nil, err
	}
	if c.grows, err = compileREs(l.Grows); err != nil {
		return nil, err
	}
	if c.helpers, err = compileREs(l.Helpers); err != nil {
		return nil, err
	}
	if c.only, err = spec.unit().templates(l.Files); err != nil {
		return nil, err
	}
	if l.By != nil {
		if c.by, err = strconv.Atoi(l.By.Value); err != nil || c.by == 0 {
			return nil, l.By.At("by: want a non-zero integer, not %q", l.By.Value)
		}
	}
	return c, nil
}

// compileREs compiles a list of patterns.
func compileREs(ss []String) ([]*regexp.Regexp, error) {
	var out []*regexp.Regexp
	for _, s := range ss {
		re, err := compileRE(s)
		if err != nil {
			return nil, err
		}
		out = append(out, re)
	}
	return out, nil
}

// allowance reads numbers: and punctuation: of a locality check, a count
// of lines or any.
func allowance(s *String) (int, error) {
	if s == nil {
		return 0, nil
	}
	if s.Value == "any" {
		return oracle.Any, nil
	}
	n, err := strconv.Atoi(s.Value)
	if err != nil || n < 0 {
		return 0, s.At("want a number of lines or any, not %q", s.Value)
	}
	return n, nil
}

func (c *localityT) Checker(mu *Mutation) (relation.Checker, error) {
	files, err := mu.renderAll(c.files)
	if err != nil {
		return nil, err
	}
	only, err := mu.renderAll(c.only)
	if err != nil {
		return nil, err
	}
	if len(c.only) > 0 && len(only) == 0 {
		only = []string{""} // every file left out: none is looked at
	}
	var fresh []oracle.Name
	for _, n := range mu.Fresh() {
		fresh = append(fresh, c.name1(n))
	}
	loc := &oracle.Locality{Name: c.name, Fresh: fresh, Except: files, Numbers: c.numbers, Punctuation: c.punctuation, Hunks: c.hunks, By: c.by, Also: c.also, Grows: c.grows, Renamed: c.renamed, Reflow: c.reflow, Helpers: c.helpers, Repeats: c.repeats, Renumbered: c.renumbered, Files: only}
	if c.copies {
		loc.Copies = c.copyLines(mu)
	}
	return loc, nil
}

// copyLines are what the locality check sees of the copy a clone made
// (nil for a mutation that copied nothing): its fresh numbers, and the
// declarations of the input its text names, apart from the others.
func (c *localityT) copyLines(mu *Mutation) *oracle.CopyLines {
	cl, ok := mu.data["clone"].(map[string]any)
	if !ok {
		return nil
	}
	stem := path.Base(mu.name)
	if k := strings.IndexByte(stem, '.'); k > 0 {
		stem = stem[:k]
	}
	out := &oracle.CopyLines{Stem: stem}
	nums, _ := cl["numbers"].([]int)
	for _, n := range nums {
		out.Numbers = append(out.Numbers, int64(n))
	}
	text, _ := cl["text"].(string)
	words := map[string]bool{}
	for _, w := range wordRE.FindAllString(text, -1) {
		words[w] = true
	}
	fresh := map[string]bool{}
	for _, n := range mu.Fresh() {
		fresh[n] = true
	}
	seen := map[string]bool{}
	for _, kn := range mu.r.d.kindList {
		for _, dc := range mu.m.decls[kn] {
			names := dc.names
			if dc.kind.named {
				names = append([]string{dc.name}, names...)
			}
			for _, x := range names {
				if x == "" || seen[x] || fresh[x] {
					continue
				}
				seen[x] = true
				if words[x] {
					out.Named = append(out.Named, c.name1(x))
				} else {
					out.Others = append(out.Others, c.name1(x))
				}
			}
		}
	}
	return out
}

var wordRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
