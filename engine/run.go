package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/result"
)

// run runs the campaign: it opens the journal, admits the seeds, then
// hands the plan to the workers (see pass).
func (r *runner) run(ctx context.Context, workers int) (*result.Report, error) {
	start := time.Now()
	r.resumed = resumePoint{last: -1}
	if r.opt.OutDir != "" {
		jr, rp, err := openJournal(r.opt.OutDir, r.c.fingerprint(r.opt), r.opt.Resume, r.checkCase, r.finished)
		if err != nil {
			return nil, err
		}
		r.jr, r.resumed = jr, rp
		defer jr.close()
	}
	// Cases in flight go on after ctx is cancelled, until Halt.
	runCtx, cancelRuns := r.runContext(ctx)
	defer cancelRuns()

	if err := r.admit(ctx, runCtx, workers); err != nil {
		if ctx.Err() == nil && !errors.Is(err, ErrStopped) {
			return nil, err
		}
		rep := r.report()
		rep.Timing.WallNS = (r.resumed.elapsed + time.Since(start)).Nanoseconds()
		rep.Stopped = "interrupted"
		return rep, nil
	}
	p := &pass{r: r, start: start, stopped: "budget", abort: make(chan struct{})}
	if r.opt.MaxTime > 0 {
		p.deadline = start.Add(r.opt.MaxTime - r.resumed.elapsed)
	}
	// The relations look for spots (templates may run) until ctx is
	// cancelled or the time runs out.
	spotCtx, cancelSpots := ctx, context.CancelFunc(func() {})
	if !p.deadline.IsZero() {
		spotCtx, cancelSpots = context.WithDeadline(ctx, p.deadline)
	}
	defer cancelSpots()
	pl, err := r.plan(spotCtx)
	if err != nil {
		if spotCtx.Err() == nil {
			return nil, err
		}
		p.spotsCut(ctx, err)
		return p.finish()
	}
	return p.run(ctx, runCtx, spotCtx, pl, workers)
}

// runContext is the context of the transpiler runs: it is not cancelled
// with ctx, so that the cases in flight finish, but when Options.Halt is
// closed.
func (r *runner) runContext(ctx context.Context) (context.Context, context.CancelFunc) {
	runCtx, cancelRuns := context.WithCancel(context.WithoutCancel(ctx))
	if r.opt.Halt != nil {
		go func() {
			select {
			case <-r.opt.Halt:
				cancelRuns()
			case <-runCtx.Done():
			}
		}()
	}
	return runCtx, cancelRuns
}

// plan makes the planner of the admitted seeds, checks a resumed
// journal against it, and hooks feedback to the end of each pass over the
// pool.
func (r *runner) plan(ctx context.Context) (*planner, error) {
	spotCache := map[[2]int][]relation.Spot{}
	spots := func(ai, ri int) ([]relation.Spot, error) {
		p := r.admitted[ai]
		k := [2]int{p, ri}
		if s, ok := spotCache[k]; ok {
			return s, nil
		}
		s, err := r.c.Relations[ri].Spots(ctx, r.tester.Input(r.pairSeed(p)))
		if err != nil {
			return nil, fmt.Errorf("relation %s on %s: %w", r.c.Relations[ri].Name, r.pairName(p), err)
		}
		spotCache[k] = s
		return s, nil
	}
	r.spotsOf = spots
	pl := newPlanner(r.opt.Seed, len(r.admitted), len(r.c.Relations), r.opt.MaxMR, r.opt.MaxSpots, spots)
	if r.resumed.last >= 0 {
		check := newPlanner(r.opt.Seed, len(r.admitted), len(r.c.Relations), r.opt.MaxMR, r.opt.MaxSpots, spots)
		if err := r.checkJournalPlan(check); err != nil {
			return nil, err
		}
	}
	if r.opt.Feedback {
		pl.endRound = r.growPool
	}
	return pl, nil
}

type dispatched struct {
	seq int
	c   Case
}

type sequenced struct {
	seq int
	cr  *CaseResult // nil when the case broke the campaign
}

// pass is the run of the plan after admission: one goroutine walks the
// plan and dispatches the cases of the shard, workers run them, and their
// results are journaled and added up in plan order.
type pass struct {
	r        *runner
	start    time.Time
	deadline time.Time // zero: no time limit

	stopped string      // why the plan stopped: "budget", "time", "interrupted"
	halted  atomic.Bool // a case in flight was dropped
	// timeUp is the first test case (or search for spots) that the time
	// budget cut short, while the relation's templates ran.
	timeUp     error
	timeUpOnce sync.Once
	planErr    error

	fatal     error
	fatalOnce sync.Once
	abort     chan struct{} // closed on a fatal error: dispatch no more
	abortOnce sync.Once
}

// elapsed is the campaign time used, over every session of the campaign:
// a time budget goes on from what earlier sessions used.
func (p *pass) elapsed() time.Duration { return p.r.resumed.elapsed + time.Since(p.start) }

// fail records the first error that breaks the campaign and stops the
// dispatch of cases.
func (p *pass) fail(err error) {
	p.fatalOnce.Do(func() { p.fatal = err })
	p.abortOnce.Do(func() { close(p.abort) })
}

// cutShort records that the time budget cut err's work short.
func (p *pass) cutShort(err error) {
	p.timeUpOnce.Do(func() { p.timeUp = err })
}

// spotsCut records why the search for spots stopped with err, its
// context done: an interrupt (ctx cancelled) or the time budget.
func (p *pass) spotsCut(ctx context.Context, err error) {
	if ctx.Err() != nil {
		p.stopped = "interrupted"
		return
	}
	p.stopped = "time"
	p.cutShort(fmt.Errorf("looking for spots: %w: %w", ErrTimeUp, err))
}

func (p *pass) run(ctx, runCtx, spotCtx context.Context, pl *planner, workers int) (*result.Report, error) {
	cases := make(chan dispatched)
	results := make(chan sequenced, workers)
	go func() {
		defer close(cases)
		p.planErr = p.dispatch(ctx, pl, cases)
		if p.planErr != nil && spotCtx.Err() != nil {
			p.spotsCut(ctx, p.planErr)
			p.planErr = nil
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.work(runCtx, cases, results)
		}()
	}
	go func() { wg.Wait(); close(results) }()
	p.collect(results)
	return p.finish()
}

// dispatch sends the cases of the plan that this session runs, until the
// budget is spent, ctx is cancelled or a case broke the campaign.
func (p *pass) dispatch(ctx context.Context, pl *planner, cases chan<- dispatched) error {
	r := p.r
	seq := 0
	return pl.run(func(cs Case) bool {
		cs.Pair = r.admitted[cs.Seed]
		cs.Seed = r.pairs[cs.Pair].seed
		if r.opt.MaxCases > 0 && cs.Index >= r.opt.MaxCases {
			return false
		}
		if !r.opt.Shard.owns(cs.Pair) || cs.Index <= r.resumed.last {
			return true
		}
		if !p.deadline.IsZero() && time.Now().After(p.deadline) {
			p.stopped = "time"
			return false
		}
		if r.opt.Feedback {
			r.fbRound.Add(1)
		}
		select {
		case cases <- dispatched{seq, cs}:
			seq++
			return true
		case <-ctx.Done():
			p.stopped = "interrupted"
		case <-p.abort:
		}
		if r.opt.Feedback {
			r.fbRound.Done() // not sent after all
		}
		return false
	})
}

// work runs the cases it receives. A case whose run was cancelled, or
// that broke the campaign, is sent on as nil.
func (p *pass) work(runCtx context.Context, cases <-chan dispatched, results chan<- sequenced) {
	r := p.r
	for d := range cases {
		cr, err := r.runCase(runCtx, d.c, p.deadline)
		switch {
		case errors.Is(err, ErrTimeUp):
			p.cutShort(err) // not run to the end, for want of time
			cr = nil
		case err != nil && (runCtx.Err() != nil || errors.Is(err, ErrStopped)):
			p.halted.Store(true) // not run to the end: run again on resume
			cr = nil
		case err != nil:
			p.fail(err)
			cr = nil
		}
		if r.opt.Feedback {
			r.keepForFeedback(cr)
			r.fbRound.Done()
		}
		results <- sequenced{d.seq, cr}
	}
}

// collect journals the results, adds them up and hands them to OnCase in
// plan order, so that the journal holds every case of the plan up to its
// last one, and what a user sees does not depend on scheduling. Nothing
// more of a case is kept once it is added up.
func (p *pass) collect(results <-chan sequenced) {
	journaling := p.r.jr != nil
	finish := func(cr *CaseResult) {
		if journaling {
			if err := p.r.jr.append(cr, p.elapsed()); err != nil {
				p.fail(err)
				journaling = false
			}
		}
		p.r.finished(cr)
	}
	pending := map[int]*CaseResult{}
	next := 0
	for sr := range results {
		pending[sr.seq] = sr.cr
		for {
			cr, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			if cr == nil {
				journaling = false // a gap: the cases after it run again on resume
				continue
			}
			finish(cr)
		}
	}
	// After an error, later cases may be missing; keep what finished.
	journaling = false
	for _, seq := range sortedInts(pending) {
		if cr := pending[seq]; cr != nil {
			finish(cr)
		}
	}
}

// finish makes the report once every case is collected, and the error
// that broke the campaign, if one did.
func (p *pass) finish() (*result.Report, error) {
	fatal := p.fatal
	if p.planErr != nil && fatal == nil {
		fatal = p.planErr
	}
	rep := p.r.report()
	rep.Timing.WallNS = p.elapsed().Nanoseconds()
	rep.Stopped = p.stopped
	if p.timeUp != nil && rep.Stopped == "budget" {
		rep.Stopped = "time"
	}
	if p.halted.Load() {
		rep.Stopped = "interrupted"
	}
	if fatal == nil {
		fatal = nothingChecked(rep)
	}
	if fatal == nil && rep.TestCases == 0 && rep.Stopped == "time" && p.timeUp != nil {
		fatal = fmt.Errorf("no test case within the time budget: %w", p.timeUp)
	}
	if fatal == nil && rep.TestCases == 0 && rep.Stopped == "budget" {
		fatal = p.r.noSpot()
	}
	if fatal != nil {
		rep.Stopped = "error"
		return rep, &Error{Err: fatal, Report: rep}
	}
	return rep, nil
}
