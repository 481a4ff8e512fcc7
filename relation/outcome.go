package relation

import (
	"context"
	"fmt"
	"sync"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/tree"
)

// Outcome is what one checker of a follow-up concluded on a pair of
// outputs: failed (Fails), passed, or passed without deciding (Undecided:
// a derived check with no neighbour or no sibling line to compare with).
type Outcome struct {
	Checker   string
	Fails     []oracle.Failure
	Undecided bool
	// Why is the first reason an undecided checker gave, "" otherwise.
	Why string
}

// Decider is a Checker that says when it could not decide, as oracle's
// derived checkers (order, analogy, locality) do.
type Decider interface {
	Decide(o, o2 tree.Tree) oracle.Verdict
}

// ContextDecider is a Decider whose check runs programs (a checker that
// loads or type-checks the output): it stops when ctx is done. Outcomes
// calls DecideContext rather than Decide or CheckContext.
type ContextDecider interface {
	DecideContext(ctx context.Context, o, o2 tree.Tree) oracle.Verdict
}

// ContextChecker is a Checker whose check runs user code (templates, say):
// it stops when ctx is done. Outcomes calls CheckContext rather than Check.
type ContextChecker interface {
	CheckContext(ctx context.Context, o, o2 tree.Tree) []oracle.Failure
}

// Named is a Checker that has a name before it fails.
type Named interface {
	CheckerName() string
}

// Outcomes runs every checker of the follow-up on the pair of outputs and
// says what each concluded; its failures are those of Check. A checker
// that neither failed nor decided every part of its check is undecided.
// A ContextChecker stops when ctx is done: its failures are then none of
// the outputs'.
//
// The ContextDeciders of a follow-up, when it has more than one, run at
// the same time: each waits on a program (node, go) most of its time, and
// their verdicts do not depend on each other.
func (f *FollowUp) Outcomes(ctx context.Context, o, o2 tree.Tree) []Outcome {
	outs := make([]Outcome, len(f.Checks))
	deciders := 0
	for _, c := range f.Checks {
		if _, ok := c.(ContextDecider); ok {
			deciders++
		}
	}
	var wg sync.WaitGroup
	for i, c := range f.Checks {
		out := &outs[i]
		if d, ok := c.(ContextDecider); ok && deciders > 1 {
			wg.Go(func() { out.decided(d.DecideContext(ctx, o, o2)) })
		} else if ok {
			out.decided(d.DecideContext(ctx, o, o2))
		} else if d, ok := c.(Decider); ok {
			out.decided(d.Decide(o, o2))
		} else if cc, ok := c.(ContextChecker); ok {
			out.Fails = cc.CheckContext(ctx, o, o2)
		} else {
			out.Fails = c.Check(o, o2)
		}
	}
	wg.Wait()
	for i, c := range f.Checks {
		out := &outs[i]
		switch n, ok := c.(Named); {
		case ok:
			out.Checker = n.CheckerName()
		case len(out.Fails) > 0:
			out.Checker = out.Fails[0].Checker
		default:
			out.Checker = fmt.Sprintf("check %d", i+1)
		}
	}
	return outs
}

// decided sets the outcome of a verdict.
func (out *Outcome) decided(v oracle.Verdict) {
	out.Fails, out.Undecided = v.Fails, len(v.Fails) == 0 && len(v.Undecided) > 0
	if out.Undecided {
		out.Why = v.Undecided[0]
	}
}
