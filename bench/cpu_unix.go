//go:build unix

package bench

import (
	"os"
	"runtime"
	"syscall"
	"time"
)

// cpuTime is the CPU time (user and system) the process has used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// maxRSS is the peak resident memory of an ended child process, in KB.
func maxRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		if runtime.GOOS == "darwin" {
			return ru.Maxrss / 1024 // bytes there
		}
		return ru.Maxrss // KB
	}
	return 0
}
