package relation

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/tree"
)

// decider is a ContextDecider that returns its verdict, and whether the
// context it got had ended.
type decider struct {
	v     oracle.Verdict
	ended *atomic.Bool
}

func (d decider) Check(o, o2 tree.Tree) []oracle.Failure { return nil }

func (d decider) DecideContext(ctx context.Context, o, o2 tree.Tree) oracle.Verdict {
	d.ended.Store(ctx.Err() != nil)
	return d.v
}

func (d decider) CheckerName() string { return "semantic" }

// TestOutcomesContextDecider: a checker that runs programs gets the
// campaign's context, and may be undecided, saying why.
func TestOutcomesContextDecider(t *testing.T) {
	var ended atomic.Bool
	fail := oracle.Failure{Checker: "semantic", Message: "no"}
	fu := &FollowUp{Checks: []Checker{
		decider{oracle.Verdict{Undecided: []string{"node is not available"}}, &ended},
		decider{oracle.Verdict{Fails: []oracle.Failure{fail}}, &ended},
		decider{oracle.Verdict{}, &ended},
	}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	outs := fu.Outcomes(ctx, tree.Tree{}, tree.Tree{})
	if !ended.Load() {
		t.Error("the checker did not get the campaign's context")
	}
	if len(outs) != 3 || !outs[0].Undecided || len(outs[0].Fails) != 0 ||
		outs[1].Undecided || len(outs[1].Fails) != 1 || outs[2].Undecided || len(outs[2].Fails) != 0 || outs[0].Checker != "semantic" ||
		outs[0].Why != "node is not available" || outs[1].Why != "" || outs[2].Why != "" {
		t.Errorf("outcomes %+v", outs)
	}
}

// meeting is a ContextDecider that passes once every other meeting of its
// group has started: run one after the other, the first would wait for
// ever (here: until ctx ends, and it is undecided).
type meeting struct {
	started *sync.WaitGroup
}

func (m meeting) Check(o, o2 tree.Tree) []oracle.Failure { return nil }

func (m meeting) DecideContext(ctx context.Context, o, o2 tree.Tree) oracle.Verdict {
	m.started.Done()
	all := make(chan struct{})
	go func() { m.started.Wait(); close(all) }()
	select {
	case <-all:
		return oracle.Verdict{}
	case <-ctx.Done():
		return oracle.Verdict{Undecided: []string{"alone"}}
	}
}

// TestOutcomesDecidersAtOnce: the ContextDeciders of a follow-up run at
// the same time, the other checks beside them, and the outcomes keep the
// order of the checks.
func TestOutcomesDecidersAtOnce(t *testing.T) {
	var started sync.WaitGroup
	started.Add(3)
	fail := oracle.Failure{Checker: "text", Message: "no"}
	fu := &FollowUp{Checks: []Checker{meeting{&started}, failing{fail}, meeting{&started}, meeting{&started}}}
	// A minute: the three goroutines need only be scheduled, even on a
	// busy machine.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	outs := fu.Outcomes(ctx, tree.Tree{}, tree.Tree{})
	if len(outs) != 4 || outs[0].Undecided || outs[2].Undecided || outs[3].Undecided || len(outs[1].Fails) != 1 || outs[1].Checker != "text" || outs[0].Checker != "check 1" {
		t.Errorf("outcomes %+v", outs)
	}
}

// failing is a plain Checker that fails.
type failing struct{ f oracle.Failure }

func (c failing) Check(o, o2 tree.Tree) []oracle.Failure { return []oracle.Failure{c.f} }
