package nodeproc

import (
	"os/exec"
	"runtime"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// setParentDeath asks the kernel to kill a process when mcpt dies. Linux
// sends the signal when the thread that started the child ends, so
// processes are started from a thread locked for good (startProcess), as
// package transpiler starts transpilers.
func setParentDeath(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

var (
	spawnOnce sync.Once
	spawns    = make(chan spawnRequest)
)

type spawnRequest struct {
	cmd  *exec.Cmd
	done chan error
}

// startProcess starts cmd from the spawner thread.
func startProcess(cmd *exec.Cmd) error {
	spawnOnce.Do(func() {
		go func() {
			runtime.LockOSThread() // never unlocked: the thread must live as long as mcpt
			for req := range spawns {
				req.done <- req.cmd.Start()
			}
		}()
	})
	req := spawnRequest{cmd: cmd, done: make(chan error, 1)}
	spawns <- req
	return <-req.done
}

// limitData bounds the data segment of process pid (RLIMIT_DATA: the heap
// and private writable mappings, array buffers included). A process that
// already exited is no error.
func limitData(pid int, bytes int64) {
	lim := unix.Rlimit{Cur: uint64(bytes), Max: uint64(bytes)}
	_ = unix.Prlimit(pid, unix.RLIMIT_DATA, &lim, nil)
}
