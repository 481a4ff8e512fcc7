// Package cllc offers the reference CLL transpiler, package mcpt/cll, to the
// tester as the builtin transpiler "cllc", run in process: a program
// offers it with mcpt.Builtin(cllc.Name, cllc.New), or Builtins. The tester still reaches it only through the
// transpiler interface, as it would any other transpiler under test.
package cllc

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/mcpt-tool/mcpt/cll"
	"github.com/mcpt-tool/mcpt/cll/token"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/tree"
)

// Name is the name of the builtin.
const Name = "cllc"

// OptionFaultsIn is the option choosing the runs in which the requested
// faults are active: "both" (the default: a faulty transpiler is faulty in
// every run, like `cllc --fault`) or "follow-up" (only follow-up runs, as in
// the paper's fault-injection experiments, where the base run uses the
// correct transpiler).
const OptionFaultsIn = "faults-in"

// Builtins is cllc alone as a program's builtin transpilers.
func Builtins() transpiler.BuiltinSet { return transpiler.BuiltinSet{Name: New} }

// New makes the cllc transpiler with the given faults switched on. An
// unknown option or fault name is an error.
func New(options map[string]string, faults []string) (transpiler.Transpiler, error) {
	inBase := true
	for k, v := range options {
		switch {
		case k == OptionFaultsIn && v == "follow-up":
			inBase = false
		case k == OptionFaultsIn && (v == "both" || v == ""):
		case k == OptionFaultsIn:
			return nil, fmt.Errorf("option %s=%q: want follow-up or both", k, v)
		default:
			return nil, fmt.Errorf("unknown option %q (known: %s)", k, OptionFaultsIn)
		}
	}
	var known []string
	for _, f := range cll.Faults() {
		known = append(known, f.Name)
	}
	for _, f := range faults {
		if !slices.Contains(known, f) {
			sort.Strings(known)
			return nil, &transpiler.UnknownFaultError{Name: f, Known: known}
		}
	}
	faults = slices.Clone(faults)
	transpile := func(_ context.Context, req transpiler.Request) (tree.Tree, error) {
		var active []string
		if req.Role == transpiler.FollowUp || inBase {
			more, err := flagFaults(req.Flags)
			if err != nil {
				return nil, err // CheckFlags refused them at start
			}
			active = slices.Concat(faults, more)
		}
		files, err := cll.Transpile(req.Name, req.Src, active...)
		var list token.ErrorList
		if errors.As(err, &list) {
			return nil, diagnostics{list}
		}
		if err != nil {
			return nil, err
		}
		return tree.Tree(files), nil
	}
	return checked{transpiler.InProcess(Name, transpile, IsRejection)}, nil
}

// checked is cllc with the flags it takes: those of the cllc command that
// switch faults on, --fault NAME or --fault=NAME, repeatable. They are
// active in the runs the configured faults are.
type checked struct{ transpiler.Transpiler }

// CheckFlags implements transpiler.FlagChecker.
func (checked) CheckFlags(flags []string) error {
	_, err := flagFaults(flags)
	return err
}

// flagFaults are the faults that flags switch on.
func flagFaults(flags []string) ([]string, error) {
	var out []string
	for i := 0; i < len(flags); i++ {
		f := flags[i]
		name, ok := strings.CutPrefix(f, "--fault=")
		switch {
		case ok:
		case f == "--fault" && i+1 < len(flags):
			i++
			name = flags[i]
		case f == "--fault":
			return nil, errors.New("flag --fault: needs the name of a fault")
		default:
			return nil, fmt.Errorf("unknown flag %q (cllc takes --fault NAME)", f)
		}
		if !slices.ContainsFunc(cll.Faults(), func(k cll.Fault) bool { return k.Name == name }) {
			var known []string
			for _, k := range cll.Faults() {
				known = append(known, k.Name)
			}
			sort.Strings(known)
			return nil, fmt.Errorf("flag --fault: %w", &transpiler.UnknownFaultError{Name: name, Known: known})
		}
		out = append(out, name)
	}
	return out, nil
}

// IsRejection reports whether err is a positioned front-end error of CLL:
// the program was refused, the transpiler did not fail.
func IsRejection(err error) bool {
	var list token.ErrorList
	var one *token.Error
	return errors.As(err, &list) || errors.As(err, &one)
}

// diagnostics prints every error of a list, one per line, as the cllc
// command does on standard error.
type diagnostics struct{ list token.ErrorList }

func (d diagnostics) Error() string {
	var b strings.Builder
	for _, e := range d.list {
		b.WriteString(e.Error())
		b.WriteByte('\n')
	}
	return b.String()
}

func (d diagnostics) Unwrap() error { return d.list }
