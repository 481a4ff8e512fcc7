package transpiler

import (
	"context"
	"sync/atomic"
	"time"
)

// Counter is a Transpiler that counts the runs of the one it wraps. It is
// safe for concurrent use.
type Counter struct {
	t        Transpiler
	byRole   [2]atomic.Int64
	byStatus [4]atomic.Int64
	errors   atomic.Int64
	nanos    atomic.Int64
}

// Counting wraps t in a Counter.
func Counting(t Transpiler) *Counter { return &Counter{t: t} }

// Transpile runs the wrapped transpiler and counts the run.
func (c *Counter) Transpile(ctx context.Context, req Request) (*Result, error) {
	start := time.Now()
	res, err := c.t.Transpile(ctx, req)
	c.nanos.Add(int64(time.Since(start)))
	if req.Role == FollowUp {
		c.byRole[FollowUp].Add(1)
	} else {
		c.byRole[Base].Add(1)
	}
	switch {
	case err != nil || res == nil:
		c.errors.Add(1)
	case int(res.Status) < len(c.byStatus):
		c.byStatus[res.Status].Add(1)
	}
	return res, err
}

// Stats is a snapshot of a Counter.
type Stats struct {
	Base, FollowUp                        int64 // runs by role
	Accepted, Rejected, Crashed, TimedOut int64 // runs by status
	Errors                                int64 // runs that could not be carried out
	Time                                  time.Duration
}

// Runs is the number of runs counted.
func (s Stats) Runs() int64 { return s.Base + s.FollowUp }

// Stats returns the counts so far. Time is the wall-clock time spent in
// Transpile, summed over runs (concurrent runs add up).
func (c *Counter) Stats() Stats {
	return Stats{
		Base:     c.byRole[Base].Load(),
		FollowUp: c.byRole[FollowUp].Load(),
		Accepted: c.byStatus[Accepted].Load(),
		Rejected: c.byStatus[Rejected].Load(),
		Crashed:  c.byStatus[Crashed].Load(),
		TimedOut: c.byStatus[TimedOut].Load(),
		Errors:   c.errors.Load(),
		Time:     time.Duration(c.nanos.Load()),
	}
}

// WithTimeout returns a Transpiler that gives each run of t at most d. It
// is meant for in-process transpilers, which have no timeout of their own;
// d <= 0 returns t unchanged.
func WithTimeout(t Transpiler, d time.Duration) Transpiler {
	if d <= 0 {
		return t
	}
	return Func(func(ctx context.Context, req Request) (*Result, error) {
		ctx, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		return t.Transpile(ctx, req)
	})
}
