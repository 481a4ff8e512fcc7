package semrel

import (
	"os"
	"path/filepath"

	"github.com/mcpt-tool/mcpt/oracle/dtsprobe"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/yamlrel"
)

// DTSProbe is the checker kind dts-probe.
var DTSProbe = yamlrel.CheckerKind{
	Name: "dts-probe",
	Doc: "A probe that uses the added member as its source declares it (left out when optional, assigned unless readonly, given undefined, called with each number of arguments) type-checks against file, o′'s declaration file, exactly where it does against the follow-up input.\n" +
		"file: the .d.ts (template); member: the added member's name; of: the exported declaration holding it, \"\" for an exported declaration (templates); options: tsc's options for the probe; typescript: the TypeScript package's directory (found from the relation file's directory when absent); nodejs: the node program; name: the checker's name.",
	New: newDTSProbe,
}

type dtsProbeYAML struct {
	Name       *yamlrel.String  `yaml:"name"`
	File       yamlrel.String   `yaml:"file"`
	Member     yamlrel.String   `yaml:"member"`
	Of         *yamlrel.String  `yaml:"of"`
	Options    []yamlrel.String `yaml:"options"`
	TypeScript yamlrel.String   `yaml:"typescript"`
	Node       yamlrel.String   `yaml:"nodejs" was:"node"`
}

type dtsProbeT struct {
	name, ts, node   string
	options          []string
	file, member, of *yamlrel.Template
}

func newDTSProbe(spec *yamlrel.Spec) (yamlrel.Check, error) {
	var y dtsProbeYAML
	if err := spec.Decode(&y); err != nil {
		return nil, err
	}
	if y.File.Value == "" || y.Member.Value == "" {
		return nil, spec.Errorf("dts-probe: file (the declaration file) and member (the added member's name) are required")
	}
	c := &dtsProbeT{name: spec.Name, node: y.Node.Value}
	if y.Name != nil {
		c.name = y.Name.Value
	}
	for _, o := range y.Options {
		c.options = append(c.options, o.Value)
	}
	if y.Options != nil && c.options == nil {
		c.options = []string{}
	}
	// The TypeScript package: as the check names it, relative to the
	// relation file; else as node would find it from there, or from the
	// current directory (a relation file read from a bundle).
	dir := filepath.Dir(spec.Kind.Pos.File)
	if y.TypeScript.Value != "" {
		p := y.TypeScript.Value
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, y.TypeScript.At("dts-probe: %v", err)
		}
		if st, err := os.Stat(filepath.Join(abs, "package.json")); err != nil || !st.Mode().IsRegular() {
			return nil, y.TypeScript.At("dts-probe: %s is no TypeScript package (it has no package.json)", p)
		}
		c.ts = abs
	} else if c.ts = dtsprobe.FindTypeScript(dir); c.ts == "" {
		c.ts = dtsprobe.FindTypeScript(".")
	}
	var err error
	if c.file, err = spec.Template(y.File); err != nil {
		return nil, err
	}
	if c.member, err = spec.Template(y.Member); err != nil {
		return nil, err
	}
	if c.of, err = optTemplate(spec, y.Of); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *dtsProbeT) Checker(mu *yamlrel.Mutation) (relation.Checker, error) {
	chk := &dtsprobe.Check{Name: c.name, Source: mu.FollowUp(), Options: c.options, TypeScript: c.ts, Node: c.node}
	var err error
	for _, p := range []struct {
		dst *string
		t   *yamlrel.Template
	}{{&chk.File, c.file}, {&chk.Member, c.member}, {&chk.Of, c.of}} {
		if *p.dst, err = renderOpt(mu, p.t); err != nil {
			return nil, err
		}
	}
	return chk, nil
}
