package engine_test

import (
	"runtime"
	"testing"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/testtier"
)

// TestMemoryDoesNotGrowWithCases: the live heap of a campaign after 12,000
// test cases is within 1 MB of what it was after 2,000: finished cases are
// added up and written to the journal, not kept.
func TestMemoryDoesNotGrowWithCases(t *testing.T) {
	testtier.Long(t, "12,000 test cases")
	s := load(t, "mcpt.yaml", nil)
	live := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	var early, late uint64
	opt := engine.Options{Seed: 1, MaxCases: 12000, Workers: 2, OutDir: t.TempDir()}
	opt.OnCase = func(cr *engine.CaseResult) {
		switch cr.Index {
		case 2000:
			early = live()
		case 11999:
			late = live()
		}
	}
	run(t, s, opt)
	if early == 0 || late == 0 {
		t.Fatal("cases 2000 and 11999 were not seen")
	}
	t.Logf("live heap after 2,000 cases: %d KB, after 12,000: %d KB", early/1024, late/1024)
	if late > early+1<<20 {
		t.Errorf("the live heap grew by %d KB over 10,000 test cases", (late-early)/1024)
	}
}
