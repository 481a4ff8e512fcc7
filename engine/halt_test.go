package engine_test

import (
	"context"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/transpiler"
)

// TestHalt interrupts a campaign whose follow-up runs hang: cancelling the
// context stops the plan, closing Halt cancels the hung runs, and the
// campaign ends "interrupted" without an error; resumed, it ends with the
// findings of an uninterrupted run.
func TestHalt(t *testing.T) {
	s := load(t, "mcpt.yaml", []string{"sorted-resets"})
	dir := t.TempDir()
	opt := engine.Options{Seed: 4, MaxCases: 60, Workers: 2}
	whole := run(t, s, opt)

	ctx, cancel := context.WithCancel(context.Background())
	halt := make(chan struct{})
	var followUps atomic.Int32
	hung := make(chan struct{}, 2)
	// After 20 follow-ups, every follow-up run hangs until it is cancelled;
	// the first to hang interrupts the campaign, as a signal would.
	tr := transpiler.Func(func(c context.Context, req transpiler.Request) (*transpiler.Result, error) {
		if req.Role == transpiler.FollowUp && followUps.Add(1) > 20 {
			select {
			case hung <- struct{}{}:
			default:
			}
			<-c.Done()
			return nil, c.Err()
		}
		return s.Transpiler.Transpile(c, req)
	})
	go func() {
		<-hung
		cancel()
		close(halt)
	}()
	opt.OutDir, opt.Halt = filepath.Join(dir, "out"), halt
	c := &engine.Campaign{Transpiler: tr, Relations: s.Relations, Seeds: s.Seeds, Options: opt}
	rep, err := c.Run(ctx)
	if err != nil {
		t.Fatalf("interrupted campaign: %v", err)
	}
	if rep.Stopped != "interrupted" || rep.TestCases >= whole.TestCases {
		t.Fatalf("interrupted campaign: stopped %q after %d test cases", rep.Stopped, rep.TestCases)
	}

	opt.Halt, opt.Resume = nil, true
	resumed := run(t, s, opt)
	if a, b := findingIDs(whole), findingIDs(resumed); !slices.Equal(a, b) || resumed.TestCases != whole.TestCases {
		t.Errorf("resumed: %d cases, findings %v; uninterrupted: %d cases, %v", resumed.TestCases, b, whole.TestCases, a)
	}
	if resumed.Stopped != "budget" {
		t.Errorf("resumed campaign stopped %q", resumed.Stopped)
	}
}
