package engine_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/matrix"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/tree"
)

// faultMatrix runs cllc without and with reverse-enums (the builtin's
// --fault flag), under two values of a flag that changes nothing.
var faultMatrix = matrix.Matrix{
	{Name: "fault", Values: []matrix.Value{{Name: "none", Args: []string{}}, {Name: "reversed", Args: []string{"--fault", "reverse-enums"}}}},
	{Name: "x", Values: []matrix.Value{{Name: "a", Args: []string{}}, {Name: "b", Args: []string{}}}},
}

// TestFlagsMatrix: each seed runs under each combination; the findings
// of a fault switched on by one value are found under that value only,
// each recorded with its combination; the same failure under two
// combinations is one group that lists both; the report does not depend
// on the number of workers, and shards of (seed, combination) pairs make
// up the whole.
func TestFlagsMatrix(t *testing.T) {
	s := load(t, "mcpt.yaml", nil)
	opt := engine.Options{Seed: 3, MaxCases: 240, Workers: 1, BaseRuns: 1, Flags: faultMatrix}
	one := run(t, s, opt)
	want := []string{"fault=none,x=a", "fault=none,x=b", "fault=reversed,x=a", "fault=reversed,x=b"}
	if !slices.Equal(one.Flags, want) || one.Seeds.Total != 4*len(s.Seeds) {
		t.Fatalf("report flags %q, %d seeds; want %q, %d", one.Flags, one.Seeds.Total, want, 4*len(s.Seeds))
	}
	// One base run per seed and combination, then one per test case.
	if one.TranspilerRuns != one.TestCases+4*len(s.Seeds) {
		t.Errorf("%d runs for %d test cases and %d seeds under 4 combinations", one.TranspilerRuns, one.TestCases, len(s.Seeds))
	}
	if len(one.Findings) == 0 {
		t.Fatal("no finding under fault=reversed")
	}
	for _, f := range one.Findings {
		if !strings.HasPrefix(f.Flags, "fault=reversed,") {
			t.Errorf("finding %s under %q", f.ID, f.Flags)
		}
	}
	both := false
	for _, g := range one.Groups {
		// in the order of the campaign's combinations
		if slices.Equal(g.Flags, []string{"fault=reversed,x=a", "fault=reversed,x=b"}) {
			both = true
		}
	}
	if !both {
		t.Errorf("no group lists the failure under both values of x: %+v", one.Groups)
	}
	under := map[string]int{}
	for _, c := range one.Cases {
		under[c.Flags] += c.TestCases
	}
	for _, c := range want {
		if under[c] == 0 {
			t.Errorf("no test case under %s: %v", c, under)
		}
	}

	opt.Workers = 2
	if two := run(t, s, opt); comparable(t, one) != comparable(t, two) {
		t.Error("reports differ between 1 and 2 workers")
	}

	var ids []string
	cases := 0
	for i := range 3 {
		o := opt
		o.Shard = engine.Shard{Index: i, Count: 3}
		part := run(t, s, o)
		cases += part.TestCases
		for _, f := range part.Findings {
			ids = append(ids, f.ID+" "+f.Flags)
		}
	}
	var all []string
	for _, f := range one.Findings {
		all = append(all, f.ID+" "+f.Flags)
	}
	slices.Sort(ids)
	slices.Sort(all)
	if cases != one.TestCases || !slices.Equal(ids, all) {
		t.Errorf("shards: %d cases, %d findings; whole: %d cases, %d findings", cases, len(ids), one.TestCases, len(all))
	}

	// Without flags, the same campaign is the one of a single combination.
	plain := run(t, s, engine.Options{Seed: 3, MaxCases: 240, Workers: 1, BaseRuns: 1})
	if plain.Flags != nil || len(plain.Findings) != 0 || plain.Seeds.Total != len(s.Seeds) {
		t.Errorf("without flags: %q, %d findings, %d seeds", plain.Flags, len(plain.Findings), plain.Seeds.Total)
	}
}

// probe is a relation whose one check fails saying what the relation
// was given of the transpiler: its release and the test case's flags.
var probe = &relation.Relation{
	Name: "probe",
	Doc:  "Says what it sees.",
	Spots: func(ctx context.Context, in relation.Input) ([]relation.Spot, error) {
		return []relation.Spot{{Index: 0, Line: 1, Col: 1, Desc: "start"}}, nil
	},
	Mutate: func(ctx context.Context, in relation.Input, sp relation.Spot, rng *rand.Rand) (*relation.FollowUp, error) {
		said := fmt.Sprintf("release %s, flags %v", in.Release, in.Flags)
		return &relation.FollowUp{Src: append([]byte("// x\n"), in.Src...), Checks: []relation.Checker{sayer(said)}}, nil
	},
}

type sayer string

func (s sayer) Check(o, o2 tree.Tree) []oracle.Failure {
	return []oracle.Failure{{Checker: "probe", Message: string(s)}}
}

// TestRelationsSeeReleaseAndFlags: each test case's relation sees the
// release and the case's combination, and a resumed campaign goes on
// with the same; a resume under other flags or another release is
// refused.
func TestRelationsSeeReleaseAndFlags(t *testing.T) {
	s := load(t, "mcpt.yaml", nil)
	dir := t.TempDir()
	opt := engine.Options{Seed: 1, MaxCases: 24, Workers: 2, BaseRuns: 1, NoRecheck: true, Flags: faultMatrix, Release: "1.2.3", OutDir: filepath.Join(dir, "out")}
	c := &engine.Campaign{Transpiler: s.Transpiler, Relations: []*relation.Relation{probe}, Seeds: s.Seeds, Options: opt}
	full, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	check := func(r *result.Report) {
		t.Helper()
		if len(r.Findings) != 24 || r.Release != "1.2.3" {
			t.Fatalf("%d findings, release %q", len(r.Findings), r.Release)
		}
		for _, f := range r.Findings {
			m := map[string]string{}
			for p := range strings.SplitSeq(f.Flags, ",") {
				k, v, _ := strings.Cut(p, "=")
				m[k] = v
			}
			if want := fmt.Sprintf("release 1.2.3, flags %v", m); f.Message != want {
				t.Errorf("finding %s under %s: %q, want %q", f.ID, f.Flags, f.Message, want)
			}
		}
	}
	check(full)
	journal := filepath.Join(opt.OutDir, engine.JournalName)
	b, err := os.ReadFile(journal)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	if err := os.WriteFile(journal, []byte(strings.Join(lines[:10], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	c.Options.Resume = true
	resumed, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	check(resumed)
	if findingIDs(resumed) == nil || !slices.Equal(findingIDs(full), findingIDs(resumed)) {
		t.Errorf("resumed: %v\nwhole: %v", findingIDs(resumed), findingIDs(full))
	}
	for _, change := range []func(o *engine.Options){
		func(o *engine.Options) { o.Flags = faultMatrix[:1] },
		func(o *engine.Options) { o.Release = "1.2.4" },
	} {
		c.Options = opt
		c.Options.Resume = true
		change(&c.Options)
		if _, err := c.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "another campaign") {
			t.Errorf("resume changed: %v", err)
		}
	}
}

// TestFlagsFeedback: with feedback, a follow-up that passed joins the
// pool under the combination it passed under, and the run does not depend
// on the number of workers.
func TestFlagsFeedback(t *testing.T) {
	s := load(t, "mcpt.yaml", nil)
	opt := engine.Options{Seed: 2, MaxCases: 600, MaxMR: 2, Feedback: true, FeedbackMax: 4, Workers: 1, BaseRuns: 1, Flags: faultMatrix[1:]}
	one := run(t, s, opt)
	opt.Workers = 2
	if two := run(t, s, opt); comparable(t, one) != comparable(t, two) {
		t.Error("feedback runs with flags differ between 1 and 2 workers")
	}
	under := map[string]int{}
	for _, c := range one.Cases {
		if strings.Contains(c.Seed, "~c") {
			under[c.Flags] += c.TestCases
		}
	}
	if under["x=a"] == 0 || under["x=b"] == 0 {
		t.Errorf("test cases on follow-ups added by feedback, by combination: %v", under)
	}
	for _, f := range one.Findings {
		t.Errorf("false alarm on %s under %s: %s %s", f.SeedFile, f.Flags, f.Relation, f.Message)
	}
}
