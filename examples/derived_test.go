package examples_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/result"
	_ "github.com/mcpt-tool/mcpt/transpiler/cllc"
)

// derivedCatches are the demo faults of cllc that the derived CLL
// catalogue finds; the other two (attr-escape, count-off-by-one) change
// only a value that the derived checkers mask, and only the exact
// catalogue finds them.
var derivedCatches = []string{"drop-last-getter", "params-grouped", "reset-enum-by-name", "reverse-enums", "skip-second-tick", "skip-third-clear", "sorted-resets"}

func runCLL(t *testing.T, cfg string, faults []string, cases int) *result.Report {
	t.Helper()
	s, err := setup.Load(filepath.Join("cll", cfg), setup.Options{Faults: faults})
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
