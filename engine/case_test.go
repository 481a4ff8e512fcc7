package engine_test

import (
	"context"
	"maps"
	"sync/atomic"
	"testing"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/transpiler"
)

// flaky adds a line to one output file on every tenth run.
type flaky struct {
	t transpiler.Transpiler
	n atomic.Int64
}

func (f *flaky) Transpile(ctx context.Context, req transpiler.Request) (*transpiler.Result, error) {
	res, err := f.t.Transpile(ctx, req)
	if err != nil || res.Status != transpiler.Accepted || f.n.Add(1)%10 != 0 {
		return res, err
	}
	out := *res
	out.Files = maps.Clone(res.Files)
	for _, name := range out.Files.Names() {
		out.Files[name] = append(append([]byte(nil), out.Files[name]...), "/* once in a while */\n"...)
		break
	}
	return &out, nil
}

// TestFlakyTranspilerGivesNoFinding: a correct transpiler whose output
// varies in one run of ten gives no finding; the failures that did not
// repeat are counted as nondeterminism. Without the second look they are
// findings.
func TestFlakyTranspilerGivesNoFinding(t *testing.T) {
	s := load(t, "mcpt.yaml", nil)
	for _, recheck := range []bool{true, false} {
		c := &engine.Campaign{Transpiler: &flaky{t: s.Transpiler}, Relations: s.Relations, Seeds: s.Seeds,
			Options: engine.Options{Seed: 3, MaxCases: 300, Workers: 1, NoRecheck: !recheck}}
		rep, err := c.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("recheck %v: %d findings, %d nondeterministic test cases", recheck, len(rep.Findings), rep.NondeterministicCases)
		switch {
		case recheck && (len(rep.Findings) != 0 || rep.NondeterministicCases == 0):
			t.Errorf("with the second look: %d findings, %d nondeterministic test cases", len(rep.Findings), rep.NondeterministicCases)
		case !recheck && len(rep.Findings) == 0:
			t.Errorf("without the second look the flaky runs gave no finding: the test shows nothing")
		}
	}
}
