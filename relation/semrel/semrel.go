// Package semrel holds the semantic checker kinds for the relation files
// (relation/yamlrel): checks that run or type-check the output instead of
// reading its text. js-shape loads JavaScript modules in node and compares
// their runtime shapes (oracle/jsshape); dts-probe type-checks a probe
// that uses the new member against the emitted .d.ts (oracle/dtsprobe);
// go-probe builds Go output with a probe program that reads the new
// element through protoreflect (oracle/goprobe). A program offers them
// with mcpt.Checkers(semrel.Kinds...), as cmd/mcpt does.
//
// Each compares o and o′, so that the oracle still comes from the
// mutation; each is undecided, never failed, when it cannot run (node,
// tsc or go missing, a module that does not load in o).
package semrel

import (
	"strings"

	"github.com/mcpt-tool/mcpt/relation/yamlrel"
)

// Kinds are the checker kinds of this package, in the order
// docs/relations.md lists them.
var Kinds = []yamlrel.CheckerKind{
	JSShape,
	DTSProbe,
	GoProbe,
}

// renderOpt renders a template that may be absent.
func renderOpt(mu *yamlrel.Mutation, t *yamlrel.Template) (string, error) {
	if t == nil {
		return "", nil
	}
	s, err := mu.Render(t)
	return strings.TrimSpace(s), err
}

// optTemplate compiles a template that may be absent.
func optTemplate(spec *yamlrel.Spec, s *yamlrel.String) (*yamlrel.Template, error) {
	if s == nil {
		return nil, nil
	}
	return spec.Template(*s)
}

// truthy reads a rendered flag as yamlrel's if does: "", false and 0 are
// false.
func truthy(s string) bool {
	switch strings.TrimSpace(s) {
	case "", "false", "0":
		return false
	}
	return true
}
