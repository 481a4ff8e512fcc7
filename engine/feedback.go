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
// seeds whose base output is the follow-up's (already checked) output. It
// returns how many seeds it added. Waiting at the end of each pass keeps the
// pool, and so the plan, independent of the number of workers.
func (r *runner) growPool() (int, error) {
	r.fbRound.Wait()
	r.fbMu.Lock()
	defer r.fbMu.Unlock()
	if r.fbSeen == nil {
		r.fbSeen = map[string]bool{}
		for _, s := range r.seeds {
			r.fbSeen[string(s.Src)] = true
		}
	}
	// One follow-up per seed, the earliest; seeds added last first, so that
	// mutations pile up instead of the pool filling with first-generation
	// follow-ups of the original seeds.
	bySeed := map[string]*CaseResult{}
	for _, cr := range r.fb {
		if prev := bySeed[cr.Seed]; prev == nil || cr.Index < prev.Index {
			bySeed[cr.Seed] = cr
		}
	}
	pos := map[string]int{}
	for i, s := range r.seeds {
		pos[s.Name] = i
	}
	var picks []*CaseResult
	for _, cr := range bySeed {
		picks = append(picks, cr)
	}
	slices.SortFunc(picks, func(a, b *CaseResult) int { return pos[b.Seed] - pos[a.Seed] })
	limit := r.opt.FeedbackMax
	if limit <= 0 {
		limit = 16
	}
	added := 0
	for _, cr := range picks {
		if added == limit {
			break
		}
		if r.fbSeen[string(cr.followUp)] {
			continue
		}
		r.fbSeen[string(cr.followUp)] = true
		ext := path.Ext(cr.Seed)
		name := fmt.Sprintf("%s~c%06d%s", strings.TrimSuffix(cr.Seed, ext), cr.Index, ext)
		b := &baseEntry{res: &transpiler.Result{Status: transpiler.Accepted, Files: cr.followFiles}, files: r.opt.Normalize.Apply(cr.followFiles)}
		b.once.Do(func() {}) // the output is known: no base run
		r.seeds = append(r.seeds, Seed{Name: name, Src: cr.followUp})
		r.bases = append(r.bases, b)
		r.admitted = append(r.admitted, len(r.seeds)-1)
		added++
	}
	for _, cr := range r.fb {
		cr.followUp, cr.followFiles = nil, nil // keep memory flat over a long campaign
	}
	clear(r.fb)
	return added, nil
}
