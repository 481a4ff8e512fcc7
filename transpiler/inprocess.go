package transpiler

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/mcpt-tool/mcpt/tree"
)

// maxPanicBytes bounds the panic value and stack kept from an in-process run.
const maxPanicBytes = 16 << 10

// InProcess returns a Transpiler that calls fn in the mcpt process. fn
// returns the output tree of an accepted input, or an error: when
// rejected(err) is true the input was refused (Rejected, with the error
// text as Stderr); any other error, and any panic, is a crash (Crashed, the
// panic value and stack in Stderr). A nil rejected treats every error as a
// crash.
//
// fn runs in a goroutine of its own and should honour ctx. When the
// deadline of ctx passes first the run is TimedOut; when ctx is cancelled
// Transpile returns ctx's error. Go code cannot be killed: in both cases
// the goroutine is left running until fn returns, and its result is
// dropped. fn receives its own copy of the source.
func InProcess(name string, fn func(ctx context.Context, req Request) (tree.Tree, error), rejected func(error) bool) Transpiler {
	if rejected == nil {
		rejected = func(error) bool { return false }
	}
	return &inProcess{name: name, fn: fn, rejected: rejected}
}

type inProcess struct {
	name     string
	fn       func(ctx context.Context, req Request) (tree.Tree, error)
	rejected func(error) bool
}

// outcome is how one call of fn ended.
type outcome struct {
	files tree.Tree
	err   error
	crash string // set when fn panicked or called runtime.Goexit
}

func (p *inProcess) String() string { return p.name }

// Transpile calls fn on req.
func (p *inProcess) Transpile(ctx context.Context, req Request) (*Result, error) {
	start := time.Now()
	if ctx.Err() != nil {
		return p.ended(ctx, start)
	}
	req.Src = bytes.Clone(req.Src)
	done := make(chan outcome, 1) // buffered: an abandoned call must not block
	go p.call(ctx, req, done)

	var o outcome
	select {
	case o = <-done:
	case <-ctx.Done():
		return p.ended(ctx, start)
	}
	res := &Result{Duration: time.Since(start)}
	switch {
	case o.crash != "":
		res.Status = Crashed
		res.Stderr = []byte(o.crash)
	case o.err != nil && ctx.Err() != nil:
		// fn gave up because of ctx, as it should.
		return p.ended(ctx, start)
	case o.err != nil && p.rejected(o.err):
		res.Status = Rejected
		res.Stderr = errorText(o.err)
	case o.err != nil:
		res.Status = Crashed
		res.Stderr = errorText(o.err)
	default:
		for name := range o.files {
			if !tree.Clean(name) {
				res.Status = Crashed
				res.Reason = fmt.Sprintf("%s returned the output path %q, which leaves the output directory", p.name, name)
				res.Stderr = appendNote(nil, res.Reason)
				return res, nil
			}
		}
		res.Status = Accepted
		res.Files = o.files
		if res.Files == nil {
			res.Files = tree.Tree{}
		}
	}
	return res, nil
}

// call runs fn and reports how it ended on done, whether fn returns,
// panics or calls runtime.Goexit.
func (p *inProcess) call(ctx context.Context, req Request, done chan<- outcome) {
	returned := false
	defer func() {
		if returned {
			return
		}
		v := recover()
		if v == nil {
			done <- outcome{crash: string(appendNote(nil, p.name+" called runtime.Goexit"))}
			return
		}
		msg := fmt.Sprintf("panic: %v\n\n%s", v, debug.Stack())
		if len(msg) > maxPanicBytes {
			msg = msg[:maxPanicBytes] + "\n…(truncated)\n"
		}
		done <- outcome{crash: msg}
	}()
	files, err := p.fn(ctx, req)
	returned = true
	done <- outcome{files: files, err: err}
}

// ended is the outcome of a run whose context ended first.
func (p *inProcess) ended(ctx context.Context, start time.Time) (*Result, error) {
	if err := ctx.Err(); !errors.Is(err, context.DeadlineExceeded) {
		return nil, fmt.Errorf("transpiler run: %w", context.Cause(ctx))
	}
	return &Result{
		Status:   TimedOut,
		Stderr:   appendNote(nil, p.name+" was still running at the deadline; left to finish in the background"),
		Duration: time.Since(start),
	}, nil
}

// errorText renders an error as a command-line tool would print it.
func errorText(err error) []byte {
	b := []byte(err.Error())
	if len(b) > 0 && b[len(b)-1] != '\n' {
		b = append(b, '\n')
	}
	return b
}
