package examples_test

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/tree"
)

// logicRelations are the CLL relations on statements (docs/cll.md), in
// the order mcpt lists them.
var logicRelations = []string{
	"assignments-fresh-entities", "comparisons-fresh-entities", "copy-variable", "deep-ifs-fresh-entities",
	"elif-fresh-parameters", "if-elif-else-fresh-entities", "nested-ifs-fresh-entities", "send-fresh-command",
	"sequence-fresh-entities", "set-fresh-variable", "start-stop-fresh-timer", "test-fresh-event",
}

// loadLogic loads cll/statements.yaml, the relations on statements, with
// the given options.
func loadLogic(t *testing.T, opt setup.Options) *setup.Setup {
	t.Helper()
	s, err := setup.Load(filepath.Join("cll", "statements.yaml"), opt)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range s.Relations {
		names = append(names, r.Name)
	}
	if !slices.Equal(names, logicRelations) {
		t.Fatalf("relations %v, want %v", names, logicRelations)
	}
	return s
}

// TestLogicNoFalseAlarm: the relations on statements, on the generated
// seeds with the correct cllc, report nothing. (docs/experiment.md
// and docs/cll.md measure 5,000 test cases; this is the part CI can
// afford.)
func TestLogicNoFalseAlarm(t *testing.T) {
	s := loadLogic(t, setup.Options{})
	c := &engine.Campaign{Transpiler: s.Transpiler, Relations: s.Relations, Seeds: s.Seeds, Options: engine.Options{
		Mode: engine.MCP, Seed: 1, MaxCases: 1200, BaseRuns: 1,
	}}
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.TestCases != 1200 {
		t.Fatalf("%d test cases", rep.TestCases)
	}
	if len(rep.Findings) > 0 {
		t.Errorf("%d false alarms:\n%s", len(rep.Findings), describe(rep, 5))
	}
}

// TestLogicSeesAWrongStatement: on the example programs, each relation on
// statements passes the correct follow-up output, and fails it once the
// last line of p.c that names a fresh entity is changed by one character,
// as a fault in the translation of a statement would change it.
func TestLogicSeesAWrongStatement(t *testing.T) {
	seeds, err := filepath.Glob(filepath.Join("cll", "*.cll"))
	if err != nil || len(seeds) != 8 {
		t.Fatalf("%d example programs: %v", len(seeds), err)
	}
	s := loadLogic(t, setup.Options{SeedFiles: seeds})
	ctx := context.Background()
	for _, r := range s.Relations {
		t.Run(r.Name, func(t *testing.T) {
			cases := 0
			for _, seed := range s.Seeds {
				in := relation.Input{Name: filepath.Base(seed.Name), Src: seed.Src}
				spots, err := r.Spots(in)
				if err != nil {
					t.Fatal(err)
				}
				base, err := s.Transpiler.Transpile(ctx, transpiler.Request{Name: in.Name, Src: in.Src, Role: transpiler.Base})
				if err != nil || base.Status != transpiler.Accepted {
					t.Fatalf("%s: %v %v", in.Name, base.Status, err)
				}
				for _, sp := range spots[:min(3, len(spots))] {
					fu, err := r.Mutate(in, sp, rand.New(rand.NewPCG(uint64(sp.Index), 7)))
					if err != nil {
						t.Fatal(err)
					}
					res, err := s.Transpiler.Transpile(ctx, transpiler.Request{Name: in.Name, Src: fu.Src, Role: transpiler.FollowUp})
					if err != nil || res.Status != transpiler.Accepted {
						t.Fatalf("%s, %s: follow-up %v %v", in.Name, sp.Desc, res.Status, err)
					}
					if f := fu.Check(base.Files, res.Files); len(f) > 0 {
						t.Fatalf("%s, %s: %s\n%s", in.Name, sp.Desc, f[0].Message, f[0].Diff)
					}
					if f := fu.Check(base.Files, spoil(t, res.Files, fu)); len(f) == 0 {
						t.Errorf("%s, %s: a changed line passed", in.Name, sp.Desc)
					}
					cases++
				}
			}
			if cases == 0 {
				t.Error("no spot on the example programs")
			}
		})
	}
}

// spoil returns a copy of the output whose p.c has its last line that
// names a fresh entity changed: its last character doubled.
func spoil(t *testing.T, out tree.Tree, fu *relation.FollowUp) tree.Tree {
	t.Helper()
	var fresh []string
	for _, k := range fu.Fresh {
		if v := fu.Bindings[k]; v != "" {
			fresh = append(fresh, relation.Snake(v))
		}
	}
	spoilt := tree.Tree{}
	for name, b := range out {
		spoilt[name] = b
		if name != fu.Bindings["p"]+".c" {
			continue
		}
		lines := strings.Split(string(b), "\n")
		for i := len(lines) - 1; i >= 0; i-- {
			if slices.ContainsFunc(fresh, func(f string) bool { return strings.Contains(lines[i], f) }) {
				lines[i] += lines[i][len(lines[i])-1:]
				spoilt[name] = []byte(strings.Join(lines, "\n"))
				return spoilt
			}
		}
	}
	t.Fatalf("no line of p.c names %v", fresh)
	return nil
}
