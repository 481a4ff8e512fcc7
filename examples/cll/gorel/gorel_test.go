package gorel_test

import (
	"testing"

	"github.com/mcpt-tool/mcpt/examples/cll/gorel"
	"github.com/mcpt-tool/mcpt/relation/relationtest"
	"github.com/mcpt-tool/mcpt/transpiler/cllc"
)

// TestAddCommand runs the relation on the test cases of testdata/*.txtar
// against the correct cllc, and checks that each of its checkers can fail
// at every spot of the CLL examples.
func TestAddCommand(t *testing.T) {
	r := gorel.AddCommand()
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	tr, err := cllc.New(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	relationtest.Run(t, "testdata", r, tr)
	relationtest.CheckersCanFail(t, r, tr, relationtest.ReadInputs(t, "../*.cll")...)
}
