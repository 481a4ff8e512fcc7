//go:build unix

package nodeproc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// proc is one running process.
type proc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan lineOrErr
	stderr *tail
	exited chan struct{}
	calls  int
}

type lineOrErr struct {
	line []byte
	err  error
}

// Call sends req (marshalled as JSON, with "id" set to a number of the
// process's calls) to a process and decodes its answer into resp. It
// returns an error wrapping ErrUnavailable when node cannot run, a
// *CallError when the process did not answer within timeout, died, or
// answered with garbage, and ctx's error when ctx ended first.
func (p *Pool) Call(ctx context.Context, req map[string]any, resp any, timeout time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	pr, err := p.get()
	if err != nil {
		return err
	}
	pr.calls++
	req["id"] = pr.calls
	line, err := json.Marshal(req)
	if err != nil {
		p.put(pr)
		return fmt.Errorf("%s: request: %w", p.cfg.Name, err)
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	if _, err := pr.stdin.Write(append(line, '\n')); err != nil {
		return p.died(pr, "it did not take the request: "+err.Error())
	}
	var got lineOrErr
	select {
	case r, ok := <-pr.lines:
		got = r
		if !ok {
			got.err = io.EOF
		}
	case <-timer.C:
		p.kill(pr)
		return &CallError{Timeout: true, Why: fmt.Sprintf("%s: no answer within %s", p.cfg.Name, timeout)}
	case <-ctx.Done():
		p.kill(pr)
		return ctx.Err()
	}
	if errors.Is(got.err, io.EOF) {
		return p.died(pr, "it exited during the request")
	}
	if got.err != nil {
		p.kill(pr)
		return &CallError{Why: fmt.Sprintf("%s: %v", p.cfg.Name, got.err)}
	}
	var id struct {
		ID *int `json:"id"`
	}
	if err := json.Unmarshal(got.line, &id); err != nil || id.ID == nil || *id.ID != pr.calls {
		p.kill(pr)
		return &CallError{Why: fmt.Sprintf("%s: bad answer %.200q", p.cfg.Name, got.line)}
	}
	if err := json.Unmarshal(got.line, resp); err != nil {
		p.kill(pr)
		return &CallError{Why: fmt.Sprintf("%s: bad answer: %v", p.cfg.Name, err)}
	}
	p.put(pr)
	return nil
}

// died is the error of a call whose process ended under it: how it ended
// and the end of its standard error.
func (p *Pool) died(pr *proc, note string) error {
	p.kill(pr)
	how := ""
	if st := pr.cmd.ProcessState; st != nil {
		if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			how = " (killed by " + unix.SignalName(ws.Signal()) + ")"
		} else {
			how = fmt.Sprintf(" (exit status %d)", st.ExitCode())
		}
	}
	why := fmt.Sprintf("%s: %s%s", p.cfg.Name, note, how)
	e := strings.TrimSpace(string(pr.stderr.Bytes()))
	switch {
	case strings.Contains(e, "heap out of memory") || strings.Contains(e, "Reached heap limit"):
		why += fmt.Sprintf(": it ran out of memory (node's heap limit, %d MB)", p.cfg.HeapMB)
	case e != "":
		why += ": " + lastLines(e, 4)
	}
	return &CallError{Why: why}
}

// lastLines is the end of a text, at most n lines.
func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

// get returns an idle live process, or starts one.
func (p *Pool) get() (*proc, error) {
	p.mu.Lock()
	for len(p.idle) > 0 {
		pr := p.idle[len(p.idle)-1]
		p.idle = p.idle[:len(p.idle)-1]
		select {
		case <-pr.exited:
			p.mu.Unlock()
			p.kill(pr)
			p.mu.Lock()
			continue
		default:
		}
		p.mu.Unlock()
		return pr, nil
	}
	p.mu.Unlock()
	return p.start()
}

// put returns a process to the pool, or retires it after its last call.
func (p *Pool) put(pr *proc) {
	p.mu.Lock()
	if !p.closed && pr.calls < p.cfg.Calls {
		p.idle = append(p.idle, pr)
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	go p.retire(pr)
}

// retire closes a process's input, and kills it if it is still there
// after waitDelay.
func (p *Pool) retire(pr *proc) {
	_ = pr.stdin.Close()
	t := time.NewTimer(waitDelay)
	defer t.Stop()
	select {
	case <-pr.exited:
	case <-t.C:
	}
	p.kill(pr)
}

// Close ends the idle processes; busy ones end after their call. The pool
// still works afterwards.
func (p *Pool) Close() error {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	var wg sync.WaitGroup
	for _, pr := range idle {
		wg.Go(func() { p.retire(pr) })
	}
	wg.Wait()
	p.mu.Lock()
	p.closed = false
	p.mu.Unlock()
	return nil
}

// start starts a process: in a process group of its own, dying with mcpt,
// its data segment bounded.
func (p *Pool) start() (*proc, error) {
	node, err := p.nodePath()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(node, p.args()...)
	cmd.Dir = os.TempDir()
	cmd.Env = nodeEnv()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setParentDeath(cmd.SysProcAttr)
	cmd.WaitDelay = waitDelay
	// Pipes of our own rather than cmd's: the reader of standard output
	// outlives Wait, which would close cmd's.
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
	pr := &proc{cmd: cmd, stdin: stdinW, lines: make(chan lineOrErr, 1), stderr: &tail{max: 8 << 10}, exited: make(chan struct{})}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdinR, stdoutW, pr.stderr
	err = startProcess(cmd)
	_ = stdinR.Close()
	_ = stdoutW.Close()
	if err != nil {
		_ = stdinW.Close()
		_ = stdoutR.Close()
		return nil, fmt.Errorf("%w: starting %s: %v", ErrUnavailable, node, err)
	}
	limitData(cmd.Process.Pid, p.cfg.DataBytes)
	p.mu.Lock()
	p.spawned++
	started.Add(1)
	p.mu.Unlock()
	go func() {
		_ = cmd.Wait()
		close(pr.exited)
	}()
	go readLines(stdoutR, p.cfg.MaxResponse, pr.lines)
	return pr, nil
}

// nodeEnv is the environment of a process: mcpt's, less what would make
// node load code or options of its own (NODE_OPTIONS, a preloaded module).
func nodeEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "NODE_OPTIONS" || k == "NODE_PATH" || k == "NODE_REPL_EXTERNAL_MODULE" {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// readLines sends each line of r to lines, then the error that ended the
// reading (io.EOF, or a line over max bytes), and closes lines.
func readLines(r io.ReadCloser, max int, lines chan<- lineOrErr) {
	defer close(lines)
	defer r.Close()
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		var line []byte
		for {
			chunk, err := br.ReadSlice('\n')
			line = append(line, chunk...)
			if len(line) > max+1 {
				lines <- lineOrErr{err: fmt.Errorf("an answer over %d bytes", max)}
				return
			}
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil {
				lines <- lineOrErr{err: err}
				return
			}
			break
		}
		lines <- lineOrErr{line: bytes.TrimSuffix(line, []byte("\n"))}
	}
}

// kill kills a process and its group, and waits for it.
func (p *Pool) kill(pr *proc) {
	if pid := pr.cmd.Process.Pid; pid > 0 {
		_ = unix.Kill(-pid, unix.SIGKILL)
	}
	<-pr.exited
	_ = pr.stdin.Close()
	go func() {
		for range pr.lines {
		}
	}()
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > 2*t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

func (t *tail) Bytes() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf
	if len(b) > t.max {
		b = b[len(b)-t.max:]
	}
	return append([]byte(nil), b...)
}
