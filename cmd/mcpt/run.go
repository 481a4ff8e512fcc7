package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/printable"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/result"
)

type campaignFlags struct {
	Config   string        `short:"c" default:"mcpt.yaml" help:"Configuration file."`
	Seed     uint64        `help:"Seed of every random choice; the same seed gives the same picks and findings." default:"1"`
	MaxTime  time.Duration `name:"max-time" help:"Time budget (overrides the configuration)."`
	MaxCases int           `name:"max-cases" help:"Number of test cases (overrides the configuration)."`
	MaxMR    int           `name:"max-mr" help:"Relations picked per seed (0: all)."`
	MaxSpots int           `name:"max-spots" help:"Spots picked per relation (default 4)."`
	Workers  int           `help:"Parallel workers (default: the number of CPUs)."`
	Mode     string        `enum:"mcp,fuzz" default:"mcp" help:"mcp checks the relations; fuzz only runs the transpiler (the paper's ablation)."`
	Fault    []string      `help:"Demo fault of the builtin transpiler to switch on (repeatable); replaces the configured ones."`
}

type runCmd struct {
	campaignFlags
	Out      string `short:"o" default:"mcpt-out" help:"Output directory: report.json, findings/, journal."`
	Resume   string `help:"Continue the interrupted campaign in this output directory." placeholder:"OUTDIR"`
	Shard    string `help:"Run shard i of n (i/n, counted from 0); defaults from JOB_COMPLETION_INDEX/JOB_COMPLETIONS or SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT."`
	Events   string `help:"Write JSON Lines events (one per test case and per finding) to this file."`
	Quiet    bool   `short:"q" help:"Print no finding lines, only the summary."`
	Feedback bool   `help:"Add follow-ups that passed to the seed pool, so later test cases carry several mutations."`
}

func (c *runCmd) Run() error {
	out := c.Out
	if c.Resume != "" {
		out = c.Resume
	}
	shard, err := shardFrom(c.Shard, os.Getenv)
	if err != nil {
		return usageErr("%v", err)
	}
	s, err := loadSetup(c.Config, c.Fault)
	if err != nil {
		return err
	}
	opt := c.options(s)
	opt.OutDir, opt.Resume, opt.Shard = out, c.Resume != "", shard
	opt.Feedback = c.Feedback
	opt.Faults = c.Fault
	if opt.Fingerprint, err = s.Fingerprint(); err != nil {
		return err
	}
	opt.Fingerprint["--fault"] = fmt.Sprint(c.Fault)
	if !opt.Resume {
		if err := prepareOut(out); err != nil {
			return usageErr("%v", err)
		}
	}
	ev, closeEv, err := openEvents(c.Events)
	if err != nil {
		return usageErr("%v", err)
	}
	defer closeEv()
	prog := newProgress(os.Stderr, opt.MaxCases, opt.MaxTime)
	cases, findings := 0, 0
	opt.OnCase = func(cr *engine.CaseResult) {
		if cr.Status != engine.StatusSkip {
			cases++
		}
		findings += len(cr.Findings)
		ev.caseDone(cr)
		if !c.Quiet {
			for i := range cr.Findings {
				prog.println(findingLine(&cr.Findings[i]))
			}
		}
		prog.update(cases, findings)
	}
	ctx, stop := interruptible()
	defer stop()
	camp := &engine.Campaign{Transpiler: s.Transpiler, Relations: s.Relations, Seeds: s.Seeds, Options: opt}
	rep, runErr := camp.Run(ctx)
	prog.done()
	if rep == nil {
		if errors.Is(runErr, engine.ErrCannotResume) {
			return usageErr("%v", runErr)
		}
		return runErr
	}
	if err := writeReport(out, rep); err != nil {
		return err
	}
	printSummary(os.Stdout, rep, out)
	if runErr != nil {
		return runErr
	}
	if len(rep.Findings) > 0 {
		return findingsErr
	}
	return nil
}

func (f *campaignFlags) options(s *setup.Setup) engine.Options {
	b := s.Config.Budget
	opt := engine.Options{
		Mode: engine.Mode(f.Mode), Seed: f.Seed, MaxTime: b.MaxTime, MaxCases: b.MaxCases,
		MaxMR: b.MaxMR, MaxSpots: b.MaxSpots, Workers: f.Workers, BaseRuns: s.Config.BaseRuns,
		Normalize: s.Normalize, Config: s.Config.File,
	}
	if f.MaxTime > 0 || f.MaxCases > 0 {
		opt.MaxTime, opt.MaxCases = f.MaxTime, f.MaxCases
	}
	if f.MaxMR > 0 {
		opt.MaxMR = f.MaxMR
	}
	if f.MaxSpots > 0 {
		opt.MaxSpots = f.MaxSpots
	}
	if opt.MaxTime == 0 && opt.MaxCases == 0 {
		opt.MaxTime = time.Minute
	}
	return opt
}

func loadSetup(cfg string, faults []string) (*setup.Setup, error) {
	if err := configExists(cfg); err != nil {
		return nil, err
	}
	return setup.Load(cfg, setup.Options{Faults: faults})
}

// prepareOut makes a fresh output directory; an existing one must hold an
// earlier mcpt output (it is replaced) or be empty, so that a typo cannot
// wipe unrelated files.
func prepareOut(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return err
	}
	if len(entries) > 0 {
		if _, err := os.Stat(filepath.Join(dir, "journal.jsonl")); err != nil {
			if _, err := os.Stat(filepath.Join(dir, "report.json")); err != nil {
				return fmt.Errorf("output directory %s exists and is not an mcpt output: choose another --out", dir)
			}
		}
		for _, e := range entries {
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// interruptible returns a context cancelled by the first SIGINT or SIGTERM;
// a second one exits at once (findings already reported are in the journal).
func interruptible() (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ch
		fmt.Fprintln(os.Stderr, "mcpt: interrupted: finishing the test cases in flight (interrupt again to abort)")
		cancel()
		<-ch
		fmt.Fprintln(os.Stderr, "mcpt: aborted")
		os.Exit(130)
	}()
	return ctx, func() { signal.Stop(ch); cancel() }
}

// shardFrom parses --shard, or reads the shard from the environment of
// Kubernetes Indexed Jobs or Slurm job arrays.
func shardFrom(flag string, getenv func(string) string) (engine.Shard, error) {
	parse := func(i, n, src string) (engine.Shard, error) {
		ii, err1 := strconv.Atoi(strings.TrimSpace(i))
		nn, err2 := strconv.Atoi(strings.TrimSpace(n))
		if err1 != nil || err2 != nil || nn < 1 || ii < 0 || ii >= nn {
			return engine.Shard{}, fmt.Errorf("bad shard %s/%s from %s: want i/n with 0 <= i < n", i, n, src)
		}
		return engine.Shard{Index: ii, Count: nn}, nil
	}
	if flag != "" {
		i, n, ok := strings.Cut(flag, "/")
		if !ok {
			return engine.Shard{}, fmt.Errorf("bad --shard %q: want i/n", flag)
		}
		return parse(i, n, "--shard")
	}
	if i, n := getenv("JOB_COMPLETION_INDEX"), getenv("JOB_COMPLETIONS"); i != "" && n != "" {
		return parse(i, n, "JOB_COMPLETION_INDEX/JOB_COMPLETIONS")
	}
	if i, n := getenv("SLURM_ARRAY_TASK_ID"), getenv("SLURM_ARRAY_TASK_COUNT"); i != "" && n != "" {
		return parse(i, n, "SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT")
	}
	return engine.Shard{}, nil
}

func findingLine(f *result.Finding) string {
	where := fmt.Sprintf("%s:%d (%s)", f.SeedFile, f.Spot.Line, f.Spot.Desc)
	what := string(f.Kind)
	if f.Kind == result.Oracle {
		what = fmt.Sprintf("%s %s", f.Checker, f.File)
	}
	// Names and messages come from the transpiler's output: escaped, a file
	// name cannot drive the terminal.
	return printable.Line(fmt.Sprintf("finding %s: %s: %s at %s: %s", f.ID, f.Relation, what, where, f.Message))
}

func printSummary(w io.Writer, r *result.Report, out string) {
	w = printable.Writer{W: w}
	fmt.Fprintf(w, "mode %s, seed %d: %d test cases, %d transpiler runs; %s", r.Mode, r.Seed, r.TestCases, r.TranspilerRuns, result.TallyOf(r.Findings))
	if len(r.Groups) > 0 {
		fmt.Fprintf(w, " in %d group%s", len(r.Groups), map[bool]string{true: "s"}[len(r.Groups) > 1])
	}
	if r.Shard != "" {
		fmt.Fprintf(w, " (shard %s)", r.Shard)
	}
	fmt.Fprintln(w)
	if n := len(r.Seeds.Rejected) + len(r.Seeds.Nondeterministic) + len(r.Seeds.Crashed); n > 0 {
		fmt.Fprintf(w, "seeds skipped: %d rejected, %d nondeterministic, %d crashed the base run\n",
			len(r.Seeds.Rejected), len(r.Seeds.Nondeterministic), len(r.Seeds.Crashed))
		for _, s := range r.Seeds.Nondeterministic {
			fmt.Fprintf(w, "  nondeterministic: %s\n", s)
		}
	}
	names := make([]string, 0, len(r.ByRelation))
	for n := range r.ByRelation {
		names = append(names, n)
	}
	sort.Strings(names)
	byRel := map[string][]result.Finding{}
	for _, f := range r.Findings {
		byRel[f.Relation] = append(byRel[f.Relation], f)
	}
	for _, n := range names {
		t := result.TallyOf(byRel[n])
		found := "no findings"
		if t.Findings() > 0 {
			found = fmt.Sprintf("%d with findings (%s)", t.Cases, t.What())
		}
		fmt.Fprintf(w, "  %-32s %6d test cases, %s\n", n, r.ByRelation[n].TestCases, found)
	}
	byID := map[string]*result.Finding{}
	for i := range r.Findings {
		byID[r.Findings[i].ID] = &r.Findings[i]
	}
	for _, g := range r.Groups {
		ex := byID[g.Example]
		what := string(g.Kind)
		if g.Kind == result.Oracle {
			what = g.Checker + " " + g.File
		}
		fmt.Fprintf(w, "group %dx %s: %s\n", g.Count, g.Relation, what)
		if ex != nil && ex.Bundle != "" {
			fmt.Fprintf(w, "  e.g. %s\n", engine.ReproCommand(out, ex))
		}
	}
	fmt.Fprintf(w, "report: %s\n", filepath.Join(out, "report.json"))
}
