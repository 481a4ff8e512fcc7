package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path"
	"time"

	"github.com/mcpt-tool/mcpt/internal/printable"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/signature"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/tree"
)

// Tester runs one base or one test case at a time. It is the one runner
// behind campaigns, mcpt repro, mcpt reduce, the experiment's
// confirmation and mcpt bench, so that a test case gives the same findings
// wherever it is run. A Tester is safe for concurrent use when its
// transpiler is.
type Tester struct {
	Transpiler transpiler.Transpiler
	Normalize  oracle.Normalizer
	Mode       Mode // "" is MCP
	// BaseRuns is how many times a base is transpiled; outputs that differ
	// mark the seed nondeterministic. 0 means 1.
	BaseRuns int
	// ConfirmRuns is how many times a failing run is run again before its
	// failure is a finding (see Run); 0 means DefaultConfirmRuns.
	ConfirmRuns int
	// NoRecheck turns off the second looks at a failing run (see Run);
	// for transpilers that vary on purpose, such as the experiment's
	// fault-injected sessions.
	NoRecheck bool
	// Style is what the transpiler's output makes of the program's names,
	// for the findings' signatures; the zero Style suits C generators.
	Style result.Style
	// Config and Faults are recorded in findings, for their reproduction.
	Config string
	Faults []string
	// Release is the transpiler's release, which the relations see
	// (relation.Input); "" when it is not known.
	Release string
}

// Input is the seed as the relations see it: its name, its text, the
// transpiler's release and the seed's combination of flags.
func (t *Tester) Input(seed Seed) relation.Input {
	in := relation.Input{Name: path.Base(seed.Name), Src: seed.Src, Release: t.Release}
	if len(seed.Flags) > 0 {
		in.Flags = seed.Flags.Map()
	}
	return in
}

// Base is the outcome of a seed's base runs.
type Base struct {
	Seed   Seed
	Result *transpiler.Result // the first run
	Files  tree.Tree          // its normalised output, when accepted
	// Skip says why the seed makes no test case (SkipRejected,
	// SkipNondeterministic, SkipCrashed); empty when its base was accepted
	// the same way every time.
	Skip string
	// Runs counts the base runs, Rechecks those that confirmed a crash.
	Runs, Rechecks int
}

// DefaultConfirmRuns is how many times a failing run is run again, by
// default, before it is a finding. A transpiler whose runs fail at random
// with probability p, each time the same way, gives a false finding with
// probability about p^(n+1) per test case after n re-runs: for p = 10 %
// and n = 5, 10^-6, 0.01 false findings expected in 10,000 test cases.
const DefaultConfirmRuns = 5

func (t *Tester) confirmRuns() int {
	return confirmRuns(Options{ConfirmRuns: t.ConfirmRuns, NoRecheck: t.NoRecheck})
}

// confirmRuns is how many times a campaign under opt runs a failing run
// again: none without rechecks, DefaultConfirmRuns when unset.
func confirmRuns(opt Options) int {
	if opt.NoRecheck {
		return 0
	}
	if opt.ConfirmRuns <= 0 {
		return DefaultConfirmRuns
	}
	return opt.ConfirmRuns
}

// Why a seed makes no test case.
const (
	SkipRejected         = "base rejected"
	SkipNondeterministic = "base nondeterministic"
	SkipCrashed          = "base crashed"
	// SkipFollowUpNondeterministic is the skip reason of a test case whose
	// follow-up failed a checker, but did not give the same output again
	// or whose base did not.
	SkipFollowUpNondeterministic = "follow-up nondeterministic"
)

// Base transpiles seed BaseRuns times, under its flags.
func (t *Tester) Base(ctx context.Context, seed Seed) (*Base, error) {
	b := &Base{Seed: seed}
	req := transpiler.Request{Name: path.Base(seed.Name), Src: seed.Src, Role: transpiler.Base, Flags: seed.Flags.Args()}
	for i := range max(1, t.BaseRuns) {
		res, err := t.runOnce(ctx, req)
		b.Runs++
		if err != nil {
			return b, fmt.Errorf("transpiling %s: %w", seed.Name, err)
		}
		if i == 0 {
			if res, err = t.confirmBaseCrash(ctx, req, res, b); err != nil {
				return b, fmt.Errorf("transpiling %s again: %w", seed.Name, err)
			}
			b.Result = res
			switch res.Status {
			case transpiler.Rejected:
				b.Skip = SkipRejected
				return b, nil
			case transpiler.Crashed, transpiler.TimedOut:
				b.Skip = SkipCrashed
				return b, nil
			}
			b.Files = t.Normalize.Apply(res.Files)
			continue
		}
		if res.Status != transpiler.Accepted || !t.sameOutput(res.Files, b.raw(), b.Files) {
			b.Skip = SkipNondeterministic
			return b, nil
		}
	}
	return b, nil
}

// confirmBaseCrash runs a base that crashed or timed out again, until a
// run does not fail the same way (a flaky failure: that run is the base)
// or the failure repeated confirmRuns times (res).
func (t *Tester) confirmBaseCrash(ctx context.Context, req transpiler.Request, res *transpiler.Result, b *Base) (*transpiler.Result, error) {
	if res.Status != transpiler.Crashed && res.Status != transpiler.TimedOut {
		return res, nil
	}
	for range t.confirmRuns() {
		again, err := t.runOnce(ctx, req)
		b.Rechecks++
		if err != nil {
			return nil, err
		}
		if !sameFailure(again, res) {
			return again, nil
		}
	}
	return res, nil
}

// sameFailure tells whether two runs that did not give an output failed
// the same way: the same status, and for a crash the same exit status or
// signal.
func sameFailure(a, b *transpiler.Result) bool {
	if a.Status != b.Status {
		return false
	}
	return a.Status != transpiler.Crashed || a.ExitCode == b.ExitCode && a.Signal == b.Signal
}

// BaseFinding is the finding of a base run that crashed or timed out, with
// the given ID; nil for any other base.
func (t *Tester) BaseFinding(id string, b *Base) *result.Finding {
	if b.Skip != SkipCrashed {
		return nil
	}
	f := &result.Finding{
		ID: id, Relation: "-", SeedFile: b.Seed.Name, Flags: b.Seed.Flags.String(),
		Case: -1, Mode: string(t.mode()), Config: t.Config, Faults: t.Faults,
	}
	runFinding(f, b.Result, transpiler.Base)
	f.Signature = signature.With(t.Style, f)
	return f
}

func (t *Tester) mode() Mode {
	if t.Mode == "" {
		return MCP
	}
	return t.Mode
}

// Test is one test case: a relation applied to a seed at a spot, with the
// case seed of its random choices. Base is the outcome of the seed's base
// runs, which must have been accepted.
type Test struct {
	Index    int // in the campaign plan
	Base     *Base
	Relation *relation.Relation
	Spot     relation.Spot
	CaseSeed uint64
	// Deadline, when set, is when the campaign's time runs out: the
	// relation's mutation (user templates) stops then, and the test case
	// with it (see ErrTimeUp).
	Deadline time.Time
}

// ErrTimeUp says that a test case was cut short because the campaign's
// time ran out while its relation was still deriving its follow-up.
var ErrTimeUp = errors.New("the time budget ran out while the relation's templates ran (a loop that runs too long?)")

// Outcome is what one test case gave.
type Outcome struct {
	FollowUp *relation.FollowUp
	Result   *transpiler.Result // of the follow-up run
	Findings []result.Finding   // with their IDs and signatures
	// Checks is what each checker concluded, when the two outputs were
	// compared (an accepted follow-up, in MCP mode); nil otherwise.
	Checks []result.CheckOutcome
	// Skip is SkipFollowUpNondeterministic when a failure did not repeat;
	// there are no findings then, and Flaky holds the signatures the
	// first run's findings had.
	Skip  string
	Flaky []string
	// Runs counts the transpiler runs of the test case, Rechecks those of
	// the second look at a failure (kept apart, so that both modes make the
	// same Runs).
	Runs, Rechecks                   int
	MutationNS, TranspileNS, CheckNS int64

	// What the re-runs compare with: the follow-up's request and its
	// first output, normalised; and how many times the follow-up and the
	// base were run again so far.
	req                 transpiler.Request
	first               tree.Tree
	followUps, baseRuns int
}

// Run runs a test case: it derives the follow-up, transpiles it and, in
// MCP mode, checks the two outputs. A follow-up that fails (a checker, or
// its run crashed, timed out or was rejected) is run again ConfirmRuns
// times, and for a checker the base with it, unless NoRecheck: when a run
// does not give what it gave the first time (an output, or the same
// failure), the failure is the transpiler's nondeterminism, not a finding,
// and the outcome is skipped. Run returns an error when the relation fails
// or the transpiler cannot be run.
func (t *Tester) Run(ctx context.Context, tc Test) (*Outcome, error) {
	out, err := t.RunOnce(ctx, tc)
	if err != nil {
		return nil, err
	}
	n := t.confirmRuns()
	if err := t.Confirm(ctx, tc.Base, out, n, n); err != nil {
		return nil, err
	}
	return out, nil
}

// RunOnce is Run without the re-runs: the follow-up is derived,
// transpiled once and checked, and its findings are not confirmed yet
// (see Confirm).
func (t *Tester) RunOnce(ctx context.Context, tc Test) (*Outcome, error) {
	seed, rel := tc.Base.Seed, tc.Relation
	out := &Outcome{}
	in := t.Input(seed)
	// The relation's templates stop with the campaign (ctx), and its
	// mutation when the campaign's time runs out while it runs.
	mctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var timeUp func() bool
	switch left := time.Until(tc.Deadline); {
	case tc.Deadline.IsZero(): // no time limit
	case left <= 0:
		cancel()
		timeUp = func() bool { return true }
	default:
		tm := time.AfterFunc(left, cancel)
		timeUp = func() bool { return !tm.Stop() }
	}
	t0 := time.Now()
	fu, err := rel.Mutate(mctx, in, tc.Spot, CaseRand(tc.CaseSeed))
	out.MutationNS = time.Since(t0).Nanoseconds()
	if timeUp != nil && timeUp() && err != nil && ctx.Err() == nil {
		return nil, &MutationError{Relation: rel, Seed: seed.Name, Spot: tc.Spot.Index, Err: ErrTimeUp}
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, &MutationError{Relation: rel, Seed: seed.Name, Spot: tc.Spot.Index, Err: err}
	}
	out.FollowUp = fu
	ctx = WithCase(ctx, CaseInfo{Index: tc.Index, Relation: rel.Name})
	out.req = transpiler.Request{Name: in.Name, Src: fu.Src, Role: transpiler.FollowUp, Flags: seed.Flags.Args()}
	if out.Result, err = t.transpile(ctx, out.req, out, &out.Runs); err != nil {
		return nil, fmt.Errorf("transpiling the follow-up of %s: %w", seed.Name, err)
	}
	t0 = time.Now()
	if out.Result.Status == transpiler.Accepted && t.mode() == MCP {
		// Normalised once: the checks and the re-runs compare with it.
		out.first = t.Normalize.Apply(out.Result.Files)
	}
	out.Findings, out.Checks = followUpFindings(ctx, t.proto(tc), fu, tc.Base.Files, tc.Base.names(), out.Result, out.first, t)
	if ctx.Err() != nil {
		return nil, ctx.Err() // a checker's template stopped: its failure is none
	}
	if out.Result.Status == transpiler.Accepted && t.mode() == MCP {
		out.CheckNS = time.Since(t0).Nanoseconds()
	}
	for i := range out.Findings {
		if len(out.Findings) > 1 {
			out.Findings[i].ID = fmt.Sprintf("%s-%d", out.Findings[i].ID, i+1)
		}
		out.Findings[i].FollowUpBytes = len(fu.Src)
	}
	return out, nil
}

// Confirm takes a second look at the failure of an outcome of RunOnce:
// it runs the follow-up again until it was run again followUps times in
// all, and for an oracle finding the base until baseRuns times, unless
// NoRecheck (an outcome without findings has nothing to confirm). When a
// run does not give what the first run gave, the findings are dropped and
// the outcome is skipped as the transpiler's nondeterminism (its Flaky
// holds their signatures). Confirm may be called again with higher counts:
// the runs made already are not made again.
func (t *Tester) Confirm(ctx context.Context, b *Base, out *Outcome, followUps, baseRuns int) error {
	if len(out.Findings) == 0 || t.NoRecheck {
		return nil
	}
	same, err := t.repeats(ctx, b, out, followUps, baseRuns)
	if err != nil {
		return err
	}
	if !same {
		out.Flaky = out.Flaky[:0]
		for _, f := range out.Findings {
			out.Flaky = append(out.Flaky, f.Signature)
		}
		out.Findings, out.Checks, out.Skip = nil, nil, SkipFollowUpNondeterministic
	}
	return nil
}

// MutationError says that a relation failed to derive a follow-up.
type MutationError struct {
	Relation *relation.Relation
	Seed     string
	Spot     int
	Err      error
}

func (e *MutationError) Error() string {
	return fmt.Sprintf("relation %s (%s) on %s at spot %d: %v", e.Relation.Name, e.Relation.Source, e.Seed, e.Spot, e.Err)
}

func (e *MutationError) Unwrap() error { return e.Err }

// repeats runs the follow-up again until it was run again followUps
// times, and for an oracle finding the base until baseRuns times, the
// two in turn, and tells whether every run gave what it gave the first
// time: the same output, or the same failure. It stops at the first run
// that does not.
func (t *Tester) repeats(ctx context.Context, b *Base, out *Outcome, followUps, baseRuns int) (bool, error) {
	if out.Findings[0].Kind != result.Oracle {
		baseRuns = 0
	}
	if out.first == nil && out.Result.Status == transpiler.Accepted {
		out.first = t.Normalize.Apply(out.Result.Files)
	}
	for out.followUps < followUps || out.baseRuns < baseRuns {
		if out.followUps < followUps && (out.followUps <= out.baseRuns || out.baseRuns >= baseRuns) {
			out.followUps++
			again, err := t.transpile(ctx, out.req, out, &out.Rechecks)
			if err != nil {
				return false, fmt.Errorf("transpiling the follow-up of %s again: %w", b.Seed.Name, err)
			}
			switch {
			case again.Status != out.Result.Status:
				return false, nil
			case again.Status == transpiler.Accepted && !t.sameOutput(again.Files, out.Result.Files, out.first):
				return false, nil
			case again.Status != transpiler.Accepted && !sameFailure(again, out.Result):
				return false, nil
			}
			continue
		}
		out.baseRuns++
		base, err := t.transpile(ctx, transpiler.Request{Name: out.req.Name, Src: b.Seed.Src, Role: transpiler.Base, Flags: out.req.Flags}, out, &out.Rechecks)
		if err != nil {
			return false, fmt.Errorf("transpiling %s again: %w", b.Seed.Name, err)
		}
		if base.Status != transpiler.Accepted || !t.sameOutput(base.Files, b.raw(), b.Files) {
			return false, nil
		}
	}
	return true, nil
}

// transpile is one timed run, counted in n.
func (t *Tester) transpile(ctx context.Context, req transpiler.Request, out *Outcome, n *int) (*transpiler.Result, error) {
	t0 := time.Now()
	res, err := t.runOnce(ctx, req)
	out.TranspileNS += time.Since(t0).Nanoseconds()
	*n++
	return res, err
}

// runOnce runs the transpiler once; a run ended by a stop signal is
// ErrStopped.
func (t *Tester) runOnce(ctx context.Context, req transpiler.Request) (*transpiler.Result, error) {
	res, err := t.Transpiler.Transpile(ctx, req)
	if err == nil && stopped(res) {
		err = ErrStopped
	}
	return res, err
}

// proto is the template of the findings of a test case.
func (t *Tester) proto(tc Test) result.Finding {
	sp := tc.Spot
	return result.Finding{
		ID:       fmt.Sprintf("c%06d-%s", tc.Index, tc.Relation.Name),
		Relation: tc.Relation.Name,
		SeedFile: tc.Base.Seed.Name,
		Flags:    tc.Base.Seed.Flags.String(),
		Spot:     result.Spot{Index: sp.Index, Line: sp.Line, Col: sp.Col, Desc: sp.Desc, Kind: sp.Kind},
		Case:     tc.Index,
		CaseSeed: tc.CaseSeed,
		Mode:     string(t.mode()),
		Config:   t.Config,
		Faults:   t.Faults,
	}
}

// raw is the base output as the transpiler wrote it; nil when unknown.
func (b *Base) raw() tree.Tree {
	if b.Result == nil {
		return nil
	}
	return b.Result.Files
}

// names are the file names of the base output, which make signatures
// independent of the seed's naming.
func (b *Base) names() []string {
	if b.Result == nil || b.Result.Files == nil {
		return nil
	}
	return b.Result.Files.Names()
}

// SpotAt returns the spot with the given index of rel on the seed, under
// no release; the relation stops looking for spots when ctx is done.
func SpotAt(ctx context.Context, rel *relation.Relation, seed Seed, index int) (relation.Spot, error) {
	return (&Tester{}).SpotAt(ctx, rel, seed, index)
}

// SpotAt returns the spot with the given index of rel on the seed, as t
// runs it (under t's release and the seed's flags); the relation stops
// looking for spots when ctx is done.
func (t *Tester) SpotAt(ctx context.Context, rel *relation.Relation, seed Seed, index int) (relation.Spot, error) {
	spots, err := rel.Spots(ctx, t.Input(seed))
	if err != nil {
		return relation.Spot{}, fmt.Errorf("relation %s on %s: %w", rel.Name, seed.Name, err)
	}
	if index < 0 || index >= len(spots) {
		return relation.Spot{}, fmt.Errorf("relation %s has %d spots on %s, not spot %d", rel.Name, len(spots), seed.Name, index)
	}
	return spots[index], nil
}

// CaseInfo tells a transpiler run which test case it belongs to.
type CaseInfo struct {
	Index    int
	Relation string
}

type caseKey struct{}

// WithCase returns a context that carries the test case c, for the
// transpiler runs of that case (see CaseOf).
func WithCase(ctx context.Context, c CaseInfo) context.Context {
	return context.WithValue(ctx, caseKey{}, c)
}

// CaseOf returns the test case a transpiler run belongs to, if the run
// belongs to one: a transpiler sees it in the context of its follow-up
// runs (base runs are shared by the cases of a seed and carry none).
func CaseOf(ctx context.Context) (CaseInfo, bool) {
	c, ok := ctx.Value(caseKey{}).(CaseInfo)
	return c, ok
}

// CaseRand is the source of a test case's random choices.
func CaseRand(caseSeed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(caseSeed, caseSeed^0x9e3779b97f4a7c15))
}

// sameOutput tells whether the output of a run, again, is the output
// first of an earlier run once normalised; norm is first normalised. The
// raw outputs are compared first: equal, their normalised forms are
// equal too, and the rules need not run (they are the most of mcpt's own
// time on a transpiler whose failures are run again).
func (t *Tester) sameOutput(again, first, norm tree.Tree) bool {
	if first != nil && sameTree(again, first) {
		return true
	}
	return sameTree(t.Normalize.Apply(again), norm)
}

func sameTree(a, b tree.Tree) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || !bytes.Equal(v, w) {
			return false
		}
	}
	return true
}

// followUpFindings makes the findings of one follow-up run as a campaign
// does: the crash, timeout or rejection of the run, or, in MCP mode, one
// oracle finding per failed checker on the normalised outputs (o is the
// normalised base output, norm the normalised o′ or nil), with what each checker concluded. proto carries the fields that identify the test
// case; baseNames, the file names of the base output, make the signatures
// independent of the seed's naming; t gives the mode, the normalisation
// and the style of the signatures.
func followUpFindings(ctx context.Context, proto result.Finding, fu *relation.FollowUp, o tree.Tree, baseNames []string, res *transpiler.Result, norm tree.Tree, t *Tester) ([]result.Finding, []result.CheckOutcome) {
	var fs []result.Finding
	var checks []result.CheckOutcome
	switch res.Status {
	case transpiler.Crashed, transpiler.TimedOut, transpiler.Rejected:
		f := proto
		runFinding(&f, res, transpiler.FollowUp)
		f.Bindings, f.Fresh = fu.Bindings, fu.Fresh
		fs = append(fs, f)
	case transpiler.Accepted:
		if t.mode() == Fuzz {
			break
		}
		if norm == nil {
			norm = t.Normalize.Apply(res.Files)
		}
		outs := fu.Outcomes(ctx, o, norm)
		checks = make([]result.CheckOutcome, 0, len(outs))
		var fails []oracle.Failure
		for _, oc := range outs {
			co := result.CheckOutcome{Checker: printable.Line(oc.Checker), Failed: len(oc.Fails) > 0, Undecided: oc.Undecided}
			if oc.Undecided {
				// On one line first, then escaped, then bounded again.
				co.Why = result.Reason(printable.Line(result.Reason(oc.Why)))
			}
			checks = append(checks, co)
			fails = append(fails, oc.Fails...)
		}
		for _, fl := range fails {
			f := proto
			f.Kind = result.Oracle
			// File names are the transpiler's: recorded escaped (control
			// characters, bytes that are not UTF-8), as they are printed.
			f.Checker, f.File, f.Message = printable.Line(fl.Checker), printable.Line(fl.File), printable.Text(fl.Message)
			f.Expected, f.Actual, f.Diff, f.Compared = fl.Expected, fl.Actual, fl.Diff, fl.Compared
			f.Bindings, f.Fresh = fu.Bindings, fu.Fresh
			fs = append(fs, f)
		}
	}
	for i := range fs {
		fs[i].FileKey = signature.FileKey(fs[i].File, baseNames, fs[i].SeedFile)
		fs[i].Signature = signature.With(t.Style, &fs[i])
	}
	return fs, checks
}

// runFinding fills in a finding about a run that crashed, timed out or was
// rejected: its kind, role, message, exit status and stderr, and the
// transpiler's diagnostic of a rejection.
func runFinding(f *result.Finding, res *transpiler.Result, role transpiler.Role) {
	switch res.Status {
	case transpiler.TimedOut:
		f.Kind = result.Timeout
	case transpiler.Rejected:
		f.Kind = result.RejectedFollowUp
	default:
		f.Kind = result.Crash
	}
	f.Role = role.String()
	f.Message = "the " + role.String() + " run " + describeRun(res)
	f.ExitCode, f.Signal = res.ExitCode, res.Signal
	f.Stderr = string(res.Stderr)
	if res.Status == transpiler.Rejected {
		f.Diagnostic = res.Diagnostic()
	}
}

func describeRun(res *transpiler.Result) string {
	switch res.Status {
	case transpiler.TimedOut:
		return fmt.Sprintf("timed out after %s", res.Duration.Round(time.Millisecond))
	case transpiler.Rejected:
		return "was rejected (the base was accepted)"
	}
	if res.Reason != "" {
		return "crashed: " + res.Reason
	}
	if res.Signal != "" {
		return "crashed: killed by " + res.Signal
	}
	return fmt.Sprintf("crashed: exit status %d", res.ExitCode)
}
