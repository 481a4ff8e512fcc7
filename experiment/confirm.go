package experiment

import (
	"bytes"
	"context"
	"fmt"
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

// pair is a test case whose oracle finding a fault may have caused.
type pair struct {
	fault   int
	finding result.Finding
	test    engine.Test
	// ran is the follow-up input the campaign ran (from the bundle); nil
	// when unknown.
	ran []byte
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
	style     result.Style
	workers   int
}

// confirm runs the confirmation step on the oracle findings of rep, whose
// follow-up runs rec recorded; dir is the session's output directory,
// holding the finding bundles.
func (c *confirmer) confirm(ctx context.Context, rep *result.Report, rec *recorder, dir string, track func(done, total int)) (*confirmation, error) {
	pairs, unattributed, err := c.pairs(rep, rec, dir)
	if err != nil {
		return nil, err
	}
	order, byFault := groupByFault(pairs)
	results, warnings, err := c.confirmFaults(ctx, order, byFault, track)
	if err != nil {
		return nil, err
	}
	out := &confirmation{unattributed: unattributed, warnings: warnings}
	for i, d := range results {
		if d != nil {
			out.confirmed = append(out.confirmed, *d)
		} else {
			out.unconfirmed = append(out.unconfirmed, order[i])
		}
	}
	slices.SortFunc(out.confirmed, func(a, b Detection) int { return a.Fault - b.Fault })
	slices.Sort(out.unconfirmed)
	slices.Sort(out.warnings) // found in parallel, once per fault tried
	out.warnings = slices.Compact(out.warnings)
	return out, nil
}

// pairs gives the pairs to re-run, one per test case and fault, in case
// order, and counts the oracle findings whose follow-up activated no
// fault; a test case whose follow-up broke several checkers gives several
// findings but one pair.
func (c *confirmer) pairs(rep *result.Report, rec *recorder, dir string) (pairs []pair, unattributed int, err error) {
	seenCase := map[int]bool{}
	for _, f := range rep.Findings {
		if f.Kind != result.Oracle || seenCase[f.Case] {
			continue
		}
		seenCase[f.Case] = true
		test, err := c.test(f)
		if err != nil {
			return nil, 0, fmt.Errorf("confirmation of finding %s: %w", f.ID, err)
		}
		ran := bundledFollowUp(dir, f)
		faults := activatedFaults(rec, f.Case)
		if len(faults) == 0 {
			unattributed++
			continue
		}
		// The same follow-up input may have been run more than once in the
		// session, each time with another fault; each is a candidate.
		for _, fault := range faults {
			pairs = append(pairs, pair{fault: fault, finding: f, test: test, ran: ran})
		}
	}
	return pairs, unattributed, nil
}

// bundledFollowUp is the follow-up input the engine actually ran for
// finding f, as its bundle in dir holds it; nil when unknown.
func bundledFollowUp(dir string, f result.Finding) []byte {
	if f.Bundle == "" {
		return nil
	}
	b, err := bundle.Load(filepath.Join(dir, filepath.FromSlash(f.Bundle)))
	if err != nil {
		return nil
	}
	return b.FollowUp
}

// activatedFaults lists the faults, without repeats, activated by the
// accepted follow-up runs of test case index.
func activatedFaults(rec *recorder, index int) []int {
	var faults []int
	for _, run := range rec.runsOf(index) {
		if run.fault != faultinject.NoFault && run.status == transpiler.Accepted && !slices.Contains(faults, run.fault) {
			faults = append(faults, run.fault)
		}
	}
	return faults
}

// groupByFault groups pairs by fault, keeping the faults in the order of
// their first pair and each fault's pairs in case order.
func groupByFault(pairs []pair) (order []int, byFault map[int][]pair) {
	byFault = map[int][]pair{}
	for _, p := range pairs {
		if byFault[p.fault] == nil {
			order = append(order, p.fault)
		}
		byFault[p.fault] = append(byFault[p.fault], p)
	}
	return order, byFault
}

// confirmFaults confirms each fault of order once, in parallel: its pairs
// are tried in case order until one confirms it. results[i] is the
// detection of order[i], nil when unconfirmed.
func (c *confirmer) confirmFaults(ctx context.Context, order []int, byFault map[int][]pair, track func(done, total int)) (results []*Detection, warnings []string, err error) {
	results = make([]*Detection, len(order))
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
				ok, warning, err := c.rerun(gctx, p)
				if err != nil {
					return fmt.Errorf("confirmation of fault %d: %w", fault, err)
				}
				if warning != "" {
					mu.Lock()
					warnings = append(warnings, warning)
					mu.Unlock()
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
		return nil, nil, err
	}
	return results, warnings, nil
}

// test is the test case of a finding, with its base left to be run.
func (c *confirmer) test(f result.Finding) (engine.Test, error) {
	rel := c.relations[f.Relation]
	if rel == nil {
		return engine.Test{}, fmt.Errorf("no relation %s", f.Relation)
	}
	seed, ok := c.seeds[f.SeedFile]
	if !ok {
		return engine.Test{}, fmt.Errorf("no seed %s", f.SeedFile)
	}
	spot, err := engine.SpotAt(context.Background(), rel, seed, f.Spot.Index)
	if err != nil {
		return engine.Test{}, err
	}
	return engine.Test{Index: f.Case, Base: &engine.Base{Seed: seed}, Relation: rel, Spot: spot, CaseSeed: f.CaseSeed}, nil
}

// rerun runs a pair's test case again, base and follow-up, with its fault
// forced in both runs, and tells whether the relation still fails: a
// finding on a fault-free base run may be spurious, a failure between two
// runs of the same faulty transpiler is not.
func (c *confirmer) rerun(ctx context.Context, p pair) (confirmed bool, warning string, err error) {
	tr, err := faultinject.Forced(c.cmd, p.fault)
	if err != nil {
		return false, "", err
	}
	t := &engine.Tester{Transpiler: tr, Normalize: c.normalize, Style: c.style}
	base, err := t.Base(ctx, p.test.Base.Seed)
	if err != nil || base.Skip != "" {
		return false, "", err
	}
	tc := p.test
	tc.Base = base
	out, err := t.Run(ctx, tc)
	if err != nil {
		return false, "", err
	}
	if p.ran != nil && !bytes.Equal(p.ran, out.FollowUp.Src) {
		return false, fmt.Sprintf("finding %s: the relation %s gave another follow-up again; not confirmed", p.finding.ID, p.finding.Relation), nil
	}
	for _, f := range out.Findings {
		if f.Kind == result.Oracle {
			return true, "", nil
		}
	}
	return false, "", nil
}
