//go:build unix

package examples_test

import "syscall"

// cpuTime is the processor time the process has used so far: a measure
// that a busy machine's other processes disturb less than the clock.
func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
