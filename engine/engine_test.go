package engine_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/transpiler/cllc"
)

// load reads the bundled CLL example configuration with the given faults.
func load(t testing.TB, cfg string, faults []string) *setup.Setup {
	t.Helper()
	s, err := setup.Load(filepath.Join("..", "examples", "cll", cfg), setup.Options{Faults: faults, Tools: &setup.Tools{Builtins: cllc.Builtins()}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func run(t testing.TB, s *setup.Setup, opt engine.Options) *result.Report {
	t.Helper()
	c := &engine.Campaign{Transpiler: s.Transpiler, Relations: s.Relations, Seeds: s.Seeds, Options: opt}
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// BenchmarkCampaign runs 1,000 test cases of the CLL example in process, in
// both modes; it reports the checking time per test case and the transpiler
// runs per test case. `mcpt bench` compares the modes within one run.
func BenchmarkCampaign(b *testing.B) {
	s := load(b, "mcpt.yaml", nil)
	for _, mode := range []engine.Mode{engine.MCP, engine.Fuzz} {
		b.Run(string(mode), func(b *testing.B) {
			var check, cases, runs int64
			for b.Loop() {
				r := run(b, s, engine.Options{Mode: mode, Seed: 1, MaxCases: 1000, Workers: 1, BaseRuns: 1})
				check += r.Timing.CheckNS
				cases += int64(r.TestCases)
				runs += int64(r.TranspilerRuns)
			}
			b.ReportMetric(float64(check)/float64(cases), "check-ns/case")
			b.ReportMetric(float64(runs)/float64(cases), "runs/case")
		})
	}
}
