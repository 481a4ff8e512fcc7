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
	Findings []result.Finding  `json:"findings,omitempty"`
	// Checks is what each checker concluded, when the outputs were
	// compared.
	Checks      []result.CheckOutcome `json:"checks,omitempty"`
	Runs        int                   `json:"runs"`
	Rechecks    int                   `json:"rechecks,omitempty"`
	MutationNS  int64                 `json:"mutation_ns"`
	TranspileNS int64                 `json:"transpile_ns"`
	CheckNS     int64                 `json:"check_ns"`

	// The follow-up and its output, and the pair it was made from, kept
	// for feedback only.
	followUp    []byte
	followFiles tree.Tree
	pair        int
}

// runCase runs one planned test case and makes its record: the findings,
// each with its bundle, and the status. Its relation's templates stop at
// deadline, when set (the campaign's time runs out).
func (r *runner) runCase(ctx context.Context, cs Case, deadline time.Time) (*CaseResult, error) {
	seed := r.pairSeed(cs.Pair)
	rel := r.c.Relations[cs.Relation]
	b := r.bases[cs.Pair] // admitted: its base was accepted
	out, err := r.tester.Run(ctx, Test{
		Index: cs.Index, Relation: rel, Spot: cs.Spot, CaseSeed: cs.CaseSeed,
		Base:     &Base{Seed: seed, Result: b.res, Files: b.files},
		Deadline: deadline,
	})
	if err != nil {
		return nil, err
	}
	cr := &CaseResult{
		Index: cs.Index, Seed: seed.Name, Flags: seed.Flags.String(), Relation: rel.Name, pair: cs.Pair,
		Spot:     result.Spot{Index: cs.Spot.Index, Line: cs.Spot.Line, Col: cs.Spot.Col, Desc: cs.Spot.Desc},
		Findings: out.Findings, Checks: out.Checks, Skip: out.Skip, Runs: out.Runs, Rechecks: out.Rechecks,
		MutationNS: out.MutationNS, TranspileNS: out.TranspileNS, CheckNS: out.CheckNS,
	}
	for i := range cr.Findings {
		if err := r.bundle(&cr.Findings[i], seed, out.FollowUp.Src, b.res, out.Result); err != nil {
			return nil, err
		}
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
