package gorel_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/examples/thrift/gorel"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/internal/testtier"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/yamlrel"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/transpiler/spec"
	"github.com/mcpt-tool/mcpt/tree"
)

// inputs are the Thrift pack's seeds and the real-world corpus.
func inputs(t *testing.T) []relation.Input {
	t.Helper()
	files, _ := filepath.Glob("../*.thrift")
	corpus, _ := filepath.Glob("../../../testdata/corpus/thrift/*.thrift")
	if len(files) < 7 || len(corpus) < 20 {
		t.Fatalf("%d seeds, %d corpus files: they are not where they were", len(files), len(corpus))
	}
	var out []relation.Input
	for _, f := range slices.Concat(files, corpus) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, relation.Input{Name: f, Src: src})
	}
	return out
}

func yamlRelation(t *testing.T) *relation.Relation {
	t.Helper()
	rs, err := yamlrel.LoadFiles("../relations/add-service-method.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.Name == gorel.Name {
			return r
		}
	}
	t.Fatal("relations/add-service-method.yaml has no add-service-method")
	return nil
}

// testCase is one spot of one input, mutated by both relations from the
// same rng state.
type testCase struct {
	in         relation.Input
	spot       relation.Spot
	goFU, yaFU *relation.FollowUp
}

// sameCases checks that the Go relation has the YAML relation's spots and,
// from the same rng state, makes the same follow-up at each, and returns
// them.
func sameCases(t *testing.T) []testCase {
	t.Helper()
	ctx := context.Background()
	g, y := gorel.AddServiceMethod(), yamlRelation(t)
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	var out []testCase
	for _, in := range inputs(t) {
		gs, err := g.Spots(ctx, in)
		if err != nil {
			t.Fatalf("%s: %v", in.Name, err)
		}
		ys, err := y.Spots(ctx, in)
		if err != nil {
			t.Fatalf("%s: %v", in.Name, err)
		}
		if !slices.Equal(gs, ys) {
			t.Errorf("%s: spots\n%v\nthe YAML relation's:\n%v", in.Name, gs, ys)
			continue
		}
		for _, sp := range gs {
			gf, err := g.Mutate(ctx, in, sp, rand.New(rand.NewPCG(uint64(sp.Index), 25)))
			if err != nil {
				t.Fatalf("%s at %s: %v", in.Name, sp.Desc, err)
			}
			yf, err := y.Mutate(ctx, in, sp, rand.New(rand.NewPCG(uint64(sp.Index), 25)))
			if err != nil {
				t.Fatalf("%s at %s: %v", in.Name, sp.Desc, err)
			}
			if string(gf.Src) != string(yf.Src) {
				t.Errorf("%s at %s: follow-up\n%s\nthe YAML relation's:\n%s", in.Name, sp.Desc, gf.Src, yf.Src)
			}
			for _, k := range []string{"M", "p", "V"} {
				if gf.Bindings[k] != yf.Bindings[k] {
					t.Errorf("%s at %s: %s = %q, the YAML relation's %q", in.Name, sp.Desc, k, gf.Bindings[k], yf.Bindings[k])
				}
			}
			out = append(out, testCase{in, sp, gf, yf})
		}
	}
	return out
}

// TestSameFollowUps: on the seeds and the corpus, the Go relation has the
// spots of the YAML one and makes the same follow-ups.
func TestSameFollowUps(t *testing.T) {
	if n := len(sameCases(t)); n < 50 {
		t.Errorf("%d test cases: the seeds and corpus have fewer services than they had", n)
	}
}

// TestSamePredictions (tools tier): at every spot of the seeds and of the
// corpus files thrift accepts alone, the Go relation's checkers predict,
// from thrift's output for the input, the same content as the YAML
// relation's for every file (or both fail to place an edit), and leave
// out the same files.
func TestSamePredictions(t *testing.T) {
	testtier.Tools(t, "apt-get install thrift-compiler", "thrift")
	outputs := map[string]tree.Tree{}
	compared, unplaced := 0, 0
	for _, tc := range sameCases(t) {
		o, ok := outputs[tc.in.Name]
		if !ok {
			o = generate(t, tc.in.Name)
			outputs[tc.in.Name] = o
		}
		if o == nil {
			continue // rejected alone: it needs files beside it
		}
		gc, yc := tc.goFU.Checks, tc.yaFU.Checks
		if len(gc) != len(yc) {
			t.Fatalf("%s at %s: %d checkers, the YAML relation %d", tc.in.Name, tc.spot.Desc, len(gc), len(yc))
		}
		for i := range gc {
			switch g := gc[i].(type) {
			case *oracle.Equivalence:
				y, ok := yc[i].(*oracle.Equivalence)
				if !ok || !slices.Equal(g.Except, y.Except) {
					t.Errorf("%s at %s: equivalence except %v, the YAML relation's %v", tc.in.Name, tc.spot.Desc, g.Except, yc[i])
				}
			case *oracle.Difference:
				y, ok := yc[i].(*oracle.Difference)
				if !ok || g.Name != y.Name || g.File != y.File {
					t.Fatalf("%s at %s: checker %s on %s, the YAML relation's %v", tc.in.Name, tc.spot.Desc, g.Name, g.File, yc[i])
				}
				f, err := oracle.FindFile(g.File, o)
				if err != nil {
					t.Errorf("%s: %v", tc.in.Name, err)
					continue
				}
				gp, gerr := g.Predict(string(o[f]))
				yp, yerr := y.Predict(string(o[f]))
				switch {
				case gerr != nil && yerr != nil:
					unplaced++
				case (gerr != nil) != (yerr != nil):
					t.Errorf("%s at %s, %s: the Go relation's prediction: %v; the YAML one's: %v", tc.in.Name, tc.spot.Desc, f, gerr, yerr)
				case gp != yp:
					t.Errorf("%s at %s (%s), %s: the Go relation predicts\n%s", tc.in.Name, tc.spot.Desc, tc.goFU.Bindings["R"], f, oracle.Diff(f, yp, gp))
				}
				compared++
			default:
				t.Fatalf("checker %T", g)
			}
		}
	}
	t.Logf("%d predictions compared, %d of them an edit neither relation places", compared, unplaced)
	if compared < 200 {
		t.Errorf("%d predictions compared: the seeds and corpus have fewer services than they had", compared)
	}
}

// generate runs gen.sh on the input and reads the output tree; nil when
// thrift rejects it.
func generate(t *testing.T, input string) tree.Tree {
	t.Helper()
	dir := t.TempDir()
	abs, err := filepath.Abs(input)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("../gen.sh", abs, dir).CombinedOutput(); err != nil {
		t.Logf("%s: rejected alone: %s", input, out)
		return nil
	}
	o, err := tree.Read(dir, tree.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestCompare (tools tier) runs the Go relation (go-relation.yaml) and the
// YAML one (mcpt.yaml, add-service-method only) in the same campaigns,
// seed 1: on the pack's seeds and on the real-world corpus with the
// correct thrift, where every finding is a false alarm, and on the seeds
// with both faults of faulty/. It prints the table of examples/thrift's
// README; the relations must have the same figures, no false alarm, and
// catch the process-order fault. MCPT_COMPARE_CASES sets the test cases
// of each campaign (default 24; the README's table has 60).
func TestCompare(t *testing.T) {
	testtier.Tools(t, "apt-get install thrift-compiler", "thrift")
	cases := 24
	if n, err := strconv.Atoi(os.Getenv("MCPT_COMPARE_CASES")); err == nil && n > 0 {
		cases = n
	}
	tools := &setup.Tools{}
	if err := tools.GoRelations.Add(gorel.AddServiceMethod()); err != nil {
		t.Fatal(err)
	}
	corpus, _ := filepath.Glob("../../../testdata/corpus/thrift/*.thrift")
	faulty := buildFaulty(t)
	campaigns := []struct {
		name  string
		seeds []string
		fault string
	}{
		{"seeds, correct thrift", nil, ""},
		{fmt.Sprintf("corpus (%d files), correct thrift", len(corpus)), corpus, ""},
		{"seeds, faulty -fault=field-order", nil, "field-order"},
		{"seeds, faulty -fault=process-order", nil, "process-order"},
	}
	var table strings.Builder
	table.WriteString("| campaign | test cases | findings, Go | findings, YAML |\n|---|---|---|---|\n")
	t.Logf("%d corpus files", len(corpus))
	for _, c := range campaigns {
		var got [2]*result.Report
		for i, cfg := range []string{"../go-relation.yaml", "../mcpt.yaml"} {
			s, err := setup.Load(cfg, setup.Options{Tools: tools, SeedFiles: c.seeds})
			if err != nil {
				t.Fatal(err)
			}
			rels := slices.DeleteFunc(s.Relations, func(r *relation.Relation) bool { return r.Name != gorel.Name })
			tr := s.Transpiler
			if c.fault != "" {
				if tr, err = transpiler.NewCommand(transpiler.Command{Process: spec.Process{
					Argv: []string{faulty, "-fault=" + c.fault, "./gen.sh", transpiler.PlaceholderInput, transpiler.PlaceholderOutDir},
					Dir:  "..", Reject: []int{1}, Timeout: time.Minute,
				}}); err != nil {
					t.Fatal(err)
				}
			}
			camp := &engine.Campaign{Transpiler: tr, Relations: rels, Seeds: s.Seeds, Options: engine.Options{
				Mode: engine.MCP, Seed: 1, MaxCases: cases, MaxSpots: 4, BaseRuns: s.Config.BaseRuns, Normalize: s.Normalize,
			}}
			if got[i], err = camp.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		g, y := got[0], got[1]
		fmt.Fprintf(&table, "| %s | %d | %d | %d |\n", c.name, g.TestCases, len(g.Findings), len(y.Findings))
		if g.TestCases != y.TestCases || len(g.Findings) != len(y.Findings) {
			t.Errorf("%s: the Go relation has %d findings in %d test cases, the YAML one %d in %d", c.name, len(g.Findings), g.TestCases, len(y.Findings), y.TestCases)
		}
		switch c.fault {
		case "":
			// Both relations leave out what a method added to a service
			// does to the remote tool of a service that extends it
			// (DebugProtoTest.thrift's Inherited lists Srv's methods):
			// the one false alarm they have, which a Go relation can grow
			// to predict. Any other is an error.
			for _, f := range g.Findings {
				t.Logf("%s: a false alarm: %s %s on %s: %s", c.name, f.Relation, f.Kind, f.SeedFile, f.Message)
				if f.Kind != result.Oracle || !strings.HasSuffix(f.File, "-remote") || c.seeds == nil {
					t.Errorf("%s: a false alarm the relations did not have: %s", c.name, f.Message)
				}
			}
		case "process-order":
			if len(g.Findings) == 0 {
				t.Errorf("%s: the fault went unnoticed in %d test cases", c.name, g.TestCases)
			}
		}
	}
	t.Logf("add-service-method, Go and YAML, %d test cases a campaign, seed 1:\n%s", cases, table.String())
}

// buildFaulty compiles the pack's fault demonstration.
func buildFaulty(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "faulty")
	if out, err := exec.Command("go", "build", "-o", bin, "../faulty").CombinedOutput(); err != nil {
		t.Fatalf("building faulty: %v\n%s", err, out)
	}
	return bin
}
