// Package cll is the in-process door to the reference CLL transpiler: it
// parses and checks a CLL program and renders it as the eight C files of
// docs/cll.md, optionally with seeded faults switched on for the tester's
// own evaluation.
package cll

import (
	"github.com/mcpt-tool/mcpt/cll/cgen"
	"github.com/mcpt-tool/mcpt/cll/check"
	"github.com/mcpt-tool/mcpt/cll/parser"
)

// Fault is a seeded defect of the transpiler, chosen by name.
type Fault struct {
	Name string
	Doc  string // one line
}

// Faults returns the seeded faults, sorted by name.
func Faults() []Fault {
	var out []Fault
	for _, f := range cgen.Faults() {
		out = append(out, Fault{Name: f.Name, Doc: f.Doc})
	}
	return out
}

// ErrUnknownFault is wrapped by the error Transpile returns for a fault name
// that names no seeded fault.
var ErrUnknownFault = cgen.ErrUnknownFault

// Transpile translates the CLL source src, read from filename (which
// positions name), into C: the eight files of docs/cll.md keyed by
// file name. faults switches seeded faults on. A static error of the program
// comes back as a token.ErrorList, positioned, in source order; whatever the
// error, no files come back with it.
func Transpile(filename string, src []byte, faults ...string) (map[string][]byte, error) {
	// An unknown fault is the caller's mistake, whatever the program.
	if err := cgen.CheckFaults(faults...); err != nil {
		return nil, err
	}
	prog, err := parser.Parse(filename, src)
	if err != nil {
		return nil, err
	}
	info, err := check.Check(prog)
	if err != nil {
		return nil, err
	}
	files, err := cgen.Generate(prog, info, faults...)
	if err != nil {
		return nil, err
	}
	return files, nil
}
