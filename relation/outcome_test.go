package relation

import (
	"context"
	"testing"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/tree"
)

// decider is a ContextDecider that returns its verdict, and whether the
// context it got had ended.
type decider struct {
	v     oracle.Verdict
	ended *bool
}

func (d decider) Check(o, o2 tree.Tree) []oracle.Failure { return nil }

func (d decider) DecideContext(ctx context.Context, o, o2 tree.Tree) oracle.Verdict {
	*d.ended = ctx.Err() != nil
	return d.v
}

func (d decider) CheckerName() string { return "semantic" }

// TestOutcomesContextDecider: a checker that runs programs gets the
// campaign's context, and may be undecided.
func TestOutcomesContextDecider(t *testing.T) {
	var ended bool
	fail := oracle.Failure{Checker: "semantic", Message: "no"}
	fu := &FollowUp{Checks: []Checker{
		decider{oracle.Verdict{Undecided: []string{"node is not available"}}, &ended},
		decider{oracle.Verdict{Fails: []oracle.Failure{fail}}, &ended},
		decider{oracle.Verdict{}, &ended},
	}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	outs := fu.Outcomes(ctx, tree.Tree{}, tree.Tree{})
	if !ended {
		t.Error("the checker did not get the campaign's context")
	}
	if len(outs) != 3 || !outs[0].Undecided || len(outs[0].Fails) != 0 ||
		outs[1].Undecided || len(outs[1].Fails) != 1 || outs[2].Undecided || len(outs[2].Fails) != 0 || outs[0].Checker != "semantic" {
		t.Errorf("outcomes %+v", outs)
	}
}
