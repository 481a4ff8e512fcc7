// Package progress shows how far a campaign has got while it runs: on a
// terminal a live bar with the test cases done, their rate, the findings,
// and the elapsed and remaining time; elsewhere, as in CI logs, a plain
// line every few seconds. Remaining time comes from whichever budget bounds
// the campaign, its number of test cases or its time.
package progress

import (
	"cmp"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"
)

// DefaultInterval is the time between two plain progress lines.
const DefaultInterval = 5 * time.Second

// Option configures a Bar.
type Option func(*Bar)

// Interval sets the time between two plain progress lines.
func Interval(d time.Duration) Option {
	return func(b *Bar) {
		if d > 0 {
			b.interval = d
		}
	}
}

// Clock sets the source of the current time, for tests.
func Clock(now func() time.Time) Option {
	return func(b *Bar) { b.now = now }
}

// Task makes the bar count something else than a campaign's test cases:
// the units of a long step, such as "runs" of the preparation, without
// findings. Its lines read "preparation: 120/1198 runs, …"; with no unit,
// as for a build, only the time: "building: 12.3s elapsed".
func Task(name, unit string) Option {
	return func(b *Bar) { b.task, b.unit = name, unit }
}

// Bar reports the progress of one campaign. Its methods are safe for
// concurrent use.
type Bar struct {
	w        io.Writer
	total    int           // test cases the campaign may run, 0 when unbounded
	budget   time.Duration // time the campaign may take, 0 when unbounded
	interval time.Duration
	now      func() time.Time
	ticks    <-chan time.Time // plain lines are written on each tick; tests set it
	task     string           // what is done, "" for a campaign
	unit     string           // what is counted, "" for a campaign's test cases

	mu       sync.Mutex
	start    time.Time
	cases    int
	findings int
	done     bool

	stop     chan struct{}
	stopped  chan struct{}
	progress *mpb.Progress // on a terminal
	bar      *mpb.Bar
}

// New starts reporting progress on w for a campaign bounded by total test
// cases and by budget (either may be 0 for no bound). On a terminal it
// draws a live bar; otherwise it writes a plain line every Interval.
func New(w io.Writer, total int, budget time.Duration, opts ...Option) *Bar {
	b := newBar(w, total, budget, opts...)
	if isTerminal(w) {
		b.startBar(mpb.WithOutput(w))
	} else {
		b.startPlain()
	}
	return b
}

func newBar(w io.Writer, total int, budget time.Duration, opts ...Option) *Bar {
	b := &Bar{
		w: w, total: max(total, 0), budget: max(budget, 0), interval: DefaultInterval, now: time.Now,
		stop: make(chan struct{}), stopped: make(chan struct{}),
	}
	for _, o := range opts {
		o(b)
	}
	b.start = b.now()
	return b
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(int(f.Fd()))
}

// Update records the test cases run and the findings so far.
func (b *Bar) Update(cases, findings int) {
	b.mu.Lock()
	if b.done {
		b.mu.Unlock()
		return
	}
	b.cases, b.findings = cases, findings
	b.mu.Unlock()
	b.refresh()
}

// Done stops reporting: the bar is completed, or a last plain line is
// written. Calls after the first do nothing.
func (b *Bar) Done() {
	b.mu.Lock()
	if b.done {
		b.mu.Unlock()
		return
	}
	b.done = true
	b.mu.Unlock()
	close(b.stop)
	<-b.stopped
	if b.progress != nil {
		b.bar.SetTotal(-1, true)
		b.progress.Wait()
		return
	}
	fmt.Fprintln(b.w, b.line(true))
}

// startPlain writes a line on every tick until Done.
func (b *Bar) startPlain() {
	ticks := b.ticks
	var ticker *time.Ticker
	if ticks == nil {
		ticker = time.NewTicker(b.interval)
		ticks = ticker.C
	}
	go func() {
		defer close(b.stopped)
		if ticker != nil {
			defer ticker.Stop()
		}
		for {
			select {
			case <-b.stop:
				return
			case <-ticks:
				fmt.Fprintln(b.w, b.line(false))
			}
		}
	}()
}

// startBar draws a live bar. Its fill is the larger of the fractions of
// the two budgets used, so that it moves with time when time bounds.
func (b *Bar) startBar(opts ...mpb.ContainerOption) {
	b.progress = mpb.New(append([]mpb.ContainerOption{mpb.WithRefreshRate(200 * time.Millisecond)}, opts...)...)
	stats := decor.Any(func(decor.Statistics) string { return b.status(false) })
	name := decor.Name("mcpt ")
	if b.task != "" {
		name = decor.Name("mcpt " + b.task + " ")
	}
	if b.total == 0 && b.budget == 0 {
		b.bar = b.progress.AddSpinner(0, mpb.PrependDecorators(name), mpb.AppendDecorators(stats))
	} else {
		b.bar = b.progress.AddBar(permille, mpb.PrependDecorators(name), mpb.AppendDecorators(stats))
	}
	go func() {
		defer close(b.stopped)
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-b.stop:
				return
			case <-t.C:
				b.refresh()
			}
		}
	}()
}

const permille = 1000

// refresh moves the live bar to the fraction of the campaign done.
func (b *Bar) refresh() {
	if b.bar == nil {
		return
	}
	b.mu.Lock()
	f := b.fraction(b.now().Sub(b.start))
	b.mu.Unlock()
	// Outside the lock: the bar's decorators take it while rendering.
	b.bar.SetCurrent(min(int64(f*permille), permille-1))
}

// fraction is how much of the bounding budget is used, between 0 and 1.
func (b *Bar) fraction(elapsed time.Duration) float64 {
	f := 0.0
	if b.total > 0 {
		f = max(f, float64(b.cases)/float64(b.total))
	}
	if b.budget > 0 {
		f = max(f, float64(elapsed)/float64(b.budget))
	}
	return min(f, 1)
}

// status is the text of a progress line, such as
// "1200/5000 cases, 410/s, 3 findings, 2.9s elapsed, 9.3s left".
func (b *Bar) status(final bool) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	final = final || b.done
	elapsed := b.now().Sub(b.start)
	unit := cmp.Or(b.unit, "cases")
	counted := b.task == "" || b.unit != ""
	var parts []string
	rate := 0.0
	if elapsed > 0 {
		rate = float64(b.cases) / elapsed.Seconds()
	}
	if counted {
		if b.total > 0 {
			parts = append(parts, fmt.Sprintf("%d/%d %s", b.cases, b.total, unit))
		} else {
			parts = append(parts, fmt.Sprintf("%d %s", b.cases, unit))
		}
		parts = append(parts, fmtRate(rate))
	}
	if b.task == "" {
		parts = append(parts, plural(b.findings, "finding"))
	}
	parts = append(parts, fmtDuration(elapsed)+" elapsed")
	if left, ok := b.remaining(elapsed, rate); ok && !final {
		parts = append(parts, fmtDuration(left)+" left")
	}
	return strings.Join(parts, ", ")
}

// line is a plain progress line: the status after the task's name, which
// a live bar shows on its left instead.
func (b *Bar) line(final bool) string {
	if b.task != "" {
		return "mcpt: " + b.task + ": " + b.status(final)
	}
	return "mcpt: " + b.status(final)
}

// remaining estimates the time left: the rest of the time budget, or the
// cases left at the current rate, whichever comes first.
func (b *Bar) remaining(elapsed time.Duration, rate float64) (time.Duration, bool) {
	var left time.Duration
	ok := false
	if b.budget > 0 {
		left, ok = max(b.budget-elapsed, 0), true
	}
	if b.total > 0 && rate > 0 {
		byCases := time.Duration(float64(max(b.total-b.cases, 0)) / rate * float64(time.Second))
		if !ok || byCases < left {
			left, ok = byCases, true
		}
	}
	return left, ok
}

func fmtRate(r float64) string {
	if r < 10 {
		return fmt.Sprintf("%.1f/s", r)
	}
	return fmt.Sprintf("%.0f/s", r)
}

func fmtDuration(d time.Duration) string {
	switch {
	case d >= time.Minute:
		return d.Round(time.Second).String()
	default:
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
