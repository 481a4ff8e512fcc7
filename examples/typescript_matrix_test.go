package examples_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/config"
	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/matrix"
	"github.com/mcpt-tool/mcpt/relation/semrel"
)

// TestTypeScriptMatrix runs the pack's relations as matrix.yaml does: the
// release read from tsc --version, each seed under the four combinations
// of target and module (all of which the pack supports),
// and no finding; a value the pack does not list stops the campaign at
// start, saying so in one line.
func TestTypeScriptMatrix(t *testing.T) {
	needTsc(t)
	s, err := setup.Load(filepath.Join(tsDir, "matrix.yaml"), setup.Options{Tools: &setup.Tools{CheckerKinds: semrel.Kinds, Parsers: tsParsers}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var pkg struct{ Version string }
	b, err := os.ReadFile(filepath.Join(tsDir, "node_modules", "typescript", "package.json"))
	if err == nil {
		err = json.Unmarshal(b, &pkg)
	}
	if err != nil || s.Release != pkg.Version {
		t.Fatalf("release %q, the installed TypeScript is %q (%v)", s.Release, pkg.Version, err)
	}
	opt := s.EngineOptions()
	// Two relations per visit of a seed under a combination, so that the
	// budget spreads over the 24 pairs.
	opt.MaxCases, opt.MaxMR, opt.Workers = 120, 2, 2
	c := &engine.Campaign{Transpiler: s.Transpiler, Relations: s.Relations, Seeds: s.Seeds, Options: opt}
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Flags) != 4 || rep.TestCases != 120 {
		t.Fatalf("%d combinations, %d test cases", len(rep.Flags), rep.TestCases)
	}
	if len(rep.Findings) > 0 {
		t.Fatalf("%d findings against the real tsc (false alarms, or a tsc bug):\n%s", len(rep.Findings), describe(rep, 3))
	}
	under := map[string]int{}
	for _, cs := range rep.Cases {
		under[cs.Flags] += cs.TestCases
	}
	for _, f := range rep.Flags {
		if under[f] == 0 {
			t.Errorf("no test case under %s", f)
		}
	}
	t.Logf("tsc %s: %d test cases, 0 findings, under %v", rep.Release, rep.TestCases, under)

	// ES5 is no target the pack supports: it has no classes.
	_, err = setup.Load(filepath.Join(tsDir, "matrix.yaml"), setup.Options{Tools: &setup.Tools{CheckerKinds: semrel.Kinds, Parsers: tsParsers}, Edit: func(cfg *config.Config) error {
		d := &cfg.Flags.Matrix[0]
		d.Values = append(d.Values, matrix.Value{Name: "es5", Args: []string{"--target", "es5"}})
		return nil
	}})
	if err == nil || strings.Count(err.Error(), "\n") > 0 || !strings.Contains(err.Error(), "flags: target=es5 is not supported by the pack, which knows target es2017, es2022, esnext") ||
		!strings.Contains(err.Error(), "(typescript/relations/ts.defs.yaml:") {
		t.Errorf("an unsupported target: %v", err)
	}
}
