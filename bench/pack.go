package bench

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

// Defaults of the zero fields of PackOptions, and their values in quick
// mode.
const (
	DefaultPackCases  = 300
	DefaultPackRepeat = 3
	QuickPackCases    = 10
	QuickPackRepeat   = 1
)

// PackOptions configure Pack.
type PackOptions struct {
	// Config is the pack's configuration; its transpiler must be a
	// command.
	Config string
	// Tools are what the configuration may name beyond the builtins (Go
	// checker kinds).
	Tools *setup.Tools
	// Cases is the max-cases budget of a campaign; Repeat the number of
	// interleaved rounds, whose medians are reported.
	Cases, Repeat int
	// Quick shrinks the zero sizes, for tests.
	Quick bool
	// Log receives a line per step; nil means none.
	Log io.Writer
}

// PackResults compare a pack's campaigns, with 1 and 2 workers, with a
// bare loop of its transpiler command over the same inputs.
type PackResults struct {
	Date    string  `json:"date"`
	Machine Machine `json:"machine"`
	Config  string  `json:"config"`
	Command string  `json:"command,omitempty"`
	Repeat  int     `json:"repeat"`
	Seed    uint64  `json:"seed"`
	// TestCases and Runs are those of one campaign (every campaign makes
	// the same); Findings those of the untimed campaign.
	TestCases int `json:"test_cases"`
	Runs      int `json:"transpiler_runs"`
	Findings  int `json:"findings"`
	// CasesPerS1W and CasesPerS2W are the campaigns' test cases per
	// second; BareRunsPerS1W and BareRunsPerS2W the bare loops' runs per
	// second; Utilisation1W and Utilisation2W the campaign's runs per
	// second over the loop's, median over the rounds.
	CasesPerS1W    float64 `json:"test_cases_per_s_1w"`
	CasesPerS2W    float64 `json:"test_cases_per_s_2w"`
	BareRunsPerS1W float64 `json:"bare_runs_per_s_1w"`
	BareRunsPerS2W float64 `json:"bare_runs_per_s_2w"`
	Utilisation1W  float64 `json:"utilisation_1w"`
	Utilisation2W  float64 `json:"utilisation_2w"`
	// SemanticChecks counts the checks of the pack's relations whose kind
	// is semantic (js-shape, dts-probe, go-probe); when there are some,
	// CasesPerSWithout1W and 2W are the test cases per second of the
	// same campaigns with those checks left out, and SemanticRatio1W and
	// 2W the campaign's test cases per second over those without, median
	// over the rounds.
	SemanticChecks     int        `json:"semantic_checks"`
	CasesPerSWithout1W float64    `json:"test_cases_per_s_without_semantic_1w,omitempty"`
	CasesPerSWithout2W float64    `json:"test_cases_per_s_without_semantic_2w,omitempty"`
	SemanticRatio1W    float64    `json:"semantic_over_without_1w,omitempty"`
	SemanticRatio2W    float64    `json:"semantic_over_without_2w,omitempty"`
	RunStats           []RunStats `json:"runs"`
}

// Pack measures a pack: an untimed MCP campaign records its transpiler
// runs (base runs included), then campaigns of the same seed with 1 and 2
// workers and bare loops that run the configured command on the recorded
// inputs with as many workers (each run in a fresh directory, nothing
// else: see bareRun) are timed in interleaved pairs, opt.Repeat times.
func Pack(ctx context.Context, opt PackOptions) (*PackResults, error) {
	def := func(v *int, normal, quick int) {
		if *v <= 0 {
			*v = normal
			if opt.Quick {
				*v = quick
			}
		}
	}
	def(&opt.Cases, DefaultPackCases, QuickPackCases)
	def(&opt.Repeat, DefaultPackRepeat, QuickPackRepeat)
	s, err := setup.Load(opt.Config, setup.Options{Tools: opt.Tools})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	// The same pack with its semantic checks left out, when it has some:
	// its relations compiled again from the files the campaign read (an
	// inferred pack has no semantic check).
	var left atomic.Int64
	bareRelations := s.Relations
	if s.Inferred == nil {
		bare, err := setup.Load(opt.Config, setup.Options{
			Tools: WithoutSemantic(opt.Tools, &left), Snapshot: s,
			Skip: setup.SkipTranspiler | setup.SkipSeeds, NoRelease: true,
		})
		if err != nil {
			return nil, err
		}
		bareRelations = bare.Relations
	}
	tr := s.Config.Transpiler
	// The bare loop runs a command; a pack with another transpiler is
	// measured only with and without its semantic checks.
	command := tr.Kind == spec.Command
	if !command && left.Load() == 0 {
		return nil, fmt.Errorf("bench: %s: the pack's transpiler must be a command, not %s, or its relations have semantic checks", opt.Config, tr.Kind)
	}
	e := &env{opt: Options{Log: opt.Log, Repeat: opt.Repeat}}
	stall0, t0 := cpuStall(), time.Now()
	res := &PackResults{
		Date: time.Now().UTC().Format(time.RFC3339), Machine: thisMachine(),
		Config: opt.Config, Repeat: opt.Repeat, Seed: 1,
	}
	if command {
		res.Command = fmt.Sprint(tr.Argv)
	}
	campaign := func(t transpiler.Transpiler, workers int, rels ...[]*relation.Relation) *engine.Campaign {
		relations := s.Relations
		if len(rels) > 0 {
			relations = rels[0]
		}
		// The campaign the configuration describes (its release and
		// flags too, which the relations may read), to the bench's budget.
		o := s.EngineOptions()
		o.Seed, o.MaxCases, o.MaxTime, o.Workers = 1, opt.Cases, 0, workers
		return &engine.Campaign{Transpiler: t, Relations: relations, Seeds: s.Seeds, Options: o}
	}
	rec := &recorder{t: s.Transpiler}
	rep, err := campaign(rec, 1).Run(ctx)
	if err != nil {
		return nil, err
	}
	res.TestCases, res.Runs, res.Findings = rep.TestCases, rep.TranspilerRuns, len(rep.Findings)
	e.opt.logf("pack %s: %d test cases, %d transpiler runs, %d findings", opt.Config, rep.TestCases, rep.TranspilerRuns, len(rep.Findings))
	var comps []comparison
	name := func(what string, w int) string { return fmt.Sprintf("%s, %d worker%s", what, w, plural(w)) }
	for _, w := range []int{1, 2} {
		camp := &job{name: name("MCP", w), run: func(ctx context.Context) (sample, error) {
			return e.runCampaign(ctx, campaign(s.Transpiler, w))
		}}
		if command {
			loop := &job{name: name("bare loop", w), run: func(ctx context.Context) (sample, error) {
				return bareLoop(ctx, tr.Process, rec.reqs, w)
			}}
			comps = append(comps, comparison{fmt.Sprintf("utilisation_%dw", w), camp, loop, utilisation, opt.Repeat})
		}
		if left.Load() > 0 {
			without := &job{name: name("MCP without semantic checks", w), run: func(ctx context.Context) (sample, error) {
				return e.runCampaign(ctx, campaign(s.Transpiler, w, bareRelations))
			}}
			comps = append(comps, comparison{fmt.Sprintf("semantic_%dw", w), camp, without, throughput, opt.Repeat})
		}
	}
	res.SemanticChecks = int(left.Load())
	t, err := e.timeRounds(ctx, comps, opt.Repeat)
	if err != nil {
		return nil, err
	}
	var rs Results
	rs.addRunStats(comps, t.samples)
	res.RunStats = rs.Runs
	stat := func(name string) RunStats {
		for _, r := range rs.Runs {
			if r.Name == name {
				return r
			}
		}
		return RunStats{}
	}
	res.CasesPerS1W, res.CasesPerS2W = stat(name("MCP", 1)).CasesPerS, stat(name("MCP", 2)).CasesPerS
	res.BareRunsPerS1W, res.BareRunsPerS2W = stat(name("bare loop", 1)).RunsPerS, stat(name("bare loop", 2)).RunsPerS
	res.CasesPerSWithout1W = stat(name("MCP without semantic checks", 1)).CasesPerS
	res.CasesPerSWithout2W = stat(name("MCP without semantic checks", 2)).CasesPerS
	if left.Load() > 0 {
		res.SemanticRatio1W, res.SemanticRatio2W = median(t.values["semantic_1w"]), median(t.values["semantic_2w"])
	}
	if command {
		res.Utilisation1W, res.Utilisation2W = median(t.values["utilisation_1w"]), median(t.values["utilisation_2w"])
	}
	res.Machine.LoadAfter = loadAverage()
	if stall1 := cpuStall(); stall0 >= 0 && stall1 >= stall0 {
		res.Machine.CPUPressure = 100 * float64(stall1-stall0) / float64(time.Since(t0).Microseconds())
	}
	return res, nil
}

// WriteTable writes the figures as a table, then the machine and its load.
func (r *PackResults) WriteTable(out io.Writer) error {
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "%s: %d test cases, %d transpiler runs, %d findings; %d rounds, medians\n", r.Config, r.TestCases, r.Runs, r.Findings, r.Repeat)
	stat := func(prefix string, w int) RunStats {
		for _, s := range r.RunStats {
			if s.Name == fmt.Sprintf("%s, %d worker%s", prefix, w, plural(w)) {
				return s
			}
		}
		return RunStats{}
	}
	bare := r.BareRunsPerS1W > 0
	if bare {
		fmt.Fprintf(tw, "workers\tMCP test cases/s\tMCP runs/s\tbare loop runs/s\tMCP runs/s over bare\n")
	}
	for i, w := range []int{1, 2} {
		if !bare {
			break
		}
		c, l := stat("MCP", w), stat("bare loop", w)
		util := []float64{r.Utilisation1W, r.Utilisation2W}[i]
		fmt.Fprintf(tw, "%d\t%.1f\t%.1f\t%.1f\t%.2f\n", w, c.CasesPerS, c.RunsPerS, l.RunsPerS, util)
	}
	if r.SemanticChecks > 0 {
		if bare {
			fmt.Fprintln(tw)
		}
		fmt.Fprintf(tw, "workers\ttest cases/s with semantic checks\twithout\twith over without\tprocesses started (node, go)\tgo-probe checks built\n")
		for i, w := range []int{1, 2} {
			c, wo := stat("MCP", w), stat("MCP without semantic checks", w)
			ratio := []float64{r.SemanticRatio1W, r.SemanticRatio2W}[i]
			built := "-"
			if c.GoProbeChecks > 0 {
				built = fmt.Sprintf("%d of %d", c.GoProbeBuilt, c.GoProbeChecks)
			}
			fmt.Fprintf(tw, "%d\t%.1f\t%.1f\t%.2f\t%d\t%s\n", w, c.CasesPerS, wo.CasesPerS, ratio, c.SemanticProcesses, built)
		}
	} else {
		fmt.Fprintf(tw, "no semantic checks (js-shape, dts-probe, go-probe) in the pack's relations\n")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if bare {
		if _, err := fmt.Fprintf(out, "bare loop: %s per input\n", r.Command); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(out, "%s\n", r.Machine)
	return err
}
