// Package reduce shrinks the base input of a finding while the finding
// stays: delta debugging (ddmin) over the lines of the base, helped by the
// removal of short blocks of lines that only go together, then ddmin over
// the white-space separated tokens of the lines left. A candidate base is
// kept when the same relation, with the same case seed, still fails on it
// with a finding of the same signature. The reduced finding is saved as a
// bundle with the layout of the engine's, so that mcpt repro works on it.
package reduce

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/matrix"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/tree"
)

// Target is a finding to reduce and what its test case needs.
type Target struct {
	Transpiler transpiler.Transpiler
	// Relation is the finding's relation; nil for a crash of the base run,
	// which needs none.
	Relation  *relation.Relation
	Normalize oracle.Normalizer
	Style     result.Style // of the findings' signatures
	Finding   result.Finding
	// Base is the base input of the finding, named path.Base(Finding.SeedFile).
	Base []byte
	// Flags are the finding's combination of flags, with their
	// arguments; Release the transpiler's release, which the relation
	// sees.
	Flags   matrix.Combination
	Release string
}

// Options tune a reduction.
type Options struct {
	// MaxRuns is the budget of transpiler runs; the reduction stops when it
	// is spent and keeps the smallest base found so far. 0: no limit.
	MaxRuns int64
	// Logf, when set, receives a line at the end of each pass.
	Logf func(format string, args ...any)
	// Progress, when set, is called after each transpiler run with the
	// runs spent so far.
	Progress func(runs int64)
}

// Result is a reduced finding.
type Result struct {
	// Finding is the finding on the reduced base: the original's relation,
	// case seed, mode and signature, with the spot and the evidence of the
	// reduced test case.
	Finding     result.Finding
	Base        []byte
	FollowUp    []byte    // nil for a crash of the base run
	BaseOut     tree.Tree // output tree of the base run (nil unless accepted)
	FollowUpOut tree.Tree

	LinesBefore, LinesAfter int
	BytesBefore, BytesAfter int
	// Runs counts the transpiler runs spent, those of the first
	// reproduction of the original included.
	Runs int64
	// Candidates counts the distinct candidate bases judged.
	Candidates int
	// Stopped says why the reduction ended early: "budget" or
	// "interrupted"; empty when it ran to the end.
	Stopped string
}

// Ratio is the fraction of lines removed, from 0 to 1.
func (r *Result) Ratio() float64 {
	if r.LinesBefore == 0 {
		return 0
	}
	return 1 - float64(r.LinesAfter)/float64(r.LinesBefore)
}

// NotReproducedError says that the original finding does not fail again:
// there is nothing to reduce.
type NotReproducedError struct {
	Finding string // its ID
	Why     string
}

func (e *NotReproducedError) Error() string {
	return fmt.Sprintf("finding %s does not reproduce: %s", e.Finding, e.Why)
}

// ErrBudget says that the budget of transpiler runs ran out before the
// original finding was reproduced.
var ErrBudget = errors.New("the budget of transpiler runs ran out")

// errStop ends a reduction early; it never leaves the package.
var errStop = errors.New("stop")

// Reduce reduces the base of a finding. It returns a *NotReproducedError
// when the original base does not give the finding again, an error wrapping
// ErrBudget or ctx's error when the budget or ctx ends before the original
// is reproduced, and other errors when a transpiler run could not be
// carried out. Once the original is reproduced, running out of budget or a
// cancelled ctx end the reduction with the smallest base found so far (see
// Result.Stopped).
func Reduce(ctx context.Context, tg Target, opt Options) (*Result, error) {
	if tg.Relation == nil && !isBaseCrash(&tg.Finding) {
		return nil, fmt.Errorf("finding %s: no relation given", tg.Finding.ID)
	}
	if tg.Relation != nil && tg.Relation.Name != tg.Finding.Relation {
		return nil, fmt.Errorf("finding %s is of relation %s, not %s", tg.Finding.ID, tg.Finding.Relation, tg.Relation.Name)
	}
	r := &reducer{
		ctx:   ctx,
		tg:    tg,
		opt:   opt,
		t:     transpiler.Counting(tg.Transpiler),
		name:  path.Base(tg.Finding.SeedFile),
		cache: map[[sha256.Size]byte]*outcome{},
	}
	// The finding repeated in its campaign; candidates get one look each,
	// so that the budget goes to reduction.
	r.tester = &engine.Tester{
		Transpiler: budgeted{r}, Normalize: tg.Normalize, Style: tg.Style, Mode: engine.Mode(tg.Finding.Mode),
		NoRecheck: true, Config: tg.Finding.Config, Faults: tg.Finding.Faults, Release: tg.Release,
	}
	logf := opt.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	src := string(tg.Base)
	first, err := r.judge(src)
	if err != nil {
		if errors.Is(err, errStop) {
			if r.stopped == "budget" {
				return nil, fmt.Errorf("%w before finding %s was reproduced", ErrBudget, tg.Finding.ID)
			}
			return nil, fmt.Errorf("reducing %s: %w", tg.Finding.ID, context.Cause(ctx))
		}
		return nil, err
	}
	if !first.kept && first.relErr != nil {
		// No follow-up at all: the relation's error, not the finding's
		// absence.
		return nil, fmt.Errorf("finding %s cannot be judged on its base: %w", tg.Finding.ID, first.relErr)
	}
	if !first.kept {
		return nil, &NotReproducedError{Finding: tg.Finding.ID, Why: first.why}
	}
	start := time.Now()

	lines := r.lines(splitLines(src))
	src = strings.Join(lines, "")
	logf("lines: %d → %d (%d transpiler runs, %s)", CountLines(tg.Base), len(lines), r.runs(), time.Since(start).Round(time.Millisecond))

	if r.err == nil && r.stopped == "" {
		tk := tokenize(src)
		kept := DDMin(tk.tokens, func(ts []token) bool { return r.test(tk.join(ts)) })
		src = tk.join(kept)
		logf("tokens: %d → %d (%d transpiler runs)", len(tk.tokens), len(kept), r.runs())
	}
	if r.err != nil {
		return nil, r.err
	}
	best := r.cache[sha256.Sum256([]byte(src))]
	if best == nil || !best.kept {
		// Only kept candidates are ever chosen, and they are cached.
		return nil, fmt.Errorf("internal error: the reduced base of %s was not judged", tg.Finding.ID)
	}
	res := &Result{
		Finding:     best.finding,
		Base:        []byte(src),
		FollowUp:    best.followUp,
		LinesBefore: CountLines(tg.Base),
		LinesAfter:  CountLines([]byte(src)),
		BytesBefore: len(tg.Base),
		BytesAfter:  len(src),
		Runs:        r.runs(),
		Candidates:  len(r.cache),
		Stopped:     r.stopped,
	}
	if best.base != nil {
		res.BaseOut = best.base.Files
	}
	if best.follow != nil {
		res.FollowUpOut = best.follow.Files
	}
	return res, nil
}

// maxBlock is the longest run of lines the line pass tries to leave out as
// a whole after ddmin.
const maxBlock = 4

// lines is the line pass: ddmin, then the removal of blocks of lines that
// only go together, until neither removes anything.
func (r *reducer) lines(lines []string) []string {
	test := func(ls []string) bool { return r.test(strings.Join(ls, "")) }
	for {
		lines = DDMin(lines, test)
		n := len(lines)
		lines = RemoveBlocks(lines, maxBlock, test)
		if len(lines) == n || r.err != nil || r.stopped != "" {
			return lines
		}
	}
}

type reducer struct {
	ctx     context.Context
	tg      Target
	opt     Options
	t       *transpiler.Counter
	tester  *engine.Tester // runs candidates through t within the budget
	name    string
	cache   map[[sha256.Size]byte]*outcome
	err     error  // a transpiler run that could not be carried out
	stopped string // why no more candidates are judged
}

// outcome is the judgement of one candidate base.
type outcome struct {
	kept bool
	why  string // why it was not kept (for the original)
	// relErr is the relation's error when it failed at every spot, and
	// so derived no follow-up.
	relErr error
	// The test case that gave the finding again.
	finding  result.Finding
	followUp []byte
	base     *transpiler.Result
	follow   *transpiler.Result
}

func (r *reducer) runs() int64 { return r.t.Stats().Runs() }

// test is the predicate of ddmin: whether the candidate base keeps the
// finding. After an error or the end of the budget every new candidate
// fails, so that ddmin winds down on what it has.
func (r *reducer) test(src string) bool {
	if o, ok := r.cache[sha256.Sum256([]byte(src))]; ok {
		return o.kept
	}
	if r.err != nil || r.stopped != "" {
		return false
	}
	o, err := r.judge(src)
	if err != nil {
		if !errors.Is(err, errStop) {
			r.err = err
		}
		return false
	}
	return o.kept
}

// judge runs the finding's test case on a candidate base and caches the
// outcome. It returns errStop, and caches nothing, when the budget ran out
// or ctx was cancelled half way.
func (r *reducer) judge(src string) (*outcome, error) {
	key := sha256.Sum256([]byte(src))
	if o, ok := r.cache[key]; ok {
		return o, nil
	}
	o, err := r.judgeRuns([]byte(src))
	if err != nil {
		return nil, err
	}
	r.cache[key] = o
	return o, nil
}

// budgeted is the reducer's transpiler: each run counted, within the
// budget; when the budget is spent or ctx cancelled it returns errStop.
type budgeted struct{ r *reducer }

func (b budgeted) Transpile(ctx context.Context, req transpiler.Request) (*transpiler.Result, error) {
	r := b.r
	if err := ctx.Err(); err != nil {
		r.stopped = "interrupted"
		return nil, errStop
	}
	if r.opt.MaxRuns > 0 && r.runs() >= r.opt.MaxRuns {
		r.stopped = "budget"
		return nil, errStop
	}
	res, err := r.t.Transpile(ctx, req)
	if r.opt.Progress != nil {
		r.opt.Progress(r.runs())
	}
	if err != nil {
		if ctx.Err() != nil {
			r.stopped = "interrupted"
			return nil, errStop
		}
		return nil, fmt.Errorf("transpiling a candidate base of %s: %w", r.tg.Finding.ID, err)
	}
	return res, nil
}

// stop turns an error that wraps errStop into errStop itself.
func stop(err error) error {
	if errors.Is(err, errStop) {
		return errStop
	}
	return err
}

func (r *reducer) judgeRuns(src []byte) (*outcome, error) {
	orig := &r.tg.Finding
	seed := engine.Seed{Name: orig.SeedFile, Src: src, Flags: r.tg.Flags}
	base, err := r.tester.Base(r.ctx, seed)
	if err != nil {
		return nil, stop(err)
	}
	if isBaseCrash(orig) {
		return r.judgeBaseCrash(base), nil
	}
	if base.Skip != "" {
		return &outcome{why: "the base run " + base.Result.Status.String()}, nil
	}
	spots, err := r.tg.Relation.Spots(r.ctx, r.tester.Input(seed))
	if r.ctx.Err() != nil {
		return nil, r.ctx.Err()
	}
	if err != nil {
		// The relation cannot read what the transpiler accepts; such a
		// candidate says nothing about the finding.
		return &outcome{why: fmt.Sprintf("relation %s finds no spots: %v", orig.Relation, err)}, nil
	}
	if len(spots) == 0 {
		return &outcome{why: fmt.Sprintf("relation %s has no spot on the base", orig.Relation)}, nil
	}
	var got []string
	near := false // a finding of the same checker and file, with another signature
	failed := 0   // spots at which the relation derived no follow-up
	var firstErr error
	for _, i := range spotOrder(spots, orig.Spot) {
		out, err := r.tester.Run(r.ctx, engine.Test{Index: orig.Case, Base: base, Relation: r.tg.Relation, Spot: spots[i], CaseSeed: orig.CaseSeed})
		if me := (*engine.MutationError)(nil); errors.As(err, &me) {
			if failed++; firstErr == nil {
				firstErr = err
			}
			continue
		}
		if err != nil {
			return nil, stop(err)
		}
		for _, f := range out.Findings {
			if f.Signature == orig.Signature {
				f.ID, f.Config, f.Faults = orig.ID, orig.Config, orig.Faults
				return &outcome{kept: true, finding: f, followUp: out.FollowUp.Src, base: base.Result, follow: out.Result}, nil
			}
			got = append(got, f.Signature)
			near = near || f.Kind == orig.Kind && f.Checker == orig.Checker && f.FileKey == orig.FileKey
		}
	}
	if failed == len(spots) {
		err := fmt.Errorf("relation %s failed at every one of the %d spots of the base, the first: %w", orig.Relation, len(spots), firstErr)
		return &outcome{why: err.Error(), relErr: err}, nil
	}
	why := fmt.Sprintf("no spot of %d fails with signature %s", len(spots), orig.Signature)
	switch {
	case len(got) > 0:
		slices.Sort(got)
		why += "; other signatures: " + strings.Join(slices.Compact(got), ", ")
	case failed > 0:
		why += fmt.Sprintf("; the relation holds at the %d other spots", len(spots)-failed)
	default:
		why += "; the relation holds at every spot"
	}
	if failed > 0 {
		why += fmt.Sprintf("; it failed at %d, the first: %v", failed, firstErr)
	}
	if near {
		why += " (the same checker fails on the same file: was the finding made by another version of mcpt?)"
	}
	return &outcome{why: why}, nil
}

// spotOrder is the order in which a candidate's spots are tried: first
// those described as the original spot, then the one at its index, then
// all the others in order.
func spotOrder(spots []relation.Spot, orig result.Spot) []int {
	var order []int
	tried := make([]bool, len(spots))
	add := func(i int) {
		if i >= 0 && i < len(spots) && !tried[i] {
			tried[i] = true
			order = append(order, i)
		}
	}
	for i, sp := range spots {
		if sp.Desc == orig.Desc {
			add(i)
		}
	}
	add(orig.Index)
	for i := range spots {
		add(i)
	}
	return order
}

// isBaseCrash tells a crash or timeout of a seed's base run, which the
// engine reports under relation "-".
func isBaseCrash(f *result.Finding) bool {
	return f.Role == transpiler.Base.String() && (f.Kind == result.Crash || f.Kind == result.Timeout)
}

// judgeBaseCrash keeps a candidate whose base run crashes the same way.
func (r *reducer) judgeBaseCrash(base *engine.Base) *outcome {
	orig := &r.tg.Finding
	f := r.tester.BaseFinding(orig.ID, base)
	if f == nil {
		return &outcome{why: "the base run " + base.Result.Status.String()}
	}
	if f.Signature != orig.Signature {
		return &outcome{why: fmt.Sprintf("the base run %s with signature %s, not %s", base.Result.Status, f.Signature, orig.Signature)}
	}
	f.Case = orig.Case
	return &outcome{kept: true, finding: *f, base: base.Result}
}
