package engine

import (
	"iter"
	"math/rand/v2"

	"github.com/mcpt-tool/mcpt/relation"
)

// Case is one planned test case: a seed under a combination of flags, a
// relation and a spot, with the seed of its own random choices. The plan
// is a pure function of the campaign seed, the seeds, the combinations
// and the relations, so any number of workers or shards sees the same
// cases with the same indices.
type Case struct {
	Index    int
	Seed     int // index into the campaign's seeds
	Pair     int // the seed under its combination of flags (see Shard)
	Relation int // index into the campaign's relations
	Spot     relation.Spot
	CaseSeed uint64
}

// picker draws indices 0..n-1 without re-picking until all were drawn, then
// starts over (the paper's implementation: selections are cached to avoid
// re-picking and reset when exhausted).
type picker struct {
	n    int
	left []int
}

func (p *picker) next(rng *rand.Rand) int {
	if len(p.left) == 0 {
		p.left = make([]int, p.n)
		for i := range p.left {
			p.left[i] = i
		}
	}
	i := rng.IntN(len(p.left))
	v := p.left[i]
	last := len(p.left) - 1
	p.left[i] = p.left[last]
	p.left = p.left[:last]
	return v
}

// planner enumerates the cases of Algorithm 1: shuffle the seeds; for each
// seed pick up to max_mr relations; for each relation pick up to max_spots
// of its spots; repeat over the seeds while the budget lasts.
type planner struct {
	rng      *rand.Rand
	order    []int
	nrel     int
	maxMR    int
	maxSpots int
	spots    func(seed, rel int) ([]relation.Spot, error)
	rels     map[int]*picker
	spotPick map[[2]int]*picker
	// endRound, when set, is called after each pass over the seeds and
	// returns how many seeds it appended to the pool.
	endRound func() (int, error)
	// weigh, when set, is called before each visit of a seed, with the
	// index of the visit's first case and of the last case of the seed's
	// previous visit (-1 for none); the weights it returns may give a case
	// of the visit to another relation or spot of the seed (see
	// seedWeights). Without it, the plan does not depend on results.
	weigh func(seed, first, prevLast int) (*seedWeights, error)
	// last is the index of the last case of each seed's latest visit.
	last map[int]int
	// err is the error that stopped cases().
	err error
}

func newPlanner(campaignSeed uint64, nseeds, nrel, maxMR, maxSpots int, spots func(seed, rel int) ([]relation.Spot, error)) *planner {
	rng := rand.New(rand.NewPCG(campaignSeed, 0x6d637074))
	if maxMR <= 0 || maxMR > nrel {
		maxMR = nrel
	}
	if maxSpots <= 0 {
		maxSpots = 4
	}
	return &planner{
		rng: rng, order: rng.Perm(nseeds), nrel: nrel, maxMR: maxMR, maxSpots: maxSpots,
		spots: spots, rels: map[int]*picker{}, spotPick: map[[2]int]*picker{}, last: map[int]int{},
	}
}

// cases is run as an iterator; the error that stopped it is p.err.
func (p *planner) cases() iter.Seq[Case] {
	return func(yield func(Case) bool) { p.err = p.run(yield) }
}

// run calls emit for every case in plan order until emit returns false, or
// until a whole pass over the seeds yields no case.
func (p *planner) run(emit func(Case) bool) error {
	index := 0
	for {
		emitted := 0
		for _, si := range p.order {
			var w *seedWeights
			if p.weigh != nil {
				prev, ok := p.last[si]
				if !ok {
					prev = -1
				}
				var err error
				if w, err = p.weigh(si, index, prev); err != nil {
					return err
				}
			}
			rp := p.rels[si]
			if rp == nil {
				rp = &picker{n: p.nrel}
				p.rels[si] = rp
			}
			for range p.maxMR {
				ri := rp.next(p.rng)
				spots, err := p.spots(si, ri)
				if err != nil {
					return err
				}
				if len(spots) == 0 {
					continue
				}
				sp := p.spotPick[[2]int{si, ri}]
				if sp == nil {
					sp = &picker{n: len(spots)}
					p.spotPick[[2]int{si, ri}] = sp
				}
				for range min(p.maxSpots, len(spots)) {
					c := Case{Index: index, Seed: si, Relation: ri, Spot: spots[sp.next(p.rng)], CaseSeed: p.rng.Uint64()}
					if w != nil {
						c.Relation, c.Spot = w.redirect(c.Index, c.Relation, c.Spot)
					}
					p.last[si] = index
					index++
					emitted++
					if !emit(c) {
						return nil
					}
				}
			}
		}
		if p.endRound != nil {
			n, err := p.endRound()
			if err != nil {
				return err
			}
			next := len(p.order)
			for k := range n {
				p.order = append(p.order, next+k)
			}
			if n > 0 {
				continue
			}
		}
		if emitted == 0 {
			return nil
		}
	}
}
