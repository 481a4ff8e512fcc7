package bench

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/setup"
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
	Command string  `json:"command"`
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
	CasesPerS1W    float64    `json:"test_cases_per_s_1w"`
	CasesPerS2W    float64    `json:"test_cases_per_s_2w"`
	BareRunsPerS1W float64    `json:"bare_runs_per_s_1w"`
	BareRunsPerS2W float64    `json:"bare_runs_per_s_2w"`
	Utilisation1W  float64    `json:"utilisation_1w"`
	Utilisation2W  float64    `json:"utilisation_2w"`
	RunStats       []RunStats `json:"runs"`
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
	tr := s.Config.Transpiler
	if tr.Kind != spec.Command {
		return nil, fmt.Errorf("bench: %s: the pack's transpiler must be a command, not %s", opt.Config, tr.Kind)
	}
	e := &env{opt: Options{Log: opt.Log, Repeat: opt.Repeat}}
	stall0, t0 := cpuStall(), time.Now()
	res := &PackResults{
		Date: time.Now().UTC().Format(time.RFC3339), Machine: thisMachine(),
		Config: opt.Config, Command: fmt.Sprint(tr.Argv), Repeat: opt.Repeat, Seed: 1,
	}
	campaign := func(t transpiler.Transpiler, workers int) *engine.Campaign {
		b := s.Config.Budget
		return &engine.Campaign{
			Transpiler: t, Relations: s.Relations, Seeds: s.Seeds,
			Options: engine.Options{
				Mode: engine.MCP, Seed: 1, MaxCases: opt.Cases, MaxMR: b.MaxMR, MaxSpots: b.MaxSpots,
				Workers: workers, BaseRuns: s.Config.BaseRuns, Normalize: s.Normalize, Style: s.Style(), Config: s.Config.File,
			},
		}
	}
	rec := &recorder{t: s.Transpiler}
	rep, err := campaign(rec, 1).Run(ctx)
	if err != nil {
		return nil, err
	}
	res.TestCases, res.Runs, res.Findings = rep.TestCases, rep.TranspilerRuns, len(rep.Findings)
	e.opt.logf("pack %s: %d test cases, %d transpiler runs, %d findings", opt.Config, rep.TestCases, rep.TranspilerRuns, len(rep.Findings))
	var comps []comparison
	for _, w := range []int{1, 2} {
		camp := &job{name: fmt.Sprintf("MCP, %d worker%s", w, plural(w)), run: func(ctx context.Context) (sample, error) {
			return e.runCampaign(ctx, campaign(s.Transpiler, w))
		}}
		loop := &job{name: fmt.Sprintf("bare loop, %d worker%s", w, plural(w)), run: func(ctx context.Context) (sample, error) {
			return bareLoop(ctx, tr.Process, rec.reqs, w)
		}}
		comps = append(comps, comparison{fmt.Sprintf("utilisation_%dw", w), camp, loop, utilisation, opt.Repeat})
	}
	t, err := e.timeRounds(ctx, comps, opt.Repeat)
	if err != nil {
		return nil, err
	}
	var rs Results
	rs.addRunStats(comps, t.samples)
	res.RunStats = rs.Runs
	res.CasesPerS1W, res.BareRunsPerS1W = rs.Runs[0].CasesPerS, rs.Runs[1].RunsPerS
	res.CasesPerS2W, res.BareRunsPerS2W = rs.Runs[2].CasesPerS, rs.Runs[3].RunsPerS
	res.Utilisation1W, res.Utilisation2W = median(t.values["utilisation_1w"]), median(t.values["utilisation_2w"])
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
	fmt.Fprintf(tw, "workers\tMCP test cases/s\tMCP runs/s\tbare loop runs/s\tMCP runs/s over bare\n")
	for i, w := range []int{1, 2} {
		c, l := r.RunStats[2*i], r.RunStats[2*i+1]
		util := []float64{r.Utilisation1W, r.Utilisation2W}[i]
		fmt.Fprintf(tw, "%d\t%.1f\t%.1f\t%.1f\t%.2f\n", w, c.CasesPerS, c.RunsPerS, l.RunsPerS, util)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(out, "bare loop: %s per input\n%s\n", r.Command, r.Machine)
	return err
}
