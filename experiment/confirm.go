package experiment

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/faultinject"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/transpiler"
)

// pair is a base/follow-up pair that an oracle finding blamed on a fault.
type pair struct {
	fault    int
	finding  result.Finding
	base     transpiler.Request
	followUp transpiler.Request
	fu       *relation.FollowUp
}

// confirmation is the outcome of the confirmation step of one session.
type confirmation struct {
	confirmed    []Detection
	unconfirmed  []int
	unattributed int
	warnings     []string
}

// confirmer re-runs, after an MCP session, the pairs its oracle findings
// came from, each with the fault its follow-up run activated forced in
// both runs, and keeps the faults for which the relation still fails.
type confirmer struct {
	cmd       transpiler.Command // the instrumented transpiler
	relations map[string]*relation.Relation
	seeds     map[string]engine.Seed
	normalize oracle.Normalizer
	workers   int
}

// confirm runs the confirmation step on the oracle findings of rep, whose
// follow-up runs rec recorded; dir is the session's output directory,
// holding the finding bundles.
func (c *confirmer) confirm(ctx context.Context, rep *result.Report, rec *recorder, dir string, track func(done, total int)) (*confirmation, error) {
	out := &confirmation{}
	// The pairs to re-run, one per test case and fault, in case order; a
	// test case whose follow-up broke several checkers gives several
	// findings but one pair.
	var pairs []pair
	seenCase := map[int]bool{}
	for _, f := range rep.Findings {
		if f.Kind != result.Oracle || seenCase[f.Case] {
			continue
		}
		seenCase[f.Case] = true
		base, followUp, fu, err := c.rederive(f)
		if err != nil {
			return nil, fmt.Errorf("confirmation of finding %s: %w", f.ID, err)
		}
		if f.Bundle != "" {
			// The bundle holds the input the engine actually ran.
			b, err := bundle.Load(filepath.Join(dir, filepath.FromSlash(f.Bundle)))
			if err == nil && !bytes.Equal(b.FollowUp, followUp.Src) {
				out.warnings = append(out.warnings, fmt.Sprintf("finding %s: the relation %s gave another follow-up again; not confirmed", f.ID, f.Relation))
				continue
			}
		}
		var faults []int
		for _, run := range rec.runsOf(keyOf(followUp.Name, followUp.Src)) {
			if run.fault != faultinject.NoFault && run.status == transpiler.Accepted && !slices.Contains(faults, run.fault) {
				faults = append(faults, run.fault)
			}
		}
		if len(faults) == 0 {
			out.unattributed++
			continue
		}
		// The same follow-up input may have been run more than once in the
		// session, each time with another fault; each is a candidate.
		for _, fault := range faults {
			pairs = append(pairs, pair{fault: fault, finding: f, base: base, followUp: followUp, fu: fu})
		}
	}

	// Confirm each fault once: its pairs are tried in case order until one
	// confirms it.
	byFault := map[int][]pair{}
	var order []int
	for _, p := range pairs {
		if byFault[p.fault] == nil {
			order = append(order, p.fault)
		}
		byFault[p.fault] = append(byFault[p.fault], p)
	}
	results := make([]*Detection, len(order))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(1, c.workers))
	var mu sync.Mutex
	done := 0
	for i, fault := range order {
		g.Go(func() error {
			defer func() {
				mu.Lock()
				done++
				track(done, len(order))
				mu.Unlock()
			}()
			for _, p := range byFault[fault] {
				ok, err := faultinject.Confirm(gctx, c.cmd, fault, p.base, p.followUp, c.check(p.fu))
				if err != nil {
					return err
				}
				if ok {
					mu.Lock()
					results[i] = &Detection{Fault: fault, Relation: p.finding.Relation, Checker: p.finding.Checker, Finding: p.finding.ID}
					mu.Unlock()
					return nil
				}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	for i, d := range results {
		if d != nil {
			out.confirmed = append(out.confirmed, *d)
		} else {
			out.unconfirmed = append(out.unconfirmed, order[i])
		}
	}
	slices.SortFunc(out.confirmed, func(a, b Detection) int { return a.Fault - b.Fault })
	slices.Sort(out.unconfirmed)
	return out, nil
}

// rederive derives the follow-up of a finding's test case again from its
// seed, relation, spot and case seed, as mcpt repro does.
func (c *confirmer) rederive(f result.Finding) (base, followUp transpiler.Request, fu *relation.FollowUp, err error) {
	rel := c.relations[f.Relation]
	if rel == nil {
		return base, followUp, nil, fmt.Errorf("no relation %s", f.Relation)
	}
	seed, ok := c.seeds[f.SeedFile]
	if !ok {
		return base, followUp, nil, fmt.Errorf("no seed %s", f.SeedFile)
	}
	in := relation.Input{Name: path.Base(seed.Name), Src: seed.Src}
	spots, err := rel.Spots(in)
	if err != nil {
		return base, followUp, nil, err
	}
	if f.Spot.Index < 0 || f.Spot.Index >= len(spots) {
		return base, followUp, nil, fmt.Errorf("relation %s has %d spots on %s, not spot %d", rel.Name, len(spots), seed.Name, f.Spot.Index)
	}
	fu, err = rel.Mutate(in, spots[f.Spot.Index], engine.CaseRand(f.CaseSeed))
	if err != nil {
		return base, followUp, nil, err
	}
	base = transpiler.Request{Name: in.Name, Src: in.Src, Role: transpiler.Base}
	followUp = transpiler.Request{Name: in.Name, Src: fu.Src, Role: transpiler.FollowUp}
	return base, followUp, fu, nil
}

// check is the relation's oracle on a re-run pair: it fails when both runs
// were accepted and some consistency checker fails.
func (c *confirmer) check(fu *relation.FollowUp) func(base, followUp *transpiler.Result) (bool, error) {
	return func(base, followUp *transpiler.Result) (bool, error) {
		if base.Status != transpiler.Accepted || followUp.Status != transpiler.Accepted {
			return false, nil
		}
		return len(fu.Check(c.normalize.Apply(base.Files), c.normalize.Apply(followUp.Files))) > 0, nil
	}
}
