// Package mcptfault is the run-time half of mcpt's fault injection: the
// instrumenter copies it into the module of a transpiler written in Go, and
// every rewritten branch condition of that transpiler goes through B, which
// returns the condition unchanged unless the environment of the process asks
// for a fault at that branch site — forced for the whole run by
// MCPT_FAULT_FORCE, or, in a follow-up run with a ledger (MCPT_FAULT_LEDGER),
// the first fault the run reaches that no earlier run has executed. It uses
// the standard library only and stays silent on standard output.
package mcptfault

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// The environment variables read by the runtime.
const (
	// EnvRole is "base" or "follow-up"; only follow-up runs activate faults
	// from the ledger. The tester's external-command adapter sets it.
	EnvRole = "MCPT_ROLE"
	// EnvLedger is the path of the ledger shared by the runs of a session.
	EnvLedger = "MCPT_FAULT_LEDGER"
	// EnvRun is the token under which a run records the fault it activates.
	EnvRun = "MCPT_FAULT_RUN"
	// EnvForce forces exactly this fault, in every role, for the whole run;
	// the ledger is then neither read nor written.
	EnvForce = "MCPT_FAULT_FORCE"
	// EnvTrace names a file to which the run appends each branch site the
	// first time it reaches it, one decimal id a line; no fault is forced.
	EnvTrace = "MCPT_FAULT_TRACE"
)

// RoleFollowUp is the value of EnvRole in follow-up runs.
const RoleFollowUp = "follow-up"

// FaultID is the fault that forces branch site to the given direction.
func FaultID(site int, force bool) int {
	if force {
		return 2 * site
	}
	return 2*site + 1
}

// SiteOf is the branch site of a fault, and the direction it forces.
func SiteOf(fault int) (site int, force bool) { return fault / 2, fault%2 == 0 }

// The states of the runtime; B reads the state with one atomic load.
const (
	stateUnset     int32 = iota // the environment has not been read yet
	stateOff                    // behave as the original program
	stateSearching              // follow-up run with a ledger, no fault active yet
	stateActive                 // activeSite is forced to activeValue
	stateTracing                // record reached sites, force nothing
)

var (
	state       atomic.Int32
	activeSite  int  // written before state becomes stateActive
	activeValue bool // idem
	setupOnce   sync.Once

	// done is the set of faults executed by some run or excluded, as a
	// bitset that is replaced, never modified, so that B can consult it
	// without the lock.
	done atomic.Pointer[[]uint64]

	mu      sync.Mutex   // guards the fields below, used off the fast path
	ledger  *os.File     // the open ledger, while searching
	readTo  int64        // how much of the ledger has been read
	runID   string       // this run's token
	trace   *os.File     // the trace file, while tracing
	reached map[int]bool // sites already written to the trace
)

// B returns c, or the value forced at branch site when a fault of that site
// is active in this run. It is safe for concurrent use.
func B(site int, c bool) bool {
	switch state.Load() {
	case stateOff:
		return c
	case stateActive:
		if site == activeSite {
			return activeValue
		}
		return c
	case stateSearching:
		if isDone(site) {
			return c
		}
	}
	return slow(site, c)
}

// slow handles the states that need the lock: before set-up, while
// searching for a fault to activate, and while tracing.
func slow(site int, c bool) bool {
	setupOnce.Do(setup)
	mu.Lock()
	defer mu.Unlock()
	switch state.Load() {
	case stateActive:
		if site == activeSite {
			return activeValue
		}
	case stateSearching:
		if v, ok := activate(site); ok {
			return v
		}
	case stateTracing:
		record(site)
	}
	return c
}

// setup reads the environment once and chooses the state of the run.
func setup() {
	mu.Lock()
	defer mu.Unlock()
	next := configure(os.Getenv)
	state.Store(next)
}

// configure prepares the run described by getenv and returns its state.
// It is called with mu held.
func configure(getenv func(string) string) int32 {
	if f := getenv(EnvForce); f != "" {
		id, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || id < 0 {
			warn(fmt.Errorf("%s=%q is not a fault id; running without faults", EnvForce, f))
			return stateOff
		}
		activeSite, activeValue = SiteOf(id)
		return stateActive
	}
	if p := getenv(EnvTrace); p != "" {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
		if err != nil {
			warn(err)
			return stateOff
		}
		trace, reached = f, map[int]bool{}
		return stateTracing
	}
	p := getenv(EnvLedger)
	if p == "" || getenv(EnvRole) != RoleFollowUp {
		return stateOff
	}
	runID = Token(getenv(EnvRun))
	if runID == "" {
		runID = "pid-" + strconv.Itoa(os.Getpid())
	}
	f, err := os.OpenFile(p, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o666)
	if err != nil {
		warn(err)
		return stateOff
	}
	ledger = f
	done.Store(new([]uint64))
	if err := withLock(f, false, refresh); err != nil {
		warn(err)
		return stateOff
	}
	return stateSearching
}

// activate is called with mu held when the searching run reaches site. It
// activates the first fault of site (forced true before forced false) that
// no run has executed and that is not excluded, re-checking under the
// exclusive lock of the ledger so that parallel runs never activate the
// same fault.
func activate(site int) (value bool, ok bool) {
	t, f := FaultID(site, true), FaultID(site, false)
	if isDone(site) {
		return false, false // the common case: no file access
	}
	pick := -1
	err := withLock(ledger, true, func(l *os.File) error {
		if err := refresh(l); err != nil {
			return err
		}
		switch bits := *done.Load(); {
		case !has(bits, t):
			pick = t
		case !has(bits, f):
			pick = f
		default:
			return nil
		}
		markDone([]int{pick}, false)
		_, err := l.WriteString(FormatRecord(Record{Kind: Activated, Fault: pick, Run: runID}))
		return err
	})
	if err != nil {
		warn(err)
		state.Store(stateOff)
		return false, false
	}
	if pick < 0 {
		return false, false
	}
	activeSite, activeValue = SiteOf(pick)
	state.Store(stateActive)
	return activeValue, true
}

// refresh reads the records appended to the ledger since the last read.
func refresh(l *os.File) error {
	info, err := l.Stat()
	if err != nil {
		return err
	}
	reset := info.Size() < readTo // the ledger was reset: start again
	if reset {
		readTo = 0
	}
	buf := make([]byte, info.Size()-readTo)
	n, err := l.ReadAt(buf, readTo)
	if err != nil && int64(n) != int64(len(buf)) {
		return err
	}
	recs, used := ParseRecords(buf[:n])
	readTo += int64(used)
	ids := make([]int, len(recs))
	for i, r := range recs {
		ids[i] = r.Fault
	}
	markDone(ids, reset)
	return nil
}

// isDone reports whether both faults of site are done.
func isDone(site int) bool {
	bits := done.Load()
	return bits != nil && has(*bits, FaultID(site, true)) && has(*bits, FaultID(site, false))
}

func has(bits []uint64, fault int) bool {
	w := fault / 64
	return w < len(bits) && bits[w]&(1<<(fault%64)) != 0
}

// markDone adds faults to the done set, emptied first if fresh; it is
// called with mu held.
func markDone(faults []int, fresh bool) {
	var bits []uint64
	if old := done.Load(); old != nil && !fresh {
		bits = append(bits, *old...)
	}
	for _, f := range faults {
		for f/64 >= len(bits) {
			bits = append(bits, 0)
		}
		bits[f/64] |= 1 << (f % 64)
	}
	done.Store(&bits)
}

// record appends site to the trace the first time it is reached.
func record(site int) {
	if reached[site] {
		return
	}
	reached[site] = true
	if _, err := trace.WriteString(strconv.Itoa(site) + "\n"); err != nil {
		warn(err)
		state.Store(stateOff)
	}
}

// warn reports a problem of the fault-injection set-up on standard error;
// the run then goes on as the original program would.
func warn(err error) {
	fmt.Fprintf(os.Stderr, "mcptfault: %v\n", err)
}
