package engine

import (
	"os"
	"path/filepath"

	"github.com/mcpt-tool/mcpt/result"
)

// stopSignals are the signals by which an engine stops a task (scancel,
// a requeue, a preemption, a time limit): a transpiler run they end was
// stopped, not crashed. Slurm sends them to every process of a task, the
// transpiler's with mcpt's.
var stopSignals = map[string]bool{"SIGTERM": true, "SIGINT": true, "SIGHUP": true}

// stoppedFromOutside tells whether a finding of cr is a transpiler run
// ended by a stop signal.
func stoppedFromOutside(cr *CaseResult) bool {
	for _, f := range cr.Findings {
		if f.Kind == result.Crash && stopSignals[f.Signal] {
			return true
		}
	}
	return false
}

// dropBundles removes the bundles written for the findings of a case that
// is not recorded: it runs again on resume, and writes its own.
func (r *runner) dropBundles(cr *CaseResult) {
	if r.opt.OutDir == "" {
		return
	}
	for _, f := range cr.Findings {
		if f.Bundle != "" && filepath.IsLocal(filepath.FromSlash(f.Bundle)) {
			os.RemoveAll(filepath.Join(r.opt.OutDir, filepath.FromSlash(f.Bundle)))
		}
	}
}
