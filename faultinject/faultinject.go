// Package faultinject is mcpt's fault-injection apparatus for transpilers
// written in Go, after section 4 of the paper: Instrument copies the
// transpiler's module and rewrites every conditional branch so that it can
// be forced true or false by fault id, one fault per branch and direction;
// the embedded runtime activates, in each follow-up run, the first reached
// fault that no earlier run has executed, recording it in a Ledger shared
// by parallel runs; Prepare drops the faults that crash the transpiler on a
// sample input; Session runs a testing session's transpiler runs under the
// ledger and tells which fault each follow-up run activated; and Confirm
// re-runs a revealing base/follow-up pair with its fault forced in both.
package faultinject

import "github.com/mcpt-tool/mcpt/faultinject/mcptfault"

// The environment variables through which the tester configures the
// runtime in the instrumented transpiler.
const (
	EnvRole   = mcptfault.EnvRole   // "base" or "follow-up", set by the command adapter
	EnvLedger = mcptfault.EnvLedger // the ledger of the session
	EnvRun    = mcptfault.EnvRun    // the run token recorded with an activation
	EnvForce  = mcptfault.EnvForce  // one fault forced for the whole run, in every role
	EnvTrace  = mcptfault.EnvTrace  // a file receiving the ids of the reached sites
)

// NoFault is the fault id reported for a run that activated none.
const NoFault = -1
