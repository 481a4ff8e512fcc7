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
	// The cases are run as a campaign runs them, in fuzz mode: derived and
	// transpiled, their check left for checkTime to time.
	t := &engine.Tester{Transpiler: s.Transpiler, Normalize: s.Normalize, Mode: engine.Fuzz}
	bases := make([]*engine.Base, len(s.Seeds))
	for si, seed := range s.Seeds {
		b, err := t.Base(ctx, seed)
		if err != nil {
			return nil, 0, err
		}
		if b.Skip != "" {
			continue // the engine skips such seeds too
		}
		bases[si] = b
		for ri, rel := range s.Relations {
			spots, err := rel.Spots(ctx, relation.Input{Name: path.Base(seed.Name), Src: seed.Src})
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
		out, err := t.Run(ctx, engine.Test{Index: i, Base: bases[p.seed], Relation: s.Relations[p.rel], Spot: p.spot, CaseSeed: uint64(i) + 1})
		if err != nil {
			return nil, 0, err
		}
		if out.Result.Status != transpiler.Accepted {
			rejected++
			continue
		}
		cases = append(cases, checkCase{fu: out.FollowUp, o: bases[p.seed].Files, o2: s.Normalize.Apply(out.Result.Files)})
	}
	return cases, rejected, nil
}
