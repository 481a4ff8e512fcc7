package bench

import (
	"context"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/transpiler/cllc"
)

// treePack measures what parsing seeds into syntax trees costs a campaign:
// an MCP campaign of the pack of Options.TreePack (a configuration whose
// relations find their spots in the syntax tree), with one worker, against
// a loop that only replays the campaign's transpiler runs through the same
// transpiler, interleaved Repeat times. TreeUtilisation1W is the median of
// the campaign's runs per second over the loop's.
func (e *env) treePack(ctx context.Context, res *Results) error {
	tools := e.opt.Tools
	if tools == nil {
		tools = &setup.Tools{Builtins: cllc.Builtins()}
	}
	s, err := setup.Load(e.opt.TreePack, setup.Options{Tools: tools})
	if err != nil {
		return err
	}
	defer s.Close()
	cases := e.opt.ExecCases
	campaign := func(t transpiler.Transpiler) *engine.Campaign {
		// The campaign the configuration describes (its release and
		// flags too, which the relations may read), to the bench's budget.
		o := s.EngineOptions()
		o.Seed, o.MaxCases, o.MaxTime, o.Workers = 1, cases, 0, 1
		return &engine.Campaign{Transpiler: t, Relations: s.Relations, Seeds: s.Seeds, Options: o}
	}
	// An untimed campaign records the runs, and parses the seeds of the
	// relations' caches as the first campaign of a session would.
	rec := &recorder{t: s.Transpiler}
	warm, err := e.runCampaign(ctx, campaign(rec))
	if err != nil {
		return err
	}
	e.opt.logf("tree pack %s: %d test cases, %d transpiler runs each", e.opt.TreePack, warm.cases, warm.runs)
	camp := &job{name: "MCP, tree pack, 1 worker", run: func(ctx context.Context) (sample, error) {
		return e.runCampaign(ctx, campaign(s.Transpiler))
	}}
	loop := &job{name: "bare loop, tree pack, 1 worker", run: func(ctx context.Context) (sample, error) {
		return replay(ctx, s.Transpiler, rec.reqs, 1)
	}}
	comps := []comparison{{"tree_utilisation_1w", camp, loop, utilisation, e.opt.Repeat}}
	t, err := e.timeRounds(ctx, comps, e.opt.Repeat)
	if err != nil {
		return err
	}
	res.TreePack = e.opt.TreePack
	res.TreeUtilisation1W = median(t.values["tree_utilisation_1w"])
	res.addRunStats(comps, t.samples)
	return nil
}

// replay runs t on every request with the given number of workers: the
// transpiler runs of a campaign and nothing else.
func replay(ctx context.Context, t transpiler.Transpiler, reqs []transpiler.Request, workers int) (sample, error) {
	return timedLoop(ctx, reqs, workers, func(ctx context.Context, req transpiler.Request) error {
		_, err := t.Transpile(ctx, req)
		return err
	})
}
