// Package transpiler is the one door through which mcpt reaches a transpiler
// under test: an interface that takes an input program and returns the tree
// of files it produced, with adapters for an external command started per
// run, for a persistent worker process serving one run after another, and
// for Go code running in process.
package transpiler

import (
	"context"
	"time"

	"github.com/mcpt-tool/mcpt/tree"
)

// Role says whether a run transpiles a base input or a follow-up input.
// Fault injection (faults active only in follow-up runs) relies on it.
type Role int

const (
	Base Role = iota
	FollowUp
)

func (r Role) String() string {
	if r == FollowUp {
		return "follow-up"
	}
	return "base"
}

// Request is one input to transpile.
type Request struct {
	// Name is the input's file name, such as "traffic.cll"; adapters that
	// write the input to disk use it so that extensions and the names that
	// appear in diagnostics stay meaningful.
	Name string
	Src  []byte
	Role Role
	// Flags are the arguments of the test case's combination of flags
	// (a campaign's flags matrix): a command's and a worker's command
	// line take them where {flags} stands, a builtin reads them itself,
	// an http transpiler gets them in a header.
	Flags []string
}

// Status is how a transpiler run ended.
type Status int

const (
	Accepted Status = iota // the input was accepted and the output tree produced
	Rejected               // the transpiler refused the input with a diagnostic
	Crashed                // an unexpected exit status, a signal, or a panic
	TimedOut               // killed at the per-run timeout
)

var statusNames = [...]string{"accepted", "rejected", "crashed", "timeout"}

func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "unknown"
}

// Result is the outcome of one transpiler run.
type Result struct {
	Status   Status
	Files    tree.Tree // the output tree; set only when Accepted
	ExitCode int       // the exit status of an external command, -1 when killed by a signal
	Signal   string    // the signal that ended it, if any
	// Stderr is the last bytes of its standard error (bounded); for an
	// external command that wrote nothing there, of its standard output,
	// where some compilers (tsc) write their diagnostics.
	Stderr   []byte
	Duration time.Duration
	// Reason says why a run is Crashed when its exit status does not:
	// an output tree over a cap or holding a link, a worker that broke the
	// protocol or died during the request. Empty otherwise.
	Reason string
	// Scratch is where the run kept its input and output, for Diagnostic;
	// zero for a transpiler that runs without a directory of its own.
	Scratch Scratch
}

// Transpiler runs the transpiler under test on one input. Transpile returns
// an error only when the run could not be carried out at all (the command is
// missing, the disk is full); a crash or a rejection of the input is a Result.
// Implementations are safe for concurrent use.
type Transpiler interface {
	Transpile(ctx context.Context, req Request) (*Result, error)
}

// Func adapts a function to the Transpiler interface.
type Func func(ctx context.Context, req Request) (*Result, error)

// Transpile calls f.
func (f Func) Transpile(ctx context.Context, req Request) (*Result, error) { return f(ctx, req) }
