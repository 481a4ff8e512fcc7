package nodeproc

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpt-tool/mcpt/internal/testtier"
)

// TestNoNode: a pool whose node does not exist cannot run, and says so.
func TestNoNode(t *testing.T) {
	p := New(Config{Node: "/nonexistent/node", Script: "0"})
	var resp map[string]any
	err := p.Call(context.Background(), map[string]any{}, &resp, time.Second)
	if !errors.Is(err, ErrUnavailable) {
		t.Errorf("error %v, want ErrUnavailable", err)
	}
	if p.Spawned() != 0 {
		t.Errorf("%d processes started", p.Spawned())
	}
}

func TestNodeVersion(t *testing.T) {
	for in, want := range map[string][2]int{"v20.11.1\n": {20, 11}, "v22.13.0": {22, 13}} {
		if major, minor, ok := nodeVersion(in); !ok || major != want[0] || minor != want[1] {
			t.Errorf("%q: %d.%d %v", in, major, minor, ok)
		}
	}
	if _, _, ok := nodeVersion("node"); ok {
		t.Error("no version read as one")
	}
}

// echo answers each request with its id and what it was asked: to echo,
// to loop, to exit, to write garbage, to read a file.
const echo = `
const rl = require("readline").createInterface({ input: process.stdin });
let n = 0;
rl.on("line", (line) => {
  const req = JSON.parse(line);
  n++;
  if (req.do === "loop") for (;;) {}
  if (req.do === "exit") process.exit(7);
  if (req.do === "garbage") { process.stdout.write("not json\n"); return; }
  let read = "";
  if (req.do === "read") { try { require("fs").readFileSync(req.path); read = "read"; } catch (e) { read = e.code; } }
  process.stdout.write(JSON.stringify({ id: req.id, served: n, pid: process.pid, read }) + "\n");
});
`

type echoResp struct {
	ID     int    `json:"id"`
	Served int    `json:"served"`
	PID    int    `json:"pid"`
	Read   string `json:"read"`
}

// TestPool (tools tier): a process serves call after call; one that
// loops, exits or writes garbage is replaced with a clear error; one is
// recycled after its calls; and it reads no file.
func TestPool(t *testing.T) {
	testtier.Tools(t, "apt-get install nodejs (20 or newer)", "node")
	p := New(Config{Name: "echo worker", Script: echo, Calls: 3})
	defer p.Close()
	call := func(req map[string]any) (echoResp, error) {
		var r echoResp
		err := p.Call(context.Background(), req, &r, 5*time.Second)
		return r, err
	}
	a, err := call(map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := call(map[string]any{})
	if err != nil || b.PID != a.PID || b.Served != 2 {
		t.Fatalf("second call %+v %v, first %+v", b, err, a)
	}
	if _, err := call(map[string]any{"do": "loop"}); !isCall(err, true, "no answer within") {
		t.Errorf("a loop: %v", err)
	}
	if _, err := call(map[string]any{"do": "exit"}); !isCall(err, false, "it exited during the request (exit status 7)") {
		t.Errorf("an exit: %v", err)
	}
	if _, err := call(map[string]any{"do": "garbage"}); !isCall(err, false, `bad answer "not json"`) {
		t.Errorf("garbage: %v", err)
	}
	c, err := call(map[string]any{"do": "read", "path": "/etc/passwd"})
	if err != nil || c.Read != "ERR_ACCESS_DENIED" {
		t.Errorf("reading a file: %+v %v", c, err)
	}
	// Recycled after 3 calls: the fourth has a process of its own.
	var pids []int
	for range 4 {
		r, err := call(map[string]any{})
		if err != nil {
			t.Fatal(err)
		}
		pids = append(pids, r.PID)
	}
	if pids[0] == pids[3] {
		t.Errorf("processes %v: not recycled after 3 calls", pids)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var r echoResp
	if err := p.Call(ctx, map[string]any{}, &r, time.Second); !errors.Is(err, context.Canceled) {
		t.Errorf("a call cancelled: %v", err)
	}
}

func isCall(err error, timeout bool, msg string) bool {
	var ce *CallError
	return errors.As(err, &ce) && ce.Timeout == timeout && strings.Contains(ce.Why, msg)
}
