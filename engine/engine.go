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
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/matrix"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/transpiler"
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

// Seed is a seed input, and the combination of flags it is transpiled
// under: none for a campaign's seeds, which run under each combination of
// Options.Flags.
type Seed struct {
	Name  string // as the user knows it (a path)
	Src   []byte
	Flags matrix.Combination
}

// Shard selects the seeds a process works on: the seeds under each
// combination of flags are numbered seed-major (seed k under combination
// j of n is pair k·n+j; without flags, pair k is seed k), and pair p
// belongs to shard p mod Count. The zero value means unsharded.
type Shard struct{ Index, Count int }

func (s Shard) String() string {
	if s.Count <= 1 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

func (s Shard) owns(pair int) bool { return s.Count <= 1 || pair%s.Count == s.Index }

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
	BaseRuns int
	// ConfirmRuns is how many times a failing run is run again before its
	// failure is a finding (see Tester.Run), while its group has no
	// confirmed finding: a group's first finding in plan order (of the
	// shard) is confirmed so; the group's other bundled findings are run
	// again once. 0 means DefaultConfirmRuns.
	ConfirmRuns int
	// BundlesPerGroup is how many findings of a signature group, the
	// first in plan order (of the shard), get a bundle; the later ones
	// are counted in the group, without evidence
	// (result.Finding.Counted), but for the one with the smallest
	// follow-up (result.Finding.Candidate). 0 means
	// DefaultBundlesPerGroup.
	BundlesPerGroup int
	// ConfirmCounted is how a later finding of a group (see
	// BundlesPerGroup) is confirmed: one in ConfirmCounted of them, those
	// their case seed picks (see ConfirmsCounted), is run again once, its
	// follow-up; the others count as their first run gave them. 1 runs
	// every one again; 0 means DefaultConfirmCounted.
	ConfirmCounted int
	// CountUnconfirmed runs no later finding of a group again (see
	// ConfirmCounted): a campaign where most test cases fail the same way
	// then makes one transpiler run per test case. The group's first
	// findings are confirmed all the same.
	CountUnconfirmed bool
	// Exhaustive plans the campaign without weights: by default, a
	// (seed, relation, spot kind) whose test cases keep landing in the
	// groups it found already is picked less (see weights.go).
	Exhaustive bool
	Normalize  oracle.Normalizer
	// Flags is the matrix of the transpiler's flags: each seed runs under
	// each of its combinations (none: one combination, no flag).
	Flags matrix.Matrix
	// Release is the transpiler's release, which relations see; "" when
	// it is not known.
	Release string
	// Style is what the transpiler's output makes of the program's names,
	// for the findings' signatures.
	Style result.Style
	// OutDir receives finding bundles and the journal; empty keeps
	// everything in memory.
	OutDir string
	// Config is the configuration file, recorded for repro commands.
	Config string
	// Faults are the builtin transpiler's faults given on the command line,
	// recorded in findings for repro commands.
	Faults []string
	// Recipe, when set, is recorded in every bundle, for the reproduction
	// of its finding anywhere; RecipeFor, when set, gives the recipe of
	// the findings of a relation in place of it (Recipe narrowed to what
	// that relation needs), called from any worker.
	Recipe    *bundle.Recipe
	RecipeFor func(relation string) *bundle.Recipe
	// Invocation is the command that starts mcpt, for the repro command
	// each bundle records; "" is "mcpt".
	Invocation string
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
	if err := opt.Flags.Check(); err != nil {
		return nil, err
	}
	r := &runner{c: c, opt: opt, seeds: slices.Clone(c.Seeds), combos: opt.Flags.Combinations(), tester: &Tester{
		Transpiler: c.Transpiler, Normalize: opt.Normalize, Mode: opt.Mode, BaseRuns: opt.BaseRuns,
		ConfirmRuns: opt.ConfirmRuns, NoRecheck: opt.NoRecheck, Config: opt.Config, Faults: opt.Faults, Style: opt.Style,
		Release: opt.Release,
	}}
	for si := range c.Seeds {
		for ci := range r.combos {
			r.pairs = append(r.pairs, pair{seed: si, combo: ci})
			r.bases = append(r.bases, &baseEntry{})
		}
	}
	r.book = newGroupBook(bundlesPerGroup(opt))
	r.baseRechecked = map[string]bool{}
	if !opt.Exhaustive {
		r.weights = newWeightBook(c.Relations)
	}
	return r.run(ctx, workers)
}

// pair is a seed under a combination of flags: what a base is the
// transpilation of, and what the plan picks test cases from.
type pair struct{ seed, combo int }

type runner struct {
	c     *Campaign
	opt   Options
	seeds []Seed // the campaign's seeds, then follow-ups added by feedback
	// combos are the combinations of the flags; pairs the seeds under
	// each, seed-major, then follow-ups added by feedback under the
	// combination they passed under; bases the base of each pair.
	combos []matrix.Combination
	pairs  []pair
	bases  []*baseEntry
	jr     *journal
	// resumed is where a resumed campaign's journal ends: its cases are
	// all the cases of the shard up to resumed.last.
	resumed resumePoint
	// tally adds up the finished cases for the report.
	tally tally
	// journalDigest sums up the cases of a resumed journal, to compare
	// them with the plan.
	journalDigest planDigest
	// known maps "seed NAME" to the seed's index, "flags COMBINATION" to
	// the combination's and "relation NAME" to 0, to check journaled cases.
	known map[string]int
	// admitted lists the pairs whose base was accepted
	// (deterministically), in pair order; only they are planned.
	admitted []int
	// spotsOf returns the spots of a relation (by index) in an admitted
	// pair (by index into admitted), cached.
	spotsOf func(admitted, rel int) ([]relation.Spot, error)
	// tester runs the bases and the test cases.
	tester *Tester
	// book decides which findings are kept (see groupBook).
	book *groupBook
	// baseRechecked holds the seeds (under a combination of flags, see
	// pairKey) whose base a group's first finding ran again already: the
	// base is the same for every finding of the seed, so it is run again
	// with the first that needs it, not with each.
	baseRechecked map[string]bool
	// weights are the weights of the plan (see weights.go); nil under
	// Exhaustive.
	weights *weightBook
	// planStop, once the campaign's cases run, is closed when it stops
	// dispatching them (an interrupt, an error), so that the plan waits
	// for no result any more.
	planStop <-chan struct{}
	// baseFindings are the crashes and timeouts of base runs.
	baseFindings []result.Finding
	// skips are the seeds' errors met by relations, of the pairs of
	// the shard.
	skips seedSkips

	// Feedback: follow-ups that passed in the current round, by case index.
	fbMu    sync.Mutex
	fb      map[int]*CaseResult
	fbRound sync.WaitGroup
	fbSeen  map[string]bool // contents already in the pool
}
