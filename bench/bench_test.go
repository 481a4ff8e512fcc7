package bench_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpt-tool/mcpt/bench"
	"github.com/mcpt-tool/mcpt/internal/testtier"
)

// TestQuick runs the whole bench in quick mode and checks the shape and
// sanity of its results, not its speed: speed is measured, not asserted.
func TestQuick(t *testing.T) {
	testtier.Long(t, "the whole bench, with campaigns of an external cllc")
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "cllc"), "github.com/mcpt-tool/mcpt/cmd/cllc")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building cllc: %v\n%s", err, out)
	}
	res, err := bench.Run(context.Background(), bench.Options{
		Examples: filepath.Join("..", "examples", "cll"), Cllc: filepath.Join(bin, "cllc"), Quick: true,
	})
	if err != nil {
		t.Fatal(err)
	}

	var buf bytes.Buffer
	if err := res.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
		t.Fatalf("the JSON does not decode: %v\n%s", err, buf.Bytes())
	}
	positive := []string{
		"check_ms_median", "check_ms_p99", "check_ms_mean", "engine_check_ms_per_case",
		"mcp_over_fuzz_inproc", "mcp_over_fuzz_inproc_cpu", "mcp_over_fuzz_exec", "utilisation_1w", "utilisation_2w",
		"scaling_2w_inproc", "seeds_accepted_per_s", "seeds_accepted_per_s_1w", "seeds_yield",
	}
	for _, k := range positive {
		if k == "mcp_over_fuzz_inproc_cpu" && runtime.GOOS == "windows" {
			continue // no CPU time there
		}
		v, ok := m[k].(float64)
		if !ok {
			t.Errorf("key %s: %v, want a number", k, m[k])
			continue
		}
		if v <= 0 || math.IsInf(v, 0) {
			t.Errorf("%s = %v, want a positive finite number", k, v)
		}
	}
	if res.CheckMSP99 < res.CheckMSMedian {
		t.Errorf("check time p99 %v below the median %v", res.CheckMSP99, res.CheckMSMedian)
	}
	if res.CheckCases == 0 || res.CheckCases > bench.QuickCheckCases {
		t.Errorf("check_cases = %d, want 1…%d", res.CheckCases, bench.QuickCheckCases)
	}
	if res.SeedsYield > 1 {
		t.Errorf("seeds_yield = %v, above 1", res.SeedsYield)
	}
	mach, _ := m["machine"].(map[string]any)
	for _, k := range []string{"cpus", "go_version", "os", "arch"} {
		if v, ok := mach[k]; !ok || v == "" || v == 0.0 {
			t.Errorf("machine.%s = %v", k, v)
		}
	}
	if _, err := time.Parse(time.RFC3339, res.Date); err != nil {
		t.Errorf("date %q: %v", res.Date, err)
	}
	if len(res.Runs) == 0 {
		t.Error("no run statistics")
	}
	// The campaigns in process make the same transpiler runs, and so do
	// the external ones and the bare loops that replay them.
	runs := map[bool]int{}
	for _, r := range res.Runs {
		if r.Runs == 0 || r.WallS <= 0 {
			t.Errorf("run %q: %d transpiler runs in %vs", r.Name, r.Runs, r.WallS)
		}
		inproc := strings.Contains(r.Name, "in process")
		if n, ok := runs[inproc]; ok && n != r.Runs {
			t.Errorf("run %q made %d transpiler runs, others like it %d", r.Name, r.Runs, n)
		}
		runs[inproc] = r.Runs
	}
	if len(runs) != 2 {
		t.Errorf("want runs in process and external, got %v", res.Runs)
	}

	var table bytes.Buffer
	if err := res.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"check time per test case, median", "MCP / fuzz, cllc in process", "MCP / fuzz, cllc external",
		"utilisation of external cllc, 1 worker", "utilisation of external cllc, 2 workers",
		"scaling in process", "seeds accepted per second", "seed yield", "bare cllc loop, 2 workers", "machine:",
	} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, table.String())
		}
	}
}
