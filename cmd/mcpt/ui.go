package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"mcpt/engine"
	"mcpt/result"
)

// progress prints finding lines and a periodic status line.
type progress struct {
	mu       sync.Mutex
	w        io.Writer
	total    int
	budget   time.Duration
	start    time.Time
	last     time.Time
	cases    int
	findings int
}

func newProgress(w io.Writer, total int, budget time.Duration) *progress {
	return &progress{w: w, total: total, budget: budget, start: time.Now(), last: time.Now()}
}

func (p *progress) println(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintln(os.Stdout, s)
}

func (p *progress) update(cases, findings int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cases, p.findings = cases, findings
	if time.Since(p.last) >= 5*time.Second {
		p.last = time.Now()
		el := time.Since(p.start)
		fmt.Fprintf(p.w, "mcpt: %d cases, %.0f/s, %d findings, %s elapsed\n", cases, float64(cases)/el.Seconds(), findings, el.Round(time.Second))
	}
}

func (p *progress) done() {}

type events struct{}

func (events) caseDone(*engine.CaseResult) {}

func openEvents(path string) (events, func(), error) {
	return events{}, func() {}, nil
}

func writeReport(out string, r *result.Report) error {
	return r.Save(filepath.Join(out, "report.json"))
}

func generateSeeds(grammarPath string, count int, seed uint64) ([]engine.Seed, error) {
	return nil, fmt.Errorf("%s: grammar seeds are not wired yet", grammarPath)
}
