// Command faulty is flatc with a bug injected: it runs the real generators
// (the wrapper given as its first argument) and then rewrites the C++
// output the way a generator that forgot the filler entries of sparse
// enums would write it: the names table of an enum loses its "" entries
// for the values between two enumerators, so EnumNameE returns the wrong
// name (or reads past the table) for every enumerator after a gap. Both
// the base and the follow-up output carry the bug; mcpt's enum relations
// recompute the whole table from the enumerators of the follow-up, gaps
// included, and see the difference.
//
// Usage: faulty WRAPPER INPUT OUTDIR
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "faulty:", err)
		os.Exit(2)
	}
}

func run(args []string) error {
	if len(args) != 3 {
		return fmt.Errorf("usage: faulty WRAPPER INPUT OUTDIR")
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
		if err := os.WriteFile(f, []byte(dropFillers(string(b))), 0o644); err != nil {
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
