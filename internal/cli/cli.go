// Package cli is mcpt's command line: its commands, flags and exit codes.
// Run runs it on the arguments of a process, with the Go relations and
// builtin transpilers of the build; package mcpt's Main is its public face.
//
// Exit codes: 0 no finding, 1 findings, 2 usage, configuration or input
// error, 3 the campaign itself broke (a transpiler that cannot be started, a
// full disk) or checked nothing, 4 interrupted (SIGINT, SIGTERM, SIGHUP):
// incomplete, run again with --resume, 5 (repro) the test case fails with
// another signature, 6 complete, but a relation failed on a seed and
// skipped it, 130 interrupted twice (aborted).
package cli

import (
	"errors"
	"fmt"
	"os"

	"github.com/alecthomas/kong"

	"github.com/mcpt-tool/mcpt/internal/gctune"
	"github.com/mcpt-tool/mcpt/internal/printable"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/transpiler"
)

// Exit codes.
const (
	exitOK       = 0
	exitFindings = 1
	exitUsage    = 2
	exitBroken   = 3
	// exitInterrupted: the campaign stopped early; --resume completes it.
	exitInterrupted = 4
	// exitSkipped: complete, but relations skipped seeds they failed on.
	exitSkipped = 6
	exitAborted = 130
)

// exitError carries an exit code.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}
func (e *exitError) Unwrap() error { return e.err }
func (e *exitError) Code() int     { return e.code }

func usageErr(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...)}
}

// findingsErr reports findings through the exit status only.
var findingsErr = &exitError{code: exitFindings}

type cli struct {
	Run        runCmd        `cmd:"" help:"Run a campaign: seeds × relations × spots under a budget."`
	Validate   validateCmd   `cmd:"" help:"Check a configuration and its relations, and try every relation on the seeds."`
	Infer      inferCmd      `cmd:"" help:"Infer the relations of a campaign without relation files and write them, with a configuration that runs them."`
	Spots      spotsCmd      `cmd:"" help:"List a relation's spots on a file and show each follow-up."`
	Repro      reproCmd      `cmd:"" help:"Reproduce a finding from its bundle directory."`
	Relations  relationsCmd  `cmd:"" help:"List the relations of a configuration with their one-line docs."`
	Report     reportCmd     `cmd:"" help:"Rebuild report.html and junit.xml of an output directory from report.json and the bundles, with the page of each group's example (pages/)."`
	Merge      mergeCmd      `cmd:"" help:"Merge the output directories of shards into one."`
	Seeds      seedsCmd      `cmd:"" help:"Generate seed programs from a grammar."`
	Reduce     reduceCmd     `cmd:"" help:"Reduce the base input of a finding while it still fails the same way."`
	Faults     faultsCmd     `cmd:"" help:"Branch fault injection into a transpiler written in Go."`
	Experiment experimentCmd `cmd:"" help:"Run the paper's experiment: MCP and fuzz sessions against injected faults."`
	Bench      benchCmd      `cmd:"" help:"Measure how fast mcpt is on the bundled CLL example."`
}

// Main runs the command line of this process with tools and returns its
// exit status; the commands it prints and records start the program the
// way this process was started.
func Main(tools *setup.Tools) int {
	// A campaign keeps a small live heap (a few MB) while every test case
	// allocates a few hundred KB, so with the default GOGC the collector
	// runs every dozen test cases and takes about a third of the CPU (the
	// profile of mcpt bench). A larger target trades some MB for that time,
	// while the live heap is small: the model of a seed of megabytes is
	// hundreds, and five times that was the peak (gctune); GOGC in the
	// environment still wins.
	if os.Getenv("GOGC") == "" {
		gctune.Start()
	}
	pkg, module := mainPackage()
	if tools == nil {
		tools = &setup.Tools{}
	}
	tools.Invocation = invocation(os.Args[0], pkg, module)
	code := Run(os.Args[1:], tools)
	transpiler.RemoveProcessTempDir()
	return code
}

// wholeReportGC sets the collector back to its default target, unless
// GOGC in the environment says otherwise, for a command whose live heap is
// a whole report (merge, report: about 4 KB a finding): at a campaign's
// target for a small heap (see Main) such a process grows to five times that heap, 0.54 GB
// where 0.31 GB do for a merge of 27,934 findings, in the same time.
func wholeReportGC() {
	if os.Getenv("GOGC") == "" {
		gctune.Cap(100)
	}
}

// Run runs the command line args (without the program's name) and returns
// the exit status. Configurations may name tools' Go relations and builtin
// transpilers; tools may be nil.
func Run(args []string, tools *setup.Tools) int {
	var c cli
	parser, err := kong.New(&c,
		kong.Name("mcpt"),
		kong.Description("Metamorphic testing of transpilers by mutation consistency of programs.\n\n"+
			"Exit status: 0 no finding, 1 findings, 2 usage, configuration or input error, "+
			"3 the campaign broke or checked nothing, 4 interrupted (incomplete: run again with --resume; merge --partial of an interrupted shard), "+
			"5 (repro) the finding fails with another signature, 6 complete, but a relation failed on a seed and skipped it, 130 interrupted twice (aborted)."),
		kong.UsageOnError(),
		kong.Exit(func(code int) { panic(exitPanic(code)) }),
	)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpt:", err)
		return exitBroken
	}
	if tools == nil {
		tools = &setup.Tools{}
	}
	if len(args) > 0 && args[0] == "help" {
		// "mcpt help run" as users type it: the help of the command.
		args = append(args[1:len(args):len(args)], "--help")
	}
	return parse(parser, args, tools)
}

type exitPanic int

// parse parses args and runs the selected command.
func parse(parser *kong.Kong, args []string, tools *setup.Tools) (code int) {
	defer func() {
		if r := recover(); r != nil {
			if ep, ok := r.(exitPanic); ok {
				// kong exits 0 after --help; its own errors become usage errors.
				code = int(ep)
				if code != 0 {
					code = exitUsage
				}
				return
			}
			panic(r)
		}
	}()
	ctx, err := parser.Parse(args)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpt:", err)
		if pe, ok := err.(*kong.ParseError); ok && pe.Context != nil {
			_ = pe.Context.PrintUsage(true)
		}
		return exitUsage
	}
	err = ctx.Run(tools)
	return exitCode(err)
}

// exitCode prints err, if any, and returns the exit status it means.
// Messages quote what comes from outside mcpt (file contents, bundles,
// a transpiler's output): they are printed escaped, so that none can
// drive the terminal.
func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	stderr := printable.Writer{W: os.Stderr}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintln(stderr, "mcpt: "+ee.err.Error())
		}
		return ee.code
	}
	var ce *setup.ConfigError
	if errors.As(err, &ce) {
		fmt.Fprintln(stderr, ce.Err.Error())
		return exitUsage
	}
	var ue *setup.UsageError
	if errors.As(err, &ue) {
		fmt.Fprintln(stderr, "mcpt: "+ue.Err.Error())
		return exitUsage
	}
	fmt.Fprintln(stderr, "mcpt: "+err.Error())
	return exitBroken
}
