//go:build unix

package transpiler

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/mcpt-tool/mcpt/tree"
)

const commandSupported = true

var errCommandUnsupported error // never returned on Unix

// Transpile runs the command once on req; see Command for how runs end.
func (c *command) Transpile(ctx context.Context, req Request) (res *Result, err error) {
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

	runCtx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	stderr, stdout := newTail(c.MaxStderrBytes), newTail(c.MaxStderrBytes)
	var killed atomic.Bool
	cmd := c.process(runCtx, req, in, out, work, &killed)
	pipe, err := c.stderrPipe(cmd, stderr, stdout)
	if err != nil {
		return nil, fmt.Errorf("transpiler run %s: %w", name, err)
	}

	start := time.Now()
	err = startProcess(cmd)
	pipe.started()
	if err != nil {
		pipe.wait(0)
		if runCtx.Err() != nil {
			return c.ended(ctx, start, false, nil)
		}
		return nil, fmt.Errorf("transpiler run %s: starting %s: %w", name, c.path, err)
	}
	waitErr := cmd.Wait()
	dur := time.Since(start)
	// Whatever the transpiler left running in its group goes now, before
	// its output is read and its directory removed; once the group is gone
	// nothing holds standard error open but a process that left the group,
	// which gets WaitDelay.
	_ = killGroup(cmd.Process.Pid)
	pipe.wait(c.WaitDelay)

	said := stderr.Bytes()
	if len(said) == 0 {
		said = stdout.Bytes()
	}
	if killed.Load() {
		return c.ended(ctx, start, true, said)
	}
	return c.exited(name, cmd, waitErr, out, &Result{Stderr: said, Duration: dur})
}

// process is the command of one run, in its own process group, killed
// with its group when runCtx ends (which sets killed).
func (c *command) process(runCtx context.Context, req Request, in, out, work string, killed *atomic.Bool) *exec.Cmd {
	cmd := exec.CommandContext(runCtx, c.path)
	cmd.Args = c.args(in, out, work, req.Flags)
	cmd.Dir = c.Dir
	cmd.Env = c.env(req.Role)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setParentDeath(cmd.SysProcAttr)
	cmd.Cancel = func() error {
		killed.Store(true)
		return killGroup(cmd.Process.Pid)
	}
	cmd.WaitDelay = c.WaitDelay
	return cmd
}

// exited completes res, which holds the standard error and duration of a
// run whose process ended by itself: a crash when a signal killed it,
// otherwise what its exit code and output say.
func (c *command) exited(name string, cmd *exec.Cmd, waitErr error, out string, res *Result) (*Result, error) {
	st := cmd.ProcessState
	if st == nil {
		return nil, fmt.Errorf("transpiler run %s: %w", name, waitErr)
	}
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) && !errors.Is(waitErr, exec.ErrWaitDelay) {
		return nil, fmt.Errorf("transpiler run %s: %w", name, waitErr)
	}

	res.ExitCode = st.ExitCode()
	ws, _ := st.Sys().(syscall.WaitStatus)
	switch {
	case ws.Signaled():
		res.Status = Crashed
		res.Signal = unix.SignalName(ws.Signal())
		if res.Signal == "" {
			res.Signal = ws.Signal().String()
		}
	default:
		c.classify(res, out)
	}
	return res, nil
}

// newRunDir makes a run's private directory: work holding in/NAME (the
// input, written) and out/ (empty). The caller removes work with
// removeRunDir, also when an error is returned with a non-empty work.
func (c *command) newRunDir(name string, src []byte) (work, in, out string, err error) {
	parent := c.TempDir
	if parent == "" {
		if parent, err = processTempDir(); err != nil {
			return "", "", "", err
		}
	}
	work, err = os.MkdirTemp(parent, "mcpt-run-")
	if err != nil {
		return "", "", "", err
	}
	if abs, err := filepath.Abs(work); err != nil {
		_ = removeRunDir(work)
		return "", "", "", err
	} else {
		work = abs
	}
	in = filepath.Join(work, "in", name)
	out = filepath.Join(work, "out")
	err = os.Mkdir(filepath.Dir(in), 0o755)
	if err == nil {
		err = os.Mkdir(out, 0o755)
	}
	if err == nil {
		err = os.WriteFile(in, src, 0o644)
	}
	if err != nil {
		_ = removeRunDir(work)
		return "", "", "", err
	}
	return work, in, out, nil
}

// classify sets the status of a run that exited with res.ExitCode: an
// accepted run's output tree is read from out (a tree that breaks the caps
// makes it a crash), a rejecting code is Rejected, any other Crashed.
func (c *command) classify(res *Result, out string) {
	switch {
	case c.accept[res.ExitCode]:
		files, err := tree.Read(out, tree.Limits{MaxFiles: c.MaxOutputFiles, MaxBytes: c.MaxOutputBytes})
		if err != nil {
			res.Status = Crashed
			res.Reason = "output tree: " + err.Error()
			res.Stderr = appendNote(res.Stderr, res.Reason)
			return
		}
		res.Status = Accepted
		res.Files = files
	case c.reject[res.ExitCode]:
		res.Status = Rejected
	default:
		res.Status = Crashed
	}
}

// stderrPipe is the transpiler's standard error and standard output, each
// read into a tail by a goroutine of its own (standard output into the
// standard error's tail when it is captured, not at all when stdout is nil:
// the caller sets it). Handing the child pipes of
// mcpt's making, rather than letting os/exec copy, makes cmd.Wait return as
// soon as the transpiler exits, so that the group can be killed at once
// instead of after WaitDelay when a grandchild holds them.
type stderrPipe struct {
	r, w []*os.File
	done chan struct{}
}

func (c *command) stderrPipe(cmd *exec.Cmd, stderr, stdout *tail) (*stderrPipe, error) {
	p := &stderrPipe{done: make(chan struct{})}
	dsts := []*tail{stderr}
	if stdout != nil && !c.CaptureStdout {
		dsts = append(dsts, stdout)
	}
	for range dsts {
		r, w, err := os.Pipe()
		if err != nil {
			p.close()
			return nil, err
		}
		p.r, p.w = append(p.r, r), append(p.w, w)
	}
	cmd.Stderr = p.w[0]
	if stdout != nil {
		cmd.Stdout = p.w[len(p.w)-1]
	}
	var copying sync.WaitGroup
	for i, dst := range dsts {
		copying.Go(func() { _, _ = io.Copy(dst, p.r[i]) })
	}
	go func() {
		copying.Wait()
		close(p.done)
	}()
	return p, nil
}

// started closes mcpt's copies of the write ends once the child has its own.
func (p *stderrPipe) started() {
	for _, w := range p.w {
		_ = w.Close()
	}
}

// close closes every end, of pipes no child got.
func (p *stderrPipe) close() {
	p.started()
	for _, r := range p.r {
		_ = r.Close()
	}
}

// wait waits up to delay for every writer to close the pipes, then closes
// the read ends, so that a process still writing gets EPIPE.
func (p *stderrPipe) wait(delay time.Duration) {
	t := time.NewTimer(delay)
	defer t.Stop()
	select {
	case <-p.done:
	case <-t.C:
	}
	for _, r := range p.r {
		_ = r.Close()
	}
	<-p.done
}

// ended is the outcome of a run whose context ended first: an error when
// ctx was cancelled, TimedOut when a deadline passed. killed says whether a
// transpiler was running and had to be killed.
func (c *command) ended(ctx context.Context, start time.Time, killed bool, stderr []byte) (*Result, error) {
	if err := ctx.Err(); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return nil, fmt.Errorf("transpiler run: %w", context.Cause(ctx))
	}
	res := &Result{Status: TimedOut, ExitCode: -1, Stderr: stderr, Duration: time.Since(start)}
	if killed {
		res.Signal = "SIGKILL"
	}
	return res, nil
}

// killGroup kills the process group led by pid. A group that is already
// gone is not an error.
func killGroup(pid int) error {
	if pid <= 0 {
		return nil
	}
	if err := unix.Kill(-pid, unix.SIGKILL); err != nil && !errors.Is(err, unix.ESRCH) {
		return err
	}
	return nil
}

// removeRunDir removes a run directory, first making writable whatever the
// transpiler made read-only inside it.
func removeRunDir(dir string) error {
	if err := os.RemoveAll(dir); err == nil {
		return nil
	}
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o700)
		}
		return nil
	})
	return os.RemoveAll(dir)
}
