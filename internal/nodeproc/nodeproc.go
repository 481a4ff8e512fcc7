// Package nodeproc runs a script of mcpt's own in persistent node
// processes, for the checkers that load or type-check a transpiler's
// output (oracle/jsshape, oracle/dtsprobe). A Pool keeps one process per
// concurrent call warm; a call is one JSON request line on the process's
// standard input and one JSON response line on its standard output.
//
// What a process may do is bounded from both sides. node runs under its
// permission model (no file system but the directories a Pool allows for
// reading, no writing, no child process, no worker thread), with a bounded
// heap; on Linux the process's data segment is bounded too (RLIMIT_DATA,
// which covers the memory of array buffers outside the heap). A call that
// passes its time limit, or whose context ends, kills the process with its
// process group; a process that dies during a call, or answers with
// anything but one line of JSON, is replaced. Processes are recycled after
// a number of calls, and die with mcpt (a parent-death signal on Linux, end
// of input elsewhere).
package nodeproc

import (
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of a Config's zero fields.
const (
	DefaultHeapMB      = 512
	DefaultDataBytes   = 1536 << 20
	DefaultCalls       = 500
	DefaultMaxResponse = 32 << 20
)

// Config says how to run the script.
type Config struct {
	// Name names the processes in errors ("js-shape worker").
	Name string
	// Node is the node program; "" finds node on PATH.
	Node string
	// Script is the JavaScript the processes run (node -e), and Args its
	// arguments (process.argv[1:]).
	Script string
	Args   []string
	// Flags are node flags besides the limits (--experimental-vm-modules).
	Flags []string
	// Read are the directories (or files) the script may read; nothing
	// else of the file system is readable, and nothing writable.
	Read []string
	// HeapMB bounds node's heap (--max-old-space-size); DataBytes the
	// process's data segment on Linux. Zero means the defaults.
	HeapMB    int
	DataBytes int64
	// Calls is how many calls a process serves before it is replaced;
	// MaxResponse bounds one response line. Zero means the defaults.
	Calls       int
	MaxResponse int
}

// ErrUnavailable is wrapped by the errors of a pool that cannot run its
// script at all (node missing, or too old): the checks that need it
// cannot decide.
var ErrUnavailable = errors.New("node is not available")

// CallError is a call that ended without an answer: the process timed
// out, died or broke the protocol. The request is what made it so, as far
// as anyone can tell; the process was replaced.
type CallError struct {
	// Timeout is set when the call passed its time limit.
	Timeout bool
	// Why says what happened, with the end of the process's standard
	// error when it wrote some.
	Why string
}

func (e *CallError) Error() string { return e.Why }

// Pool runs Config's script in persistent processes. It is safe for
// concurrent use; the zero Pool is not ready: use New.
type Pool struct {
	cfg  Config
	node string
	// permission is node's flag of its permission model.
	permission string

	mu     sync.Mutex
	idle   []*proc
	closed bool
	// startErr is set once starting node failed for a reason no retry
	// mends (not found, refused the flags).
	startErr error
	// spawned counts the processes started; Spawned reports it.
	spawned int
}

// New returns a pool for cfg; no process starts before the first call.
func New(cfg Config) *Pool {
	if cfg.HeapMB <= 0 {
		cfg.HeapMB = DefaultHeapMB
	}
	if cfg.DataBytes <= 0 {
		cfg.DataBytes = DefaultDataBytes
	}
	if cfg.Calls <= 0 {
		cfg.Calls = DefaultCalls
	}
	if cfg.MaxResponse <= 0 {
		cfg.MaxResponse = DefaultMaxResponse
	}
	if cfg.Name == "" {
		cfg.Name = "node worker"
	}
	return &Pool{cfg: cfg}
}

// Spawned tells how many processes the pool has started.
func (p *Pool) Spawned() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.spawned
}

// started counts the processes every pool of this process started.
var started atomic.Int64

// Started tells how many node processes the pools of this process have
// started, all pools together: a campaign that reuses its workers starts
// a few, whatever its number of test cases.
func Started() int64 { return started.Load() }

// nodePath finds node once.
func (p *Pool) nodePath() (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.startErr != nil {
		return "", p.startErr
	}
	if p.node != "" {
		return p.node, nil
	}
	name := p.cfg.Node
	if name == "" {
		name = "node"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		p.startErr = fmt.Errorf("%w: %v", ErrUnavailable, err)
		return "", p.startErr
	}
	out, err := exec.Command(path, "--version").Output()
	if err != nil {
		p.startErr = fmt.Errorf("%w: %s --version: %v", ErrUnavailable, path, err)
		return "", p.startErr
	}
	major, minor, ok := nodeVersion(string(out))
	if !ok || major < 20 {
		p.startErr = fmt.Errorf("%w: %s is %s; the checker needs node 20 or newer (its permission model)", ErrUnavailable, path, strings.TrimSpace(string(out)))
		return "", p.startErr
	}
	// node 22.13 made the permission model stable, under a flag of its
	// own; 20 and the 22 before it know the experimental one only.
	p.permission = "--experimental-permission"
	if major > 22 || major == 22 && minor >= 13 {
		p.permission = "--permission"
	}
	p.node = path
	return path, nil
}

// nodeVersion reads `node --version` (v20.11.1).
func nodeVersion(s string) (major, minor int, ok bool) {
	f := strings.Split(strings.TrimPrefix(strings.TrimSpace(s), "v"), ".")
	if len(f) < 2 {
		return 0, 0, false
	}
	major, err1 := strconv.Atoi(f[0])
	minor, err2 := strconv.Atoi(f[1])
	return major, minor, err1 == nil && err2 == nil
}

// args is node's command line: the permission model, the limits, the
// flags and the script.
func (p *Pool) args() []string {
	a := []string{p.permission, "--no-warnings", "--disallow-code-generation-from-strings", fmt.Sprintf("--max-old-space-size=%d", p.cfg.HeapMB)}
	for _, r := range p.cfg.Read {
		a = append(a, "--allow-fs-read="+r)
	}
	a = append(a, p.cfg.Flags...)
	a = append(a, "-e", p.cfg.Script)
	return append(a, p.cfg.Args...)
}

// waitDelay is how long a process asked to end may take before it is
// killed.
const waitDelay = time.Second
