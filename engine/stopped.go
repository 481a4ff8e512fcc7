package engine

import (
	"errors"

	"github.com/mcpt-tool/mcpt/transpiler"
)

// ErrStopped is returned for a test case or a base a run of which was
// ended by a stop signal (SIGTERM, SIGINT, SIGHUP): the transpiler was
// stopped with mcpt, as a cluster engine stops every process of a task on
// scancel, a requeue, a preemption or a time limit. Such a run is neither
// a crash nor a sign of nondeterminism; the case is not recorded and runs
// again on resume.
var ErrStopped = errors.New("a transpiler run was ended by a stop signal")

var stopSignals = map[string]bool{"SIGTERM": true, "SIGINT": true, "SIGHUP": true}

// stopped tells whether res is a run ended by a stop signal.
func stopped(res *transpiler.Result) bool {
	return res != nil && res.Status == transpiler.Crashed && stopSignals[res.Signal]
}
