package reduce_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/grammar"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/reduce"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/signature"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/transpiler/cllc"
)

var examples = filepath.Join("..", "examples", "cll")

// load reads the CLL example configuration with the given cllc faults.
func load(t testing.TB, faults []string) *setup.Setup {
	t.Helper()
	s, err := setup.Load(filepath.Join(examples, "mcpt.yaml"), setup.Options{Faults: faults, Tools: &setup.Tools{Builtins: cllc.Builtins()}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var generated struct {
	once  sync.Once
	seeds []engine.Seed
	err   error
}

// generatedSeeds are the seeds of examples/cll/generated.yaml: 300
// programs from cll.grammar with generator seed 1.
func generatedSeeds(t testing.TB) []engine.Seed {
	t.Helper()
	generated.once.Do(func() {
		g, err := grammar.ParseFile(filepath.Join(examples, "cll.grammar"))
		if err != nil {
			generated.err = err
			return
		}
		b, err := grammar.Generate(g, grammar.Options{N: 300, Seed: 1, Workers: 2})
		if err != nil {
			generated.err = err
			return
		}
		for i, p := range b.Programs {
			generated.seeds = append(generated.seeds, engine.Seed{Name: fmt.Sprintf("cll.grammar/seed-%04d.cll", i+1), Src: p.Source})
		}
	})
	if generated.err != nil {
		t.Fatal(generated.err)
	}
	return generated.seeds
}

// campaign runs the engine on seeds and returns its findings with the
// base input of each.
func campaign(t testing.TB, s *setup.Setup, seeds []engine.Seed, maxCases int) ([]result.Finding, map[string][]byte) {
	t.Helper()
	c := &engine.Campaign{Transpiler: s.Transpiler, Relations: s.Relations, Seeds: seeds, Options: engine.Options{
		Seed: 1, MaxCases: maxCases, Workers: 2, Normalize: s.Normalize,
	}}
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	src := map[string][]byte{}
	for _, sd := range seeds {
		src[sd.Name] = sd.Src
	}
	return rep.Findings, src
}

func relationOf(t testing.TB, s *setup.Setup, name string) *relation.Relation {
	t.Helper()
	for _, r := range s.Relations {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no relation %s", name)
	return nil
}

// replay runs the test case of f on base at f's own spot, the way mcpt
// repro does, and returns the findings made from its failures.
func replay(t testing.TB, s *setup.Setup, f *result.Finding, base []byte) []result.Finding {
	t.Helper()
	ctx := context.Background()
	rel := relationOf(t, s, f.Relation)
	name := path.Base(f.SeedFile)
	in := relation.Input{Name: name, Src: base}
	spots, err := rel.Spots(context.Background(), in)
	if err != nil || f.Spot.Index >= len(spots) {
		t.Fatalf("spots of the reduced base: %v (%d spots, want index %d)", err, len(spots), f.Spot.Index)
	}
	if sp := spots[f.Spot.Index]; sp.Desc != f.Spot.Desc || sp.Line != f.Spot.Line {
		t.Errorf("spot %d is %+v, the finding says %+v", f.Spot.Index, sp, f.Spot)
	}
	tr := &engine.Tester{Transpiler: s.Transpiler, Normalize: s.Normalize, NoRecheck: true}
	b, err := tr.Base(ctx, engine.Seed{Name: f.SeedFile, Src: base})
	if err != nil || b.Skip != "" {
		t.Fatalf("base run: %v %s", err, b.Skip)
	}
	out, err := tr.Run(ctx, engine.Test{Base: b, Relation: rel, Spot: spots[f.Spot.Index], CaseSeed: f.CaseSeed})
	if err != nil {
		t.Fatal(err)
	}
	return out.Findings
}

func hasSignature(fs []result.Finding, sig string) bool {
	for _, f := range fs {
		if f.Signature == sig {
			return true
		}
	}
	return false
}

// TestReduceRealFinding reduces a finding of a campaign on generated seeds
// against cllc with the sorted-resets fault: the reduced base is smaller,
// gives the finding again at the recorded spot with the same signature,
// and the reduced bundle reads back.
func TestReduceRealFinding(t *testing.T) {
	s := load(t, []string{"sorted-resets"})
	seeds := generatedSeeds(t)[:60]
	fs, src := campaign(t, s, seeds, 300)
	var f *result.Finding
	for i := range fs {
		if fs[i].Kind == result.Oracle && reduce.CountLines(src[fs[i].SeedFile]) >= 40 {
			f = &fs[i]
			break
		}
	}
	if f == nil {
		t.Fatalf("no oracle finding on a seed of 40 lines or more among %d findings", len(fs))
	}
	base := src[f.SeedFile]
	res, err := reduce.Reduce(context.Background(), reduce.Target{
		Transpiler: s.Transpiler, Relation: relationOf(t, s, f.Relation), Normalize: s.Normalize,
		Finding: *f, Base: base,
	}, reduce.Options{MaxRuns: 20000})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s (%s): %d → %d lines in %d runs", f.ID, f.Signature, res.LinesBefore, res.LinesAfter, res.Runs)
	if res.Stopped != "" {
		t.Errorf("stopped: %s", res.Stopped)
	}
	if res.LinesAfter >= res.LinesBefore || len(res.Base) >= len(base) {
		t.Errorf("not smaller: %d → %d lines, %d → %d bytes", res.LinesBefore, res.LinesAfter, len(base), len(res.Base))
	}
	if res.Finding.Signature != f.Signature {
		t.Errorf("signature %s, want %s", res.Finding.Signature, f.Signature)
	}
	if got := replay(t, s, &res.Finding, res.Base); !hasSignature(got, f.Signature) {
		t.Errorf("the reduced base does not give %s again at spot %d: %v", f.Signature, res.Finding.Spot.Index, got)
	}
	if res.Runs <= 0 || res.Candidates <= 0 {
		t.Errorf("runs %d, candidates %d", res.Runs, res.Candidates)
	}

	// The bundle has the engine's layout and reads back.
	dir := filepath.Join(t.TempDir(), "findings", f.ID)
	out := reduce.ReducedDir(dir)
	rf := res.Finding
	rf.ID += "-reduced"
	if err := reduce.WriteBundle(out, "", &rf, nil, res); err != nil {
		t.Fatal(err)
	}
	bd, err := bundle.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(bd.Base, res.Base) || bd.Finding.Signature != f.Signature || bd.Finding.Spot != res.Finding.Spot {
		t.Errorf("bundle reads back as %+v", bd.Finding)
	}
	// Writing again replaces the earlier reduction.
	if err := reduce.WriteBundle(out, "", &rf, nil, res); err != nil {
		t.Fatal(err)
	}
}

// TestReduceNotReproduced: with the correct cllc the finding is gone.
func TestReduceNotReproduced(t *testing.T) {
	s := load(t, []string{"reverse-enums"})
	seeds := generatedSeeds(t)[:20]
	fs, src := campaign(t, s, seeds, 100)
	if len(fs) == 0 {
		t.Fatal("no finding")
	}
	clean := load(t, nil)
	_, err := reduce.Reduce(context.Background(), reduce.Target{
		Transpiler: clean.Transpiler, Relation: relationOf(t, clean, fs[0].Relation), Normalize: clean.Normalize,
		Finding: fs[0], Base: src[fs[0].SeedFile],
	}, reduce.Options{})
	var nr *reduce.NotReproducedError
	if !errors.As(err, &nr) {
		t.Fatalf("err = %v, want a NotReproducedError", err)
	}
	if !strings.Contains(nr.Why, "the relation holds at every spot") {
		t.Errorf("why: %s", nr.Why)
	}

	// With the faulty cllc, a signature of another making is not found
	// either, and the reason says so.
	f := fs[0]
	f.Signature = f.Relation + "/" + f.Checker + "/000000000000"
	_, err = reduce.Reduce(context.Background(), reduce.Target{
		Transpiler: s.Transpiler, Relation: relationOf(t, s, f.Relation), Normalize: s.Normalize,
		Finding: f, Base: src[f.SeedFile],
	}, reduce.Options{})
	if !errors.As(err, &nr) || !strings.Contains(nr.Why, "another version of mcpt") {
		t.Errorf("err = %v, want a NotReproducedError about another version", err)
	}
}

// TestReduceBudget: a small budget stops the reduction with a base that
// still gives the finding.
func TestReduceBudget(t *testing.T) {
	s := load(t, []string{"sorted-resets"})
	seeds := generatedSeeds(t)[:60]
	fs, src := campaign(t, s, seeds, 300)
	var f *result.Finding
	for i := range fs {
		if reduce.CountLines(src[fs[i].SeedFile]) >= 40 {
			f = &fs[i]
			break
		}
	}
	if f == nil {
		t.Fatal("no finding on a seed of 40 lines or more")
	}
	const budget = 60
	res, err := reduce.Reduce(context.Background(), reduce.Target{
		Transpiler: s.Transpiler, Relation: relationOf(t, s, f.Relation), Normalize: s.Normalize,
		Finding: *f, Base: src[f.SeedFile],
	}, reduce.Options{MaxRuns: budget})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stopped != "budget" || res.Runs > budget {
		t.Errorf("stopped %q after %d runs, want the budget of %d", res.Stopped, res.Runs, budget)
	}
	if got := replay(t, s, &res.Finding, res.Base); !hasSignature(got, f.Signature) {
		t.Errorf("the partly reduced base does not give %s again", f.Signature)
	}
}

// TestReduceBaseCrash reduces a crash of the base run, which needs no
// relation, with a transpiler that crashes on a line holding "boom".
func TestReduceBaseCrash(t *testing.T) {
	crashy := transpiler.Func(func(_ context.Context, req transpiler.Request) (*transpiler.Result, error) {
		for l := range strings.SplitSeq(string(req.Src), "\n") {
			if strings.Contains(l, "boom") && strings.Contains(l, "(") {
				return &transpiler.Result{Status: transpiler.Crashed, ExitCode: 2, Stderr: []byte("panic: boom at " + req.Name + "\n")}, nil
			}
		}
		return &transpiler.Result{Status: transpiler.Accepted}, nil
	})
	var b strings.Builder
	for i := range 50 {
		if i == 31 {
			b.WriteString("call (boom) now\n")
			continue
		}
		b.WriteString("line of nothing\n")
	}
	f := result.Finding{ID: "s0000-base", Kind: result.Crash, Relation: "-", SeedFile: "p.txt", Case: -1, Role: "base", ExitCode: 2, Stderr: "panic: boom at p.txt\n"}
	f.Signature = signature.Of(&f)
	res, err := reduce.Reduce(context.Background(), reduce.Target{Transpiler: crashy, Finding: f, Base: []byte(b.String())}, reduce.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.Base); got != "(boom)\n" {
		t.Errorf("reduced base %q, want %q", got, "(boom)\n")
	}
	if res.Finding.Signature != f.Signature || res.FollowUp != nil {
		t.Errorf("reduced finding %+v", res.Finding)
	}
	if res.LinesBefore != 50 || res.LinesAfter != 1 {
		t.Errorf("lines %d → %d", res.LinesBefore, res.LinesAfter)
	}
}

// TestReduceRelationFails: a relation whose template fails at every spot
// of the base derives no follow-up: an error of the relation, not "the
// relation holds at every spot"; failing at some spots only, the reason
// counts them apart from those where it holds.
func TestReduceRelationFails(t *testing.T) {
	s := load(t, []string{"reverse-enums"})
	seeds := generatedSeeds(t)[:20]
	fs, src := campaign(t, s, seeds, 100)
	if len(fs) == 0 {
		t.Fatal("no finding")
	}
	f := fs[0]
	rel := *relationOf(t, s, f.Relation)
	mutate := rel.Mutate
	every := rel
	every.Mutate = func(context.Context, relation.Input, relation.Spot, *rand.Rand) (*relation.FollowUp, error) {
		return nil, errors.New(`rel.yaml:9:40: atoi: "0x1g" is not an integer`)
	}
	_, err := reduce.Reduce(context.Background(), reduce.Target{
		Transpiler: s.Transpiler, Relation: &every, Normalize: s.Normalize, Finding: f, Base: src[f.SeedFile],
	}, reduce.Options{})
	var nr *reduce.NotReproducedError
	var me *engine.MutationError
	if err == nil || errors.As(err, &nr) || !errors.As(err, &me) {
		t.Fatalf("err = %v, want the relation's error", err)
	}
	if want := "failed at every one of the "; !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), `atoi: "0x1g" is not an integer`) {
		t.Errorf("err = %v", err)
	}

	clean := load(t, nil)
	some := *relationOf(t, clean, f.Relation)
	some.Mutate = func(ctx context.Context, in relation.Input, sp relation.Spot, rng *rand.Rand) (*relation.FollowUp, error) {
		if sp.Index == 0 {
			return nil, errors.New("rel.yaml:9:40: no")
		}
		return mutate(ctx, in, sp, rng)
	}
	_, err = reduce.Reduce(context.Background(), reduce.Target{
		Transpiler: clean.Transpiler, Relation: &some, Normalize: clean.Normalize, Finding: f, Base: src[f.SeedFile],
	}, reduce.Options{})
	if !errors.As(err, &nr) || !strings.Contains(nr.Why, " other spots; it failed at 1, the first: ") || strings.Contains(nr.Why, "holds at every spot") {
		t.Errorf("err = %v, want a NotReproducedError counting the spot that failed", err)
	}
}
