package examples_test

import (
	"context"
	"fmt"
	"github.com/mcpt-tool/mcpt/transpiler/spec"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcpt-tool/mcpt/config"
	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/result"
)

// TestCLLWorkerSameFindings runs the campaign of cll/mcpt-exec.yaml (cllc
// started per run) and of cll/mcpt-worker.yaml (cllc --worker kept warm)
// with the same seed: the same findings, case for case, with a demo fault
// passed on cllc's command line, and none without.
func TestCLLWorkerSameFindings(t *testing.T) {
	testtier.Long(t, "campaigns of an external cllc, per run and as a worker")
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "cllc"), "github.com/mcpt-tool/mcpt/cmd/cllc")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building cllc: %v\n%s", err, out)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))

	for _, faults := range [][]string{nil, {"--fault", "reverse-enums", "--fault", "sorted-resets"}} {
		exec := campaignFindings(t, "mcpt-exec.yaml", faults)
		worker := campaignFindings(t, "mcpt-worker.yaml", faults)
		t.Logf("faults %v: %d and %d findings", faults, len(exec), len(worker))
		if !slices.Equal(exec, worker) {
			t.Errorf("faults %v: findings differ\ncommand: %q\nworker:  %q", faults, exec, worker)
		}
		if (len(exec) == 0) != (faults == nil) {
			t.Errorf("faults %v: %d findings", faults, len(exec))
		}
	}
}

// campaignFindings runs 150 test cases of the configuration cll/name, with
// extra arguments given to cllc, and describes its findings, sorted.
func campaignFindings(t *testing.T, name string, extra []string) []string {
	t.Helper()
	// The configuration as mcpt run reads it, the extra arguments added.
	s, err := setup.Load(filepath.Join("cll", name), setup.Options{NoRelease: true, Edit: func(cfg *config.Config) error {
		tc := &cfg.Transpiler
		if tc.Kind == spec.Worker {
			tc.Arguments = append(slices.Clone(tc.Arguments), extra...)
		} else {
			tc.Argv = append(slices.Clone(tc.Argv), extra...)
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := &engine.Campaign{Transpiler: s.Transpiler, Relations: s.Relations, Seeds: s.Seeds, Options: engine.Options{
		Seed: 7, MaxCases: 150, Workers: 2,
	}}
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.TestCases != 150 {
		t.Fatalf("%s: %d test cases", name, rep.TestCases)
	}
	var out []string
	for _, f := range rep.Findings {
		if f.Kind != result.Oracle {
			t.Errorf("%s: a %s finding: %s %s", name, f.Kind, f.Message, f.Stderr)
		}
		out = append(out, fmt.Sprintf("%s %s#%d case %d %s %s: %s", f.Relation, filepath.Base(f.SeedFile), f.Spot.Index, f.Case, f.Checker, f.File, f.Diff))
	}
	slices.Sort(out)
	return out
}
