package cli

import (
	"path/filepath"
	"runtime/debug"
	"testing"
)

// TestWholeReportGC: merge and report, which hold a whole report, collect
// at the default target, not at a campaign's; GOGC in the environment
// still wins.
func TestWholeReportGC(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"merge", filepath.Join(dir, "shard-0"), "-o", filepath.Join(dir, "all")},
		{"report", filepath.Join(dir, "out")},
	} {
		for env, want := range map[string]int{"": 100, "250": 400} {
			t.Setenv("GOGC", env)
			old := debug.SetGCPercent(400)
			Run(args, nil)
			if got := debug.SetGCPercent(old); got != want {
				t.Errorf("mcpt %s with GOGC=%q: GC percent %d, want %d", args[0], env, got, want)
			}
		}
	}
}
