package transpiler

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Defaults applied by NewWorker to the zero fields of a Worker.
const (
	DefaultWorkerRequests   = 1000
	DefaultMaxResponseBytes = 16 << 20
)

// Worker describes a transpiler that runs as a persistent worker: a
// long-lived process that transpiles one input per request, speaking the
// JSON form of Bazel's persistent worker protocol on its standard input and
// output. Each request is one line holding a WorkRequest,
//
//	{"arguments":["/tmp/mcpt-run-1/in/a.cll","/tmp/mcpt-run-1/out"],"inputs":[{"path":"/tmp/mcpt-run-1/in/a.cll","digest":"…"}],"requestId":1}
//
// and the worker answers with one line holding a WorkResponse,
//
//	{"exitCode":0,"output":"diagnostics…","requestId":1}
//
// Its exit code is read as a command's (Accept, Reject), its output as a
// command's standard error; the worker's own standard error is kept too
// and shown when it dies.
//
// A Worker runs one process per concurrent Transpile call, so a campaign
// with n workers keeps n processes warm. Each run gets a private directory,
// as for a Command, removed when the run ends. A run that passes Timeout,
// or whose context ends, kills its process (with its process group) and a
// fresh one serves the next run; a process that dies during a request, or
// answers with anything but a WorkResponse to that request, is killed too
// and the run is Crashed. A process is recycled after MaxRequests requests,
// so that leaks in the transpiler do not build up. Close stops the idle
// processes.
type Worker struct {
	// Command is the process: what its fields mean for a Command they
	// mean for a Worker, with these differences. Argv starts a worker
	// process: the program and its arguments, without placeholders.
	// MaxStderrBytes keeps the tail of the response output, and of the
	// process's standard error. Env is set when a process starts:
	// MCPT_ROLE is not, since one process serves both roles.
	// CaptureStdout cannot be set: standard output speaks the protocol.
	Command

	// Arguments is the template of each request's arguments, with the
	// placeholders of Command.Argv and {role} (base or follow-up); nil
	// means ["{input}", "{outdir}"].
	Arguments []string

	// MaxRequests is how many requests a process serves before it is
	// replaced; zero means DefaultWorkerRequests.
	MaxRequests int

	// MaxResponseBytes bounds one response line; a longer one is garbage
	// and crashes the run. Zero means DefaultMaxResponseBytes.
	MaxResponseBytes int
}

// PlaceholderRole, in the arguments of a worker request, is the role of
// the run: base or follow-up.
const PlaceholderRole = "{role}"

// checkWorker validates w and fills in its defaults; the request template
// is checked as a command line would be.
func checkWorker(w Worker) (*command, []string, error) {
	if len(w.Argv) == 0 || w.Argv[0] == "" {
		return nil, nil, errors.New("empty worker command line")
	}
	for i, a := range w.Argv {
		if placeholderRx.MatchString(a) {
			return nil, nil, fmt.Errorf("worker argument %d %q: placeholders belong in the request arguments", i, a)
		}
	}
	if w.CaptureStdout {
		return nil, nil, errors.New("a worker's standard output cannot be captured: it speaks the protocol")
	}
	args := w.Arguments
	if args == nil {
		args = []string{PlaceholderInput, PlaceholderOutDir}
	}
	// The role placeholder is checked apart, the rest as for a command.
	template := []string{w.Argv[0]}
	for _, a := range args {
		template = append(template, strings.ReplaceAll(a, PlaceholderRole, "base"))
	}
	c := w.Command
	c.Argv = template
	cmd, err := checkCommand(c)
	if err != nil {
		return nil, nil, err
	}
	cmd.Argv = append([]string{w.Argv[0]}, args...)
	return cmd, slices.Clone(w.Argv), nil
}
