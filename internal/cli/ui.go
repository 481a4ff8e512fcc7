package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/progress"
	"github.com/mcpt-tool/mcpt/report"
)

// ui prints finding lines on stdout and progress on stderr; progress is a
// live bar on a terminal and a plain line every few seconds elsewhere.
type ui struct {
	mu  sync.Mutex
	bar *progress.Bar
}

func newProgress(w io.Writer, total int, budget time.Duration) *ui {
	return &ui{bar: progress.New(w, total, budget)}
}

func (u *ui) println(s string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	fmt.Fprintln(os.Stdout, s)
}

func (u *ui) update(cases, findings int) { u.bar.Update(cases, findings) }

func (u *ui) done() { u.bar.Done() }

// events writes the --events stream; the zero value writes nothing.
type events struct {
	w *report.EventWriter
}

func (e events) caseDone(cr *engine.CaseResult) {
	if e.w == nil {
		return
	}
	if cr.Error != "" {
		// A case the relation could not derive: its message with it.
		spot := cr.Spot
		e.w.Write(report.Event{Event: "case", Case: cr.Index, Seed: cr.Seed, Flags: cr.Flags, Relation: cr.Relation, Spot: &spot, Status: cr.Status, Reason: cr.Skip, Message: cr.Error})
		return
	}
	e.w.Case(cr.Index, cr.Seed, cr.Flags, cr.Relation, cr.Spot, cr.Status, cr.Skip)
	for i := range cr.Findings {
		e.w.Finding(&cr.Findings[i])
	}
}

func openEvents(path string) (events, func(), error) {
	if path == "" {
		return events{}, func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return events{}, nil, err
	}
	bw := bufio.NewWriter(f)
	return events{w: report.NewEventWriter(bw)}, func() { bw.Flush(); f.Close() }, nil
}
