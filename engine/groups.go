package engine

import (
	"context"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/result"
)

// DefaultBundlesPerGroup is how many findings of a signature group get a
// bundle (and the full confirmation, ConfirmRuns re-runs), by default;
// the group's later findings are counted, each confirmed by one re-run
// of its follow-up.
const DefaultBundlesPerGroup = 3

// DefaultConfirmCounted is, by default, how many of a group's counted
// findings (those after its first BundlesPerGroup) make one that is run
// again: one in 8, the ones their case seed picks (ConfirmsCounted). A
// campaign where every test case fails the same way so makes an eighth
// more runs, not twice as many, and a group whose failures do not always
// repeat still shows in its flaky count: what a re-run would see, one in
// 8 of its test cases show.
const DefaultConfirmCounted = 8

// confirmCounted is the one in n of a campaign under opt; 0 when no
// counted finding is run again.
func confirmCounted(opt Options) int {
	switch {
	case opt.CountUnconfirmed || opt.NoRecheck:
		return 0
	case opt.ConfirmCounted <= 0:
		return DefaultConfirmCounted
	}
	return opt.ConfirmCounted
}

// confirmCountedString is confirm_counted as the journal's fingerprint
// records it.
func confirmCountedString(opt Options) string {
	switch n := confirmCounted(opt); n {
	case 0:
		return "false"
	case 1:
		return "true"
	default:
		return "1/" + strconv.Itoa(n)
	}
}

// ConfirmsCounted tells whether a test case with the case seed caseSeed,
// whose findings are counted in their groups, is run again once under
// the one in n of confirm_counted (n ≤ 0: none; 1: every one). It depends
// on the case seed only, so that the same test cases are run again
// whatever the workers, shards and resumes, and wherever their findings
// fall in their groups.
func ConfirmsCounted(caseSeed uint64, n int) bool {
	if n <= 1 {
		return n == 1
	}
	// A mix of the case seed (SplitMix64's finaliser), so that the pick
	// does not follow the case's own draws from it.
	z := caseSeed ^ 0x6a09e667f3bcc909
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return z%uint64(n) == 0
}

// bundlesPerGroup is the K of a campaign under opt.
func bundlesPerGroup(opt Options) int {
	if opt.BundlesPerGroup <= 0 {
		return DefaultBundlesPerGroup
	}
	return opt.BundlesPerGroup
}

// A finding of a test case, as the collector sees it in plan order, is
// one of the first K findings of its group that held on their re-runs
// (kept: it gets a bundle) or a later one (counted: its evidence is
// dropped and it has no bundle, unless its follow-up is the smallest of
// the group, see tally.candidate). The group's first kept finding is
// confirmed in full (confirm_runs re-runs of its follow-up and base); the
// other kept ones by one re-run of the follow-up: a failure can join a
// group only once the group's first finding repeated every time. Which
// one a finding is depends only on the cases before it in plan order,
// and on their confirmations, so it does not depend on the number of
// workers: when the decision depends on a confirmation still running,
// the case waits for it (and the cases after it, in plan order), while
// the collector goes on receiving the cases the workers finish.

// groupBook counts, per signature, the kept findings whose confirmation
// held and those whose confirmation is still running. The collector
// decides; the confirmations, running beside the workers, settle.
type groupBook struct {
	k      int
	mu     sync.Mutex
	cond   *sync.Cond
	groups map[string]*bookEntry
	// settled receives a token when a confirmation settles, so that a
	// collector that does not wait in decide (see tryDecide) tries again.
	settled chan struct{}
}

type bookEntry struct{ kept, pending int }

func newGroupBook(k int) *groupBook {
	b := &groupBook{k: k, groups: map[string]*bookEntry{}, settled: make(chan struct{}, 1)}
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

// undecided tells whether a finding of the group of e cannot be told
// kept or counted before a confirmation running ends: its group's first
// finding, or the last of its first K, is being confirmed.
func (b *groupBook) undecided(e *bookEntry) bool {
	return e.pending > 0 && (e.kept == 0 || e.kept+e.pending >= b.k)
}

// decide tells, for each finding of a case (in plan order), whether it
// is kept, and whether one of them is its group's first, which the case's
// confirmation must then confirm in full; a kept finding is pending
// until settle. It waits while the answer depends on a confirmation
// still running, unless stop is closed: then the finding is counted, and
// cut says so (the campaign is ending, and the case is not journaled).
// A second finding of the case in the same group is counted.
func (b *groupBook) decide(fs []result.Finding, stop <-chan struct{}) (keep []bool, first, cut bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for !b.ready(fs) && !closed(stop) {
		b.cond.Wait()
	}
	return b.apply(fs)
}

// tryDecide is decide without the wait: when the answer depends on a
// confirmation still running, ok is false and nothing is decided, unless
// force (the campaign is ending: decide's stop).
func (b *groupBook) tryDecide(fs []result.Finding, force bool) (keep []bool, first, cut, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !force && !b.ready(fs) {
		return nil, false, false, false
	}
	keep, first, cut = b.apply(fs)
	return keep, first, cut, true
}

// ready tells whether every finding of fs can be told kept or counted
// now. A case's findings that fall in one group count as its first, the
// others being counted whatever happens.
func (b *groupBook) ready(fs []result.Finding) bool {
	for i := range fs {
		if e := b.groups[fs[i].Signature]; e != nil && b.undecided(e) {
			return false
		}
	}
	return true
}

// apply decides the findings of fs as they stand; a finding whose group
// is undecided still is counted, and cut says so.
func (b *groupBook) apply(fs []result.Finding) (keep []bool, first, cut bool) {
	keep = make([]bool, len(fs))
	mine := map[string]bool{} // groups this case has a pending finding in
	for i := range fs {
		sig := fs[i].Signature
		if mine[sig] {
			continue
		}
		e := b.entry(sig)
		if b.undecided(e) {
			cut = true
			continue
		}
		if e.kept+e.pending >= b.k {
			continue
		}
		keep[i], mine[sig] = true, true
		first = first || e.kept == 0
		e.pending++
	}
	return keep, first, cut
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
	select {
	case b.settled <- struct{}{}:
	default: // a token waits already
	}
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

// pairKey names a seed under a combination of flags, as a journaled
// case does.
func pairKey(seed, flags string) string { return seed + "\x00" + flags }

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
	out   *Outcome
	seed  Seed
	base  *baseEntry
	keep  []bool // which findings are kept (see groupBook.decide)
	first bool   // one of them is its group's first: confirmed in full
	cut   bool   // decided without waiting for a confirmation it needed
	// done is closed when the confirmation and the bundles of the kept
	// findings are done; nil when there were none to make.
	done chan struct{}
	err  error
}

// complete confirms a case whose findings include kept ones (the runs
// its worker made are not made again): in full when one is its group's
// first (its base too, when no case of its seed ran that again before);
// a later kept finding (the second and third of a group, a candidate)
// has the one re-run its worker made when its case seed picked it, as a
// counted finding has (ConfirmsCounted), and no other. It writes their
// bundles.
// A case whose confirmation fails becomes a skipped one, as in
// Tester.Run.
func (r *runner) complete(ctx context.Context, cr *CaseResult) error {
	w := cr.work
	b := &Base{Seed: w.seed, Result: w.base.res, Files: w.base.files}
	followUps, bases := 0, 0
	if w.first {
		followUps = r.tester.confirmRuns()
	}
	if cr.BaseRechecked {
		bases = r.tester.confirmRuns()
	}
	if err := r.tester.Confirm(ctx, b, w.out, followUps, bases); err != nil {
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
