// Package testtier says which tests run by default and which only when
// asked. `go test ./...` with no environment variable needs nothing but Go
// and a C compiler and runs in minutes; two variables add the tests that
// need more:
//
//   - MCPT_TEST_TOOLS=1: the tests against real tools (the Thrift,
//     FlatBuffers and TypeScript compilers of the relation packs, headless
//     Chromium for the HTML report). A tool that is missing then fails the
//     test, with how to install it.
//   - MCPT_TEST_LONG=1: the long campaigns and measurements.
//
// scripts/test sets both. A third, MCPT_TEST_REALBUGS=1, verifies the
// benchmark of real bugs (bench/realbugs): it installs every buggy and
// fixed release the benchmark names, from npm and the Go module proxy; it
// also runs the Protocol Buffers pack's Go configurations on the releases
// they support (examples, TestProtobufGoReleases).
package testtier

import (
	"os"
	"os/exec"
	"testing"
)

// ToolsVar and LongVar are the environment variables of the two tiers.
const (
	ToolsVar = "MCPT_TEST_TOOLS"
	LongVar  = "MCPT_TEST_LONG"
	// RealBugsVar asks for the verification of every bug of
	// bench/realbugs against its releases, and for the tests of packs
	// on releases installed the same way.
	RealBugsVar = "MCPT_TEST_REALBUGS"
)

// On reports whether the tier of the variable v is asked for (v=1).
func On(v string) bool { return os.Getenv(v) == "1" }

// Tools skips the test unless MCPT_TEST_TOOLS=1; with it, it fails the
// test when one of the programs is not on PATH, saying what installs it.
func Tools(t testing.TB, install string, programs ...string) {
	t.Helper()
	if !On(ToolsVar) {
		t.Skipf("needs %v; %s=1 runs it", programs, ToolsVar)
	}
	for _, p := range programs {
		if _, err := exec.LookPath(p); err != nil {
			t.Fatalf("%s is not installed (%s=1 asks for the tests against it): %s", p, ToolsVar, install)
		}
	}
}

// Long skips the test unless MCPT_TEST_LONG=1; what says what makes it
// long.
func Long(t testing.TB, what string) {
	t.Helper()
	if !On(LongVar) {
		t.Skipf("%s; %s=1 runs it", what, LongVar)
	}
}
