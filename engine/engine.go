// Package engine runs MCP campaigns: Algorithm 1 of the paper (seeds ×
// relations × spots under a budget), with the base translation cached per
// seed, a pool of workers pulling from one deterministic plan, the fuzz
// ablation (same picks and runs, no consistency checks), finding bundles,
// a durable journal and sharding by seed.
package engine

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/tree"
)

// Mode is the kind of campaign.
type Mode string

const (
	// MCP checks every relation's consistency checkers.
	MCP Mode = "mcp"
	// Fuzz makes the same picks and transpiler runs but checks nothing: only
	// crashes, timeouts and rejected follow-ups are recorded (the paper's RQ2
	// ablation).
	Fuzz Mode = "fuzz"
)

// Seed is a seed input.
type Seed struct {
	Name string // as the user knows it (a path)
	Src  []byte
}

// Shard selects the seeds a process works on: seed k belongs to shard
// k mod Count. The zero value means unsharded.
type Shard struct{ Index, Count int }

func (s Shard) String() string {
	if s.Count <= 1 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

func (s Shard) owns(seed int) bool { return s.Count <= 1 || seed%s.Count == s.Index }

// Options configure a campaign.
type Options struct {
	Mode     Mode
	Seed     uint64
	MaxTime  time.Duration // 0: no time limit
	MaxCases int           // 0: no count limit (at least one limit is required)
	MaxMR    int           // relations picked per seed visit; 0: all
	MaxSpots int           // spots picked per relation; 0: 4
	Workers  int           // 0: the number of CPUs
	Shard    Shard
	// BaseRuns is how many times each base is transpiled; outputs that
	// differ mark the seed nondeterministic. 0 means 1.
	BaseRuns  int
	Normalize oracle.Normalizer
	// OutDir receives finding bundles and the journal; empty keeps
	// everything in memory.
	OutDir string
	// Config is the configuration file, recorded for repro commands.
	Config string
	// Faults are the builtin transpiler's faults given on the command line,
	// recorded in findings for repro commands.
	Faults []string
	// Recipe, when set, is recorded in every bundle, for the reproduction
	// of its finding anywhere.
	Recipe *bundle.Recipe
	// NoRecheck records a failing follow-up as a finding without running
	// it and its base again to see that the failure repeats (see
	// Tester.Run).
	NoRecheck bool
	// Resume continues the journal in OutDir instead of starting afresh:
	// the cases it holds are not run again and a time budget goes on from
	// the time the journal says was used.
	Resume bool
	// Fingerprint names what decides the results besides what the engine
	// sees itself (the options above, the relations' names, the seeds'
	// content): the configuration's content, the transpiler command,
	// relation files, flags, each under the name a user knows it by. The
	// journal records it with the engine's own part, and a resume under
	// another fingerprint is refused, naming what differs.
	Fingerprint map[string]string
	// Feedback adds the follow-ups that passed to the seed pool after each
	// pass over the pool, so that later test cases carry several mutations
	// (the paper's future work). At most FeedbackMax are added per pass
	// (0: 16), the earliest cases first.
	Feedback    bool
	FeedbackMax int
	// OnCase is called for every finished test case, from one goroutine.
	OnCase func(*CaseResult)
	// Halt, when closed, cancels the transpiler runs in flight (external
	// commands are killed): after an interrupt, the test cases in flight
	// go on until Halt is closed. A case whose run was cancelled is
	// dropped, run again on resume, and the report says "interrupted".
	Halt <-chan struct{}
}

// Campaign is what a run needs: the transpiler, the relations and seeds.
type Campaign struct {
	Transpiler transpiler.Transpiler
	Relations  []*relation.Relation
	Seeds      []Seed
	Options    Options
}

// Status of a test case.
const (
	StatusPass    = "pass"
	StatusFinding = "finding"
	StatusSkip    = "skip"
)

// CaseResult is the outcome of one test case, as journaled.
type CaseResult struct {
	Index       int              `json:"case"`
	Seed        string           `json:"seed"`
	Relation    string           `json:"relation"`
	Spot        result.Spot      `json:"spot"`
	Status      string           `json:"status"`
	Skip        string           `json:"skip,omitempty"`
	Findings    []result.Finding `json:"findings,omitempty"`
	Runs        int              `json:"runs"`
	Rechecks    int              `json:"rechecks,omitempty"`
	MutationNS  int64            `json:"mutation_ns"`
	TranspileNS int64            `json:"transpile_ns"`
	CheckNS     int64            `json:"check_ns"`

	// The follow-up and its output, kept for feedback only.
	followUp    []byte
	followFiles tree.Tree
}

type dispatched struct {
	seq int
	c   Case
}

type sequenced struct {
	seq int
	cr  *CaseResult // nil when the case broke the campaign
}

// baseEntry caches the translation of one seed.
type baseEntry struct {
	once  sync.Once
	res   *transpiler.Result
	files tree.Tree    // normalised output
	skip  string       // why the seed's cases are skipped, if they are
	runs  atomic.Int32 // transpiler runs of this base
	err   error
}

// Error is an error that stopped a campaign, with the findings recorded
// before it.
type Error struct {
	Err    error
	Report *result.Report
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Run runs the campaign. Cancelling ctx stops the planning of new test
// cases; the cases in flight finish (or are dropped when Options.Halt is
// closed) and the report is complete for the cases run. Run returns an error only when the campaign itself broke (a relation
// bug, a transpiler that cannot be started, a full disk); findings are in
// the report.
func (c *Campaign) Run(ctx context.Context) (*result.Report, error) {
	opt := c.Options
	if opt.Mode == "" {
		opt.Mode = MCP
	}
	if opt.Mode != MCP && opt.Mode != Fuzz {
		return nil, fmt.Errorf("unknown mode %q (want mcp or fuzz)", opt.Mode)
	}
	if opt.MaxTime <= 0 && opt.MaxCases <= 0 {
		return nil, errors.New("no budget: set max_time or max_cases")
	}
	if len(c.Relations) == 0 {
		return nil, errors.New("no relations")
	}
	if len(c.Seeds) == 0 {
		return nil, errors.New("no seeds")
	}
	if opt.Shard.Count > 1 && (opt.Shard.Index < 0 || opt.Shard.Index >= opt.Shard.Count) {
		return nil, fmt.Errorf("bad shard %d/%d", opt.Shard.Index, opt.Shard.Count)
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	if opt.BaseRuns <= 0 {
		opt.BaseRuns = 1
	}
	if opt.Feedback && (opt.Shard.Count > 1 || opt.Resume) {
		return nil, errors.New("feedback cannot be combined with sharding or resuming: the seed pool grows with the results of every seed")
	}
	r := &runner{c: c, opt: opt, seeds: slices.Clone(c.Seeds), tester: &Tester{
		Transpiler: c.Transpiler, Normalize: opt.Normalize, Mode: opt.Mode, BaseRuns: opt.BaseRuns,
		NoRecheck: opt.NoRecheck, Config: opt.Config, Faults: opt.Faults,
	}}
	for range c.Seeds {
		r.bases = append(r.bases, &baseEntry{})
	}
	return r.run(ctx, workers)
}

type runner struct {
	c     *Campaign
	opt   Options
	seeds []Seed // the campaign's seeds, then follow-ups added by feedback
	bases []*baseEntry
	jr    *journal
	// resumed is where a resumed campaign's journal ends: its cases are
	// all the cases of the shard up to resumed.last.
	resumed resumePoint
	// tally adds up the finished cases for the report.
	tally tally
	// journalDigest sums up the cases of a resumed journal, to compare
	// them with the plan.
	journalDigest planDigest
	// known maps "seed NAME" to the seed's index and "relation NAME" to 0,
	// to check journaled cases.
	known map[string]int
	// admitted lists the seeds whose base was accepted (deterministically),
	// in seed order; only they are planned.
	admitted []int
	// tester runs the bases and the test cases.
	tester *Tester
	// baseFindings are the crashes and timeouts of base runs.
	baseFindings []result.Finding

	// Feedback: follow-ups that passed in the current round, by case index.
	fbMu    sync.Mutex
	fb      map[int]*CaseResult
	fbRound sync.WaitGroup
	fbSeen  map[string]bool // contents already in the pool
}

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
	// The time budget goes on from what earlier sessions used.
	elapsed := func() time.Duration { return r.resumed.elapsed + time.Since(start) }

	// Cases in flight go on after ctx is cancelled, until Halt.
	runCtx, cancelRuns := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelRuns()
	if r.opt.Halt != nil {
		go func() {
			select {
			case <-r.opt.Halt:
				cancelRuns()
			case <-runCtx.Done():
			}
		}()
	}

	if err := r.admit(ctx, runCtx, workers); err != nil {
		if ctx.Err() == nil {
			return nil, err
		}
		rep := r.report()
		rep.Timing.WallNS = elapsed().Nanoseconds()
		rep.Stopped = "interrupted"
		return rep, nil
	}

	spotCache := map[[2]int][]relation.Spot{}
	spots := func(ai, ri int) ([]relation.Spot, error) {
		si := r.admitted[ai]
		k := [2]int{si, ri}
		if s, ok := spotCache[k]; ok {
			return s, nil
		}
		s, err := r.c.Relations[ri].Spots(relation.Input{Name: path.Base(r.seeds[si].Name), Src: r.seeds[si].Src})
		if err != nil {
			return nil, fmt.Errorf("relation %s on %s: %w", r.c.Relations[ri].Name, r.seeds[si].Name, err)
		}
		spotCache[k] = s
		return s, nil
	}
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

	cases := make(chan dispatched)
	results := make(chan sequenced, workers)
	var deadline time.Time
	if r.opt.MaxTime > 0 {
		deadline = start.Add(r.opt.MaxTime - r.resumed.elapsed)
	}
	stopped := "budget"
	var halted atomic.Bool // a case in flight was dropped
	var fatal error
	var fatalOnce sync.Once
	setFatal := func(err error) { fatalOnce.Do(func() { fatal = err }) }
	abort := make(chan struct{})
	var abortOnce sync.Once

	var planErr error
	go func() {
		defer close(cases)
		seq := 0
		planErr = pl.run(func(cs Case) bool {
			cs.Seed = r.admitted[cs.Seed]
			if r.opt.MaxCases > 0 && cs.Index >= r.opt.MaxCases {
				return false
			}
			if !r.opt.Shard.owns(cs.Seed) || cs.Index <= r.resumed.last {
				return true
			}
			if !deadline.IsZero() && time.Now().After(deadline) {
				stopped = "time"
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
				stopped = "interrupted"
			case <-abort:
			}
			if r.opt.Feedback {
				r.fbRound.Done() // not sent after all
			}
			return false
		})
	}()

	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for d := range cases {
				cr, err := r.runCase(runCtx, d.c)
				switch {
				case err != nil && runCtx.Err() != nil:
					halted.Store(true) // not run to the end: run again on resume
					cr = nil
				case err != nil:
					setFatal(err)
					abortOnce.Do(func() { close(abort) })
					cr = nil
				}
				if r.opt.Feedback {
					r.keepForFeedback(cr)
					r.fbRound.Done()
				}
				results <- sequenced{d.seq, cr}
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

	// Results are journaled, added up and handed to OnCase in plan order,
	// so that the journal holds every case of the plan up to its last one,
	// and what a user sees does not depend on scheduling. Nothing more of a
	// case is kept once it is added up.
	journaling := r.jr != nil
	finish := func(cr *CaseResult) {
		if journaling {
			if err := r.jr.append(cr, elapsed()); err != nil {
				setFatal(err)
				abortOnce.Do(func() { close(abort) })
				journaling = false
			}
		}
		r.finished(cr)
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
	if planErr != nil && fatal == nil {
		fatal = planErr
	}
	rep := r.report()
	rep.Timing.WallNS = elapsed().Nanoseconds()
	rep.Stopped = stopped
	if halted.Load() {
		rep.Stopped = "interrupted"
	}
	if fatal == nil {
		fatal = nothingChecked(rep)
	}
	if fatal != nil {
		rep.Stopped = "error"
		return rep, &Error{Err: fatal, Report: rep}
	}
	return rep, nil
}

// ErrNothingChecked is the error of a campaign that could not check
// anything: every seed it owns was skipped (rejected, nondeterministic, or
// its base run crashed or timed out).
var ErrNothingChecked = errors.New("the campaign checked nothing")

// nothingChecked returns ErrNothingChecked, saying why, when every seed of
// the shard was skipped.
func nothingChecked(rep *result.Report) error {
	s := rep.Seeds
	skipped := len(s.Rejected) + len(s.Nondeterministic) + len(s.Crashed)
	if rep.TestCases > 0 || s.Total == 0 || skipped < s.Total {
		return nil
	}
	return fmt.Errorf("%w: all %d seeds were skipped (%d rejected by the transpiler, %d nondeterministic, %d crashed or timed out in the base run)",
		ErrNothingChecked, s.Total, len(s.Rejected), len(s.Nondeterministic), len(s.Crashed))
}

// finished adds up a finished case, of this session or of the journal
// being resumed, and hands it to OnCase.
func (r *runner) finished(cr *CaseResult) {
	r.tally.add(cr)
	if r.opt.OnCase != nil {
		r.opt.OnCase(cr)
	}
}

// checkJournalPlan compares the cases of a resumed journal with the plan:
// a digest of every case of the shard up to the journal's last, by index,
// seed, relation and spot, must be the journal's.
func (r *runner) checkJournalPlan(pl *planner) error {
	var d planDigest
	err := pl.run(func(cs Case) bool {
		si := r.admitted[cs.Seed]
		if cs.Index > r.resumed.last {
			return false
		}
		if r.opt.Shard.owns(si) {
			d.add(cs.Index, r.seeds[si].Name, r.c.Relations[cs.Relation].Name, cs.Spot.Index)
		}
		return true
	})
	if err != nil {
		return err
	}
	if d != r.journalDigest {
		return fmt.Errorf("%w: the journal's %d cases are not those of this campaign's plan up to case %d (%d): a record was changed, or the transpiler accepted other seeds this time",
			ErrCannotResume, r.journalDigest.n, r.resumed.last, d.n)
	}
	return nil
}

// planDigest sums up a sequence of cases: how many, and a hash of what
// identifies each.
type planDigest struct {
	n    int
	hash uint64
}

func (d *planDigest) add(index int, seed, relation string, spot int) {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d\x00%s\x00%s\x00%d", index, seed, relation, spot)
	d.n++
	d.hash = d.hash*1099511628211 ^ h.Sum64()
}

// checkCase validates a journaled case against the campaign: an index the
// budget allows, a seed of the shard, a known relation, a status that
// agrees with the findings.
func (r *runner) checkCase(cr *CaseResult) error {
	if cr.Index < 0 || (r.opt.MaxCases > 0 && cr.Index >= r.opt.MaxCases) {
		return fmt.Errorf("index out of range (max_cases %d)", r.opt.MaxCases)
	}
	if r.known == nil {
		r.known = map[string]int{}
		for i, s := range r.c.Seeds {
			r.known["seed "+s.Name] = i
		}
		for _, rel := range r.c.Relations {
			r.known["relation "+rel.Name] = 0
		}
	}
	si, ok := r.known["seed "+cr.Seed]
	if !ok {
		return fmt.Errorf("unknown seed %q", cr.Seed)
	}
	if !r.opt.Shard.owns(si) {
		return fmt.Errorf("seed %q is not of shard %s", cr.Seed, r.opt.Shard)
	}
	if _, ok := r.known["relation "+cr.Relation]; !ok {
		return fmt.Errorf("unknown relation %q", cr.Relation)
	}
	switch {
	case cr.Status == StatusPass && len(cr.Findings) == 0, cr.Status == StatusSkip && len(cr.Findings) == 0:
	case cr.Status == StatusFinding && len(cr.Findings) > 0:
	default:
		return fmt.Errorf("status %q with %d findings", cr.Status, len(cr.Findings))
	}
	for _, f := range cr.Findings {
		if f.Case != cr.Index || f.SeedFile != cr.Seed || f.Relation != cr.Relation {
			return fmt.Errorf("finding %s is not of this case", f.ID)
		}
	}
	r.journalDigest.add(cr.Index, cr.Seed, cr.Relation, cr.Spot.Index)
	return nil
}

// report makes the report of the cases added up and of the seeds' bases.
func (r *runner) report() *result.Report {
	t := &r.tally
	rep := &result.Report{
		Tool: "mcpt", Mode: string(r.opt.Mode), Seed: r.opt.Seed, Config: r.opt.Config,
		Shard: r.opt.Shard.String(), ByRelation: map[string]result.RelationStats{},
		TestCases: t.cases, TranspilerRuns: t.runs, Timing: t.timing, Cases: t.summaries,
		RecheckRuns: t.rechecks, NondeterministicCases: t.nondeterministic,
		Campaign: campaignID(r.c.fingerprint(r.opt)),
	}
	for _, rel := range r.c.Relations {
		rep.ByRelation[rel.Name] = t.byRelation[rel.Name]
	}
	skipped := map[string][]string{}
	for i := range r.seeds {
		if !r.opt.Shard.owns(i) {
			continue
		}
		rep.Seeds.Total++
		b := r.bases[i]
		rep.TranspilerRuns += int(b.runs.Load())
		if b.skip != "" {
			skipped[b.skip] = append(skipped[b.skip], r.seeds[i].Name)
		}
	}
	rep.Findings = append(slices.Clone(r.baseFindings), t.findings...)
	if rep.Findings == nil {
		rep.Findings = []result.Finding{}
	}
	rep.Seeds.Rejected = skipped[skipRejected]
	rep.Seeds.Nondeterministic = skipped[skipNondeterministic]
	rep.Seeds.Crashed = skipped[skipCrashed]
	rep.Sort()
	return rep
}

const (
	skipRejected         = SkipRejected
	skipNondeterministic = SkipNondeterministic
	skipCrashed          = SkipCrashed
)

// admit transpiles the base of every seed, in parallel, before any test
// case: the plan covers the seeds whose base was accepted, so that it does
// not depend on the order in which workers finish. Every shard admits every
// seed (the plan is global) but reports only its own. Cancelling ctx stops
// admission; the base runs in flight go on under runCtx.
func (r *runner) admit(ctx, runCtx context.Context, workers int) error {
	var g errgroup.Group
	g.SetLimit(workers)
	for i := range r.seeds {
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
	for i := range r.seeds {
		b := r.bases[i]
		if b.skip == "" {
			r.admitted = append(r.admitted, i)
			continue
		}
		if b.skip != skipCrashed || !r.opt.Shard.owns(i) {
			continue
		}
		seed := r.seeds[i]
		f := r.tester.BaseFinding(fmt.Sprintf("s%04d-base", i), &Base{Seed: seed, Result: b.res, Skip: b.skip})
		if err := r.bundle(f, seed, nil, b.res, nil); err != nil {
			return err
		}
		r.baseFindings = append(r.baseFindings, *f)
	}
	return nil
}

// base transpiles a seed once (BaseRuns times, to detect nondeterminism)
// and caches the outcome.
func (r *runner) base(ctx context.Context, si int) (*baseEntry, error) {
	b := r.bases[si]
	b.once.Do(func() {
		out, err := r.tester.Base(ctx, r.seeds[si])
		b.runs.Add(int32(out.Runs))
		b.res, b.files, b.skip, b.err = out.Result, out.Files, out.Skip, err
	})
	return b, b.err
}

func (r *runner) runCase(ctx context.Context, cs Case) (*CaseResult, error) {
	seed := r.seeds[cs.Seed]
	rel := r.c.Relations[cs.Relation]
	b := r.bases[cs.Seed] // admitted: its base was accepted
	out, err := r.tester.Run(ctx, Test{
		Index: cs.Index, Relation: rel, Spot: cs.Spot, CaseSeed: cs.CaseSeed,
		Base: &Base{Seed: seed, Result: b.res, Files: b.files},
	})
	if err != nil {
		return nil, err
	}
	cr := &CaseResult{
		Index: cs.Index, Seed: seed.Name, Relation: rel.Name,
		Spot:     result.Spot{Index: cs.Spot.Index, Line: cs.Spot.Line, Col: cs.Spot.Col, Desc: cs.Spot.Desc},
		Findings: out.Findings, Skip: out.Skip, Runs: out.Runs, Rechecks: out.Rechecks,
		MutationNS: out.MutationNS, TranspileNS: out.TranspileNS, CheckNS: out.CheckNS,
	}
	for i := range cr.Findings {
		if err := r.bundle(&cr.Findings[i], seed, out.FollowUp.Src, b.res, out.Result); err != nil {
			return nil, err
		}
	}
	switch {
	case len(cr.Findings) > 0:
		cr.Status = StatusFinding
	case cr.Skip != "":
		cr.Status = StatusSkip
	default:
		cr.Status = StatusPass
	}
	if r.opt.Feedback && cr.Status == StatusPass && out.Result.Status == transpiler.Accepted {
		cr.followUp, cr.followFiles = out.FollowUp.Src, out.Result.Files
	}
	return cr, nil
}

// keepForFeedback remembers a passed follow-up of the current round.
func (r *runner) keepForFeedback(cr *CaseResult) {
	if cr == nil || cr.followUp == nil {
		return
	}
	r.fbMu.Lock()
	defer r.fbMu.Unlock()
	if r.fb == nil {
		r.fb = map[int]*CaseResult{}
	}
	r.fb[cr.Index] = cr
}

// growPool ends a pass over the pool: it waits for the pass's test cases
// to finish, then adds passed follow-ups (see below for which) as new
// seeds whose base output is the follow-up's (already checked) output. It
// returns how many seeds it added. Waiting at the end of each pass keeps the
// pool, and so the plan, independent of the number of workers.
func (r *runner) growPool() (int, error) {
	r.fbRound.Wait()
	r.fbMu.Lock()
	defer r.fbMu.Unlock()
	if r.fbSeen == nil {
		r.fbSeen = map[string]bool{}
		for _, s := range r.seeds {
			r.fbSeen[string(s.Src)] = true
		}
	}
	// One follow-up per seed, the earliest; seeds added last first, so that
	// mutations pile up instead of the pool filling with first-generation
	// follow-ups of the original seeds.
	bySeed := map[string]*CaseResult{}
	for _, cr := range r.fb {
		if prev := bySeed[cr.Seed]; prev == nil || cr.Index < prev.Index {
			bySeed[cr.Seed] = cr
		}
	}
	pos := map[string]int{}
	for i, s := range r.seeds {
		pos[s.Name] = i
	}
	var picks []*CaseResult
	for _, cr := range bySeed {
		picks = append(picks, cr)
	}
	slices.SortFunc(picks, func(a, b *CaseResult) int { return pos[b.Seed] - pos[a.Seed] })
	limit := r.opt.FeedbackMax
	if limit <= 0 {
		limit = 16
	}
	added := 0
	for _, cr := range picks {
		if added == limit {
			break
		}
		if r.fbSeen[string(cr.followUp)] {
			continue
		}
		r.fbSeen[string(cr.followUp)] = true
		ext := path.Ext(cr.Seed)
		name := fmt.Sprintf("%s~c%06d%s", strings.TrimSuffix(cr.Seed, ext), cr.Index, ext)
		b := &baseEntry{res: &transpiler.Result{Status: transpiler.Accepted, Files: cr.followFiles}, files: r.opt.Normalize.Apply(cr.followFiles)}
		b.once.Do(func() {}) // the output is known: no base run
		r.seeds = append(r.seeds, Seed{Name: name, Src: cr.followUp})
		r.bases = append(r.bases, b)
		r.admitted = append(r.admitted, len(r.seeds)-1)
		added++
	}
	for _, cr := range r.fb {
		cr.followUp, cr.followFiles = nil, nil // keep memory flat over a long campaign
	}
	clear(r.fb)
	return added, nil
}
