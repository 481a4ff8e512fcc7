package engine_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/transpiler"
)

// TestConfirmationsBesideWorkers: with a transpiler slow enough that the
// workers finish cases while a group's first finding is confirmed, which
// findings are bundled, counted and confirmed does not depend on the
// number of workers.
func TestConfirmationsBesideWorkers(t *testing.T) {
	s := load(t, "mcpt.yaml", []string{"reverse-enums"})
	slow := transpiler.Func(func(ctx context.Context, req transpiler.Request) (*transpiler.Result, error) {
		time.Sleep(200 * time.Microsecond)
		return s.Transpiler.Transpile(ctx, req)
	})
	var reports []string
	for _, workers := range []int{1, 2, 4} {
		c := &engine.Campaign{Transpiler: slow, Relations: s.Relations, Seeds: s.Seeds, Options: engine.Options{
			Seed: 5, MaxCases: 150, Workers: workers, Exhaustive: true, OutDir: filepath.Join(t.TempDir(), "out"),
		}}
		rep, err := c.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if rep.RecheckRuns == 0 || len(rep.Findings) == 0 {
			t.Fatalf("%d workers: %d findings, %d re-runs: the test shows nothing", workers, len(rep.Findings), rep.RecheckRuns)
		}
		reports = append(reports, comparable(t, rep))
	}
	for i, w := range []int{2, 4} {
		if reports[i+1] != reports[0] {
			t.Errorf("the report with %d workers differs from the one with 1", w)
		}
	}
}
