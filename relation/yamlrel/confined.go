package yamlrel

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/tree"
)

var confinedKind = CheckerKind{
	Name: "confined",
	Doc: "The fresh names appear, in any of their forms, in no file of o′ but those of except: a private declaration does not leak into a public header.\n" +
		"except: the files that may mention them, names or patterns (templates); forms: the name forms looked for (all); name: the checker's name (confined).",
	New: newConfined,
}

type confinedYAML struct {
	Name  *String  `yaml:"name"`
	Files []String `yaml:"except" was:"files"`
	Forms []String `yaml:"forms"`
}

type confinedT struct{ *derived }

func newConfined(spec *Spec) (Check, error) {
	var c confinedYAML
	if err := spec.Decode(&c); err != nil {
		return nil, err
	}
	if len(c.Files) == 0 {
		return nil, spec.Errorf("a confined check needs except, the files that may mention the fresh names")
	}
	d, err := newDerived(spec.unit(), "confined", spec.name(c.Name), c.Forms, c.Files)
	return &confinedT{d}, err
}

func (c *confinedT) Checker(mu *Mutation) (relation.Checker, error) {
	files, err := mu.renderAll(c.files)
	if err != nil {
		return nil, err
	}
	cf := &confined{name: c.name, files: files}
	for _, n := range mu.Fresh() {
		cf.fresh = append(cf.fresh, c.name1(n))
	}
	return cf, nil
}

// confined is the checker of one follow-up.
type confined struct {
	name  string
	fresh []oracle.Name
	files []string
}

// Check fails for every file of o′ outside files that holds a form of a
// fresh name.
func (c *confined) Check(_, o2 tree.Tree) []oracle.Failure {
	var out []oracle.Failure
	for _, f := range o2.Names() {
		if oracle.InFiles(c.files, f) {
			continue
		}
		if n, form := c.mention(o2[f]); form != "" {
			out = append(out, oracle.Failure{Checker: c.name, File: f,
				Message:  fmt.Sprintf("%s mentions the fresh name %s (as %s), which only %s may mention", f, n, form, strings.Join(c.files, ", ")),
				Compared: c.compared(o2[f])})
		}
	}
	return out
}

// compared is the evidence of a failure on a file of o′ (text): its lines
// that mention a fresh name.
func (c *confined) compared(text []byte) *result.Compared {
	var fresh []string
	for _, n := range c.fresh {
		fresh = append(fresh, n.String())
	}
	cmp := &result.Compared{Kind: result.CmpConfined,
		Expects: fmt.Sprintf("The fresh names (%s), in any of their forms, appear in no file of o′ but %s.", strings.Join(fresh, ", "), strings.Join(c.files, ", "))}
	lines, _ := oracle.SplitLines(string(text))
	for i, l := range lines {
		if n, form := c.mention([]byte(l)); form != "" {
			cmp.Add(result.CmpLine{O2: result.Ref(i+1, l), Role: result.RoleMention, Why: fmt.Sprintf("mentions %s as %s", n, form)})
		}
	}
	return cmp
}

// mention finds the first fresh name the text holds, and its form there.
func (c *confined) mention(text []byte) (oracle.Name, string) {
	for _, n := range c.fresh {
		for _, form := range n.Forms {
			if form != "" && bytes.Contains(text, []byte(form)) {
				return n, form
			}
		}
	}
	return oracle.Name{}, ""
}

func (c *confined) String() string {
	var fresh []string
	for _, n := range c.fresh {
		fresh = append(fresh, n.String())
	}
	return fmt.Sprintf("%s: fresh %s only in %q", c.name, strings.Join(fresh, ", "), c.files)
}
