// Command faulty is flatc with a bug injected: it runs the real generators
// (the wrapper given as its first argument) and then rewrites the C++
// output the way a generator that forgot the filler entries of sparse
// enums would write it: the names table of an enum loses its "" entries
// for the values between two enumerators, so EnumNameE returns the wrong
// name (or reads past the table) for every enumerator after a gap. Both
// the base and the follow-up output carry the bug; mcpt's enum relations
// recompute the whole table from the enumerators of the follow-up, gaps
// included, and see the difference. The derived relations cannot see it: a
// filler is a value no sibling enumerator has.
//
// With -fault=values-by-name it injects another bug instead, one the
// derived relations are made to see: EnumValuesE() lists the enumerators
// sorted by name (a generator walking a map keyed by name) instead of in
// declaration order. An enum whose enumerators come in alphabetical order
// shows nothing; a new enumerator whose name sorts elsewhere than between
// its neighbours does, to the exact relations (its line right after its
// predecessor's) and to the derived ones (order: its line between its
// neighbours').
//
// Usage: faulty [-fault=fillers|values-by-name] WRAPPER INPUT OUTDIR
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "faulty:", err)
		os.Exit(2)
	}
}

func run(args []string) error {
	fault := "fillers"
	if len(args) > 0 && strings.HasPrefix(args[0], "-fault=") {
		fault, args = strings.TrimPrefix(args[0], "-fault="), args[1:]
	}
	if len(args) != 3 || fault != "fillers" && fault != "values-by-name" {
		return fmt.Errorf("usage: faulty [-fault=fillers|values-by-name] WRAPPER INPUT OUTDIR")
	}
	fix := dropFillers
	if fault == "values-by-name" {
		fix = valuesByName
	}
	cmd := exec.Command(args[0], args[1], args[2])
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			os.Exit(ee.ExitCode()) // a rejection stays a rejection
		}
		return err
	}
	files, err := filepath.Glob(filepath.Join(args[2], "cpp", "*_generated.h"))
	if err != nil {
		return err
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if err := os.WriteFile(f, []byte(fix(string(b))), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// dropFillers removes the "" entries of every enum names table.
func dropFillers(src string) string {
	lines := strings.Split(src, "\n")
	out := lines[:0]
	inTable := false
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "  static const char * const names["):
			inTable = true
		case inTable && l == "  };":
			inTable = false
		case inTable && l == `    "",`:
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

var valuesRE = regexp.MustCompile(`(?m)^  static const \w+ values\[\] = \{\n((?:    \w+,?\n)+)  \};$`)

// valuesByName sorts the enumerators of every EnumValuesE() array by name.
func valuesByName(src string) string {
	return valuesRE.ReplaceAllStringFunc(src, func(block string) string {
		m := valuesRE.FindStringSubmatch(block)
		var names []string
		for _, l := range strings.Split(strings.TrimSuffix(m[1], "\n"), "\n") {
			names = append(names, strings.TrimSuffix(l, ","))
		}
		slices.Sort(names)
		return strings.Replace(block, m[1], strings.Join(names, ",\n")+"\n", 1)
	})
}
