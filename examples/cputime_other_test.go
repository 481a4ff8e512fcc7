//go:build !unix

package examples_test

// cpuTime is not measured here: BenchmarkChecks reports clock times only.
func cpuTime() int64 { return 0 }
