package engine

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/tree"
)

// baseEntry caches the translation of one seed under one combination of
// flags (a pair).
type baseEntry struct {
	once  sync.Once
	res   *transpiler.Result
	files tree.Tree    // normalised output
	skip  string       // why the seed's cases are skipped, if they are
	runs  atomic.Int32 // transpiler runs of this base
	// rechecks counts the runs that confirmed a crash of the base.
	rechecks atomic.Int32
	err      error
}

// admit transpiles the base of every seed under every combination of
// flags (every pair), in parallel, before any test case: the plan covers
// the pairs whose base was accepted, so that it does not depend on the
// order in which workers finish. Every shard admits every pair (the plan
// is global) but reports only its own. Cancelling ctx stops admission;
// the base runs in flight go on under runCtx.
func (r *runner) admit(ctx, runCtx context.Context, workers int) error {
	var g errgroup.Group
	g.SetLimit(workers)
	for i := range r.pairs {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			_, err := r.base(runCtx, i)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	for i := range r.pairs {
		b := r.bases[i]
		if b.skip == "" {
			r.admitted = append(r.admitted, i)
			continue
		}
		if b.skip != SkipCrashed || !r.opt.Shard.owns(i) {
			continue
		}
		seed := r.pairSeed(i)
		f := r.tester.BaseFinding(fmt.Sprintf("s%04d-base", i), &Base{Seed: seed, Result: b.res, Skip: b.skip})
		if err := r.bundle(f, seed, nil, b.res, nil); err != nil {
			return err
		}
		r.baseFindings = append(r.baseFindings, *f)
	}
	return nil
}

// base transpiles the seed of a pair under its flags once (BaseRuns
// times, to detect nondeterminism) and caches the outcome.
func (r *runner) base(ctx context.Context, p int) (*baseEntry, error) {
	b := r.bases[p]
	b.once.Do(func() {
		out, err := r.tester.Base(ctx, r.pairSeed(p))
		b.runs.Add(int32(out.Runs))
		b.rechecks.Add(int32(out.Rechecks))
		b.res, b.files, b.skip, b.err = out.Result, out.Files, out.Skip, err
	})
	return b, b.err
}
