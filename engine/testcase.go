package engine

import (
	"context"
	"time"

	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/tree"
)

// CaseResult is the outcome of one test case, as journaled.
type CaseResult struct {
	Index    int               `json:"case"`
	Seed     string            `json:"seed"`
	Flags    string            `json:"flags,omitempty"` // the combination of flags, as Finding.Flags
	Relation string            `json:"relation"`
	Spot     result.Spot       `json:"spot"`
	Status   result.CaseStatus `json:"status"`
	Skip     string            `json:"skip,omitempty"`
	// Error is the relation's error of a case skipped for it
	// (SkipRelationFailed): where in the seed, and what failed.
	Error    string           `json:"error,omitempty"`
	Findings []result.Finding `json:"findings,omitempty"`
	// Flaky holds, for a case skipped because a re-run disagreed, the
	// signatures its first run's findings had.
	Flaky []string `json:"flaky,omitempty"`
	// BaseRechecked marks the case whose confirmation ran its seed's base
	// again, the first of the seed's cases (under its flags) with a
	// group's first finding: the others rely on it.
	BaseRechecked bool `json:"base_rechecked,omitempty"`
	// Checks is what each checker concluded, when the outputs were
	// compared.
	Checks      []result.CheckOutcome `json:"checks,omitempty"`
	Runs        int                   `json:"runs"`
	Rechecks    int                   `json:"rechecks,omitempty"`
	MutationNS  int64                 `json:"mutation_ns"`
	TranspileNS int64                 `json:"transpile_ns"`
	CheckNS     int64                 `json:"check_ns"`

	// The follow-up and its output, kept for feedback only, and the pair
	// the case was made from (for feedback, and the weights).
	followUp    []byte
	followFiles tree.Tree
	pair        int
	// work is what the collector needs of a case with findings.
	work *caseWork
}

// skipped makes cr the record of a case whose failure did not repeat.
func (cr *CaseResult) skipped(out *Outcome) {
	cr.Findings, cr.Checks, cr.Skip, cr.Flaky = nil, nil, out.Skip, out.Flaky
	cr.Status = result.CaseSkip
}

// runCase runs one planned test case and makes its record: the findings,
// run again once when the case seed picks them (ConfirmsCounted; the
// collector decides which of them are confirmed further and bundled, see
// groupBook), and the
// status. Its relation's templates stop at deadline, when set (the
// campaign's time runs out).
func (r *runner) runCase(ctx context.Context, cs Case, deadline time.Time) (*CaseResult, error) {
	seed := r.pairSeed(cs.Pair)
	rel := r.c.Relations[cs.Relation]
	b := r.bases[cs.Pair] // admitted: its base was accepted
	base := &Base{Seed: seed, Result: b.res, Files: b.files}
	out, err := r.tester.RunOnce(ctx, Test{
		Index: cs.Index, Relation: rel, Spot: cs.Spot, CaseSeed: cs.CaseSeed,
		Base: base, Deadline: deadline,
	})
	if err != nil {
		return nil, err
	}
	if ConfirmsCounted(cs.CaseSeed, confirmCounted(r.opt)) {
		// Run again once, whether its findings are counted or kept: the
		// collector has the kept ones confirmed further (see
		// runner.complete), and which are kept it knows only in plan order.
		if err := r.tester.Confirm(ctx, base, out, 1, 0); err != nil {
			return nil, err
		}
	}
	cr := &CaseResult{
		Index: cs.Index, Seed: seed.Name, Flags: seed.Flags.String(), Relation: rel.Name, pair: cs.Pair,
		Spot:     result.Spot{Index: cs.Spot.Index, Line: cs.Spot.Line, Col: cs.Spot.Col, Desc: cs.Spot.Desc, Kind: cs.Spot.Kind},
		Findings: out.Findings, Checks: out.Checks, Skip: out.Skip, Flaky: out.Flaky, Runs: out.Runs, Rechecks: out.Rechecks,
		MutationNS: out.MutationNS, TranspileNS: out.TranspileNS, CheckNS: out.CheckNS,
	}
	if len(cr.Findings) > 0 {
		cr.work = &caseWork{out: out, seed: seed, base: b}
	}
	switch {
	case len(cr.Findings) > 0:
		cr.Status = result.CaseFinding
	case cr.Skip != "":
		cr.Status = result.CaseSkip
	default:
		cr.Status = result.CasePass
	}
	if r.opt.Feedback && cr.Status == result.CasePass && out.Result.Status == transpiler.Accepted {
		cr.followUp, cr.followFiles = out.FollowUp.Src, out.Result.Files
	}
	return cr, nil
}
