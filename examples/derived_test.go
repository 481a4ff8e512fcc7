package examples_test

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/semrel"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/transpiler/cllc"
	"github.com/mcpt-tool/mcpt/tree"
)

// derivedCatches are the demo faults of cllc that the derived CLL
// catalogue finds: all but attr-escape, which renders the values of every
// attribute alike wrongly (the sibling's line is as wrong as the new one's)
// and which only the exact catalogue finds.
var derivedCatches = []string{"count-off-by-one", "drop-last-getter", "params-grouped", "reset-enum-by-name", "reverse-enums", "skip-second-tick", "skip-third-clear", "sorted-resets"}

func runCLL(t *testing.T, cfg string, faults []string, cases int) *result.Report {
	t.Helper()
	s, err := setup.Load(filepath.Join("cll", cfg), setup.Options{Faults: faults, Tools: &setup.Tools{Builtins: cllc.Builtins(), Parsers: tsParsers}})
	if err != nil {
		t.Fatal(err)
	}
	c := &engine.Campaign{Transpiler: s.Transpiler, Relations: s.Relations, Seeds: s.Seeds, Options: engine.Options{
		Mode: engine.MCP, Seed: 1, MaxCases: cases, BaseRuns: 1,
	}}
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestDerivedCatalogueShape: the derived catalogue has the eleven
// relations of the exact one, under the same names, each in a file of at
// most 20 lines that uses derived checkers only.
func TestDerivedCatalogueShape(t *testing.T) {
	files, _ := filepath.Glob("cll/derived/*.yaml")
	exact, _ := filepath.Glob("cll/relations/*.yaml")
	nameRE := regexp.MustCompile(`(?m)^  - name: (\S+)$`)
	names := func(files []string) []string {
		var out []string
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range nameRE.FindAllStringSubmatch(string(b), -1) {
				out = append(out, m[1])
			}
		}
		slices.Sort(out)
		return out
	}
	if d, e := names(files), names(exact); len(d) != 11 || !slices.Equal(d, e) {
		t.Fatalf("derived relations %v, exact %v", d, e)
	}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if n := strings.Count(string(b), "\n"); n > 20 {
			t.Errorf("%s: %d lines", f, n)
		}
		if regexp.MustCompile(`(?m)^\s+- (equivalence|difference|created):`).Match(b) {
			t.Errorf("%s: an exact check in the derived catalogue", f)
		}
	}
}

// TestDerivedNoFalseAlarm: the derived catalogue on the generated seeds
// with the correct cllc reports nothing.
func TestDerivedNoFalseAlarm(t *testing.T) {
	testtier.Long(t, "2,000 test cases")
	rep := runCLL(t, "derived.yaml", nil, 2000)
	if rep.TestCases != 2000 {
		t.Fatalf("%d test cases", rep.TestCases)
	}
	if len(rep.Findings) > 0 {
		t.Errorf("%d false alarms:\n%s", len(rep.Findings), describe(rep, 5))
	}
}

// TestDerivedFindsFaults: each demo fault the derived catalogue is meant
// to find, it finds.
func TestDerivedFindsFaults(t *testing.T) {
	testtier.Long(t, "1,000 test cases per demo fault")
	for _, f := range derivedCatches {
		t.Run(f, func(t *testing.T) {
			rep := runCLL(t, "derived.yaml", []string{f}, 1000)
			n := 0
			for _, x := range rep.Findings {
				if x.Kind == result.Oracle {
					n++
				}
			}
			if n == 0 {
				t.Errorf("no finding in %d test cases", rep.TestCases)
			}
		})
	}
}

// BenchmarkChecks times FollowUp.Check of the exact and of the derived CLL
// catalogue over the same test cases: the same 40 generated seeds, every
// relation, its first four spots. The ratio sub-benchmark alternates
// blocks of both, so that a machine's load weighs on both alike, and
// reports the time per case of each and derived/exact.
func BenchmarkChecks(b *testing.B) {
	type checkCase struct {
		fu    *relation.FollowUp
		o, o2 tree.Tree
	}
	cases := map[string][]checkCase{}
	for _, cfg := range []string{"generated.yaml", "derived.yaml"} {
		s, err := setup.Load(filepath.Join("cll", cfg), setup.Options{Tools: &setup.Tools{Builtins: cllc.Builtins(), Parsers: tsParsers}})
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		for _, seed := range s.Seeds[:40] {
			in := relation.Input{Name: filepath.Base(seed.Name), Src: seed.Src}
			base, err := s.Transpiler.Transpile(ctx, transpiler.Request{Name: in.Name, Src: in.Src, Role: transpiler.Base})
			if err != nil || base.Status != transpiler.Accepted {
				b.Fatalf("%s: %v", seed.Name, err)
			}
			for _, r := range s.Relations {
				spots, _ := r.Spots(context.Background(), in)
				for _, sp := range spots[:min(4, len(spots))] {
					fu, err := r.Mutate(context.Background(), in, sp, rand.New(rand.NewPCG(uint64(sp.Index), 1)))
					if err != nil {
						b.Fatal(err)
					}
					res, err := s.Transpiler.Transpile(ctx, transpiler.Request{Name: in.Name, Src: fu.Src, Role: transpiler.FollowUp})
					if err != nil || res.Status != transpiler.Accepted {
						continue
					}
					cases[cfg] = append(cases[cfg], checkCase{fu, base.Files, res.Files})
				}
			}
		}
	}
	check := func(cfg string, from, n int) {
		cs := cases[cfg]
		for i := from; i < from+n; i++ {
			c := cs[i%len(cs)]
			c.fu.Check(c.o, c.o2)
		}
	}
	for _, cfg := range []string{"generated.yaml", "derived.yaml"} {
		b.Run(strings.TrimSuffix(cfg, ".yaml"), func(b *testing.B) { check(cfg, 0, b.N) })
	}
	b.Run("ratio", func(b *testing.B) {
		const block = 100
		var clock, cpu [2]int64
		for i := 0; i < b.N; i += block {
			for k, cfg := range []string{"generated.yaml", "derived.yaml"} {
				t0, c0 := time.Now(), cpuTime()
				check(cfg, i, block)
				clock[k] += time.Since(t0).Nanoseconds()
				cpu[k] += cpuTime() - c0
			}
		}
		n := float64((b.N + block - 1) / block * block)
		b.ReportMetric(float64(clock[0])/n, "exact-ns/case")
		b.ReportMetric(float64(clock[1])/n, "derived-ns/case")
		b.ReportMetric(float64(clock[1])/float64(clock[0]), "derived/exact")
		if cpu[0] > 0 {
			b.ReportMetric(float64(cpu[0])/n, "exact-cpu-ns/case")
			b.ReportMetric(float64(cpu[1])/n, "derived-cpu-ns/case")
			b.ReportMetric(float64(cpu[1])/float64(cpu[0]), "derived/exact-cpu")
		}
	})
}

// TestDerivedPacks: the derived relations of each pack against the real
// compiler report nothing. TestHoldoutFaults shows them catching a fault
// of each compiler.
func TestDerivedPacks(t *testing.T) {
	for _, p := range packs {
		t.Run(p.dir, func(t *testing.T) {
			needCompiler(t, p)
			s, err := setup.Load(filepath.Join(p.dir, "derived.yaml"), setup.Options{Tools: &setup.Tools{CheckerKinds: semrel.Kinds, Parsers: tsParsers}})
			if err != nil {
				t.Fatal(err)
			}
			rep := campaign(t, s, s.Transpiler, nil, 150)
			if len(rep.Findings) > 0 {
				t.Errorf("%d false alarms:\n%s", len(rep.Findings), describe(rep, 5))
			}
		})
	}
}
