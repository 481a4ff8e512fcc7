//go:build unix

package transpiler

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// WorkerPool runs a Worker; see Worker for how runs end. It is safe for
// concurrent use.
type WorkerPool struct {
	c           *command // the request template and the limits
	argv        []string // the worker command line
	maxRequests int
	maxResponse int

	mu     sync.Mutex
	idle   []*workerProc
	closed bool

	// restarts counts the processes killed and replaced (timeouts,
	// deaths, protocol violations); stale the responses to earlier
	// requests that were discarded.
	restarts, stale atomic.Int64
}

// WorkerStats tells how a pool of worker processes fared.
type WorkerStats struct {
	// Restarts counts the processes killed and replaced because they
	// timed out, died or broke the protocol (not those recycled after
	// MaxRequests).
	Restarts int64
	// StaleResponses counts the extra responses to earlier requests a
	// process wrote, which were discarded.
	StaleResponses int64
}

// WorkerStats returns the pool's counts so far.
func (p *WorkerPool) WorkerStats() WorkerStats {
	return WorkerStats{Restarts: p.restarts.Load(), StaleResponses: p.stale.Load()}
}

// NewWorker checks w and returns a pool of worker processes that runs it;
// no process starts before the first run.
func NewWorker(w Worker) (*WorkerPool, error) {
	c, argv, err := checkWorker(w)
	if err != nil {
		return nil, fmt.Errorf("transpiler worker: %w", err)
	}
	argv[0] = c.path
	p := &WorkerPool{c: c, argv: argv, maxRequests: w.MaxRequests, maxResponse: w.MaxResponseBytes}
	switch {
	case p.maxRequests < 0:
		return nil, fmt.Errorf("transpiler worker: negative request limit %d", p.maxRequests)
	case p.maxRequests == 0:
		p.maxRequests = DefaultWorkerRequests
	}
	switch {
	case p.maxResponse < 0:
		return nil, fmt.Errorf("transpiler worker: negative response limit %d", p.maxResponse)
	case p.maxResponse == 0:
		p.maxResponse = DefaultMaxResponseBytes
	}
	return p, nil
}

// workRequest and workResponse are the JSON forms of Bazel's WorkRequest
// and WorkResponse (the fields mcpt uses).
type workRequest struct {
	Arguments []string    `json:"arguments"`
	Inputs    []workInput `json:"inputs"`
	RequestID int64       `json:"requestId"`
}

type workInput struct {
	Path   string `json:"path"`
	Digest []byte `json:"digest"` // SHA-256 of the content, base64 in JSON as for a proto bytes field
}

type workResponse struct {
	ExitCode  *int   `json:"exitCode"`
	Output    string `json:"output"`
	RequestID int64  `json:"requestId"`
}

// workerProc is one running worker process.
type workerProc struct {
	cmd    *exec.Cmd
	stdin  *os.File
	lines  chan lineOrErr // responses, read by a goroutine of their own
	stderr *tail
	pipe   *stderrPipe
	exited chan struct{} // closed once the process has been waited for
	served int64
}

type lineOrErr struct {
	line []byte
	err  error
}

// Transpile runs one request on a worker process.
func (p *WorkerPool) Transpile(ctx context.Context, req Request) (res *Result, err error) {
	c := p.c
	name := req.Name
	if name == "" {
		name = c.InputName
	}
	if err := checkInputName(name); err != nil {
		return nil, fmt.Errorf("transpiler run: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return c.ended(ctx, time.Now(), false, nil)
	}
	work, in, out, err := c.newRunDir(name, req.Src)
	if err != nil {
		return nil, fmt.Errorf("transpiler run %s: %w", name, err)
	}
	defer func() {
		if rmErr := removeRunDir(work); rmErr != nil && err == nil {
			res, err = nil, fmt.Errorf("transpiler run %s: cleaning up: %w", name, rmErr)
		}
		if res != nil {
			res.Scratch = newScratch(work, c.cwd, name)
		}
	}()

	proc, err := p.get()
	if err != nil {
		return nil, fmt.Errorf("transpiler run %s: starting worker %s: %w", name, c.path, err)
	}
	proc.served++
	line, err := c.workRequest(req, in, out, work, proc.served)
	if err != nil {
		p.kill(proc)
		return nil, err
	}

	start := time.Now()
	timer := time.NewTimer(c.Timeout)
	defer timer.Stop()
	if _, err := proc.stdin.Write(append(line, '\n')); err != nil {
		return p.died(proc, start, "the worker did not take the request: "+err.Error()), nil
	}
	for {
		var resp lineOrErr
		select {
		case r, ok := <-proc.lines:
			resp = r
			if !ok {
				resp.err = io.EOF
			}
		case <-timer.C:
			p.replace(proc)
			return &Result{Status: TimedOut, ExitCode: -1, Signal: "SIGKILL", Stderr: proc.stderr.Bytes(), Duration: time.Since(start)}, nil
		case <-ctx.Done():
			p.kill(proc)
			return c.ended(ctx, start, true, proc.stderr.Bytes())
		}
		if resp.err != nil && errors.Is(resp.err, io.EOF) {
			return p.died(proc, start, "the worker exited during the request"), nil
		}
		if resp.err == nil && staleResponse(resp.line, proc.served) {
			// An extra answer to an earlier request: not this one's.
			p.stale.Add(1)
			continue
		}
		return p.answer(proc, resp, time.Since(start), out), nil
	}
}

// staleResponse tells whether line is a WorkResponse to a request before
// request id.
func staleResponse(line []byte, id int64) bool {
	var wr workResponse
	return json.Unmarshal(line, &wr) == nil && wr.ExitCode != nil && wr.RequestID >= 1 && wr.RequestID < id
}

// workRequest is the request line of run number id: the command's
// arguments without the program, and the input with its digest.
func (c *command) workRequest(req Request, in, out, work string, id int64) ([]byte, error) {
	args := c.args(in, out, work, req.Flags)[1:]
	for i, a := range args {
		args[i] = strings.ReplaceAll(a, PlaceholderRole, req.Role.String())
	}
	sum := sha256.Sum256(req.Src)
	return json.Marshal(workRequest{Arguments: args, Inputs: []workInput{{Path: in, Digest: sum[:]}}, RequestID: id})
}

// answer is the result of the response line of a worker: what its exit
// code and output say, or a crash when the line is not the response to
// the request, after which the worker is killed. A worker that answered
// goes back to the pool.
func (p *WorkerPool) answer(proc *workerProc, resp lineOrErr, dur time.Duration, out string) *Result {
	c := p.c
	if resp.err != nil {
		p.replace(proc)
		return garbage(proc, dur, resp.err.Error())
	}
	var wr workResponse
	if err := json.Unmarshal(resp.line, &wr); err != nil || wr.ExitCode == nil || wr.RequestID != proc.served {
		p.replace(proc)
		why := "want a WorkResponse to request " + fmt.Sprint(proc.served)
		if err != nil {
			why = err.Error()
		}
		return garbage(proc, dur, fmt.Sprintf("bad response %.200q: %s", resp.line, why))
	}
	res := &Result{ExitCode: *wr.ExitCode, Duration: dur}
	output := newTail(c.MaxStderrBytes)
	_, _ = output.Write([]byte(wr.Output))
	res.Stderr = output.Bytes()
	c.classify(res, out)
	p.put(proc)
	return res
}

// died is the Crashed result of a run whose process died under it: the
// process's exit status and the end of its standard error.
func (p *WorkerPool) died(proc *workerProc, start time.Time, note string) *Result {
	p.replace(proc)
	res := &Result{Status: Crashed, ExitCode: -1, Duration: time.Since(start)}
	if st := proc.cmd.ProcessState; st != nil {
		res.ExitCode = st.ExitCode()
		if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.Signal = unix.SignalName(ws.Signal())
		}
	}
	switch {
	case res.Signal != "":
		res.Reason = fmt.Sprintf("%s (killed by %s)", note, res.Signal)
	case res.ExitCode >= 0:
		res.Reason = fmt.Sprintf("%s (exit status %d)", note, res.ExitCode)
	default:
		res.Reason = note
	}
	res.Stderr = appendNote(proc.stderr.Bytes(), note)
	return res
}

// garbage is the Crashed result of a run whose process answered with
// something other than a response to it.
func garbage(proc *workerProc, dur time.Duration, why string) *Result {
	reason := "worker protocol error: " + why
	return &Result{Status: Crashed, ExitCode: -1, Duration: dur, Reason: reason, Stderr: appendNote(proc.stderr.Bytes(), reason)}
}

// replace kills a process that failed a run (it timed out, died or broke
// the protocol), counting it: a fresh one serves the next run.
func (p *WorkerPool) replace(proc *workerProc) {
	p.restarts.Add(1)
	p.kill(proc)
}

// get returns an idle process that is still alive, or starts one.
func (p *WorkerPool) get() (*workerProc, error) {
	p.mu.Lock()
	for len(p.idle) > 0 {
		proc := p.idle[len(p.idle)-1]
		p.idle = p.idle[:len(p.idle)-1]
		select {
		case <-proc.exited: // died while idle: not this run's doing
			p.mu.Unlock()
			p.replace(proc)
			p.mu.Lock()
			continue
		default:
		}
		p.mu.Unlock()
		return proc, nil
	}
	p.mu.Unlock()
	return p.start()
}

// put returns a process to the pool, or retires it after its last request.
func (p *WorkerPool) put(proc *workerProc) {
	p.mu.Lock()
	if !p.closed && proc.served < int64(p.maxRequests) {
		p.idle = append(p.idle, proc)
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	go p.retire(proc)
}

// retire asks a process to end by closing its standard input, and kills
// it if it is still there after WaitDelay.
func (p *WorkerPool) retire(proc *workerProc) {
	_ = proc.stdin.Close()
	t := time.NewTimer(p.c.WaitDelay)
	defer t.Stop()
	select {
	case <-proc.exited:
	case <-t.C:
	}
	p.kill(proc)
}

// Close stops every idle process and makes busy ones stop after their
// request. The pool still works afterwards, starting fresh processes.
func (p *WorkerPool) Close() error {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	var wg sync.WaitGroup
	for _, proc := range idle {
		wg.Go(func() { p.retire(proc) })
	}
	wg.Wait()
	return nil
}

// start starts a worker process.
func (p *WorkerPool) start() (*workerProc, error) {
	c := p.c
	cmd := exec.Command(p.argv[0])
	cmd.Args = p.argv
	cmd.Dir = c.Dir
	cmd.Env = append(os.Environ(), c.Env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setParentDeath(cmd.SysProcAttr)
	stdinR, stdinW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	stdoutR, stdoutW, err := os.Pipe()
	if err != nil {
		_ = stdinR.Close()
		_ = stdinW.Close()
		return nil, err
	}
	proc := &workerProc{cmd: cmd, stdin: stdinW, lines: make(chan lineOrErr, 1), stderr: newTail(c.MaxStderrBytes), exited: make(chan struct{})}
	proc.pipe, err = c.stderrPipe(cmd, proc.stderr, nil)
	if err != nil {
		for _, f := range []*os.File{stdinR, stdinW, stdoutR, stdoutW} {
			_ = f.Close()
		}
		return nil, err
	}
	cmd.Stdin, cmd.Stdout = stdinR, stdoutW
	err = startProcess(cmd)
	_ = stdinR.Close()
	_ = stdoutW.Close()
	proc.pipe.started()
	if err != nil {
		proc.pipe.wait(0)
		_ = stdinW.Close()
		_ = stdoutR.Close()
		return nil, err
	}
	go func() {
		_ = cmd.Wait()
		close(proc.exited)
	}()
	go readLines(stdoutR, p.maxResponse, proc.lines)
	return proc, nil
}

// readLines sends each line of r, without its newline, to lines; then the
// error that ended the reading (io.EOF when r was closed, or a line over
// max bytes), and closes lines.
func readLines(r *os.File, max int, lines chan<- lineOrErr) {
	defer close(lines)
	defer r.Close()
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		var line []byte
		for {
			chunk, err := br.ReadSlice('\n')
			line = append(line, chunk...)
			if len(line) > max+1 {
				lines <- lineOrErr{err: fmt.Errorf("a response line over %d bytes", max)}
				return
			}
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil {
				if err == io.EOF && len(line) > 0 {
					lines <- lineOrErr{err: fmt.Errorf("bad response %.200q: no newline before the worker closed its output", line)}
					return
				}
				lines <- lineOrErr{err: err}
				return
			}
			break
		}
		lines <- lineOrErr{line: bytes.TrimSuffix(line, []byte("\n"))}
	}
}

// kill kills a process and its group, and waits for it.
func (p *WorkerPool) kill(proc *workerProc) {
	_ = killGroup(proc.cmd.Process.Pid)
	<-proc.exited
	_ = proc.stdin.Close()
	proc.pipe.wait(p.c.WaitDelay)
	// Drain what the reader still sends, so that it ends.
	go func() {
		for range proc.lines {
		}
	}()
}
