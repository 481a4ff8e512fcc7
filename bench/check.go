package bench

import (
	"context"
	"fmt"
	"path"
	"time"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/tree"
)

// checkCase is a test case made ready for timing its checks: the follow-up
// with its checkers and both normalised outputs.
type checkCase struct {
	fu    *relation.FollowUp
	o, o2 tree.Tree
}

// checkTime times the consistency checks alone: every case is mutated and
// transpiled (in process) once, then FollowUp.Check is timed Repeat times
// and the case's median kept. The cases are the spots of every relation on
// every seed, thinned evenly to CheckCases.
func (e *env) checkTime(ctx context.Context, res *Results) error {
	cases, rejected, err := e.checkCases(ctx)
	if err != nil {
		return err
	}
	if len(cases) == 0 {
		return fmt.Errorf("no follow-up was accepted")
	}
	e.opt.logf("check time: %d test cases (%d follow-ups rejected, not timed), %d times each", len(cases), rejected, e.opt.Repeat)
	per := make([]float64, len(cases))
	times := make([]float64, e.opt.Repeat)
	for i, c := range cases {
		for k := range times {
			t0 := time.Now()
			c.fu.Check(c.o, c.o2)
			times[k] = float64(time.Since(t0).Nanoseconds())
		}
		per[i] = median(times)
	}
	res.CheckMSMedian = median(per) / 1e6
	res.CheckMSMean = mean(per) / 1e6
	res.CheckMSP99 = percentile(per, 0.99) / 1e6
	res.CheckMSMax = percentile(per, 1) / 1e6
	res.CheckCases = len(cases)
	return nil
}

// checkCases builds the test cases of checkTime.
func (e *env) checkCases(ctx context.Context) (cases []checkCase, rejected int, err error) {
	s := e.inproc
	type pick struct {
		seed, rel int
		spot      relation.Spot
	}
	var picks []pick
	bases := make([]tree.Tree, len(s.Seeds))
	for si, seed := range s.Seeds {
		in := transpiler.Request{Name: path.Base(seed.Name), Src: seed.Src, Role: transpiler.Base}
		r, err := s.Transpiler.Transpile(ctx, in)
		if err != nil {
			return nil, 0, err
		}
		if r.Status != transpiler.Accepted {
			continue // the engine skips such seeds too
		}
		bases[si] = s.Normalize.Apply(r.Files)
		for ri, rel := range s.Relations {
			spots, err := rel.Spots(relation.Input{Name: in.Name, Src: seed.Src})
			if err != nil {
				return nil, 0, fmt.Errorf("relation %s on %s: %w", rel.Name, seed.Name, err)
			}
			for _, sp := range spots {
				picks = append(picks, pick{si, ri, sp})
			}
		}
	}
	// Thin evenly, so that every relation and seed keeps its share.
	if n := e.opt.CheckCases; len(picks) > n {
		thin := make([]pick, n)
		for i := range thin {
			thin[i] = picks[i*len(picks)/n]
		}
		picks = thin
	}
	for i, p := range picks {
		seed := s.Seeds[p.seed]
		rel := s.Relations[p.rel]
		in := relation.Input{Name: path.Base(seed.Name), Src: seed.Src}
		fu, err := rel.Mutate(in, p.spot, engine.CaseRand(uint64(i)+1))
		if err != nil {
			return nil, 0, fmt.Errorf("relation %s on %s at spot %d: %w", rel.Name, seed.Name, p.spot.Index, err)
		}
		r, err := s.Transpiler.Transpile(ctx, transpiler.Request{Name: in.Name, Src: fu.Src, Role: transpiler.FollowUp})
		if err != nil {
			return nil, 0, err
		}
		if r.Status != transpiler.Accepted {
			rejected++
			continue
		}
		cases = append(cases, checkCase{fu: fu, o: bases[p.seed], o2: s.Normalize.Apply(r.Files)})
	}
	return cases, rejected, nil
}
