package engine

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcpt-tool/mcpt/result"
)

// TestAnnouncerSyncsOnceForWaitingBatches: the batches with findings that
// wait while the announcer syncs are put on disk by one sync, and every
// case is announced once, in order; a batch that comes alone has a sync
// of its own, and one without findings none.
func TestAnnouncerSyncsOnceForWaitingBatches(t *testing.T) {
	jr, _, err := createJournal(filepath.Join(t.TempDir(), journalName), map[string]string{"k": "v"})
	if err != nil {
		t.Fatal(err)
	}
	defer jr.close()
	var shown []int
	p := &pass{r: &runner{jr: jr, opt: Options{OnCase: func(cr *CaseResult) { shown = append(shown, cr.Index) }}}}
	batch := func(sync bool, cases ...int) announceBatch {
		b := announceBatch{sync: sync}
		for _, i := range cases {
			b.cases = append(b.cases, addedCase{cr: &CaseResult{Index: i}})
		}
		return b
	}

	// Waiting together: one sync for three batches with findings.
	p.batches = make(chan announceBatch, 8)
	for _, b := range []announceBatch{batch(true, 0, 1), batch(false, 2), batch(true, 3), batch(true, 4, 5)} {
		p.batches <- b
	}
	close(p.batches)
	done := make(chan struct{})
	p.announcer(done)
	<-done
	if jr.syncs != 1 || !slices.Equal(shown, []int{0, 1, 2, 3, 4, 5}) {
		t.Errorf("4 batches waiting: %d syncs, cases shown %v; want 1 sync and 0 to 5 in order", jr.syncs, shown)
	}

	// One at a time (each sent once the one before is shown): a sync for
	// each batch with findings.
	jr.syncs, shown = 0, nil
	seen := make(chan struct{}, 1)
	p.r.opt.OnCase = func(cr *CaseResult) { shown = append(shown, cr.Index); seen <- struct{}{} }
	p.batches = make(chan announceBatch)
	done = make(chan struct{})
	go p.announcer(done)
	for _, b := range []announceBatch{batch(true, 6), batch(false, 7), batch(true, 8)} {
		p.batches <- b
		<-seen
	}
	close(p.batches)
	<-done
	if jr.syncs != 2 || !slices.Equal(shown, []int{6, 7, 8}) {
		t.Errorf("3 batches one at a time: %d syncs, cases shown %v; want 2 and 6 to 8 in order", jr.syncs, shown)
	}
}

// TestTryDecide: a case whose finding falls in a group whose first
// finding is still being confirmed is not decided, and changes nothing,
// until that confirmation settles; then it is decided as decide would,
// and forced, it is counted and cut.
func TestTryDecide(t *testing.T) {
	b := newGroupBook(2)
	a := []result.Finding{{Signature: "A"}}
	ab := []result.Finding{{Signature: "B"}, {Signature: "A"}}
	keep, first, cut, ok := b.tryDecide(a, false)
	if !ok || !slices.Equal(keep, []bool{true}) || !first || cut {
		t.Fatalf("the first finding of A: keep %v first %v cut %v ok %v", keep, first, cut, ok)
	}
	if _, _, _, ok := b.tryDecide(ab, false); ok {
		t.Fatal("a finding of A decided while A's first is confirmed")
	}
	if e := b.groups["B"]; e != nil && e.pending+e.kept > 0 {
		t.Fatalf("an undecided case changed group B: %+v", *e)
	}
	if keep, _, cut, ok := b.tryDecide(ab, true); !ok || !cut || !slices.Equal(keep, []bool{true, false}) {
		t.Fatalf("forced: keep %v cut %v ok %v, want B kept, A counted and cut", keep, cut, ok)
	}
	b.settle(a, []bool{true}, true)
	select {
	case <-b.settled:
	default:
		t.Fatal("settle left no token for the collector")
	}
	if keep, first, cut, ok := b.tryDecide(a, false); !ok || cut || first || !slices.Equal(keep, []bool{true}) {
		t.Fatalf("once A's first held: keep %v first %v cut %v ok %v, want A's second kept", keep, first, cut, ok)
	}
}
