package engine

import (
	"context"
	"path/filepath"
	"sync"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/result"
)

// DefaultBundlesPerGroup is how many findings of a signature group get a
// bundle (and the full confirmation, ConfirmRuns re-runs), by default;
// the group's later findings are counted, each confirmed by one re-run
// of its follow-up.
const DefaultBundlesPerGroup = 3

// bundlesPerGroup is the K of a campaign under opt.
func bundlesPerGroup(opt Options) int {
	if opt.BundlesPerGroup <= 0 {
		return DefaultBundlesPerGroup
	}
	return opt.BundlesPerGroup
}

// A finding of a test case, as the collector sees it in plan order, is
// one of the first K findings of its group that held on a first re-run
// (kept: it gets the full confirmation and a bundle) or a later one
// (counted: its evidence is dropped and it has no bundle, unless its
// follow-up is the smallest of the group, see tally.candidate). Which one
// it is depends only on the cases before it in plan order, and on their
// confirmations, so it does not depend on the number of workers: when
// the decision depends on a confirmation still running, the collector
// waits for it.

// groupBook counts, per signature, the kept findings whose confirmation
// held and those whose confirmation is still running. The collector
// decides; the confirmations, running beside the workers, settle.
type groupBook struct {
	k      int
	mu     sync.Mutex
	cond   *sync.Cond
	groups map[string]*bookEntry
}

type bookEntry struct{ kept, pending int }

func newGroupBook(k int) *groupBook {
	b := &groupBook{k: k, groups: map[string]*bookEntry{}}
	b.cond = sync.NewCond(&b.mu)
	return b
}

func (b *groupBook) entry(sig string) *bookEntry {
	e := b.groups[sig]
	if e == nil {
		e = &bookEntry{}
		b.groups[sig] = e
	}
	return e
}

// decide tells, for each finding of a case (in plan order), whether it
// is kept; a kept finding is pending until settle. It waits while the
// answer depends on a confirmation still running, unless stop is closed:
// then the finding is counted, and cut says so (the campaign is ending,
// and the case is not journaled).
func (b *groupBook) decide(fs []result.Finding, stop <-chan struct{}) (keep []bool, cut bool) {
	keep = make([]bool, len(fs))
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := range fs {
		e := b.entry(fs[i].Signature)
		for e.kept < b.k && e.kept+e.pending >= b.k {
			if closed(stop) {
				cut = true
				break
			}
			b.cond.Wait()
		}
		if e.kept+e.pending < b.k {
			keep[i] = true
			e.pending++
		}
	}
	return keep, cut
}

// settle ends the confirmation of the kept findings of a case: they
// count as kept when it held.
func (b *groupBook) settle(fs []result.Finding, keep []bool, held bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := range fs {
		if !keep[i] {
			continue
		}
		e := b.entry(fs[i].Signature)
		e.pending--
		if held {
			e.kept++
		}
	}
	b.cond.Broadcast()
}

// wake wakes a decision waiting for confirmations, so that it sees stop.
func (b *groupBook) wake() {
	b.mu.Lock()
	b.cond.Broadcast()
	b.mu.Unlock()
}

// replay counts the kept findings of a journaled case.
func (b *groupBook) replay(cr *CaseResult) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, f := range cr.Findings {
		if kept(&f) {
			b.entry(f.Signature).kept++
		}
	}
}

// kept tells whether a finding of a journaled case was one of the first
// of its group, with a bundle.
func kept(f *result.Finding) bool { return !f.Counted && !f.Candidate && f.Case >= 0 }

func closed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// caseWork is what a case with findings carries from its worker to the
// collector: what its bundles and the rest of its confirmation need. It
// is dropped once the case is finished.
type caseWork struct {
	out  *Outcome
	seed Seed
	base *baseEntry
	keep []bool // which findings are kept (see groupBook.decide)
	cut  bool   // decided without waiting for a confirmation it needed
	// done is closed when the confirmation and the bundles of the kept
	// findings are done; nil when there were none to make.
	done chan struct{}
	err  error
}

// complete confirms a case whose findings include kept ones fully (the
// runs its worker made are not made again) and writes their bundles. A
// case whose confirmation fails becomes a skipped one, as in
// Tester.Run.
func (r *runner) complete(ctx context.Context, cr *CaseResult) error {
	w := cr.work
	b := &Base{Seed: w.seed, Result: w.base.res, Files: w.base.files}
	n := r.tester.confirmRuns()
	if err := r.tester.Confirm(ctx, b, w.out, n, n); err != nil {
		return err
	}
	cr.Rechecks = w.out.Rechecks
	cr.TranspileNS = w.out.TranspileNS
	if w.out.Skip != "" {
		cr.skipped(w.out)
		return nil
	}
	for i := range cr.Findings {
		if w.keep[i] {
			if err := r.bundle(&cr.Findings[i], w.seed, w.out.FollowUp.Src, w.base.res, w.out.Result); err != nil {
				return err
			}
		}
	}
	return nil
}

// removeBundle removes the bundle of a finding that is counted after all
// (a candidate that a smaller one replaced): only what mcpt wrote there.
func (r *runner) removeBundle(id string) error {
	if r.opt.OutDir == "" {
		return nil
	}
	return bundle.Remove(filepath.Join(r.opt.OutDir, filepath.FromSlash(bundle.Path(id))))
}
