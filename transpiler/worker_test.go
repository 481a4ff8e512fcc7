//go:build unix

package transpiler

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

// fakeWorker returns a pool of the test binary's fake worker.
func fakeWorkerPool(t *testing.T, w Worker) *WorkerPool {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	w.Argv = []string{self, "worker"}
	w.Env = append(w.Env, fakeEnv+"=1", "GORACE=atexit_sleep_ms=0")
	if w.TempDir == "" {
		w.TempDir = t.TempDir()
	}
	p, err := NewWorker(w)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}

// meta is what the fake worker says about the run it served.
type meta struct {
	pid, served int
	role        string
}

func metaOf(t *testing.T, res *Result) meta {
	t.Helper()
	wantStatus(t, res, Accepted)
	var m meta
	if _, err := fmt.Sscan(string(res.Files["meta"]), &m.pid, &m.served, &m.role); err != nil && !strings.Contains(err.Error(), "EOF") {
		t.Fatalf("meta %q: %v", res.Files["meta"], err)
	}
	return m
}

func TestWorkerServesRequests(t *testing.T) {
	tmp := t.TempDir()
	p := fakeWorkerPool(t, Worker{Command: Command{TempDir: tmp}, Arguments: []string{"{input}", "{outdir}", "{role}"}})
	var first meta
	for i := range 5 {
		role := Role(i % 2)
		res := run(t, p, role, fmt.Sprintf("program %d\n", i))
		m := metaOf(t, res)
		if string(res.Files["main.c"]) != fmt.Sprintf("program %d\n", i) || string(res.Stderr) != "ok" {
			t.Errorf("run %d: main.c %q, output %q", i, res.Files["main.c"], res.Stderr)
		}
		if i == 0 {
			first = m
		}
		if m.pid != first.pid || m.served != i+1 || m.role != role.String() {
			t.Errorf("run %d served by %+v, want pid %d, request %d, role %v: one warm process", i, m, first.pid, i+1, role)
		}
	}
	wantStatus(t, run(t, p, Base, "REJECT"), Rejected)
	res := run(t, p, Base, "EXIT7")
	wantStatus(t, res, Crashed)
	if res.ExitCode != 7 || string(res.Stderr) != "internal error" {
		t.Errorf("exit %d, output %q", res.ExitCode, res.Stderr)
	}
	if m := metaOf(t, run(t, p, Base, "x")); m.pid != first.pid {
		t.Errorf("a rejection or an exit code restarted the worker")
	}
	wantEmptyDir(t, tmp)
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	wantGone(t, "closed worker", first.pid)
}

// The flags of a run take the place of {flags} in its request's
// arguments: none, one or several.
func TestWorkerFlags(t *testing.T) {
	p := fakeWorkerPool(t, Worker{Arguments: []string{"{input}", "{outdir}", "{role}", "{flags}", "--last"}})
	for _, flags := range [][]string{nil, {"--target"}, {"--target", "es 2022", "{input}"}} {
		res, err := p.Transpile(context.Background(), Request{Name: "a.cll", Src: []byte("x"), Role: FollowUp, Flags: flags})
		if err != nil {
			t.Fatal(err)
		}
		metaOf(t, res)
		var args []string
		if err := json.Unmarshal(res.Files["args.json"], &args); err != nil {
			t.Fatal(err)
		}
		if len(args) != 4+len(flags) || !slices.Equal(args[3:3+len(flags)], flags) || args[2] != "follow-up" || args[len(args)-1] != "--last" {
			t.Errorf("flags %q: request arguments %q", flags, args)
		}
	}
}

func TestWorkerRecycled(t *testing.T) {
	p := fakeWorkerPool(t, Worker{MaxRequests: 3})
	var pids []int
	for range 7 {
		pids = append(pids, metaOf(t, run(t, p, Base, "x")).pid)
	}
	a, b, c := pids[0], pids[3], pids[6]
	want := []int{a, a, a, b, b, b, c}
	if a == b || b == c || fmt.Sprint(pids) != fmt.Sprint(want) {
		t.Fatalf("served by %v, want a fresh process after every 3 requests", pids)
	}
	wantGone(t, "recycled worker", a)
	wantGone(t, "recycled worker", b)
}

// A worker that dies, hangs or talks garbage costs the run it was serving
// (a crash, a timeout) and is replaced for the next one.
func TestWorkerFailures(t *testing.T) {
	t.Parallel() // it waits for a timeout
	tmp := t.TempDir()
	p := fakeWorkerPool(t, Worker{Command: Command{Process: spec.Process{Timeout: 2 * time.Second}, TempDir: tmp}})
	for _, tc := range []struct {
		input  string
		status Status
		stderr string
		reason string
	}{
		{"DIE", Crashed, "dying\nmcpt: the worker exited during the request\n", "the worker exited during the request (exit status 3)"},
		{"HANG", TimedOut, "", ""},
		{"GARBAGE", Crashed, `mcpt: worker protocol error: bad response "Exception in thread main"`, `worker protocol error: bad response "Exception in thread main"`},
		{"WRONGID", Crashed, "want a WorkResponse to request ", "worker protocol error: bad response"},
	} {
		before := metaOf(t, run(t, p, Base, "x"))
		restarts := p.WorkerStats().Restarts
		res := run(t, p, FollowUp, tc.input)
		wantStatus(t, res, tc.status)
		if !strings.Contains(string(res.Stderr), tc.stderr) {
			t.Errorf("%s: stderr %q, want %q in it", tc.input, res.Stderr, tc.stderr)
		}
		if !strings.HasPrefix(res.Reason, tc.reason) || (tc.reason == "") != (res.Reason == "") {
			t.Errorf("%s: reason %q, want %q", tc.input, res.Reason, tc.reason)
		}
		if got := p.WorkerStats().Restarts; got != restarts+1 {
			t.Errorf("%s: %d restarts, want %d", tc.input, got, restarts+1)
		}
		if tc.input == "DIE" && res.ExitCode != 3 {
			t.Errorf("DIE: exit code %d, want the worker's 3", res.ExitCode)
		}
		wantGone(t, tc.input+" worker", before.pid)
		after := metaOf(t, run(t, p, Base, "x"))
		if after.pid == before.pid || after.served != 1 {
			t.Errorf("%s: next run served by %+v, want a fresh worker", tc.input, after)
		}
	}
	wantEmptyDir(t, tmp)
}

// TestWorkerAnswersTwice: a worker that answers a request twice does not
// make its second answer the answer to the next request: the stale answer
// is discarded (and counted), and the next request gets its own.
func TestWorkerAnswersTwice(t *testing.T) {
	p := fakeWorkerPool(t, Worker{})
	first := metaOf(t, run(t, p, Base, "x"))
	res := run(t, p, Base, "TWICE")
	if res.Status != Crashed || res.ExitCode != 7 || string(res.Stderr) != "once" {
		t.Fatalf("TWICE: %v exit %d %q", res.Status, res.ExitCode, res.Stderr)
	}
	next := run(t, p, FollowUp, "innocent")
	m := metaOf(t, next)
	if m.pid != first.pid || string(next.Files["main.c"]) != "innocent" {
		t.Errorf("next request served by %+v, main.c %q: want the same process and its own answer", m, next.Files["main.c"])
	}
	if st := p.WorkerStats(); st.StaleResponses != 1 || st.Restarts != 0 {
		t.Errorf("stats %+v, want 1 stale response, no restart", st)
	}
}

func TestWorkerCancel(t *testing.T) {
	tmp := t.TempDir()
	p := fakeWorkerPool(t, Worker{Command: Command{TempDir: tmp}})
	pid := metaOf(t, run(t, p, Base, "x")).pid
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	res, err := p.Transpile(ctx, Request{Name: "x.cll", Src: []byte("HANG")})
	if !errors.Is(err, context.Canceled) || res != nil {
		t.Fatalf("Transpile = %v, %v; want context.Canceled", res, err)
	}
	wantGone(t, "cancelled worker", pid)
	wantEmptyDir(t, tmp)
}

func TestWorkerPool(t *testing.T) {
	p := fakeWorkerPool(t, Worker{})
	const n = 4
	var mu sync.Mutex
	pids := map[int]bool{}
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			for j := range 5 {
				src := fmt.Sprintf("program %d.%d\n", i, j)
				res, err := p.Transpile(context.Background(), Request{Name: "p.cll", Src: []byte(src)})
				if err != nil || res.Status != Accepted || string(res.Files["main.c"]) != src {
					t.Errorf("run %d.%d: %v, %+v", i, j, err, res)
					return
				}
				var pid int
				fmt.Sscan(string(res.Files["meta"]), &pid)
				mu.Lock()
				pids[pid] = true
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(pids) > n {
		t.Errorf("%d worker processes for %d concurrent callers", len(pids), n)
	}
}

// The caps on the output tree hold for a worker as for a command.
func TestWorkerOutputCaps(t *testing.T) {
	p := fakeWorkerPool(t, Worker{Command: Command{Process: spec.Process{MaxOutputFiles: 1}}})
	res := run(t, p, Base, "x")
	wantStatus(t, res, Crashed)
	if !strings.Contains(string(res.Stderr), "mcpt: output tree:") {
		t.Errorf("stderr %q, want the output tree's note", res.Stderr)
	}
	if !strings.HasPrefix(res.Reason, "output tree: ") {
		t.Errorf("reason %q, want the output tree's", res.Reason)
	}
}

func TestNewWorkerErrors(t *testing.T) {
	for _, tc := range []struct {
		w    Worker
		want string
	}{
		{Worker{}, "empty worker command line"},
		{Worker{Command: Command{Process: spec.Process{Argv: []string{"sh", "{input}"}}}}, "placeholders belong in the request arguments"},
		{Worker{Command: Command{Process: spec.Process{Argv: []string{"sh"}}}, Arguments: []string{"{inptu}"}}, "unknown placeholder {inptu}"},
		{Worker{Command: Command{Process: spec.Process{Argv: []string{"sh"}}}, MaxRequests: -1}, "negative request limit"},
		{Worker{Command: Command{Process: spec.Process{Argv: []string{"no-such-worker-program"}}}}, "not found"},
		{Worker{Command: Command{Process: spec.Process{Argv: []string{"sh"}}, CaptureStdout: true}}, "speaks the protocol"},
	} {
		if _, err := NewWorker(tc.w); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewWorker(%+v) = %v, want %q", tc.w, err, tc.want)
		}
	}
}
