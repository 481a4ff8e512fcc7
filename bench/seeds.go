package bench

import (
	"context"
	"time"

	"github.com/mcpt-tool/mcpt/grammar"
	"github.com/mcpt-tool/mcpt/transpiler"
)

// seedGeneration times grammar.Generate on cll.grammar with acceptance by
// the in-process cllc (as `mcpt seeds --accept -c mcpt.yaml` does), with
// one worker and with Workers, interleaved, and keeps the medians.
func (e *env) seedGeneration(ctx context.Context, res *Results) error {
	g := e.grammar
	t := e.inproc.Transpiler
	accept := func(src []byte) bool {
		r, err := t.Transpile(ctx, transpiler.Request{Name: "seed.cll", Src: src, Role: transpiler.Base})
		return err == nil && r.Status == transpiler.Accepted
	}
	gen := func(workers int) (rate, yield float64, err error) {
		t0 := time.Now()
		b, err := grammar.Generate(g, grammar.Options{N: e.opt.SeedPrograms, Seed: 1, Accept: accept, Workers: workers})
		if err != nil {
			return 0, 0, err
		}
		el := time.Since(t0).Seconds()
		return float64(b.Accepted) / el, float64(b.Accepted) / float64(max(1, b.Generated)), nil
	}
	if _, _, err := gen(e.opt.Workers); err != nil { // warm-up
		return err
	}
	var rates, rates1, yields []float64
	for k := range e.opt.Repeat {
		order := []int{e.opt.Workers, 1}
		if k%2 == 1 {
			order = []int{1, e.opt.Workers}
		}
		for _, w := range order {
			rate, yield, err := gen(w)
			if err != nil {
				return err
			}
			if w == 1 {
				rates1 = append(rates1, rate)
			}
			if w == e.opt.Workers {
				rates, yields = append(rates, rate), append(yields, yield)
			}
		}
	}
	res.SeedsAcceptedPerS = median(rates)
	res.SeedsAcceptedPerS1W = median(rates1)
	res.SeedsYield = median(yields) // the batch, hence the yield, does not depend on workers
	return nil
}
