package examples_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpt-tool/mcpt/internal/setup"
)

// TestThriftGeneratorWords (tools tier): an enumerator ERROR in a file
// with a service. thrift writes TApplicationException::INTERNAL_ERROR
// (C++) and TApplicationException.INTERNAL_ERROR (Python) in the service's
// code, where ERROR stands at an underscore boundary: those are no lines
// of the enumerator, and a value added next to it is due no
// INTERNAL_ZQNEW. Every spot of the derived add-enum-value and
// add-enum-value-explicit in the enum passes (analogy takes ERROR as the
// sibling of a value added after it).
func TestThriftGeneratorWords(t *testing.T) {
	p := packNamed(t, "thrift")
	needCompiler(t, p)
	seed := filepath.Join(t.TempDir(), "status.thrift")
	src := "namespace py status\n\nenum Result {\n  OK,\n  ERROR,\n  RETRY\n}\n\nstruct Reply {\n  1: Result result,\n  2: string detail\n}\n\nservice Checker {\n  Reply check(1: string what)\n}\n"
	if err := os.WriteFile(seed, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := setup.Load(filepath.Join(p.dir, "derived.yaml"), setup.Options{SeedFiles: []string{seed}})
	if err != nil {
		t.Fatal(err)
	}
	spotCases(t, s, seed, []string{"add-enum-value", "add-enum-value-explicit"}, "")
}
