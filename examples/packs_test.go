// Package examples_test runs the relation packs of examples/thrift and
// examples/flatbuffers against the real Apache Thrift and FlatBuffers
// compilers: a short campaign of each pack must report no finding (every
// finding would be a false alarm of a relation, or a compiler bug), and each
// pack's fault demonstration (a wrapper that post-processes the compiler's
// output the way a plausible generator bug would) must be caught, by the
// relations that are meant to catch it.
//
// The compilers come from the Debian packages thrift-compiler and
// flatbuffers-compiler. The tests run with MCPT_TEST_TOOLS=1 (package
// testtier), and a missing compiler then fails them. The TypeScript pack's
// tests are in typescript_test.go.
package examples_test

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/relation/semrel"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/transpiler"
)

// pack is one relation pack and the compiler it tests.
type pack struct {
	dir      string // under examples/
	compiler string // the program gen.sh runs
	debian   string // the package that installs it
	// the fault demonstration: the relations that run against it and those
	// expected to catch it
	faultRelations []string
	catchers       []string
}

var packs = []pack{
	{
		dir: "thrift", compiler: "thrift", debian: "thrift-compiler",
		faultRelations: []string{"add-field", "add-string-field", "add-struct"},
		catchers:       []string{"add-field", "add-string-field"},
	},
	{
		dir: "flatbuffers", compiler: "flatc", debian: "flatbuffers-compiler",
		faultRelations: []string{"add-enum-value", "add-enum-value-explicit", "add-field"},
		catchers:       []string{"add-enum-value", "add-enum-value-explicit"},
	},
}

// minCases is the size of the no-false-alarm campaign of each IDL pack
// (thrift and flatc run in milliseconds).
const minCases = 300

// tsCases is the size of the TypeScript pack's no-false-alarm campaigns:
// tsc takes about a second a run, and 48 test cases (8 a relation) show
// that every relation of the pack runs on the real compiler without a
// false alarm; a longer campaign belongs to mcpt run, not to the tests.
const tsCases = 48

func needCompiler(t *testing.T, p pack) {
	t.Helper()
	testtier.Tools(t, "apt-get install "+p.debian, p.compiler)
}

func load(t *testing.T, p pack) *setup.Setup {
	t.Helper()
	s, err := setup.Load(filepath.Join(p.dir, "mcpt.yaml"), setup.Options{Tools: &setup.Tools{CheckerKinds: semrel.Kinds, Parsers: tsParsers}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func campaign(t testing.TB, s *setup.Setup, tr transpiler.Transpiler, only []string, maxCases int) *result.Report {
	t.Helper()
	rels := s.Relations
	if only != nil {
		rels = nil
		for _, r := range s.Relations {
			if slices.Contains(only, r.Name) {
				rels = append(rels, r)
			}
		}
	}
	// The compilers and their faulty wrappers are deterministic: one
	// re-run confirms a finding (confirmation itself is engine's to test).
	c := &engine.Campaign{Transpiler: tr, Relations: rels, Seeds: s.Seeds, Options: engine.Options{
		Mode: engine.MCP, Seed: 1, MaxCases: maxCases, MaxSpots: 4,
		BaseRuns: s.Config.BaseRuns, ConfirmRuns: 1, Normalize: s.Normalize, Release: s.Release, Flags: s.Flags,
	}}
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if bad := slices.Concat(rep.Seeds.Rejected, rep.Seeds.Crashed, rep.Seeds.Nondeterministic); len(bad) > 0 {
		t.Fatalf("seeds the compiler did not accept deterministically: %v", bad)
	}
	return rep
}

// describe renders the first findings of a report for a failure message.
func describe(rep *result.Report, n int) string {
	var b strings.Builder
	for i, f := range rep.Findings {
		if i == n {
			fmt.Fprintf(&b, "… and %d more\n", len(rep.Findings)-n)
			break
		}
		fmt.Fprintf(&b, "%s: %s %s on %s (%s): %s\n%s\n", f.ID, f.Relation, f.Checker, f.SeedFile, f.Spot.Desc, f.Message, f.Diff)
	}
	return b.String()
}

func TestPacksHaveNoFalseAlarms(t *testing.T) {
	for _, p := range packs {
		t.Run(p.dir, func(t *testing.T) {
			needCompiler(t, p)
			s := load(t, p)
			rep := campaign(t, s, s.Transpiler, nil, minCases)
			if rep.TestCases < minCases {
				t.Fatalf("%d test cases, want %d", rep.TestCases, minCases)
			}
			if len(rep.Findings) > 0 {
				t.Fatalf("%d findings against the real %s (false alarms, or a %s bug):\n%s", len(rep.Findings), p.compiler, p.compiler, describe(rep, 3))
			}
			for _, r := range s.Relations {
				if rep.ByRelation[r.Name].TestCases == 0 {
					t.Errorf("relation %s ran no test case", r.Name)
				}
			}
			wall := time.Duration(rep.Timing.WallNS)
			perRun := time.Duration(rep.Timing.TranspileNS / int64(max(rep.TranspilerRuns, 1)))
			t.Logf("%d test cases, 0 findings, %d compiler runs of %v on average, %.1f test cases/s", rep.TestCases, rep.TranspilerRuns, perRun.Round(time.Millisecond), float64(rep.TestCases)/wall.Seconds())
			for _, r := range s.Relations {
				t.Logf("  %-26s %4d test cases", r.Name, rep.ByRelation[r.Name].TestCases)
			}
		})
	}
}

func TestFaultsAreDetected(t *testing.T) {
	for _, p := range packs {
		t.Run(p.dir, func(t *testing.T) {
			needCompiler(t, p)
			s := load(t, p)
			tr := faultyCommand(t, p)
			rep := campaign(t, s, tr, p.faultRelations, 80)
			if len(rep.Findings) == 0 {
				t.Fatalf("the fault of %s/faulty went unnoticed in %d test cases", p.dir, rep.TestCases)
			}
			caught := map[string]int{}
			for _, f := range rep.Findings {
				if f.Kind != result.Oracle {
					t.Errorf("finding %s is a %s, want an oracle finding: %s", f.ID, f.Kind, f.Message)
				}
				if !slices.Contains(p.catchers, f.Relation) {
					t.Errorf("finding %s by %s, which should not see this fault:\n%s", f.ID, f.Relation, f.Diff)
				}
				caught[f.Relation+" / "+f.Checker]++
			}
			for _, name := range p.catchers {
				if rep.ByRelation[name].Findings == 0 {
					t.Errorf("relation %s did not catch the fault", name)
				}
			}
			t.Logf("%d findings in %d test cases; caught by:", len(rep.Findings), rep.TestCases)
			for _, k := range sortedKeys(caught) {
				t.Logf("  %-50s %d", k, caught[k])
			}
		})
	}
}

// buildFaulty compiles the pack's fault demonstration.
func buildFaulty(t *testing.T, p pack) string {
	t.Helper()
	goCmd := "go"
	bin := filepath.Join(t.TempDir(), "faulty")
	cmd := exec.Command(goCmd, "build", "-o", bin, "./"+p.dir+"/faulty")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building %s/faulty: %v\n%s", p.dir, err, out)
	}
	return bin
}

func sortedKeys(m map[string]int) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
