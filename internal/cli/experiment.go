package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcpt-tool/mcpt/config"
	"github.com/mcpt-tool/mcpt/experiment"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/progress"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

type experimentCmd struct {
	Config       string        `short:"c" default:"mcpt.yaml" help:"Configuration whose transpiler is an external command built from a Go module; the command's program is replaced by the instrumented binary."`
	Sessions     int           `default:"10" help:"Number of session pairs (MCP and fuzz)."`
	Budget       time.Duration `help:"Time budget of each session's campaign."`
	MaxCases     int           `name:"max-cases" help:"Test-case budget of each session's campaign (deterministic, for tests)."`
	Seed         uint64        `help:"Session k runs with campaign seed SEED+k in both modes."`
	Out          string        `short:"o" required:"" help:"Output directory (must not exist or be empty)."`
	Module       string        `help:"Root of the transpiler's Go module (default: the module holding the configuration)."`
	Packages     []string      `default:"./cll/..." help:"Package patterns to instrument, relative to the module."`
	Main         string        `default:"./cmd/cllc" help:"Main package of the transpiler, relative to the module."`
	Instrumented string        `help:"Reuse this output of 'mcpt faults instrument' instead of instrumenting the module." type:"existingdir"`
	Sample       string        `help:"Input of the preparatory step (default: the first seed)." type:"existingfile"`
	Workers      int           `help:"Transpiler runs at a time (default: the number of CPUs)."`
	RunTimeout   time.Duration `name:"run-timeout" help:"Per-run timeout of the transpiler (default: the configuration's)."`
	SideBySide   bool          `name:"side-by-side" help:"Run the MCP and the fuzz campaign of a session at the same time, so that both see the same machine load."`
	Triage       bool          `default:"true" negatable:"" help:"Run the seeds with each undetected fault forced, to tell the faults the relations missed from those that change nothing."`
	Weights      bool          `help:"Weigh each campaign's picks by its results, as mcpt run does by default; the MCP and fuzz twins then pick different test cases (the paper's protocol has them pick the same)."`
	Quiet        bool          `short:"q" help:"Show neither progress nor a line per step, only the results."`
}

// Run checks the flags, loads the configuration and runs the experiment.
func (c *experimentCmd) Run(tools *setup.Tools) error {
	if err := c.check(); err != nil {
		return err
	}
	ec, err := c.load(tools)
	if err != nil {
		return err
	}
	var steps *progress.Steps
	if !c.Quiet {
		steps = progress.NewSteps(os.Stderr)
		ec.Log = stepLog{steps}
	}
	ec.Progress = steps.Step
	ctx, stop := interruptible()
	defer stop()
	rep, err := experiment.Run(ctx, ec)
	steps.Done()
	if rep != nil {
		c.print(rep)
	}
	return err
}

// check refuses flags that make no experiment.
func (c *experimentCmd) check() error {
	if c.Budget <= 0 && c.MaxCases <= 0 {
		return usageErr("give a budget: --budget DURATION or --max-cases N")
	}
	if c.Sessions < 1 {
		return usageErr("--sessions must be at least 1")
	}
	if entries, err := os.ReadDir(c.Out); err == nil && len(entries) > 0 {
		return usageErr("output directory %s is not empty: choose another --out", c.Out)
	}
	return configExists(c.Config)
}

// load reads the configuration and what it names into the experiment's
// configuration, with the flags: through setup.Load, as mcpt run reads
// them (each file once), but for the transpiler, whose program the
// experiment replaces by an instrumented build.
func (c *experimentCmd) load(tools *setup.Tools) (experiment.Config, error) {
	var ec experiment.Config
	s, err := setup.Load(c.Config, setup.Options{
		Tools: tools, Skip: setup.SkipTranspiler, NoRelease: true,
		Edit: func(cfg *config.Config) error {
			if cfg.Transpiler.Kind != spec.Command {
				return errNotCommand
			}
			return nil
		},
	})
	if errors.Is(err, errNotCommand) {
		return ec, usageErr("%s: the experiment needs a transpiler run as an external command (transpiler.command), such as examples/cll/mcpt-exec.yaml", c.Config)
	}
	if err != nil {
		return ec, err
	}
	cfg := s.Config
	tc := cfg.Transpiler
	module := c.Module
	if module == "" && c.Instrumented == "" {
		if module, err = moduleOf(cfg.Dir); err != nil {
			return ec, usageErr("%v: pass --module", err)
		}
	}
	if c.RunTimeout > 0 {
		tc.Timeout = c.RunTimeout
	}
	var sampleSrc []byte
	if c.Sample != "" {
		// Read once, through the snapshot: a seed given as the sample is
		// the very bytes the campaigns read.
		if sampleSrc, err = setup.ReadFile(c.Sample, s); err != nil {
			return ec, usageErr("--sample: %v", err)
		}
	}
	return experiment.Config{
		Command:   transpiler.Command{Process: tc.Process},
		Relations: s.Relations, Seeds: s.Seeds, Normalize: s.Normalize, Style: s.Style(),
		BaseRuns: cfg.BaseRuns, MaxMR: cfg.Budget.MaxMR, MaxSpots: cfg.Budget.MaxSpots, ConfigFile: cfg.File,
		Module: module, Packages: c.Packages, Main: c.Main, Instrumented: c.Instrumented, Sample: c.Sample, SampleSrc: sampleSrc,
		Sessions: c.Sessions, Seed: c.Seed, Budget: c.Budget, MaxCases: c.MaxCases, Workers: c.Workers,
		SideBySide: c.SideBySide, Triage: c.Triage, Out: c.Out, Weights: c.Weights,
	}, nil
}

// errNotCommand stops the loading of a configuration whose transpiler the
// experiment cannot instrument.
var errNotCommand = errors.New("not a transpiler command")

// print shows the experiment's table without its details, the score of
// the relations and the files written.
func (c *experimentCmd) print(rep *experiment.Report) {
	md := rep.Markdown()
	if i := strings.Index(md, "\n## Details"); i >= 0 {
		md = md[:i+1]
	}
	fmt.Print(md)
	sc := rep.Score
	fmt.Printf("\nRelation-set score: %d of %d executed faults detected by an oracle, %d by a crash, %d by a rejection, %d undetected.\n",
		sc.Oracle, sc.Executed, sc.Crash, sc.Rejection, sc.Undetected)
	fmt.Printf("Written: %s, %s, %s\n", filepath.Join(c.Out, experiment.MarkdownFile),
		filepath.Join(c.Out, experiment.CSVFile), filepath.Join(c.Out, experiment.JSONFile))
}

// stepLog writes the experiment's line per step on stderr, completing the
// progress bar of the step first so that the two do not interleave.
type stepLog struct{ steps *progress.Steps }

func (l stepLog) Write(p []byte) (int, error) {
	l.steps.Done()
	return os.Stderr.Write(p)
}

// moduleOf finds the Go module holding dir: the nearest directory upwards
// with a go.mod.
func moduleOf(dir string) (string, error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", errors.New("no go.mod above " + dir)
		}
		d = parent
	}
}
