package engine_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/cll"
	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/result"
)

// comparable strips what legitimately differs between two runs of the same
// campaign: timings.
func comparable(t *testing.T, r *result.Report) string {
	t.Helper()
	c := *r
	c.Timing = result.Timing{}
	b, err := json.MarshalIndent(&c, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func countBy(r *result.Report, kind result.Kind, rel string) int {
	n := 0
	for _, f := range r.Findings {
		if f.Kind == kind && (rel == "" || f.Relation == rel) {
			n++
		}
	}
	return n
}

// TestDemo is the paper's working example: reverse-enums is found by
// augment-enumeration within a 10 s budget; the fuzz ablation with the same
// seed makes the same transpiler runs and finds nothing.
func TestDemo(t *testing.T) {
	s := load(t, "demo.yaml", nil)
	mcp := run(t, s, engine.Options{Mode: engine.MCP, Seed: 1, MaxTime: 10 * time.Second, MaxCases: 200})
	if n := countBy(mcp, result.Oracle, "augment-enumeration"); n == 0 {
		t.Fatalf("no augment-enumeration finding in %d test cases", mcp.TestCases)
	}
	if mcp.Stopped != "budget" {
		t.Errorf("stopped by %s, want the case budget", mcp.Stopped)
	}
	fuzz := run(t, s, engine.Options{Mode: engine.Fuzz, Seed: 1, MaxCases: 200})
	if n := countBy(fuzz, result.Oracle, ""); n != 0 {
		t.Errorf("fuzz mode reported %d oracle findings", n)
	}
	if fuzz.TranspilerRuns != mcp.TranspilerRuns || fuzz.TestCases != mcp.TestCases {
		t.Errorf("fuzz made %d runs for %d cases, mcp %d for %d", fuzz.TranspilerRuns, fuzz.TestCases, mcp.TranspilerRuns, mcp.TestCases)
	}
}

// TestEveryDemoFaultIsFound runs the relations against cllc with each demo
// fault switched on.
func TestEveryDemoFaultIsFound(t *testing.T) {
	testtier.Long(t, "a campaign per demo fault")
	for _, f := range cll.Faults() {
		t.Run(f.Name, func(t *testing.T) {
			s := load(t, "mcpt.yaml", []string{f.Name})
			r := run(t, s, engine.Options{Seed: 1, MaxCases: 1500})
			if n := countBy(r, result.Oracle, ""); n == 0 {
				t.Errorf("%s: no oracle finding in %d test cases", f.Name, r.TestCases)
			}
		})
	}
}

// TestNoFalseAlarm: the correct cllc passes 5,000 test cases covering all
// eleven relations and all examples.
func TestNoFalseAlarm(t *testing.T) {
	s := load(t, "mcpt.yaml", nil)
	r := run(t, s, engine.Options{Seed: 7, MaxCases: 5000})
	if r.TestCases != 5000 {
		t.Fatalf("%d test cases", r.TestCases)
	}
	for _, f := range r.Findings {
		t.Errorf("false alarm %s: %s %s %s\n%s", f.ID, f.Relation, f.Checker, f.Message, f.Diff)
	}
	if len(r.ByRelation) != 11 {
		t.Errorf("%d relations", len(r.ByRelation))
	}
	for name, st := range r.ByRelation {
		if st.TestCases == 0 {
			t.Errorf("relation %s ran no test case", name)
		}
	}
	seeds := map[string]bool{}
	for _, c := range r.Cases {
		seeds[c.Seed] = true
	}
	if len(seeds) != len(s.Seeds) {
		t.Errorf("test cases on %d of %d examples", len(seeds), len(s.Seeds))
	}
	// The base of each seed is transpiled once (twice with the
	// nondeterminism guard), then one run per test case.
	if max := r.TestCases + 2*len(s.Seeds); r.TranspilerRuns > max {
		t.Errorf("%d transpiler runs for %d test cases and %d seeds", r.TranspilerRuns, r.TestCases, len(s.Seeds))
	}
}

// TestWorkersDoNotChangeResults: the same seed gives the same report with 1
// and 2 workers.
func TestWorkersDoNotChangeResults(t *testing.T) {
	s := load(t, "mcpt.yaml", []string{"sorted-resets"})
	one := run(t, s, engine.Options{Seed: 3, MaxCases: 600, Workers: 1})
	two := run(t, s, engine.Options{Seed: 3, MaxCases: 600, Workers: 2})
	if len(one.Findings) == 0 {
		t.Fatal("no findings to compare")
	}
	if a, b := comparable(t, one), comparable(t, two); a != b {
		t.Errorf("reports differ between 1 and 2 workers")
	}
	other := run(t, s, engine.Options{Seed: 4, MaxCases: 600, Workers: 2})
	if comparable(t, one) == comparable(t, other) {
		t.Error("another seed gave the same report")
	}
}

// TestShardsMergeToTheWhole: shards partition the plan by seed; together
// they run exactly the cases of the unsharded run.
func TestShardsMergeToTheWhole(t *testing.T) {
	s := load(t, "mcpt.yaml", []string{"reverse-enums"})
	whole := run(t, s, engine.Options{Seed: 5, MaxCases: 400})
	var ids []string
	cases := 0
	for i := range 3 {
		part := run(t, s, engine.Options{Seed: 5, MaxCases: 400, Shard: engine.Shard{Index: i, Count: 3}})
		cases += part.TestCases
		for _, f := range part.Findings {
			ids = append(ids, f.ID)
		}
	}
	var want []string
	for _, f := range whole.Findings {
		want = append(want, f.ID)
	}
	slices.Sort(ids)
	slices.Sort(want)
	if cases != whole.TestCases || !slices.Equal(ids, want) {
		t.Errorf("shards: %d cases, %d findings; whole: %d cases, %d findings", cases, len(ids), whole.TestCases, len(want))
	}
}

// TestResume cuts the journal of a finished campaign in the middle, as kill
// -9 would, and resumes: the final findings equal the uninterrupted run's.
func TestResume(t *testing.T) {
	s := load(t, "mcpt.yaml", []string{"skip-second-tick"})
	dir := t.TempDir()
	opt := engine.Options{Seed: 9, MaxCases: 500, OutDir: filepath.Join(dir, "a")}
	full := run(t, s, opt)
	if len(full.Findings) == 0 {
		t.Fatal("no findings")
	}
	journal := filepath.Join(opt.OutDir, "journal.jsonl")
	b, err := os.ReadFile(journal)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	// Keep the header and a third of the cases, then half a line.
	cut := strings.Join(lines[:len(lines)/3], "") + lines[len(lines)/3][:10]
	if err := os.WriteFile(journal, []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	// A bundle half-written when the kill came is removed on resume; a file
	// of that name that the bundle writer would not make stays.
	tmp := filepath.Join(opt.OutDir, "findings", ".tmp-c000123-add-state-4242")
	if err := os.MkdirAll(filepath.Join(tmp, "base"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The bundle writer lists the files first, then writes them.
	manifest := "mcpt bundle: files mcpt wrote here\n\"finding.json\"\n\"base/a.cll\"\n"
	if err := os.WriteFile(filepath.Join(tmp, bundle.ManifestFile), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "base", "a.cll"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	keep := filepath.Join(opt.OutDir, "findings", ".tmp-notes")
	if err := os.WriteFile(keep, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	opt.Resume = true
	resumed := run(t, s, opt)
	if a, b := findingIDs(full), findingIDs(resumed); !slices.Equal(a, b) || resumed.TestCases != full.TestCases {
		t.Errorf("resumed run: %d cases, findings %v; uninterrupted: %d cases, %v", resumed.TestCases, b, full.TestCases, a)
	}
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("half-written bundle left after resume: %v", err)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("a file the bundle writer did not make was removed: %v", err)
	}
	// A journal of another campaign is refused.
	opt.Seed = 10
	c := &engine.Campaign{Transpiler: s.Transpiler, Relations: s.Relations, Seeds: s.Seeds, Options: opt}
	if _, err := c.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "another campaign") {
		t.Errorf("resume with another seed: %v", err)
	}
}

func findingIDs(r *result.Report) []string {
	var ids []string
	for _, f := range r.Findings {
		ids = append(ids, f.ID+"/"+f.Signature)
	}
	return ids
}

// TestFeedback: with feedback, passed follow-ups join the pool, later test
// cases run on seeds that already carry a mutation, the correct cllc still
// passes them all, and the run does not depend on the number of workers.
func TestFeedback(t *testing.T) {
	s := load(t, "mcpt.yaml", nil)
	opt := engine.Options{Seed: 2, MaxCases: 2000, Feedback: true, FeedbackMax: 8, Workers: 1}
	one := run(t, s, opt)
	opt.Workers = 2
	two := run(t, s, opt)
	if comparable(t, one) != comparable(t, two) {
		t.Error("feedback runs differ between 1 and 2 workers")
	}
	for _, f := range one.Findings {
		t.Errorf("false alarm on %s: %s %s\n%s", f.SeedFile, f.Relation, f.Message, f.Diff)
	}
	mutated := 0
	for _, c := range one.Cases {
		if strings.Contains(c.Seed, "~c") {
			mutated += c.TestCases
		}
	}
	if mutated == 0 {
		t.Fatal("no test case ran on a follow-up added by feedback")
	}
	// A follow-up of a follow-up carries two mutations.
	twice := false
	for _, c := range one.Cases {
		if strings.Count(c.Seed, "~c") >= 2 {
			twice = true
		}
	}
	if !twice {
		t.Error("no seed carries two mutations")
	}
	// Faults are still found on mutated seeds.
	f := run(t, load(t, "mcpt.yaml", []string{"sorted-resets"}), engine.Options{Seed: 2, MaxCases: 1000, Feedback: true, FeedbackMax: 8})
	onMutated := 0
	for _, x := range f.Findings {
		if strings.Contains(x.SeedFile, "~c") {
			onMutated++
		}
	}
	if onMutated == 0 {
		t.Error("no finding on a seed added by feedback")
	}
}

// TestGeneratedSeeds: 300 programs generated from cll.grammar, 1,500 test
// cases (5,000 in the long tier) with the correct cllc, no finding; with a
// demo fault, findings.
func TestGeneratedSeeds(t *testing.T) {
	s := load(t, "generated.yaml", nil)
	if len(s.Seeds) != 300 {
		t.Fatalf("%d seeds", len(s.Seeds))
	}
	n := 1500
	if testtier.On(testtier.LongVar) {
		n = 5000
	}
	r := run(t, s, engine.Options{Seed: 1, MaxCases: n})
	if r.TestCases != n || len(r.Seeds.Rejected) != 0 {
		t.Fatalf("%d test cases, %d seeds rejected", r.TestCases, len(r.Seeds.Rejected))
	}
	for _, f := range r.Findings {
		t.Errorf("false alarm on %s: %s %s\n%s", f.SeedFile, f.Relation, f.Message, f.Diff)
	}
	faulty := run(t, load(t, "generated.yaml", []string{"skip-third-clear"}), engine.Options{Seed: 1, MaxCases: 2000})
	if countBy(faulty, result.Oracle, "") == 0 {
		t.Error("skip-third-clear not found on generated seeds")
	}
}

// TestRunsPerCase: with one base run per seed, the base cache makes the
// transpiler runs exactly the test cases plus the seeds.
func TestRunsPerCase(t *testing.T) {
	s := load(t, "mcpt.yaml", nil)
	r := run(t, s, engine.Options{Seed: 1, MaxCases: 700, BaseRuns: 1})
	if r.TranspilerRuns != r.TestCases+len(s.Seeds) {
		t.Errorf("%d runs for %d test cases on %d seeds", r.TranspilerRuns, r.TestCases, len(s.Seeds))
	}
}
