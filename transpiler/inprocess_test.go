package transpiler

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpt-tool/mcpt/transpiler/spec"
	"github.com/mcpt-tool/mcpt/tree"
)

var errRefused = errors.New("x.cll:1:1: expected logic")

// toy is an in-process transpiler: it upper-cases its input into out.txt,
// refuses "bad", fails on "fail" and panics on "panic".
func toy(ctx context.Context, req Request) (tree.Tree, error) {
	switch string(req.Src) {
	case "bad":
		return nil, fmt.Errorf("front end: %w", errRefused)
	case "fail":
		return nil, errors.New("internal error")
	case "panic":
		var m map[string]int
		//lint:ignore SA5000 a runtime error, not a plain panic value, is what this case is for
		m["boom"]++
	case "goexit":
		runtime.Goexit()
	case "escape":
		return tree.Tree{"../etc/passwd": nil}, nil
	case "nil":
		return nil, nil
	}
	req.Src[0] = '!' // the adapter hands over its own copy
	return tree.Tree{"out.txt": bytes.ToUpper(req.Src), "role": []byte(req.Role.String())}, nil
}

// wantStatus fails the test unless res has the status want.
func wantStatus(t *testing.T, res *Result, want Status) {
	t.Helper()
	if res.Status != want {
		t.Fatalf("status %v, want %v (exit %d, signal %q, stderr %q)", res.Status, want, res.ExitCode, res.Signal, res.Stderr)
	}
}

func isRefusal(err error) bool { return errors.Is(err, errRefused) }

func transpileSrc(t *testing.T, tr Transpiler, src string) *Result {
	t.Helper()
	res, err := tr.Transpile(context.Background(), Request{Name: "x.cll", Src: []byte(src), Role: FollowUp})
	if err != nil {
		t.Fatalf("Transpile(%q): %v", src, err)
	}
	return res
}

func TestInProcess(t *testing.T) {
	tr := InProcess("toy", toy, isRefusal)

	src := []byte("hello")
	res, err := tr.Transpile(context.Background(), Request{Name: "x.cll", Src: src, Role: FollowUp})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, res, Accepted)
	if string(res.Files["out.txt"]) != "!ELLO" || string(res.Files["role"]) != "follow-up" {
		t.Errorf("output %q", res.Files)
	}
	if string(src) != "hello" {
		t.Errorf("the caller's source became %q", src)
	}

	res = transpileSrc(t, tr, "bad")
	wantStatus(t, res, Rejected)
	if string(res.Stderr) != "front end: x.cll:1:1: expected logic\n" || res.Files != nil {
		t.Errorf("stderr %q, files %v", res.Stderr, res.Files)
	}

	res = transpileSrc(t, tr, "fail")
	wantStatus(t, res, Crashed)
	if string(res.Stderr) != "internal error\n" {
		t.Errorf("stderr %q", res.Stderr)
	}

	res = transpileSrc(t, tr, "nil")
	wantStatus(t, res, Accepted)
	if res.Files == nil || len(res.Files) != 0 {
		t.Errorf("files %#v, want an empty tree", res.Files)
	}

	res = transpileSrc(t, tr, "escape")
	wantStatus(t, res, Crashed)
	if !bytes.Contains(res.Stderr, []byte(`"../etc/passwd"`)) {
		t.Errorf("stderr %q, want it to name the path", res.Stderr)
	}

	// Without a rejection predicate every error is a crash.
	wantStatus(t, transpileSrc(t, InProcess("toy", toy, nil), "bad"), Crashed)
}

func TestInProcessPanic(t *testing.T) {
	res := transpileSrc(t, InProcess("toy", toy, isRefusal), "panic")
	wantStatus(t, res, Crashed)
	s := string(res.Stderr)
	if !strings.HasPrefix(s, "panic: assignment to entry in nil map") || !strings.Contains(s, "transpiler.toy(") {
		t.Errorf("stderr %q, want the panic value and a stack through toy", s)
	}
	if len(res.Stderr) > maxPanicBytes+100 {
		t.Errorf("stderr of %d bytes", len(res.Stderr))
	}

	big := func(context.Context, Request) (tree.Tree, error) { panic(strings.Repeat("x", 100_000)) }
	res = transpileSrc(t, InProcess("big", big, nil), "")
	wantStatus(t, res, Crashed)
	if len(res.Stderr) > maxPanicBytes+100 || !strings.HasSuffix(string(res.Stderr), "(truncated)\n") {
		t.Errorf("stderr of %d bytes, want it bounded", len(res.Stderr))
	}

	res = transpileSrc(t, InProcess("toy", toy, nil), "goexit")
	wantStatus(t, res, Crashed)
	if !bytes.Contains(res.Stderr, []byte("runtime.Goexit")) {
		t.Errorf("stderr %q", res.Stderr)
	}
}

// blocker is an in-process transpiler that runs until released, ignoring
// its context as a badly behaved one would.
type blocker struct {
	started, release chan struct{}
	finished         chan struct{}
}

func newBlocker() *blocker {
	return &blocker{make(chan struct{}), make(chan struct{}), make(chan struct{})}
}

func (b *blocker) fn(context.Context, Request) (tree.Tree, error) {
	close(b.started)
	<-b.release
	close(b.finished)
	return tree.Tree{}, nil
}

func TestInProcessDeadline(t *testing.T) {
	b := newBlocker()
	tr := WithTimeout(InProcess("blocker", b.fn, nil), 50*time.Millisecond)
	res, err := tr.Transpile(context.Background(), Request{})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, res, TimedOut)
	if !bytes.Contains(res.Stderr, []byte("still running")) {
		t.Errorf("stderr %q", res.Stderr)
	}
	<-b.started
	close(b.release) // the abandoned goroutine can still finish
	<-b.finished

	// A function that honours its context.
	polite := func(ctx context.Context, _ Request) (tree.Tree, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	res, err = InProcess("polite", polite, func(error) bool { return true }).Transpile(ctx, Request{})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, res, TimedOut)
}

func TestInProcessCancel(t *testing.T) {
	b := newBlocker()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := InProcess("blocker", b.fn, nil).Transpile(ctx, Request{})
		done <- err
	}()
	<-b.started
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Transpile: %v, want context.Canceled", err)
	}
	close(b.release)
	<-b.finished

	// Nothing starts under a context that is already over.
	called := false
	_, err := InProcess("f", func(context.Context, Request) (tree.Tree, error) { called = true; return nil, nil }, nil).Transpile(ctx, Request{})
	if !errors.Is(err, context.Canceled) || called {
		t.Errorf("Transpile: %v (called %v), want context.Canceled without a call", err, called)
	}
}

func TestInProcessConcurrent(t *testing.T) {
	c := Counting(InProcess("toy", toy, isRefusal))
	srcs := []string{"a", "bad", "fail", "panic", "b", "c", "bad", "d"}
	var wg sync.WaitGroup
	got := make([]Status, len(srcs))
	for i, src := range srcs {
		wg.Go(func() {
			res, err := c.Transpile(context.Background(), Request{Src: []byte(src), Role: Role(i % 2)})
			if err != nil {
				t.Error(err)
				return
			}
			got[i] = res.Status
		})
	}
	wg.Wait()
	want := []Status{Accepted, Rejected, Crashed, Crashed, Accepted, Accepted, Rejected, Accepted}
	if !slices.Equal(got, want) {
		t.Errorf("statuses %v, want %v", got, want)
	}
	s := c.Stats()
	if s.Runs() != 8 || s.Base != 4 || s.FollowUp != 4 || s.Accepted != 4 || s.Rejected != 2 || s.Crashed != 2 || s.TimedOut != 0 || s.Errors != 0 {
		t.Errorf("stats %+v", s)
	}
}

func TestCounter(t *testing.T) {
	fail := true
	c := Counting(Func(func(ctx context.Context, req Request) (*Result, error) {
		if fail {
			return nil, errors.New("disk full")
		}
		return &Result{Status: TimedOut}, nil
	}))
	if _, err := c.Transpile(context.Background(), Request{Role: FollowUp}); err == nil {
		t.Fatal("the error of the wrapped transpiler was lost")
	}
	fail = false
	res, err := c.Transpile(context.Background(), Request{})
	if err != nil || res.Status != TimedOut {
		t.Fatalf("Transpile = %v, %v", res, err)
	}
	s := c.Stats()
	if s.Runs() != 2 || s.FollowUp != 1 || s.Base != 1 || s.Errors != 1 || s.TimedOut != 1 || s.Time <= 0 {
		t.Errorf("stats %+v", s)
	}
}

func TestWithTimeoutZero(t *testing.T) {
	tr := InProcess("toy", toy, nil)
	if got := WithTimeout(tr, 0); got != tr {
		t.Errorf("WithTimeout(t, 0) wraps t")
	}
}

// TestBuiltins: a builtin is made from the set a program offers, with
// the spec's options and faults; a name not in it is an error naming
// those that are.
func TestBuiltins(t *testing.T) {
	var gotOptions map[string]string
	var gotFaults []string
	set := BuiltinSet{
		"zz-test": func(options map[string]string, faults []string) (Transpiler, error) {
			if options["bad"] != "" {
				return nil, errors.New("bad option")
			}
			gotOptions, gotFaults = options, faults
			return InProcess("zz-test", toy, nil), nil
		},
		"aa-test": func(map[string]string, []string) (Transpiler, error) { return nil, nil },
	}
	builtin := func(name string, options map[string]string, faults []string) spec.Spec {
		return spec.Spec{Kind: spec.Builtin, Builtin: name, Options: options, Faults: faults}
	}
	tr, err := Open(builtin("zz-test", map[string]string{"k": "v"}, []string{"f1"}), set)
	if err != nil {
		t.Fatal(err)
	}
	if gotOptions["k"] != "v" || !slices.Equal(gotFaults, []string{"f1"}) {
		t.Errorf("factory got %v %v", gotOptions, gotFaults)
	}
	wantStatus(t, transpileSrc(t, tr, "abc"), Accepted)

	if _, err := Open(builtin("zz-test", map[string]string{"bad": "1"}, nil), set); err == nil || !strings.Contains(err.Error(), "zz-test: bad option") {
		t.Errorf("factory error: %v", err)
	}
	if _, err := Open(builtin("zz-tset", nil, nil), set); err == nil || err.Error() != `unknown builtin transpiler "zz-tset" (known: aa-test, zz-test), did you mean "zz-test"?` {
		t.Errorf("unknown builtin: %v", err)
	}
	if _, err := Open(builtin("cllc", nil, nil), nil); err == nil || !strings.Contains(err.Error(), "this mcpt has none") {
		t.Errorf("no builtins: %v", err)
	}
}
