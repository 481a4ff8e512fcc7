// Command cllc is the reference CLL transpiler: it translates one CLL program
// into the eight C files described in docs/cll.md.
//
//	cllc FILE.cll -o DIR [--fault NAME]...
//	cllc - -o DIR          (the program on standard input)
//	cllc --list-faults
//	cllc --worker          (a persistent worker: see worker.go)
//
// Static errors go to standard error as file:line:col: message lines, with
// exit status 1 and nothing written; usage errors exit with status 2.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcpt-tool/mcpt/cll"
	"github.com/mcpt-tool/mcpt/cll/token"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "--worker" {
		if err := serve(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "cllc: "+err.Error())
			os.Exit(2)
		}
		return
	}
	if code := report(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr), os.Stderr); code != 0 {
		os.Exit(code)
	}
}

// report writes the message of err, the outcome of run, to stderr and
// returns the exit status it means: 0 for nil.
func report(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	var ce interface{ Code() int }
	code := 1
	if errors.As(err, &ce) {
		code = ce.Code()
	}
	if msg := err.Error(); msg != "" {
		fmt.Fprintln(stderr, "cllc: "+msg)
	}
	return code
}

// usageError is a wrong command line: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg + "\n" + usage }
func (e *usageError) Code() int     { return 2 }

// staticError is a program rejected by the front end, already reported line
// by line on standard error: exit status 1 and no further message.
type staticError struct{}

func (staticError) Error() string { return "" }
func (staticError) Code() int     { return 1 }

const usage = `usage: cllc FILE.cll -o DIR [--fault NAME]...
       cllc - -o DIR [--fault NAME]...   (read the program from standard input)
       cllc --list-faults
       cllc --worker                     (serve requests on standard input)`

// maxErrors caps the static errors printed, as a broken file can yield many.
const maxErrors = 20

// faultList collects repeated --fault flags.
type faultList []string

func (f *faultList) String() string     { return strings.Join(*f, ",") }
func (f *faultList) Set(s string) error { *f = append(*f, s); return nil }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	cl, err := parseArgs(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(stdout, usage)
		return nil
	}
	if err != nil {
		return err
	}
	if cl.listFaults {
		for _, f := range cll.Faults() {
			fmt.Fprintf(stdout, "%s\t%s\n", f.Name, f.Doc)
		}
		return nil
	}
	name, src, err := readInput(cl.operands[0], stdin)
	if err != nil {
		return err
	}
	files, err := cll.Transpile(name, src, cl.faults...)
	if err != nil {
		return staticErrors(stderr, name, err)
	}
	return writeFiles(cl.outDir, files)
}

// commandLine is what the arguments of a transpilation ask for.
type commandLine struct {
	outDir     string
	faults     faultList
	listFaults bool
	operands   []string // exactly one unless listFaults
}

// parseArgs reads and checks the arguments; it returns flag.ErrHelp when
// they ask for help.
func parseArgs(args []string) (*commandLine, error) {
	cl := &commandLine{}
	fs := flag.NewFlagSet("cllc", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&cl.outDir, "o", "", "output directory")
	fs.Var(&cl.faults, "fault", "switch a seeded fault on (repeatable)")
	fs.BoolVar(&cl.listFaults, "list-faults", false, "list the seeded faults")
	var worker bool
	fs.BoolVar(&worker, "worker", false, "serve requests as a persistent worker")

	// The flag package stops at the first operand; flags may follow it.
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, &usageError{err.Error()}
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		cl.operands = append(cl.operands, args[0])
		args = args[1:]
	}
	if worker {
		return nil, &usageError{"--worker takes no other argument"}
	}
	return cl, cl.check()
}

// check rejects unknown faults and operands that do not go together.
func (cl *commandLine) check() error {
	known := map[string]bool{}
	for _, f := range cll.Faults() {
		known[f.Name] = true
	}
	for _, f := range cl.faults {
		if !known[f] {
			return &usageError{fmt.Sprintf("unknown fault %q (see --list-faults)", f)}
		}
	}
	switch {
	case cl.listFaults:
		if len(cl.operands) > 0 || cl.outDir != "" {
			return &usageError{"--list-faults takes no other argument"}
		}
	case len(cl.operands) == 0:
		return &usageError{"missing input file"}
	case len(cl.operands) > 1:
		return &usageError{"more than one input file"}
	case cl.outDir == "":
		return &usageError{"missing -o DIR"}
	}
	return nil
}

// staticErrors writes the static errors err lists for the program name to
// stderr, at most maxErrors of them, and returns staticError; an error of
// another kind is returned as it is.
func staticErrors(stderr io.Writer, name string, err error) error {
	var list token.ErrorList
	if !errors.As(err, &list) {
		return err
	}
	for i, e := range list {
		if i == maxErrors {
			fmt.Fprintf(stderr, "%s: too many errors (%d more)\n", name, len(list)-i)
			break
		}
		fmt.Fprintln(stderr, e.Error())
	}
	return staticError{}
}

// readInput reads the program from path, or from stdin for "-"; a nil
// stdin has no program to give.
func readInput(path string, stdin io.Reader) (name string, src []byte, err error) {
	if path == "-" {
		if stdin == nil {
			return "", nil, &usageError{"no standard input to read the program from"}
		}
		src, err = io.ReadAll(stdin)
		return "<stdin>", src, err
	}
	src, err = os.ReadFile(path)
	return path, src, err
}

// writeFiles puts files into dir, creating it if needed. The files are first
// written to a temporary directory beside dir, so that a failure while
// writing leaves dir as it was; they are moved in only when all are written.
func writeFiles(dir string, files map[string][]byte) error {
	dir = filepath.Clean(dir)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".cllc-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(tmp, n), files[n], 0o666); err != nil {
			return err
		}
	}
	for _, n := range names {
		if err := os.Rename(filepath.Join(tmp, n), filepath.Join(dir, n)); err != nil {
			return err
		}
	}
	return nil
}
