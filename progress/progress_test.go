package progress

import (
	"bytes"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vbauerster/mpb/v8"
)

// fakeClock is a clock the test moves by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// lineWriter hands each written line to the test.
type lineWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	lines chan string
}

func newLineWriter() *lineWriter { return &lineWriter{lines: make(chan string, 100)} }

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	for {
		line, err := w.buf.ReadString('\n')
		if err != nil {
			w.buf.WriteString(line)
			return len(p), nil
		}
		w.lines <- strings.TrimSuffix(line, "\n")
	}
}

func (w *lineWriter) next(t *testing.T) string {
	t.Helper()
	select {
	case l := <-w.lines:
		return l
	case <-time.After(10 * time.Second):
		t.Fatal("no progress line written")
		return ""
	}
}

// plainBar makes a plain-mode bar driven by a fake clock and manual ticks.
func plainBar(w *lineWriter, total int, budget time.Duration) (*Bar, *fakeClock, chan time.Time) {
	clock := &fakeClock{t: time.Date(2026, 4, 12, 9, 0, 0, 0, time.UTC)}
	ticks := make(chan time.Time)
	b := newBar(w, total, budget, Clock(clock.now))
	b.ticks = ticks
	b.startPlain()
	return b, clock, ticks
}

func TestPlainLines(t *testing.T) {
	w := newLineWriter()
	b, clock, ticks := plainBar(w, 5000, 0)

	b.Update(1200, 3)
	clock.advance(2900 * time.Millisecond)
	ticks <- time.Time{}
	if got, want := w.next(t), "mcpt: 1200/5000 cases, 414/s, 3 findings, 2.9s elapsed, 9.2s left"; got != want {
		t.Errorf("line\n got %q\nwant %q", got, want)
	}

	b.Update(1201, 1)
	clock.advance(100 * time.Millisecond)
	ticks <- time.Time{}
	if got, want := w.next(t), "mcpt: 1201/5000 cases, 400/s, 1 finding, 3.0s elapsed, 9.5s left"; got != want {
		t.Errorf("line\n got %q\nwant %q", got, want)
	}

	b.Done()
	if got, want := w.next(t), "mcpt: 1201/5000 cases, 400/s, 1 finding, 3.0s elapsed"; got != want {
		t.Errorf("last line\n got %q\nwant %q", got, want)
	}
	b.Done() // a second Done does nothing
	b.Update(9999, 9)
	select {
	case l := <-w.lines:
		t.Errorf("line after Done: %q", l)
	default:
	}
}

func TestRemainingFromTheBindingBudget(t *testing.T) {
	for _, tc := range []struct {
		name   string
		total  int
		budget time.Duration
		want   string
	}{
		{"time", 0, 10 * time.Second, "mcpt: 100 cases, 25/s, 0 findings, 4.0s elapsed, 6.0s left"},
		{"cases", 200, 0, "mcpt: 100/200 cases, 25/s, 0 findings, 4.0s elapsed, 4.0s left"},
		{"time first", 1000, 10 * time.Second, "mcpt: 100/1000 cases, 25/s, 0 findings, 4.0s elapsed, 6.0s left"},
		{"cases first", 150, time.Hour, "mcpt: 100/150 cases, 25/s, 0 findings, 4.0s elapsed, 2.0s left"},
		{"unbounded", 0, 0, "mcpt: 100 cases, 25/s, 0 findings, 4.0s elapsed"},
		{"over time", 0, 3 * time.Second, "mcpt: 100 cases, 25/s, 0 findings, 4.0s elapsed, 0.0s left"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newLineWriter()
			b, clock, ticks := plainBar(w, tc.total, tc.budget)
			defer b.Done()
			b.Update(100, 0)
			clock.advance(4 * time.Second)
			ticks <- time.Time{}
			if got := w.next(t); got != tc.want {
				t.Errorf("\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestPlainModeWithRealTicker(t *testing.T) {
	w := newLineWriter()
	b := New(w, 100, time.Minute, Interval(5*time.Millisecond))
	if b.progress != nil {
		t.Fatal("a bar was drawn on a writer that is no terminal")
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				b.Update(g*50+i, i/10)
			}
		}()
	}
	wg.Wait()
	re := regexp.MustCompile(`^mcpt: \d+/100 cases, [\d.]+/s, \d+ findings?, [\d.]+s elapsed(, [\d.]+s left)?$`)
	for range 2 {
		if l := w.next(t); !re.MatchString(l) {
			t.Errorf("line %q", l)
		}
	}
	b.Done()
}

func TestLiveBarRenders(t *testing.T) {
	// mpb draws on any writer; here it is a buffer instead of a terminal.
	var buf bytes.Buffer
	b := newBar(&buf, 10, 0)
	b.startBar(mpb.WithOutput(&buf), mpb.WithWidth(120), mpb.WithAutoRefresh())
	b.Update(4, 2)
	b.Update(10, 3)
	b.Done()
	out := buf.String()
	for _, want := range []string{"mcpt ", "10/10 cases", "3 findings"} {
		if !strings.Contains(out, want) {
			t.Errorf("bar output lacks %q:\n%s", want, out)
		}
	}
}

func TestTaskLines(t *testing.T) {
	w := newLineWriter()
	clock := &fakeClock{t: time.Date(2026, 4, 12, 9, 0, 0, 0, time.UTC)}
	ticks := make(chan time.Time)
	b := newBar(w, 1198, 0, Clock(clock.now), Task("preparation", "runs"))
	b.ticks = ticks
	b.startPlain()
	b.Update(120, 0)
	clock.advance(4 * time.Second)
	ticks <- time.Time{}
	if got, want := w.next(t), "mcpt: preparation: 120/1198 runs, 30/s, 4.0s elapsed, 35.9s left"; got != want {
		t.Errorf("line\n got %q\nwant %q", got, want)
	}
	b.Done()
	if got, want := w.next(t), "mcpt: preparation: 120/1198 runs, 30/s, 4.0s elapsed"; got != want {
		t.Errorf("last line\n got %q\nwant %q", got, want)
	}
}

func TestTaskWithoutUnit(t *testing.T) {
	w := newLineWriter()
	clock := &fakeClock{t: time.Date(2026, 4, 12, 9, 0, 0, 0, time.UTC)}
	b := newBar(w, 0, 0, Clock(clock.now), Task("building", ""))
	b.ticks = make(chan time.Time)
	b.startPlain()
	clock.advance(12300 * time.Millisecond)
	b.Done()
	if got, want := w.next(t), "mcpt: building: 12.3s elapsed"; got != want {
		t.Errorf("last line\n got %q\nwant %q", got, want)
	}
}

func TestSteps(t *testing.T) {
	w := newLineWriter()
	s := NewSteps(w, Interval(time.Hour))
	s.Step("instrumenting", "packages", 1, 2)
	s.Step("instrumenting", "packages", 2, 2)
	s.Step("building", "", 0, 0)
	if l := w.next(t); !regexp.MustCompile(`^mcpt: instrumenting: 2/2 packages, [\d.]+/s, [\d.]+s elapsed$`).MatchString(l) {
		t.Errorf("first step's last line %q", l)
	}
	s.Done()
	if l := w.next(t); !regexp.MustCompile(`^mcpt: building: [\d.]+s elapsed$`).MatchString(l) {
		t.Errorf("second step's last line %q", l)
	}
	var none *Steps
	none.Step("x", "y", 1, 1) // a nil Steps shows nothing
	none.Done()
}

func TestLiveTaskBarNamesItsTaskOnce(t *testing.T) {
	var buf bytes.Buffer
	b := newBar(&buf, 10, 0, Task("seeds", "programs"))
	b.startBar(mpb.WithOutput(&buf), mpb.WithWidth(120), mpb.WithAutoRefresh())
	b.Update(10, 0)
	b.Done()
	out := buf.String()
	if !strings.Contains(out, "mcpt seeds ") || !strings.Contains(out, "10/10 programs") {
		t.Errorf("bar output lacks its task or count:\n%s", out)
	}
	if strings.Contains(out, "seeds: ") || strings.Contains(out, "finding") {
		t.Errorf("bar output repeats its task or counts findings:\n%s", out)
	}
}
