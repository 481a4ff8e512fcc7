package engine

import (
	"math/rand/v2"
	"sync"

	"github.com/mcpt-tool/mcpt/relation"
)

// Weights move a campaign to new groups. An arm is a (seed, relation,
// spot kind): the spots of one kind of a relation in one seed. An arm
// whose test cases keep landing in groups it found already is picked
// less: its weight halves with each such case in a row, down to 1/16
// (2^-minWeightShift), and is 1 again as soon as one of its cases finds a
// signature new to it. Every spot is still tried once, when the plan
// without weights comes to it: what the weights move are the cases that
// would try a spot again (with other fresh names). Such a case goes, with
// the probability 1 - its arm's weight, to an arm of the same seed drawn
// in proportion to the weights, at a spot of that arm not tried yet if
// there is one.
//
// The weights of a seed come from its own test cases only, from its
// visits before the one being planned, all of them finished (the planner
// waits for the last ones): so they do not depend on the number of
// workers, and a shard, which runs every case of its seeds, sees the same
// weights as an unsharded run. The random draws of a case's redirection
// come from the campaign seed and the case's index, not from the plan's
// own stream, which stays as without weights: the cases keep their
// indices, seeds and case seeds, and a seed whose arms all have weight 1
// is planned as without weights.

// minWeightShift bounds how far a weight falls: 2^-minWeightShift.
const minWeightShift = 4

// maxArmSignatures bounds the signatures an arm remembers: an arm past it
// finds nothing new any more, and its weight only falls.
const maxArmSignatures = 64

type armKey struct {
	rel  int
	kind string
}

type armStats struct {
	seen    map[string]bool
	repeats int
}

func (a *armStats) weight() float64 {
	return 1 / float64(int(1)<<min(a.repeats, minWeightShift))
}

// outcome is what a finished case with findings says about its arm.
type outcome struct {
	index int
	arm   armKey
	sigs  []string
}

// seedArms is what the weights know of one seed: the outcomes not yet
// folded in (appended in plan order by the collector), the statistics of
// its arms, and its arms with their spots.
type seedArms struct {
	queue []outcome
	stats map[armKey]*armStats
	arms  []arm
	// tried holds the spots planned so far, by relation and spot index
	// (the planner's alone).
	tried map[[2]int]bool
}

type arm struct {
	key   armKey
	spots []relation.Spot
}

// weightBook is the weights of a campaign's seeds, by pair (a seed under
// a combination of flags: what the plan picks test cases from and a shard
// owns).
type weightBook struct {
	mu    sync.Mutex
	seeds map[int]*seedArms
	// finished is the index of the last case finished, in plan order;
	// advanced is closed (and replaced) whenever it moves.
	finished int
	advanced chan struct{}
	// relIndex names relations by their indices.
	relIndex map[string]int
}

func newWeightBook(rels []*relation.Relation) *weightBook {
	w := &weightBook{seeds: map[int]*seedArms{}, finished: -1, advanced: make(chan struct{}), relIndex: map[string]int{}}
	for i, r := range rels {
		w.relIndex[r.Name] = i
	}
	return w
}

func (w *weightBook) seed(si int) *seedArms {
	s := w.seeds[si]
	if s == nil {
		s = &seedArms{stats: map[armKey]*armStats{}, tried: map[[2]int]bool{}}
		w.seeds[si] = s
	}
	return s
}

// noteOutcome records what a finished case says about its arm, for the
// weights of the plan, and that it finished.
func (r *runner) noteOutcome(cr *CaseResult) {
	w := r.weights
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if ri, known := w.relIndex[cr.Relation]; known && len(cr.Findings) > 0 {
		o := outcome{index: cr.Index, arm: armKey{ri, cr.Spot.Kind}}
		for _, f := range cr.Findings {
			o.sigs = append(o.sigs, f.Signature)
		}
		s := w.seed(cr.pair)
		s.queue = append(s.queue, o)
	}
	w.advance(cr.Index)
}

// advance records that the cases of the plan up to index are finished.
func (w *weightBook) advance(index int) {
	if index > w.finished {
		w.finished = index
		close(w.advanced)
		w.advanced = make(chan struct{})
	}
}

// markFinished records that the case index is finished without a record
// (a case that did not run to its end), so that no plan waits for it.
func (r *runner) markFinished(index int) {
	if w := r.weights; w != nil {
		w.mu.Lock()
		w.advance(index)
		w.mu.Unlock()
	}
}

// weigh returns the weights of admitted seed ai for its visit from case
// first, once the cases of its previous visit, up to prevLast, are
// finished (or stop is closed: the campaign is ending, and what is
// planned from then on is not run); nil when the shard does not own the
// seed (it does not run its cases, whose indices the weights do not
// change).
func (r *runner) weigh(ai, first, prevLast int, stop <-chan struct{}) (*seedWeights, error) {
	si := r.admitted[ai]
	if !r.opt.Shard.owns(si) {
		return nil, nil
	}
	w := r.weights
	w.mu.Lock()
	for w.finished < prevLast {
		ch := w.advanced
		w.mu.Unlock()
		select {
		case <-ch:
		case <-stop:
			return nil, nil
		}
		w.mu.Lock()
	}
	// The outcomes of the visits before this one; a resumed journal's
	// later ones wait for the visits they follow.
	s := w.seed(si)
	n := 0
	for n < len(s.queue) && s.queue[n].index <= prevLast {
		n++
	}
	queue := s.queue[:n]
	s.queue = s.queue[n:]
	w.mu.Unlock()
	for _, o := range queue {
		a := s.stats[o.arm]
		if a == nil {
			a = &armStats{seen: map[string]bool{}}
			s.stats[o.arm] = a
		}
		novel := false
		for _, sig := range o.sigs {
			if !a.seen[sig] && len(a.seen) < maxArmSignatures {
				a.seen[sig] = true
				novel = true
			}
		}
		if novel {
			a.repeats = 0
		} else {
			a.repeats++
		}
	}
	sw := &seedWeights{campaign: r.opt.Seed, tried: s.tried}
	for _, a := range s.stats {
		sw.active = sw.active || a.repeats > 0
	}
	if !sw.active {
		return sw, nil
	}
	if s.arms == nil {
		arms, err := r.arms(ai)
		if err != nil {
			return nil, err
		}
		s.arms = arms
	}
	sw.arms, sw.weight, sw.index = s.arms, make([]float64, len(s.arms)), map[armKey]int{}
	for i, a := range s.arms {
		sw.weight[i] = 1
		if st := s.stats[a.key]; st != nil {
			sw.weight[i] = st.weight()
		}
		sw.total += sw.weight[i]
		sw.index[a.key] = i
	}
	return sw, nil
}

// arms lists the arms of admitted seed ai: for each relation, its spots
// grouped by kind, in the order of the spots.
func (r *runner) arms(ai int) ([]arm, error) {
	var arms []arm
	for ri := range r.c.Relations {
		spots, err := r.spotsOf(ai, ri)
		if err != nil {
			return nil, err
		}
		at := map[string]int{}
		for _, sp := range spots {
			i, ok := at[sp.Kind]
			if !ok {
				i = len(arms)
				at[sp.Kind] = i
				arms = append(arms, arm{key: armKey{ri, sp.Kind}})
			}
			arms[i].spots = append(arms[i].spots, sp)
		}
	}
	return arms, nil
}

// seedWeights are the weights of one visit of a seed.
type seedWeights struct {
	campaign uint64
	tried    map[[2]int]bool
	// active is false when every arm has weight 1: no case moves.
	active bool
	arms   []arm
	weight []float64
	total  float64
	index  map[armKey]int
}

// redirect gives the case index planned for relation ri at spot sp, if
// the spot was tried already, to another arm of the seed, with the
// probability 1 - the weight of its own, and returns the relation and
// spot of the case.
func (w *seedWeights) redirect(index, ri int, sp relation.Spot) (int, relation.Spot) {
	key := [2]int{ri, sp.Index}
	again := w.tried[key]
	w.tried[key] = true
	if !w.active || !again {
		return ri, sp
	}
	a, ok := w.index[armKey{ri, sp.Kind}]
	if !ok || w.weight[a] >= 1 {
		return ri, sp
	}
	rng := rand.New(rand.NewPCG(w.campaign^0x7765696768747321, uint64(index)))
	if rng.Float64() < w.weight[a] {
		return ri, sp
	}
	x := rng.Float64() * w.total
	b := len(w.arms) - 1
	for i, wt := range w.weight {
		if x < wt {
			b = i
			break
		}
		x -= wt
	}
	if b == a {
		return ri, sp
	}
	to := w.arms[b]
	var fresh []relation.Spot
	for _, s := range to.spots {
		if !w.tried[[2]int{to.key.rel, s.Index}] {
			fresh = append(fresh, s)
		}
	}
	pick := to.spots[rng.IntN(len(to.spots))]
	if len(fresh) > 0 {
		pick = fresh[rng.IntN(len(fresh))]
	}
	w.tried[[2]int{to.key.rel, pick.Index}] = true
	return to.key.rel, pick
}

// weighing returns the planner's hook for the weights of a campaign,
// which stop stops waiting (see weigh); nil under Exhaustive.
func (r *runner) weighing(stop func() <-chan struct{}) func(seed, first, prevLast int) (*seedWeights, error) {
	if r.weights == nil {
		return nil
	}
	return func(ai, first, prevLast int) (*seedWeights, error) {
		return r.weigh(ai, first, prevLast, stop())
	}
}
