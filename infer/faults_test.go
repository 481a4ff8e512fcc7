package infer_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/transpiler/cllc"
)

// zeroConfigCatches are the demo faults of cllc that a zero-config
// campaign on the eight CLL example programs finds in 300 test cases
// (docs/zeroconfig.md, *What it does not see*, has the table). The four
// others show in every base output alike: attr-escape (no relation finds
// it but the exact ones), and three orders (params-grouped,
// reverse-enums, sorted-resets) that the seeds' outputs teach as the
// generator's way of listing.
var zeroConfigCatches = []string{"count-off-by-one", "drop-last-getter", "reset-enum-by-name", "skip-second-tick", "skip-third-clear"}

// zeroConfigCLL runs a campaign with no relation file on the CLL example
// programs with the builtin cllc and the faults, seed 1.
func zeroConfigCLL(t *testing.T, faults []string, cases int) *result.Report {
	t.Helper()
	seeds, err := filepath.Abs("../examples/cll")
	if err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf("transpiler:\n  builtin: cllc\nseeds:\n  files: ['%s']\n", filepath.ToSlash(filepath.Join(seeds, "*.cll")))
	path := filepath.Join(t.TempDir(), "mcpt.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := setup.Load(path, setup.Options{Faults: faults, Tools: &setup.Tools{Builtins: cllc.Builtins()}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Inferred == nil {
		t.Fatal("a configuration without relations inferred nothing")
	}
	c := &engine.Campaign{Transpiler: s.Transpiler, Relations: s.Relations, Seeds: s.Seeds, Options: engine.Options{
		Mode: engine.MCP, Seed: 1, MaxCases: cases, MaxSpots: 4, BaseRuns: s.Config.BaseRuns, Normalize: s.Normalize, Workers: 2,
	}}
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.TestCases != cases {
		t.Fatalf("%d test cases, want %d", rep.TestCases, cases)
	}
	return rep
}

func oracleFindings(rep *result.Report) []result.Finding {
	var out []result.Finding
	for _, f := range rep.Findings {
		if f.Kind == result.Oracle {
			out = append(out, f)
		}
	}
	return out
}

// TestZeroConfigFindsCLLFaults (long tier): with no relation file, each
// demo fault of zeroConfigCatches is found within 300 test cases, and the
// correct cllc gives no finding in as many.
func TestZeroConfigFindsCLLFaults(t *testing.T) {
	testtier.Long(t, "300 zero-config test cases per demo fault of cllc")
	t.Run("correct", func(t *testing.T) {
		if fs := oracleFindings(zeroConfigCLL(t, nil, 300)); len(fs) > 0 {
			var b strings.Builder
			for _, f := range fs {
				fmt.Fprintf(&b, "%s %s on %s (%s): %s\n%s\n", f.Relation, f.Checker, f.SeedFile, f.Spot.Desc, f.Message, f.Diff)
			}
			t.Errorf("%d false alarms on the correct cllc:\n%s", len(fs), b.String())
		}
	})
	for _, fault := range zeroConfigCatches {
		t.Run(fault, func(t *testing.T) {
			if len(oracleFindings(zeroConfigCLL(t, []string{fault}, 300))) == 0 {
				t.Errorf("no finding in 300 test cases")
			}
		})
	}
}
