package yamlrel

import (
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
)

var equivalenceKind = CheckerKind{
	Name: "equivalence",
	Doc: "Every file of o and o′ is byte-identical, but those of except.\n" +
		"except: file names or patterns (templates); name: the checker's name (equivalence).",
	New: newEquivalence,
}

type equivYAML struct {
	Name   *String  `yaml:"name"`
	Except []String `yaml:"except"`
}

type equivT struct {
	name   string
	except []*tmpl
}

func newEquivalence(spec *Spec) (Check, error) {
	var e equivYAML
	if err := spec.Decode(&e); err != nil {
		return nil, err
	}
	eq := &equivT{name: "equivalence"}
	if n := spec.name(e.Name); n != nil {
		eq.name = n.Value
	}
	var err error
	eq.except, err = spec.unit().templates(e.Except)
	return eq, err
}

// CheckerName is the name of the check's failures.
func (eq *equivT) CheckerName() string { return eq.name }

func (eq *equivT) Checker(mu *Mutation) (relation.Checker, error) {
	except, err := mu.renderAll(eq.except)
	if err != nil {
		return nil, err
	}
	return &oracle.Equivalence{Name: eq.name, Except: except}, nil
}
