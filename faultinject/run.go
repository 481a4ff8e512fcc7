package faultinject

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpt-tool/mcpt/transpiler"
)

// PrepareOptions tune Prepare; the zero value is ready to use.
type PrepareOptions struct {
	// Workers is the number of runs at a time; zero means 2.
	Workers int
	// Timeout bounds one forced run, beyond which the fault counts as a
	// hang; zero means 50 times the fault-free run, and at least 2s.
	Timeout time.Duration
	// Exhaustive runs every fault. Otherwise the faults of the sites that
	// the fault-free run on the sample never reaches are kept without a
	// run: forcing a branch that is not reached changes nothing.
	Exhaustive bool
	// OnStart, if set, is called once with the number of forced runs to
	// come, before the first.
	OnStart func(runs int)
	// OnRun, if set, is called after each forced run, one call at a time.
	OnRun func(FaultRun)
}

// FaultRun is the outcome of one run of the preparatory step.
type FaultRun struct {
	Fault    int
	Status   transpiler.Status
	Dropped  bool // crashed or hung: the fault is excluded
	Duration time.Duration
	Stderr   []byte // the end of the transpiler's standard error
}

// Prepare is the preparatory step of an experiment: it runs the
// instrumented transpiler, described by cmd (whose Argv uses the {input}
// and {outdir} placeholders), on the sample input file once per fault of m
// with that fault forced, and returns, in increasing order, the faults
// whose run crashed (an exit status that neither accepts nor rejects, a
// signal, a panic) or hung. The sample must be accepted without faults.
// The caller records the result with Ledger.Exclude.
func Prepare(ctx context.Context, cmd transpiler.Command, sample string, m *Manifest, opt PrepareOptions) ([]int, error) {
	src, err := os.ReadFile(sample)
	if err != nil {
		return nil, fmt.Errorf("preparation: %w", err)
	}
	req := transpiler.Request{Name: filepath.Base(sample), Src: src, Role: transpiler.FollowUp}
	duration, reached, err := runClean(ctx, cmd, req, sample)
	if err != nil {
		return nil, fmt.Errorf("preparation: %w", err)
	}
	timeout := opt.Timeout
	if timeout == 0 {
		timeout = max(2*time.Second, 50*duration)
	}
	var faults []int
	for _, f := range m.Faults() {
		if opt.Exhaustive || reached[f.Site] {
			faults = append(faults, f.ID)
		}
	}
	if opt.OnStart != nil {
		opt.OnStart(len(faults))
	}
	dropped, err := runForced(ctx, cmd, req, faults, timeout, opt)
	if err != nil {
		return nil, fmt.Errorf("preparation: %w", err)
	}
	return sortedKeys(dropped), nil
}

// runClean runs the transpiler without faults on req, the sample: the
// reference for the timeout, and the sites it reaches.
func runClean(ctx context.Context, cmd transpiler.Command, req transpiler.Request, sample string) (time.Duration, map[int]bool, error) {
	tmp, err := os.MkdirTemp("", "mcptfault-prepare-")
	if err != nil {
		return 0, nil, err
	}
	defer os.RemoveAll(tmp)
	traceFile := filepath.Join(tmp, "trace")
	clean := cmd
	clean.Env = append(slices.Clone(cmd.Env), EnvLedger+"=", EnvForce+"=", EnvTrace+"="+traceFile)
	res, err := run(ctx, clean, req)
	if err != nil {
		return 0, nil, err
	}
	if res.Status != transpiler.Accepted {
		return 0, nil, fmt.Errorf("the instrumented transpiler without faults did not accept %s: %s\n%s", sample, res.Status, res.Stderr)
	}
	reached, err := readTrace(traceFile)
	if err != nil {
		return 0, nil, err
	}
	return res.Duration, reached, nil
}

// runForced runs the transpiler on req once per fault of faults with that
// fault forced, opt.Workers runs at a time, and returns the faults whose
// run crashed or hung. It stops at the first error.
func runForced(ctx context.Context, cmd transpiler.Command, req transpiler.Request, faults []int, timeout time.Duration, opt PrepareOptions) (map[int]bool, error) {
	workers := opt.Workers
	if workers <= 0 {
		workers = 2
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		dropped  = map[int]bool{}
		firstErr error
		next     atomic.Int64
		wg       sync.WaitGroup
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(faults) || ctx.Err() != nil {
					return
				}
				c := cmd
				c.Timeout = timeout
				c.Env = append(slices.Clone(cmd.Env), EnvLedger+"=", EnvTrace+"=", EnvForce+"="+strconv.Itoa(faults[i]))
				res, err := run(ctx, c, req)
				mu.Lock()
				if err != nil {
					if firstErr == nil {
						firstErr = err
						cancel()
					}
					mu.Unlock()
					return
				}
				fr := FaultRun{Fault: faults[i], Status: res.Status, Duration: res.Duration, Stderr: res.Stderr,
					Dropped: res.Status == transpiler.Crashed || res.Status == transpiler.TimedOut}
				if fr.Dropped {
					dropped[fr.Fault] = true
				}
				if opt.OnRun != nil {
					opt.OnRun(fr)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	return dropped, ctx.Err()
}

// readTrace reads the sites listed in a trace file.
func readTrace(path string) (map[int]bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[int]bool{}, nil // no site reached at all
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sites := map[int]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if id, err := strconv.Atoi(sc.Text()); err == nil {
			sites[id] = true
		}
	}
	return sites, sc.Err()
}

// run runs the command c once on req.
func run(ctx context.Context, c transpiler.Command, req transpiler.Request) (*transpiler.Result, error) {
	tr, err := transpiler.NewCommand(c)
	if err != nil {
		return nil, err
	}
	return tr.Transpile(ctx, req)
}

// Forced returns a transpiler that runs cmd with fault forced in every run,
// base and follow-up alike.
func Forced(cmd transpiler.Command, fault int) (transpiler.Transpiler, error) {
	if fault < 0 {
		return nil, fmt.Errorf("invalid fault id %d", fault)
	}
	cmd.Env = append(slices.Clone(cmd.Env), EnvLedger+"=", EnvTrace+"=", EnvForce+"="+strconv.Itoa(fault))
	return transpiler.NewCommand(cmd)
}

// Confirm is the confirmation step for one fault that a metamorphic oracle
// revealed: it runs the base and the follow-up input again, both with the
// fault forced, and reports what check says of the two results — whether
// the relation still fails. Findings on a fault-free base run may be
// spurious; a failure between two runs of the same faulty transpiler is
// not. check is the engine's oracle for the relation of the pair.
func Confirm(ctx context.Context, cmd transpiler.Command, fault int, base, followUp transpiler.Request,
	check func(base, followUp *transpiler.Result) (failed bool, err error)) (bool, error) {
	tr, err := Forced(cmd, fault)
	if err != nil {
		return false, fmt.Errorf("confirmation of fault %d: %w", fault, err)
	}
	base.Role, followUp.Role = transpiler.Base, transpiler.FollowUp
	b, err := tr.Transpile(ctx, base)
	if err != nil {
		return false, fmt.Errorf("confirmation of fault %d: %w", fault, err)
	}
	f, err := tr.Transpile(ctx, followUp)
	if err != nil {
		return false, fmt.Errorf("confirmation of fault %d: %w", fault, err)
	}
	return check(b, f)
}

// A Session runs the instrumented transpiler for one testing session: base
// runs without faults, and each follow-up run under the ledger with a run
// token of its own, so that the fault it activated can be looked up.
// Session implements transpiler.Transpiler and is safe for concurrent use.
type Session struct {
	cmd    transpiler.Command
	ledger *Ledger
	prefix string
	n      atomic.Int64
}

// NewSession checks cmd and returns a session that records in l.
func NewSession(cmd transpiler.Command, l *Ledger) (*Session, error) {
	if _, err := transpiler.NewCommand(cmd); err != nil {
		return nil, err
	}
	cmd.Env = slices.Clone(cmd.Env)
	prefix := fmt.Sprintf("%d.%d", os.Getpid(), time.Now().UnixNano())
	return &Session{cmd: cmd, ledger: l, prefix: prefix}, nil
}

// Transpile runs the transpiler on req.
func (s *Session) Transpile(ctx context.Context, req transpiler.Request) (*transpiler.Result, error) {
	res, _, err := s.TranspileFault(ctx, req)
	return res, err
}

// TranspileFault runs the transpiler on req and returns, for a follow-up
// run, the fault it activated, or NoFault.
func (s *Session) TranspileFault(ctx context.Context, req transpiler.Request) (*transpiler.Result, int, error) {
	c := s.cmd
	token := ""
	if req.Role == transpiler.FollowUp {
		token = fmt.Sprintf("%s-%d", s.prefix, s.n.Add(1))
		c.Env = append(slices.Clone(c.Env), s.ledger.Env(token)...)
	} else {
		c.Env = append(slices.Clone(c.Env), EnvLedger+"=", EnvForce+"=", EnvTrace+"=")
	}
	res, err := run(ctx, c, req)
	if err != nil || token == "" {
		return res, NoFault, err
	}
	fault, ok, err := s.ledger.ActiveFor(token)
	if err != nil || !ok {
		return res, NoFault, err
	}
	return res, fault, nil
}
