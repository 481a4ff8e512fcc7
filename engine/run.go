package engine

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpt-tool/mcpt/internal/printable"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/result"
)

// run runs the campaign: it opens the journal, admits the seeds, then
// hands the plan to the workers (see pass).
func (r *runner) run(ctx context.Context, workers int) (*result.Report, error) {
	start := time.Now()
	r.resumed = resumePoint{last: -1}
	if r.opt.OutDir != "" {
		ev := evidence{dir: r.opt.OutDir}
		jr, rp, err := openJournal(r.opt.OutDir, r.c.fingerprint(r.opt), r.opt.Resume, r.checkCase, func(cr *CaseResult) {
			ev.fill(cr)
			r.replayed(cr)
		})
		ev.close()
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
// pool, and the weights to each visit of a seed. It returns the plan's
// cases from the first after the journal's.
func (r *runner) plan(ctx context.Context) (*caseSource, error) {
	spotCache := map[[2]int][]relation.Spot{}
	spots := func(ai, ri int) ([]relation.Spot, error) {
		p := r.admitted[ai]
		k := [2]int{p, ri}
		if s, ok := spotCache[k]; ok {
			return s, nil
		}
		s, err := r.c.Relations[ri].Spots(ctx, r.tester.Input(r.pairSeed(p)))
		if err != nil && ctx.Err() != nil {
			return nil, fmt.Errorf("relation %s on %s: %w", r.c.Relations[ri].Name, r.pairName(p), err)
		}
		if err != nil {
			// The seed's error for this relation (its parser rejects the
			// seed, a template fails on it): the relation skips the seed,
			// the campaign goes on. The planner meets it in plan order in
			// every shard; the shard that owns the seed reports it.
			if r.opt.Shard.owns(p) {
				seed := r.pairSeed(p)
				r.skips.add(seed.Name, seed.Flags.String(), r.c.Relations[ri].Name, 0, err.Error())
			}
			s = nil
		}
		spotCache[k] = s
		return s, nil
	}
	r.spotsOf = spots
	pl := newPlanner(r.opt.Seed, len(r.admitted), len(r.c.Relations), r.opt.MaxMR, r.opt.MaxSpots, spots)
	if r.opt.Feedback {
		pl.endRound = r.growPool
	}
	pl.weigh = r.weighing(func() <-chan struct{} { return r.planStop })
	src := newCaseSource(pl)
	if r.resumed.last >= 0 {
		if err := r.checkJournalPlan(src); err != nil {
			src.stop()
			return nil, err
		}
	}
	return src, nil
}

// caseSource hands out the cases of a plan one at a time; a case taken
// back is handed out again first.
type caseSource struct {
	pl   *planner
	next func() (Case, bool)
	stop func()
	back *Case
}

func newCaseSource(pl *planner) *caseSource {
	next, stop := iter.Pull(pl.cases())
	return &caseSource{pl: pl, next: next, stop: stop}
}

// take returns the next case of the plan; false at its end (or its
// error, src.pl.err).
func (src *caseSource) take() (Case, bool) {
	if src.back != nil {
		c := *src.back
		src.back = nil
		return c, true
	}
	return src.next()
}

// putBack makes c the next case take returns.
func (src *caseSource) putBack(c Case) { src.back = &c }

type dispatched struct {
	seq int
	c   Case
}

type sequenced struct {
	seq, index int
	cr         *CaseResult // nil when the case broke the campaign
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

	// slots holds a token for each transpiler job under way, a test case
	// or the confirmation of a kept finding: as many as workers.
	slots chan struct{}
	// window holds a token for each case dispatched and not finished
	// yet, so that the cases waiting for one in front of them to be
	// confirmed stay few.
	window chan struct{}
	// journaling is off after a gap: the cases after it run again on
	// resume.
	journaling bool
	// added are the cases added up and not announced yet (see announce),
	// batches where they go to be announced.
	added   []addedCase
	batches chan announceBatch
}

// windowSize bounds the cases dispatched and not finished yet: enough to
// keep the workers busy while a case in front is confirmed.
func windowSize(workers int) int { return 64 + 8*workers }

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

func (p *pass) run(ctx, runCtx, spotCtx context.Context, src *caseSource, workers int) (*result.Report, error) {
	cases := make(chan dispatched)
	results := make(chan sequenced, workers)
	p.slots = make(chan struct{}, workers)
	p.window = make(chan struct{}, windowSize(workers))
	planStop, ran := make(chan struct{}), make(chan struct{})
	defer close(ran)
	p.r.planStop = planStop
	go func() {
		select {
		case <-ctx.Done():
		case <-p.abort:
		case <-ran:
		}
		close(planStop)
	}()
	go func() {
		defer close(cases)
		p.planErr = p.dispatch(ctx, src, cases)
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
	p.collect(runCtx, results)
	return p.finish()
}

// dispatch sends the cases of the plan that this session runs, until the
// budget is spent, ctx is cancelled or a case broke the campaign.
func (p *pass) dispatch(ctx context.Context, src *caseSource, cases chan<- dispatched) error {
	defer src.stop()
	r := p.r
	seq := 0
	send := func(cs Case) bool {
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
		select {
		case p.window <- struct{}{}:
		case <-ctx.Done():
			p.stopped = "interrupted"
			return false
		case <-p.abort:
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
		<-p.window
		if r.opt.Feedback {
			r.fbRound.Done() // not sent after all
		}
		return false
	}
	for {
		cs, ok := src.take()
		if !ok || !send(cs) {
			break
		}
	}
	src.stop()
	return src.pl.err
}

// work runs the cases it receives. A case whose run was cancelled, or
// that broke the campaign, is sent on as nil.
func (p *pass) work(runCtx context.Context, cases <-chan dispatched, results chan<- sequenced) {
	r := p.r
	for d := range cases {
		p.slots <- struct{}{}
		cr, err := r.runCase(runCtx, d.c, p.deadline)
		<-p.slots
		switch {
		case err == nil:
		case !errors.Is(err, ErrTimeUp) && runCtx.Err() == nil && !errors.Is(err, ErrStopped) && errors.As(err, new(*MutationError)):
			// The relation failed on this seed: the case is skipped with
			// the relation's message, and keeps its place in the plan.
			cr = r.skippedCase(d.c, err)
		default:
			p.broke(runCtx, err)
			cr = nil
		}
		if r.opt.Feedback {
			r.keepForFeedback(cr)
			r.fbRound.Done()
		}
		results <- sequenced{d.seq, d.c.Index, cr}
	}
}

// broke records why a test case did not run to its end: the time ran out
// in its relation's templates, the campaign was stopped (it runs again on
// resume), or err broke the campaign.
func (p *pass) broke(runCtx context.Context, err error) {
	switch {
	case errors.Is(err, ErrTimeUp):
		p.cutShort(err) // not run to the end, for want of time
	case runCtx.Err() != nil || errors.Is(err, ErrStopped):
		p.halted.Store(true) // not run to the end: run again on resume
	default:
		p.fail(err)
	}
}

// collect journals the results, adds them up and hands them to OnCase in
// plan order, so that the journal holds every case of the plan up to its
// last one, and what a user sees does not depend on scheduling. Nothing
// more of a case is kept once it is added up.
//
// It works in two stages. As the results come in plan order, it decides
// which findings are kept (groupBook.tryDecide: a case whose decision
// waits for a confirmation waits in a queue, with the cases after it) and
// starts the confirmation and the bundles of the kept ones beside the
// workers; then, still in
// plan order, it finishes each case once that is done: the counted
// findings are stripped or made the group's candidate, and the case is
// journaled and added up.
func (p *pass) collect(runCtx context.Context, results <-chan sequenced) {
	p.journaling = p.r.jr != nil
	stop := make(chan struct{}) // the decisions wait no more
	var stopOnce sync.Once
	stopWaiting := func() {
		stopOnce.Do(func() { close(stop); p.r.book.wake() })
	}
	go func() {
		select {
		case <-p.abort:
		case <-runCtx.Done():
		case <-stop:
		}
		stopWaiting()
	}()
	defer stopWaiting()
	p.batches = make(chan announceBatch, 64)
	announced := make(chan struct{})
	go p.announcer(announced)
	defer func() { close(p.batches); <-announced }()
	var queue []sequenced // decided, in plan order; cr nil for a gap
	finishReady := func(wait bool) {
		defer p.announce() // the cases finished together, with one sync
		for len(queue) > 0 {
			q := queue[0]
			if q.cr != nil && q.cr.work != nil && q.cr.work.done != nil {
				if !wait && !closed(q.cr.work.done) {
					return
				}
				<-q.cr.work.done
			}
			queue = queue[1:]
			p.finishCase(runCtx, q.cr)
			p.r.markFinished(q.index)
			<-p.window
		}
	}
	// undecided holds the cases received in plan order whose findings
	// cannot be decided yet (the first waits for a confirmation), so that
	// the collector goes on receiving meanwhile and the workers do not
	// wait for it: a group's first finding is confirmed beside the
	// workers, not instead of them.
	var undecided []sequenced
	decideReady := func() {
		for len(undecided) > 0 {
			sr := undecided[0]
			cr, ok := p.tryDecide(runCtx, sr.cr, closed(stop))
			if !ok {
				return
			}
			sr.cr = cr
			undecided = undecided[1:]
			queue = append(queue, sr)
		}
	}
	pending := map[int]sequenced{}
	next := 0
	stopC := (<-chan struct{})(stop) // nil once seen closed
	for results != nil || len(queue) > 0 || len(undecided) > 0 {
		var headDone <-chan struct{}
		if len(queue) > 0 && queue[0].cr != nil && queue[0].cr.work != nil {
			headDone = queue[0].cr.work.done
		}
		select {
		case sr, ok := <-results:
			if !ok {
				results = nil
				break
			}
			pending[sr.seq] = sr
			for {
				sr, ok := pending[next]
				if !ok {
					break
				}
				delete(pending, next)
				next++
				undecided = append(undecided, sr)
			}
		case <-headDone:
		case <-p.r.book.settled:
		case <-stopC:
			stopC = nil
		}
		decideReady()
		finishReady(results == nil && len(undecided) == 0)
	}
	// After an error, later cases may be missing; keep what finished.
	p.journaling = false
	for _, seq := range sortedInts(pending) {
		if sr := pending[seq]; sr.cr != nil {
			sr.cr = p.decide(runCtx, sr.cr, stop)
			queue = append(queue, sr)
		}
	}
	finishReady(true)
}

// decide decides which findings of a case are kept, and starts their
// confirmation and bundles; it returns the case, or nil for a gap.
func (p *pass) decide(runCtx context.Context, cr *CaseResult, stop <-chan struct{}) *CaseResult {
	if cr == nil || cr.work == nil {
		return cr
	}
	w := cr.work
	w.keep, w.first, w.cut = p.r.book.decide(cr.Findings, stop)
	return p.decided(runCtx, cr)
}

// tryDecide is decide without waiting for a confirmation (see
// groupBook.tryDecide): ok is false when the case must wait.
func (p *pass) tryDecide(runCtx context.Context, cr *CaseResult, force bool) (_ *CaseResult, ok bool) {
	if cr == nil || cr.work == nil {
		return cr, true
	}
	w := cr.work
	if w.keep, w.first, w.cut, ok = p.r.book.tryDecide(cr.Findings, force); !ok {
		return cr, false
	}
	return p.decided(runCtx, cr), true
}

// decided starts the confirmation and the bundles of the kept findings
// of a case just decided.
func (p *pass) decided(runCtx context.Context, cr *CaseResult) *CaseResult {
	r := p.r
	w := cr.work
	if !slices.Contains(w.keep, true) {
		return cr
	}
	if k := pairKey(cr.Seed, cr.Flags); w.first && cr.Findings[0].Kind == result.Oracle && !r.baseRechecked[k] {
		r.baseRechecked[k], cr.BaseRechecked = true, true
	}
	w.done = make(chan struct{})
	fs := cr.Findings // complete drops them when the confirmation fails
	go func() {
		defer close(w.done)
		p.slots <- struct{}{}
		w.err = r.complete(runCtx, cr)
		<-p.slots
		r.book.settle(fs, w.keep, w.err == nil && cr.Skip == "")
	}()
	return cr
}

// finishCase ends a case in plan order: its counted findings are
// stripped, or made their group's candidate; it is journaled, added up
// and handed to OnCase. A gap (nil), or a case whose confirmation broke,
// stops the journal: the cases after it run again on resume.
func (p *pass) finishCase(runCtx context.Context, cr *CaseResult) {
	r := p.r
	if cr != nil && cr.work != nil && cr.work.err != nil {
		p.broke(runCtx, cr.work.err)
		cr = nil
	}
	if cr == nil {
		p.journaling = false
		return
	}
	if cr.work != nil && cr.work.cut {
		// Decided without waiting for the confirmations it depended on:
		// not what a run to the end decides, so not journaled.
		p.journaling = false
	}
	if err := r.counted(cr); err != nil {
		p.fail(err)
		p.journaling = false
	}
	cr.work = nil
	if p.journaling {
		if err := r.jr.append(cr, p.elapsed()); err != nil {
			p.fail(err)
			p.journaling = false
		}
	}
	p.added = append(p.added, addedCase{cr, r.addUp(cr)})
}

// addedCase is a case added up and not announced yet, with the
// candidates it replaced.
type addedCase struct {
	cr       *CaseResult
	replaced []string
}

// announceBatch is cases added up together, to be announced once the
// journal records of their findings are on disk (sync).
type announceBatch struct {
	cases []addedCase
	sync  bool
}

// announce hands the cases added up since the last time to the
// announcer, which syncs the journal once for all of them when one has
// findings, then announces them (OnCase), so that no finding is shown
// before it is on disk. The sync happens beside the collector, which goes
// on with the next cases meanwhile.
func (p *pass) announce() {
	if len(p.added) == 0 {
		return
	}
	b := announceBatch{cases: p.added}
	if jr := p.r.jr; jr != nil {
		var err error
		if b.sync, err = jr.flushFindings(); err != nil {
			p.fail(err)
			p.journaling = false
		}
	}
	p.added = nil
	p.batches <- b
}

// announcer syncs and announces the batches of announce, in order, and
// closes done when they are all announced. The batches handed over
// while it waited are written already: one sync puts them all on disk,
// so that a campaign where most cases have findings syncs fewer times
// the slower its disk, and no finding waits longer to be shown.
func (p *pass) announcer(done chan<- struct{}) {
	defer close(done)
	var queue []announceBatch
	for b := range p.batches {
		queue = append(queue[:0], b)
		if b.sync {
			queue = drainBatches(p.batches, queue)
			if err := p.r.jr.syncFile(); err != nil {
				p.fail(err)
			}
		}
		for _, b := range queue {
			for _, a := range b.cases {
				p.r.announce(a.cr, a.replaced)
			}
		}
	}
}

// drainBatches appends to queue the batches waiting in c, without
// waiting for more.
func drainBatches(c <-chan announceBatch, queue []announceBatch) []announceBatch {
	for {
		select {
		case b, ok := <-c:
			if !ok {
				return queue
			}
			queue = append(queue, b)
		default:
			return queue
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
	// A shard whose seeds the relations all skipped is complete, as any
	// that skipped seeds: the merge says whether a test case ran at all.
	if fatal == nil && rep.TestCases == 0 && rep.Stopped == "budget" && len(rep.Seeds.Skipped) > 0 && p.r.opt.Shard.Count <= 1 {
		fatal = noSeedLeft(rep.Seeds.Skipped)
	}
	if fatal == nil && rep.TestCases == 0 && rep.Stopped == "budget" && len(rep.Seeds.Skipped) == 0 {
		fatal = p.r.noSpot()
	}
	if fatal != nil {
		rep.Stopped = "error"
		rep.Error = printable.Text(fatal.Error())
		return rep, &Error{Err: fatal, Report: rep}
	}
	return rep, nil
}
