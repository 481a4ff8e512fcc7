package transpiler

import (
	"os/exec"
	"runtime"
	"sync"
	"syscall"
)

// setParentDeath asks the kernel to kill the transpiler when mcpt dies,
// however it dies (kill -9 included).
//
// Linux sends the parent-death signal when the thread that started the
// child ends, not the process, and the Go runtime ends a thread when a
// goroutine locked to it returns. Transpilers are therefore started by
// spawner goroutines locked to threads of their own that never return (see
// startProcess), so the signal comes only when mcpt itself goes.
func setParentDeath(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

type spawnRequest struct {
	cmd  *exec.Cmd
	done chan error
}

var (
	spawnOnce     sync.Once
	spawnRequests = make(chan spawnRequest)
)

// startProcess starts cmd on one of the spawner threads.
func startProcess(cmd *exec.Cmd) error {
	spawnOnce.Do(func() {
		for range min(4, max(2, runtime.NumCPU())) { // forks are serialised anyway
			go spawner()
		}
	})
	req := spawnRequest{cmd: cmd, done: make(chan error, 1)}
	spawnRequests <- req
	return <-req.done
}

// spawner starts processes from a thread that lives as long as mcpt.
func spawner() {
	runtime.LockOSThread() // never unlocked: the thread must not be reused or end
	for req := range spawnRequests {
		req.done <- req.cmd.Start()
	}
}
