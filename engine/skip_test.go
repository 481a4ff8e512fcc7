package engine_test

import (
	"bytes"
	"context"
	"errors"
	"github.com/mcpt-tool/mcpt/bundle"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/merge"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/result"
)

// brokenOn returns the relations of the CLL example with two of them
// made to fail on one seed each: the first cannot find its spots in
// boiler.cll (as a parser that rejects the seed), the second cannot
// derive a follow-up from elevator.cll at every other spot (as a
// template that fails there).
func brokenOn(t *testing.T, rels []*relation.Relation) []*relation.Relation {
	t.Helper()
	out := make([]*relation.Relation, len(rels))
	for i, r := range rels {
		c := *r
		out[i] = &c
	}
	spots := out[0].Spots
	out[0].Spots = func(ctx context.Context, in relation.Input) ([]relation.Spot, error) {
		if in.Name == "boiler.cll" {
			return nil, errors.New("boiler.cll:3:7: unexpected character")
		}
		return spots(ctx, in)
	}
	mutate := out[1].Mutate
	out[1].Mutate = func(ctx context.Context, in relation.Input, sp relation.Spot, rng *rand.Rand) (*relation.FollowUp, error) {
		if in.Name == "elevator.cll" && sp.Index%2 == 0 {
			return nil, errors.New("rel.yaml:9:40: atoi: \"0x1g\" is not an integer")
		}
		return mutate(ctx, in, sp, rng)
	}
	return out
}

// TestSeedSkippedForARelation: a relation that fails on a seed skips
// that seed, with its message, and the campaign runs the rest to the
// budget; the record is the same with one or two workers, sharded and
// merged, and resumed from the journal.
func TestSeedSkippedForARelation(t *testing.T) {
	s := load(t, "mcpt.yaml", nil)
	rels := brokenOn(t, s.Relations)
	camp := func(opt engine.Options) (*result.Report, error) {
		c := &engine.Campaign{Transpiler: s.Transpiler, Relations: rels, Seeds: s.Seeds, Options: opt}
		return c.Run(context.Background())
	}
	dir := t.TempDir()
	opt := engine.Options{Seed: 3, MaxCases: 600, Workers: 1, OutDir: filepath.Join(dir, "one")}
	one, err := camp(opt)
	if err != nil {
		t.Fatal(err)
	}
	if one.Stopped != "budget" {
		t.Errorf("stopped: %s %s", one.Stopped, one.Error)
	}
	sk := one.Seeds.Skipped
	if len(sk) != 2 {
		t.Fatalf("skipped: %+v", sk)
	}
	if sk[0].Seed != "boiler.cll" || !slices.Equal(sk[0].Relations, []string{rels[0].Name}) || sk[0].Cases != 0 ||
		sk[0].Message != "boiler.cll:3:7: unexpected character" {
		t.Errorf("spots skip: %+v", sk[0])
	}
	if sk[1].Seed != "elevator.cll" || !slices.Equal(sk[1].Relations, []string{rels[1].Name}) || sk[1].Cases == 0 ||
		!regexp.MustCompile(`^spot \d*[02468] at elevator.cll:\d+:\d+ \(`).MatchString(sk[1].Message) || !strings.HasSuffix(sk[1].Message, `: rel.yaml:9:40: atoi: "0x1g" is not an integer`) {
		t.Errorf("mutation skip: %+v", sk[1])
	}
	// The skipped cases keep their place in the plan: they and the test
	// cases run make the budget.
	if one.TestCases+sk[1].Cases != 600 {
		t.Errorf("%d test cases and %d skipped, want 600 in all", one.TestCases, sk[1].Cases)
	}
	for _, c := range one.Cases {
		if c.Seed == "boiler.cll" && c.Relation == rels[0].Name {
			t.Errorf("%d test cases of %s on the seed it skips", c.TestCases, c.Relation)
		}
	}
	// Every other relation ran on the seeds skipped, and the relations
	// skipping them on the others.
	ran := map[[2]string]bool{}
	for _, c := range one.Cases {
		ran[[2]string{c.Seed, c.Relation}] = true
	}
	if !ran[[2]string{"boiler.cll", rels[1].Name}] || !ran[[2]string{"elevator.cll", rels[0].Name}] ||
		!ran[[2]string{"traffic.cll", rels[0].Name}] || !ran[[2]string{"elevator.cll", rels[1].Name}] {
		t.Errorf("test cases by seed and relation: %v", ran)
	}

	opt.Workers, opt.OutDir = 2, filepath.Join(dir, "two")
	two, err := camp(opt)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := comparable(t, one), comparable(t, two); a != b {
		t.Errorf("1 and 2 workers differ:\n%s\n%s", a, b)
	}
	var parts []*result.Report
	var names []string
	for i := range 3 {
		part, err := camp(engine.Options{Seed: 3, MaxCases: 600, Shard: engine.Shard{Index: i, Count: 3}})
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, part)
		names = append(names, part.Shard)
	}
	m, err := merge.Reports(names, parts)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(m.Seeds.Skipped, one.Seeds.Skipped, equalSkip) || m.TestCases != one.TestCases {
		t.Errorf("shards merged: %d test cases, skipped %+v; whole: %d, %+v", m.TestCases, m.Seeds.Skipped, one.TestCases, one.Seeds.Skipped)
	}
	// Resumed from a whole journal, the report is the same: the skipped
	// cases are journaled with their message.
	opt.Resume = true
	again, err := camp(opt)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(again.Seeds.Skipped, one.Seeds.Skipped, equalSkip) || again.TestCases != one.TestCases {
		t.Errorf("resumed: %d test cases, skipped %+v", again.TestCases, again.Seeds.Skipped)
	}
}

func equalSkip(a, b result.SeedSkip) bool {
	return a.Seed == b.Seed && slices.Equal(a.Relations, b.Relations) && a.Cases == b.Cases && a.Message == b.Message
}

// TestNoSeedLeft: when every relation fails on every seed, no test case
// runs, and the campaign's error says which seeds and why.
func TestNoSeedLeft(t *testing.T) {
	s := load(t, "mcpt.yaml", nil)
	rel := *s.Relations[0]
	rel.Mutate = func(context.Context, relation.Input, relation.Spot, *rand.Rand) (*relation.FollowUp, error) {
		return nil, errors.New("rel.yaml:4:2: no such kind")
	}
	c := &engine.Campaign{Transpiler: s.Transpiler, Relations: []*relation.Relation{&rel}, Seeds: s.Seeds[:2], Options: engine.Options{Seed: 1, MaxCases: 20}}
	rep, err := c.Run(context.Background())
	if !errors.Is(err, engine.ErrNoSeedLeft) {
		t.Fatalf("error %v, want ErrNoSeedLeft", err)
	}
	if rep.Stopped != "error" || rep.Error != err.Error() || rep.TestCases != 0 || len(rep.Seeds.Skipped) != 2 {
		t.Errorf("report: stopped %q, error %q, %d test cases, skipped %+v", rep.Stopped, rep.Error, rep.TestCases, rep.Seeds.Skipped)
	}
	for _, sk := range rep.Seeds.Skipped {
		if !strings.Contains(err.Error(), "\n  "+sk.Seed+" ("+rel.Name+"): spot ") {
			t.Errorf("the error does not name %s:\n%v", sk.Seed, err)
		}
	}
}

// TestJournalReport: the report made from the journal of a campaign
// (what merge --partial takes of a shard killed before it wrote its
// report) has the campaign's test cases, findings, counts and seeds
// skipped for a relation, and is marked killed; a changed record is
// refused.
func TestJournalReport(t *testing.T) {
	s := load(t, "mcpt.yaml", []string{"sorted-resets"})
	rels := brokenOn(t, s.Relations)
	out := filepath.Join(t.TempDir(), "shard")
	c := &engine.Campaign{Transpiler: s.Transpiler, Relations: rels, Seeds: s.Seeds,
		Options: engine.Options{Seed: 3, MaxCases: 600, OutDir: out, Shard: engine.Shard{Index: 0, Count: 3}}}
	want, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Findings) == 0 || want.TestCases == 0 || len(want.Seeds.Skipped) != 2 {
		t.Fatalf("%d test cases, %d findings, seeds skipped %+v: not what the test compares", want.TestCases, len(want.Findings), want.Seeds.Skipped)
	}
	b, err := os.ReadFile(filepath.Join(out, engine.JournalName))
	if err != nil {
		t.Fatal(err)
	}
	// The journal keeps the findings with a bundle lean; their bundles
	// give their evidence back.
	lean, err := engine.JournalReport(bytes.NewReader(b), "journal.jsonl", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(lean.Findings, func(f result.Finding) bool { return f.IsLean() }) {
		t.Error("no finding of the journal is lean: its whole files are journaled")
	}
	rd, err := bundle.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	got, err := engine.JournalReport(bytes.NewReader(b), "journal.jsonl", rd)
	if err != nil {
		t.Fatal(err)
	}
	if got.Stopped != engine.StoppedKilled {
		t.Errorf("stopped %q", got.Stopped)
	}
	// What the journal cannot know: the time of the report, the base runs,
	// the seeds whose base was refused or crashed (none here) and those a
	// relation skipped at their spots (boiler.cll), where no test case
	// was planned.
	w := *want
	w.Stopped, w.Timing, w.TranspilerRuns, w.RecheckRuns, w.Config = got.Stopped, got.Timing, got.TranspilerRuns, got.RecheckRuns, got.Config
	w.Seeds.Skipped = want.Seeds.Skipped[1:]
	if a, b := comparable(t, got), comparable(t, &w); a != b {
		t.Errorf("from the journal:\n%s\nthe campaign's:\n%s", a, b)
	}
	// A record changed is refused, naming its line.
	bad := bytes.Replace(b, []byte(`"status":"finding"`), []byte(`"status":"pass"`), 1)
	if _, err := engine.JournalReport(bytes.NewReader(bad), "journal.jsonl", nil); err == nil || !strings.Contains(err.Error(), "journal.jsonl:") {
		t.Errorf("a changed record: %v", err)
	}
	if _, err := engine.JournalReport(bytes.NewReader(nil), "journal.jsonl", nil); err == nil || !strings.Contains(err.Error(), "no header") {
		t.Errorf("an empty journal: %v", err)
	}
}

// TestShardWhoseSeedsAreSkipped: a shard whose every seed a relation
// failed on ran no test case, but is complete as any shard that skipped
// seeds (the merge of the set says whether a test case ran at all); the
// campaign unsharded has no seed left.
func TestShardWhoseSeedsAreSkipped(t *testing.T) {
	s := load(t, "mcpt.yaml", nil)
	rel := *s.Relations[0]
	mutate := rel.Mutate
	rel.Mutate = func(ctx context.Context, in relation.Input, sp relation.Spot, rng *rand.Rand) (*relation.FollowUp, error) {
		if in.Name == "boiler.cll" {
			return nil, errors.New("rel.yaml:4:2: no")
		}
		return mutate(ctx, in, sp, rng)
	}
	seeds := s.Seeds[:2] // boiler.cll, car_wash.cll
	if seeds[0].Name != "boiler.cll" {
		t.Fatalf("seeds %s, %s", seeds[0].Name, seeds[1].Name)
	}
	c := &engine.Campaign{Transpiler: s.Transpiler, Relations: []*relation.Relation{&rel}, Seeds: seeds,
		Options: engine.Options{Seed: 1, MaxCases: 20, Shard: engine.Shard{Index: 0, Count: 2}}}
	rep, err := c.Run(context.Background())
	if err != nil {
		t.Fatalf("shard 0/2: %v", err)
	}
	if rep.TestCases != 0 || rep.Stopped != "budget" || len(rep.Seeds.Skipped) != 1 {
		t.Errorf("shard 0/2: %d test cases, stopped %q, skipped %+v", rep.TestCases, rep.Stopped, rep.Seeds.Skipped)
	}
	c.Seeds, c.Options.Shard = seeds[:1], engine.Shard{}
	if _, err := c.Run(context.Background()); !errors.Is(err, engine.ErrNoSeedLeft) {
		t.Errorf("unsharded, one seed: %v, want ErrNoSeedLeft", err)
	}
}
