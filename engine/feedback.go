package engine

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/mcpt-tool/mcpt/transpiler"
)

// keepForFeedback remembers a passed follow-up of the current round.
func (r *runner) keepForFeedback(cr *CaseResult) {
	if cr == nil || cr.followUp == nil {
		return
	}
	r.fbMu.Lock()
	defer r.fbMu.Unlock()
	if r.fb == nil {
		r.fb = map[int]*CaseResult{}
	}
	r.fb[cr.Index] = cr
}

// growPool ends a pass over the pool: it waits for the pass's test cases
// to finish, then adds passed follow-ups (see below for which) as new
// seeds, under the combination of flags they passed under, whose base
// output is the follow-up's (already checked) output. It
// returns how many seeds it added. Waiting at the end of each pass keeps the
// pool, and so the plan, independent of the number of workers.
func (r *runner) growPool() (int, error) {
	r.fbRound.Wait()
	r.fbMu.Lock()
	defer r.fbMu.Unlock()
	// A follow-up is known by its text under its combination of flags.
	seen := func(src []byte, combo int) string { return fmt.Sprintf("%d\x00%s", combo, src) }
	if r.fbSeen == nil {
		r.fbSeen = map[string]bool{}
		for _, p := range r.pairs {
			r.fbSeen[seen(r.seeds[p.seed].Src, p.combo)] = true
		}
	}
	// One follow-up per seed under a combination, the earliest; pairs
	// added last first, so that mutations pile up instead of the pool
	// filling with first-generation follow-ups of the original seeds.
	byPair := map[int]*CaseResult{}
	for _, cr := range r.fb {
		if prev := byPair[cr.pair]; prev == nil || cr.Index < prev.Index {
			byPair[cr.pair] = cr
		}
	}
	var picks []*CaseResult
	for _, cr := range byPair {
		picks = append(picks, cr)
	}
	slices.SortFunc(picks, func(a, b *CaseResult) int { return b.pair - a.pair })
	limit := r.opt.FeedbackMax
	if limit <= 0 {
		limit = 16
	}
	added := 0
	for _, cr := range picks {
		if added == limit {
			break
		}
		combo := r.pairs[cr.pair].combo
		if k := seen(cr.followUp, combo); r.fbSeen[k] {
			continue
		} else {
			r.fbSeen[k] = true
		}
		ext := path.Ext(cr.Seed)
		name := fmt.Sprintf("%s~c%06d%s", strings.TrimSuffix(cr.Seed, ext), cr.Index, ext)
		b := &baseEntry{res: &transpiler.Result{Status: transpiler.Accepted, Files: cr.followFiles}, files: r.opt.Normalize.Apply(cr.followFiles)}
		b.once.Do(func() {}) // the output is known: no base run
		// The follow-up is a seed of its own under the combination it
		// passed under.
		r.seeds = append(r.seeds, Seed{Name: name, Src: cr.followUp})
		r.pairs = append(r.pairs, pair{seed: len(r.seeds) - 1, combo: combo})
		r.bases = append(r.bases, b)
		r.admitted = append(r.admitted, len(r.pairs)-1)
		added++
	}
	for _, cr := range r.fb {
		cr.followUp, cr.followFiles = nil, nil // keep memory flat over a long campaign
	}
	clear(r.fb)
	return added, nil
}
