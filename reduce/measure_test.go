package reduce_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/cll"
	"github.com/mcpt-tool/mcpt/reduce"
	"github.com/mcpt-tool/mcpt/result"
)

var (
	measure    = flag.Bool("measure", false, "run TestMeasureTen: reduce ten findings of generated seeds and report the reduction")
	measureOut = flag.String("measure-out", "", "with -measure: save the original and reduced bundles of the ten findings in this directory")
)

// TestMeasureTen reduces ten findings of campaigns on the generated seeds
// of examples/cll/generated.yaml, each against cllc with one demo fault,
// taken from seeds of 50 lines or more and from as many different faults,
// relations and signatures as there are; it checks that each reduced base
// gives its finding again and that the median line reduction is at least
// 80%. Run it with
//
//	go test ./reduce -run TestMeasureTen -measure -v
func TestMeasureTen(t *testing.T) {
	if !*measure {
		t.Skip("pass -measure to run the measurement")
	}
	const want, minLines, maxCases = 10, 50, 1500
	seeds := generatedSeeds(t)

	type candidate struct {
		fault string
		f     result.Finding
		base  []byte
	}
	var pools [][]candidate
	for _, fl := range cll.Faults() {
		s := load(t, []string{fl.Name})
		fs, src := campaign(t, s, seeds, maxCases)
		var pool []candidate
		for _, f := range fs {
			if f.Kind == result.Oracle && reduce.CountLines(src[f.SeedFile]) >= minLines {
				pool = append(pool, candidate{fl.Name, f, src[f.SeedFile]})
			}
		}
		t.Logf("fault %-18s %4d findings, %4d on seeds of %d lines or more", fl.Name, len(fs), len(pool), minLines)
		pools = append(pools, pool)
	}

	// Round robin over the faults: each round takes from every fault the
	// first finding of a relation not yet taken for it, of a signature not
	// yet taken at all and, while there are such, of a seed not yet taken.
	var picked []candidate
	sigs, rels, used := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, newSeed := range []bool{true, false} {
		for took := true; took && len(picked) < want; {
			took = false
			for _, pool := range pools {
				for _, c := range pool {
					if len(picked) == want {
						break
					}
					if sigs[c.f.Signature] || rels[c.fault+" "+c.f.Relation] || newSeed && used[c.f.SeedFile] {
						continue
					}
					sigs[c.f.Signature], rels[c.fault+" "+c.f.Relation], used[c.f.SeedFile] = true, true, true
					picked = append(picked, c)
					took = true
					break
				}
			}
		}
	}
	if len(picked) < want {
		t.Fatalf("only %d findings to reduce", len(picked))
	}

	var ratios []float64
	var totalRuns int64
	var table strings.Builder
	fmt.Fprintf(&table, "%-18s %-26s %-30s %-14s %11s %7s %6s\n", "fault", "relation", "checker", "seed", "lines", "fewer", "runs")
	for _, c := range picked {
		s := load(t, []string{c.fault})
		res, err := reduce.Reduce(context.Background(), reduce.Target{
			Transpiler: s.Transpiler, Relation: relationOf(t, s, c.f.Relation), Normalize: s.Normalize,
			Finding: c.f, Base: c.base,
		}, reduce.Options{MaxRuns: 20000})
		if err != nil {
			t.Fatalf("%s: %v", c.f.ID, err)
		}
		if res.Stopped != "" {
			t.Errorf("%s: stopped (%s)", c.f.ID, res.Stopped)
		}
		if got := replay(t, s, &res.Finding, res.Base); !hasSignature(got, c.f.Signature) {
			t.Errorf("%s: the reduced base does not give %s again", c.f.ID, c.f.Signature)
		}
		if *measureOut != "" {
			saveBoth(t, *measureOut, c.f, c.base, res)
		}
		ratios = append(ratios, res.Ratio())
		totalRuns += res.Runs
		fmt.Fprintf(&table, "%-18s %-26s %-30s %-14s %4d → %4d %6.1f%% %6d\n", c.fault, c.f.Relation, c.f.Checker+" "+c.f.FileKey,
			strings.TrimPrefix(c.f.SeedFile, "cll.grammar/"), res.LinesBefore, res.LinesAfter, 100*res.Ratio(), res.Runs)
	}
	slices.Sort(ratios)
	median := (ratios[len(ratios)/2-1] + ratios[len(ratios)/2]) / 2
	fmt.Fprintf(&table, "median line reduction %.1f%% (min %.1f%%, max %.1f%%); %d transpiler runs in all, %d per finding on average\n",
		100*median, 100*ratios[0], 100*ratios[len(ratios)-1], totalRuns, totalRuns/int64(len(ratios)))
	t.Log("\n" + table.String())
	if median < 0.8 {
		t.Errorf("median line reduction %.1f%%, want at least 80%%", 100*median)
	}
}

// saveBoth writes the base of the original finding and the reduced bundle
// under dir/findings, for people to look at.
func saveBoth(t *testing.T, dir string, f result.Finding, base []byte, res *reduce.Result) {
	t.Helper()
	orig := filepath.Join(dir, "findings", f.ID)
	if err := os.MkdirAll(filepath.Join(orig, "base"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(orig, "base", path.Base(f.SeedFile)), base, 0o644); err != nil {
		t.Fatal(err)
	}
	rf := res.Finding
	rf.ID += "-reduced"
	if err := reduce.WriteBundle(reduce.ReducedDir(orig), "", &rf, nil, res); err != nil {
		t.Fatal(err)
	}
}
