package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/alecthomas/kong"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/config"
	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/printable"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/outdir"
	"github.com/mcpt-tool/mcpt/report"
	"github.com/mcpt-tool/mcpt/result"
)

type campaignFlags struct {
	Config     string        `short:"c" default:"mcpt.yaml" help:"Configuration file."`
	Seed       uint64        `help:"Seed of every random choice; the same seed gives the same picks and findings." default:"1"`
	MaxTime    time.Duration `name:"max-time" help:"Time budget (overrides the configuration; with no budget at all a campaign runs for one minute)."`
	MaxCases   int           `name:"max-cases" help:"Number of test cases (overrides the configuration)."`
	MaxMR      int           `name:"max-mr" help:"Relations picked per seed (0: all)."`
	MaxSpots   int           `name:"max-spots" help:"Spots picked per relation (default 4)."`
	Workers    int           `help:"Parallel workers (default: the number of CPUs)."`
	Mode       string        `enum:"mcp,fuzz" default:"mcp" help:"mcp checks the relations; fuzz only runs the transpiler (the paper's ablation)."`
	Fault      []string      `help:"Demo fault of the builtin transpiler to switch on (repeatable); replaces the configured ones."`
	Flags      []string      `placeholder:"DIMENSION=VALUE" help:"Keep only this value of a dimension of the configuration's flags (repeatable, or joined by commas; a dimension named twice keeps both values)."`
	Bundles    int           `name:"bundles-per-group" placeholder:"K" help:"Findings of each signature group that get a bundle and the full confirmation, the first in plan order; later ones are counted (0: the configuration's bundles_per_group, by default 3)."`
	Exhaustive bool          `help:"Plan without weights: by default a (seed, relation, spot kind) whose test cases keep landing in the groups it found already is picked less, so that time goes to new groups."`
}

type runCmd struct {
	campaignFlags
	inlineFlags
	Out          string        `short:"o" placeholder:"DIR" help:"Output directory: report.json, findings/, journal (default mcpt-out). It must be new, empty, or an earlier mcpt output (see --force)."`
	Resume       resumeDir     `help:"Continue the campaign in this output directory (in place of -o), after an interrupt (exit status 4), a kill or a full disk." placeholder:"OUTDIR"`
	Force        bool          `help:"Start afresh over an earlier campaign in the output directory, removing only the files mcpt wrote there."`
	Grace        time.Duration `default:"10s" help:"After an interrupt (Ctrl-C, SIGTERM, SIGHUP), how long the test cases in flight may go on before their transpiler runs are stopped."`
	FindingsExit int           `name:"findings-exit-code" default:"1" help:"Exit status of a complete campaign with findings (0 suits batch jobs, where findings are no failure)."`
	SkippedExit  int           `name:"skipped-exit-code" default:"6" help:"Exit status of a complete campaign that skipped a seed for a relation that failed on it, and found nothing (0 suits batch jobs, which read the skipped seeds from the report)."`
	Shard        string        `placeholder:"I/N" help:"Run shard I of N (counted from 0), or none: the whole campaign. Default: the journal's with --resume, else from the engine's environment (Slurm array, Kubernetes Indexed Job with MCPT_SHARD_COUNT, GitLab, CircleCI, Buildkite; see docs/clusters.md)."`
	Events       string        `help:"Write JSON Lines events (one per test case and per finding) to this file."`
	Verbose      bool          `short:"v" help:"Print a line per finding as it is found, before the summary and its groups."`
	Quiet        bool          `short:"q" help:"Show no progress."`
	Feedback     bool          `help:"Add follow-ups that passed to the seed pool, so that later test cases carry several mutations."`
	CPUProfile   string        `name:"cpuprofile" placeholder:"FILE" help:"Write a CPU profile of mcpt's own work (not the transpiler's) to this file, for go tool pprof."`

	// unstarted is set when --resume names a directory that holds nothing
	// of the campaign yet (see outdir.Unstarted).
	unstarted bool
}

// resumeDir is the value of --resume: the output directory of the
// campaign to continue. Earlier releases had a bare --resume beside -o
// DIR; that form gets a message that says so, not the parser's.
type resumeDir string

func (r *resumeDir) Decode(ctx *kong.DecodeContext) error {
	t := ctx.Scan.Pop()
	v, ok := t.Value.(string)
	if !t.IsValue() || !ok || v == "" {
		return errors.New("it takes the output directory of the campaign to continue now: --resume DIR, in place of -o DIR (-o DIR --resume is the form of earlier releases)")
	}
	*r = resumeDir(v)
	return nil
}

// emptyShard says why shard holds no seed of a campaign of seeds seeds
// under combos combinations of flags.
func emptyShard(shard engine.Shard, seeds, combos int) string {
	pairs := seeds * combos
	what, whose := fmt.Sprintf("%d seed%s", seeds, plural(seeds)), fmt.Sprintf("seed k is shard k mod %d's", shard.Count)
	if combos > 1 {
		what += fmt.Sprintf(" under %d combinations of flags, %d in all,", combos, pairs)
		whose = fmt.Sprintf("seed k under combination j is shard (k·%d + j) mod %d's", combos, shard.Count)
	}
	return fmt.Sprintf("shard %s holds no seed: the campaign has %s and %s, so shards %d to %d of %d run nothing (every shard has seeds with at most %d shard%s)",
		shard, what, whose, pairs, shard.Count-1, shard.Count, pairs, plural(pairs))
}

// resuming tells whether the run continues a campaign: --resume of a
// directory that holds some of it.
func (c *runCmd) resuming() bool { return c.Resume != "" && !c.unstarted }

// outDir is the output directory of the run: --resume's, or -o's.
func (c *runCmd) outDir() (string, error) {
	switch {
	case c.Resume != "" && c.Force:
		return "", usageErr("--force starts afresh and --resume continues: not both")
	case c.Resume != "" && c.Out != "" && filepath.Clean(c.Out) != filepath.Clean(string(c.Resume)):
		return "", usageErr("--resume %s continues the campaign in %s: it cannot write to -o %s", c.Resume, c.Resume, c.Out)
	case c.Resume != "":
		return string(c.Resume), nil
	case c.Out != "":
		return c.Out, nil
	}
	return "mcpt-out", nil
}

func (c *runCmd) Run(tools *setup.Tools) error {
	out, err := c.outDir()
	if err != nil {
		return err
	}
	if err := checkExitCodes(c.FindingsExit, c.SkippedExit); err != nil {
		return err
	}
	if c.CPUProfile != "" {
		stop, err := startCPUProfile(c.CPUProfile)
		if err != nil {
			return err
		}
		defer stop()
	}
	if c.Resume != "" {
		if none, err := outdir.Unstarted(out, outLayout); err == nil && none {
			// A kill or a full disk before the journal was written: the
			// campaign did nothing, and starts from the beginning.
			fmt.Fprintf(os.Stderr, "mcpt: %s holds nothing of the campaign yet (it stopped before writing its journal): starting it from the beginning\n", out)
			c.unstarted = true
		}
	}
	shard, err := c.shard(out)
	if err != nil {
		return err
	}
	s, err := loadSetupInline(tools, c.Config, &c.inlineFlags, c.Fault, setup.Options{Flags: c.Flags})
	if err != nil {
		return err
	}
	defer s.Close()
	if pairs := len(s.Seeds) * s.Flags.Size(); shard.Count > 1 && shard.Index >= pairs {
		// Not an error: the shard's report, empty, completes the set that
		// merge takes.
		fmt.Fprintf(os.Stderr, "mcpt: warning: %s\n", emptyShard(shard, len(s.Seeds), s.Flags.Size()))
	}

	opt := c.options(s)
	opt.OutDir, opt.Resume, opt.Shard = out, c.resuming(), shard
	opt.Feedback = c.Feedback
	opt.Invocation = tools.Invocation
	opt.Faults = c.Fault
	if opt.Fingerprint, err = s.Fingerprint(); err != nil {
		return err
	}
	opt.Fingerprint["--fault"] = fmt.Sprint(c.Fault)
	if opt.Recipe, err = s.Recipe(opt.Seed, c.Fault); err != nil {
		return err
	}
	// Narrowed when the first bundle is written: a campaign without
	// findings does not pay for it.
	recipes := sync.OnceValue(func() map[string]*bundle.Recipe { return s.RecipesByRelation(tools, opt.Recipe) })
	whole := opt.Recipe
	opt.RecipeFor = func(relation string) *bundle.Recipe {
		if r, ok := recipes()[relation]; ok {
			return r
		}
		return whole
	}
	dir, err := c.lockOut(out)
	if err != nil {
		return err
	}
	defer dir.Close()
	ev, closeEv, err := openEvents(c.Events)
	if err != nil {
		return usageErr("%v", err)
	}
	defer closeEv()
	var progressTo io.Writer = os.Stderr
	if c.Quiet {
		progressTo = io.Discard
	}
	prog := newProgress(progressTo, opt.MaxCases, opt.MaxTime)
	cases, findings := 0, 0
	opt.OnCase = func(cr *engine.CaseResult) {
		if cr.Status != result.CaseSkip {
			cases++
		}
		findings += len(cr.Findings)
		ev.caseDone(cr)
		if c.Verbose {
			for i := range cr.Findings {
				prog.println(findingLine(&cr.Findings[i]))
			}
		}
		prog.update(cases, findings)
	}
	sig := catchInterrupts(c.Grace)
	defer sig.stop()
	opt.Halt = sig.halt
	camp := &engine.Campaign{Transpiler: s.Transpiler, Relations: s.Relations, Seeds: s.Seeds, Options: opt}
	rep, runErr := camp.Run(sig.ctx)
	prog.done()
	// From here on a stop signal ends the writing of the report (see
	// finish), watched before the campaign's watcher lets go of them.
	late := make(chan os.Signal, 1)
	signal.Notify(late, stopSignals...)
	defer signal.Stop(late)
	stoppedBefore := sig.ctx.Err() != nil
	sig.stop()
	if sig.aborted.Load() {
		return &exitError{code: exitAborted, err: fmt.Errorf("aborted: the test cases finished are kept in %s; run again with --resume %s", filepath.Join(out, engine.JournalName), out)}
	}
	if rep == nil {
		if errors.Is(runErr, engine.ErrCannotResume) {
			return usageErr("%v", runErr)
		}
		return runErr
	}
	return c.finish(out, tools.Invocation, rep, runErr, late, stoppedBefore)
}

// shard is the campaign's shard: --shard's; with --resume and no --shard,
// the journal's (a task run again by its engine, whatever its environment
// says now); else the environment's.
func (c *runCmd) shard(out string) (engine.Shard, error) {
	if c.resuming() && c.Shard == "" {
		// A journal that cannot be read is the resume's to refuse.
		s, _ := engine.JournalShard(out)
		return s, nil
	}
	s, err := shardFrom(c.Shard, os.Getenv)
	if err != nil {
		return s, usageErr("%v", err)
	}
	return s, nil
}

// lockOut takes the output directory: a new campaign's, made or checked
// and reset (--force), or the campaign to resume.
func (c *runCmd) lockOut(out string) (*outdir.Dir, error) {
	var dir *outdir.Dir
	var err error
	if c.resuming() {
		dir, err = outdir.Open(out, outLayout)
		if err == nil {
			// A campaign that ran to its end packed its journal.
			if err = engine.UnpackJournal(out); err == nil {
				_, err = os.Stat(filepath.Join(out, engine.JournalName))
			}
			if err != nil {
				dir.Close()
				err = fmt.Errorf("nothing to resume in %s: %w", out, err)
			}
		}
	} else {
		dir, err = outdir.Create(out, outLayout, c.Force)
	}
	if err != nil {
		return nil, usageErr("%v", err)
	}
	warnNoLock(dir)
	return dir, nil
}

// warnNoLock says when an output directory is used without its lock.
func warnNoLock(dir *outdir.Dir) {
	if dir.NoLock != nil {
		fmt.Fprintf(os.Stderr, "mcpt: warning: %v: another mcpt using %s at the same time would go unnoticed\n", dir.NoLock, dir.Path)
	}
}

// finish writes the report and decides the exit status. A campaign that
// broke reports its own error first, the first write that failed if it was
// one, and how to go on. A stop signal (from sig) while report.html is
// written ends mcpt there (see writeFinalReport); stoppedBefore says that
// the campaign was stopped by one already.
func (c *runCmd) finish(out, mcpt string, rep *result.Report, runErr error, sig <-chan os.Signal, stoppedBefore bool) error {
	werr := writeFinalReport(out, rep, sig)
	var stop *reportStopped
	if errors.As(werr, &stop) {
		printSummary(os.Stdout, rep, out, mcpt)
		code, again := exitInterrupted, fmt.Sprintf("; %s writes them, and --resume %s ends the campaign as it would have", reportCommand(mcpt, out), out)
		if stoppedBefore {
			code = exitAborted // a second signal
		}
		return &exitError{code: code, err: fmt.Errorf("%v while writing the report: stopped; %s is written, report.html and junit.xml are not%s",
			stop.sig, filepath.Join(out, report.ReportJSON), again)}
	}
	if werr == nil && runErr == nil && (rep.Stopped == "budget" || rep.Stopped == "time") {
		// The campaign ran to its end: its journal is read again only
		// by a resume (which unpacks it), so it is kept packed.
		if err := engine.PackJournal(out); err != nil {
			fmt.Fprintf(os.Stderr, "mcpt: warning: %v (the journal stays as it is)\n", err)
		}
	}
	if werr == nil {
		printSummary(os.Stdout, rep, out, mcpt)
		if !c.Quiet {
			printPace(os.Stdout, rep)
		}
	}
	resume := fmt.Sprintf("the test cases finished until then are kept in %s: run again with --resume %s",
		filepath.Join(out, engine.JournalName), out)
	switch {
	case runErr != nil:
		msg := runErr.Error()
		if werr != nil {
			msg += fmt.Sprintf("\nmcpt: the report could not be written either: %v", werr)
		}
		if isWriteFailure(runErr) {
			msg += "\nmcpt: once there is room, " + resume
		}
		code := exitBroken
		if errors.Is(runErr, engine.ErrNoSeedLeft) {
			code = exitUsage // the seeds' errors, and nothing else
		}
		return &exitError{code: code, err: errors.New(msg)}
	case werr != nil:
		return &exitError{code: exitBroken, err: fmt.Errorf("writing the report: %w\nmcpt: once there is room, %s", werr, resume)}
	case rep.Stopped == "interrupted":
		return &exitError{code: exitInterrupted, err: fmt.Errorf("interrupted: the campaign is incomplete; %s to complete it", resume)}
	}
	return exitOf(rep, c.FindingsExit, c.SkippedExit)
}

// checkExitCodes refuses exit statuses a process cannot give or that mean
// something else.
func checkExitCodes(findings, skipped int) error {
	if findings < 0 || findings > 125 {
		return usageErr("--findings-exit-code %d: want 0…125", findings)
	}
	if skipped < 0 || skipped > 125 {
		return usageErr("--skipped-exit-code %d: want 0…125", skipped)
	}
	return nil
}

// exitOf is the exit status of a complete campaign (or merge): findings
// first, then seeds skipped for a relation that failed on them.
func exitOf(rep *result.Report, findings, skipped int) error {
	switch {
	case len(rep.Findings) > 0 && findings != 0:
		return &exitError{code: findings}
	case len(rep.Seeds.Skipped) > 0 && skipped != 0:
		return &exitError{code: skipped, err: errors.New(skippedNote(rep.Seeds.Skipped))}
	}
	return nil
}

// skippedNote says that seeds were skipped, after the summary that lists
// them.
func skippedNote(skips []result.SeedSkip) string {
	rels := map[string]bool{}
	for _, sk := range skips {
		for _, r := range sk.Relations {
			rels[r] = true
		}
	}
	them := "them"
	if len(skips) == 1 {
		them = "it"
	}
	return fmt.Sprintf("%d seed%s skipped by %d relation%s that failed on %s (above, and in report.json's seeds.skipped); the rest of the campaign ran",
		len(skips), plural(len(skips)), len(rels), plural(len(rels)), them)
}

// reportStopped is the error of a report whose writing a stop signal
// ended.
type reportStopped struct{ sig os.Signal }

func (e *reportStopped) Error() string { return fmt.Sprintf("%v while writing the report", e.sig) }

// writeHTMLReport writes report.html and junit.xml (mcpt report adds the pages);
// tests replace it.
var writeHTMLReport = report.WriteWithoutPages

// writeFinalReport writes report.json, then report.html and junit.xml,
// which take longer (every bundle read):
// a stop signal from sig meanwhile returns a *reportStopped at once (the
// files are written beside and renamed: none is left half-written).
func writeFinalReport(out string, rep *result.Report, sig <-chan os.Signal) error {
	if err := rep.Save(filepath.Join(out, report.ReportJSON)); err != nil {
		return err
	}
	done := make(chan error, 1)
	write := writeHTMLReport // read here: a test replaces it once this returns
	go func() { done <- write(out, rep) }()
	select {
	case err := <-done:
		return err
	case s := <-sig:
		return &reportStopped{sig: s}
	}
}

// reportCommand is the command that writes the report of out again.
func reportCommand(mcpt, out string) string {
	if mcpt == "" {
		mcpt = "mcpt"
	}
	return mcpt + " report " + out
}

// isWriteFailure tells whether err is a failed file operation (a full disk,
// a quota), after which the campaign can be resumed as it is.
func isWriteFailure(err error) bool {
	var pe *fs.PathError
	var le *os.LinkError
	return errors.As(err, &pe) || errors.As(err, &le)
}

// outLayout is what mcpt writes in an output directory.
var outLayout = outdir.Layout{
	Files:   []string{engine.JournalName, engine.JournalPackedName, report.ReportJSON, report.ReportHTML, report.JUnitXML},
	Bundles: bundle.Dir,
	Remove:  bundle.Remove,
	Pages:   report.PagesDir,
}

// Validate refuses budgets and worker counts that mean nothing.
func (f *campaignFlags) Validate() error {
	switch {
	case f.Workers < 0:
		return fmt.Errorf("--workers must not be negative, found %d", f.Workers)
	case f.MaxCases < 0:
		return fmt.Errorf("--max-cases must not be negative, found %d", f.MaxCases)
	case f.MaxTime < 0:
		return fmt.Errorf("--max-time must not be negative, found %v", f.MaxTime)
	case f.MaxMR < 0 || f.MaxSpots < 0:
		return errors.New("--max-mr and --max-spots must not be negative")
	case f.Bundles < 0 || f.Bundles > config.MaxBundlesPerGroup:
		return fmt.Errorf("--bundles-per-group must be between 1 and %d (0: the configuration's), found %d", config.MaxBundlesPerGroup, f.Bundles)
	}
	return nil
}

// options are the configuration's options for a campaign on s, with the
// flags' in their place where they are given.
func (f *campaignFlags) options(s *setup.Setup) engine.Options {
	opt := s.EngineOptions()
	opt.Mode, opt.Seed, opt.Workers = engine.Mode(f.Mode), f.Seed, f.Workers
	if f.MaxTime > 0 || f.MaxCases > 0 {
		opt.MaxTime, opt.MaxCases = f.MaxTime, f.MaxCases
	}
	if f.MaxMR > 0 {
		opt.MaxMR = f.MaxMR
	}
	if f.MaxSpots > 0 {
		opt.MaxSpots = f.MaxSpots
	}
	if f.Bundles > 0 {
		opt.BundlesPerGroup = f.Bundles
	}
	opt.Exhaustive = opt.Exhaustive || f.Exhaustive
	return opt
}

// loadSetup loads the configuration cfg with the tools, the faults and
// the rest of opt.
func loadSetup(tools *setup.Tools, cfg string, faults []string, opt setup.Options) (*setup.Setup, error) {
	if opt.Inline == nil {
		if err := configExists(cfg); err != nil {
			return nil, err
		}
	}
	opt.Faults, opt.Tools = faults, tools
	opt.Warn = func(w string) {
		fmt.Fprintf(os.Stderr, "mcpt: warning: %s\n", w)
	}
	if opt.Log == nil {
		opt.Log = func(line string) { fmt.Fprintln(printable.Writer{W: os.Stderr}, "mcpt: "+line) }
	}
	s, err := setup.Load(cfg, opt)
	if err == nil {
		for _, n := range s.Notes {
			fmt.Fprintf(os.Stderr, "mcpt: note: %s\n", n)
		}
	}
	return s, err
}

// interrupts turns SIGINT, SIGTERM and SIGHUP into the stages of a stop.
// The first cancels ctx, so that no test case is started, and after the
// grace period closes halt, so that the transpiler runs still in flight
// are stopped; a second closes halt at once and marks the campaign aborted.
// If the campaign has not ended within abortBound of the abort, mcpt exits.
type interrupts struct {
	ctx     context.Context
	halt    chan struct{}
	aborted atomic.Bool
	stop    func()
}

const abortBound = 10 * time.Second

var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

func catchInterrupts(grace time.Duration) *interrupts {
	ctx, cancel := context.WithCancel(context.Background())
	in := &interrupts{ctx: ctx, halt: make(chan struct{})}
	var haltOnce sync.Once
	halt := func() { haltOnce.Do(func() { close(in.halt) }) }
	ch := make(chan os.Signal, 2)
	done := make(chan struct{})
	signal.Notify(ch, stopSignals...)
	go func() {
		var s os.Signal
		select {
		case s = <-ch:
		case <-done:
			return
		}
		fmt.Fprintf(os.Stderr, "mcpt: %v: finishing the test cases in flight, for at most %v (interrupt again to abort)\n", s, grace)
		cancel()
		timer := time.NewTimer(grace)
		defer timer.Stop()
		select {
		case <-timer.C:
			fmt.Fprintln(os.Stderr, "mcpt: stopping the transpiler runs still in flight")
			halt()
			select {
			case <-ch:
			case <-done:
				return
			}
		case <-ch:
		case <-done:
			return
		}
		fmt.Fprintln(os.Stderr, "mcpt: aborting: stopping the transpiler runs in flight")
		in.aborted.Store(true)
		halt()
		time.AfterFunc(abortBound, func() { os.Exit(exitAborted) })
	}()
	var once sync.Once
	in.stop = func() { once.Do(func() { signal.Stop(ch); close(done); cancel() }) }
	return in
}

// errInterrupted is the error of a command stopped by an interrupt before
// it was done.
var errInterrupted = &exitError{code: exitInterrupted, err: errors.New("interrupted")}

// interruptible returns a context cancelled by the first SIGINT, SIGTERM or
// SIGHUP; a second one exits at once.
func interruptible() (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, stopSignals...)
	go func() {
		<-ch
		fmt.Fprintln(os.Stderr, "mcpt: interrupted: finishing the work in flight (interrupt again to abort)")
		cancel()
		<-ch
		fmt.Fprintln(os.Stderr, "mcpt: aborted")
		os.Exit(exitAborted)
	}()
	return ctx, func() { signal.Stop(ch); cancel() }
}

func findingLine(f *result.Finding) string {
	where := fmt.Sprintf("%s:%d (%s)", f.SeedFile, f.Spot.Line, f.Spot.Desc)
	if f.Flags != "" {
		where += " under " + f.Flags
	}
	what := string(f.Kind)
	if f.Kind == result.Oracle {
		what = fmt.Sprintf("%s %s", f.Checker, f.File)
	}
	msg := f.Message
	if f.Kind == result.RejectedFollowUp || f.Kind == result.Crash {
		// What the transpiler said about the follow-up: its diagnostic,
		// or the first line of its standard error.
		if why := cmp.Or(f.Diagnostic, firstLine([]byte(f.Stderr))); why != "" {
			msg += ": " + why
		}
	}
	// Names and messages come from the transpiler's output: escaped, a file
	// name cannot drive the terminal.
	return printable.Line(fmt.Sprintf("finding %s: %s: %s at %s: %s", f.ID, f.Relation, what, where, msg))
}

func printSummary(w io.Writer, r *result.Report, out, mcpt string) {
	w = printable.Writer{W: w}
	fmt.Fprintf(w, "mode %s, seed %d: %d test case%s, %d transpiler run%s; %s", r.Mode, r.Seed, r.TestCases, plural(r.TestCases), r.TranspilerRuns, plural(r.TranspilerRuns), result.TallyOf(r.Findings))
	if len(r.Groups) > 0 {
		fmt.Fprintf(w, " in %d group%s", len(r.Groups), map[bool]string{true: "s"}[len(r.Groups) > 1])
	}
	if r.Shard != "" {
		fmt.Fprintf(w, " (shard %s)", r.Shard)
	}
	fmt.Fprintln(w)
	if r.Release != "" || len(r.Flags) > 0 {
		fmt.Fprintln(w, transpilerLine(r))
	}
	// The groups first: they are what a reader of a campaign needs.
	byID := map[string]*result.Finding{}
	for i := range r.Findings {
		byID[r.Findings[i].ID] = &r.Findings[i]
	}
	counted := false
	for _, g := range r.Groups {
		ex := byID[g.Example]
		fmt.Fprintf(w, "group %dx %s\n", g.Count, g.Title)
		if len(r.Flags) > 1 && len(g.Flags) > 0 {
			fmt.Fprintf(w, "  under %s\n", underText(g.Flags, len(r.Flags)))
		}
		if ex != nil && ex.Bundle != "" {
			fmt.Fprintf(w, "  e.g. %s\n", engine.ReproCommand(mcpt, out, ex))
		}
		if g.Counted > 0 {
			var cases []string
			for _, id := range g.Findings {
				if f := byID[id]; f != nil && f.Counted {
					if len(cases) == 3 {
						cases = append(cases, "…")
						break
					}
					cases = append(cases, strconv.Itoa(f.Case))
				}
			}
			fmt.Fprintf(w, "  %d of them counted, without a bundle (test %s %s)\n", g.Counted, map[bool]string{true: "case", false: "cases"}[g.Counted == 1], strings.Join(cases, ", "))
			counted = true
		}
		if c := byID[g.Candidate]; c != nil && c.Bundle != "" {
			fmt.Fprintf(w, "  the smallest follow-up, to reduce: %s\n", filepath.Join(out, filepath.FromSlash(c.Bundle)))
		}
		if g.Flaky > 0 {
			fmt.Fprintf(w, "  flaky: %d test %s failed this way once, but not on every re-run\n", g.Flaky, map[bool]string{true: "case", false: "cases"}[g.Flaky == 1])
		}
	}
	if counted {
		fmt.Fprintf(w, "a finding counted without a bundle is made again, with its bundle, by %s, N its test case\n", reproCaseCommand(mcpt, r.Config, out))
	}
	if n := len(r.Seeds.Rejected) + len(r.Seeds.Nondeterministic) + len(r.Seeds.Crashed); n > 0 {
		fmt.Fprintf(w, "seeds skipped: %d rejected, %d nondeterministic, %d crashed the base run\n",
			len(r.Seeds.Rejected), len(r.Seeds.Nondeterministic), len(r.Seeds.Crashed))
		for _, s := range r.Seeds.Nondeterministic {
			fmt.Fprintf(w, "  nondeterministic: %s\n", s)
		}
	}
	printSkips(w, r.Seeds.Skipped)
	if r.NondeterministicCases > 0 {
		fmt.Fprintf(w, "test cases skipped: %d failed, but not the same way when run again (a nondeterministic transpiler), not counted as findings\n", r.NondeterministicCases)
	}
	if r.WorkerRestarts > 0 || r.WorkerStaleResponses > 0 {
		fmt.Fprintf(w, "worker processes: %d restarted (timed out, died or broke the protocol), %d stale responses discarded\n", r.WorkerRestarts, r.WorkerStaleResponses)
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
		fmt.Fprintf(w, "  %-32s %6d test cases, %s%s\n", n, r.ByRelation[n].TestCases, found, checkedText(r.ByRelation[n]))
	}
	fmt.Fprintf(w, "report: %s\n", filepath.Join(out, "report.json"))
}

// reproCaseCommand is the command that makes a finding of the campaign of
// configuration cfg in the output directory out again, from its test
// case N.
func reproCaseCommand(mcpt, cfg, out string) string {
	if mcpt == "" {
		mcpt = "mcpt"
	}
	if cfg == "" {
		cfg = "CONFIG"
	}
	return fmt.Sprintf("%s repro --case N -c %s %s", mcpt, quoteArg(cfg), quoteArg(out))
}

// printPace says how fast the campaign went: test cases per second, and
// new groups per minute with the test case of the last new one. It holds
// the time of day's doing, so it is for people only: not in report.json,
// and left out with -q, as runs compared line by line are.
func printPace(w io.Writer, r *result.Report) {
	wall := time.Duration(r.Timing.WallNS)
	if wall <= 0 || r.TestCases == 0 {
		return
	}
	fmt.Fprintf(w, "pace: %.0f test cases per second", float64(r.TestCases)/wall.Seconds())
	if len(r.Groups) > 0 {
		last := -1
		byID := map[string]int{}
		for _, f := range r.Findings {
			byID[f.ID] = f.Case
		}
		for _, g := range r.Groups {
			if len(g.Findings) > 0 {
				last = max(last, byID[g.Findings[0]])
			}
		}
		fmt.Fprintf(w, ", %.1f new groups per minute (%d in %s; the last new one at test case %d)",
			float64(len(r.Groups))/wall.Minutes(), len(r.Groups), wall.Round(100*time.Millisecond), last)
	}
	fmt.Fprintln(w)
}

// transpilerLine says what the transpiler was: its release and the
// combinations of flags each seed ran under.
func transpilerLine(r *result.Report) string {
	var parts []string
	if r.Release != "" {
		parts = append(parts, "release "+r.Release)
	}
	switch n := len(r.Flags); {
	case n == 1:
		parts = append(parts, "flags "+r.Flags[0])
	case n > 1 && n <= 4:
		parts = append(parts, fmt.Sprintf("%d combinations of flags: %s", n, strings.Join(r.Flags, "; ")))
	case n > 4:
		parts = append(parts, fmt.Sprintf("%d combinations of flags: %s … %s", n, r.Flags[0], r.Flags[n-1]))
	}
	return "transpiler: " + strings.Join(parts, ", ")
}

// underText lists the combinations a group was found under, of all the
// campaign's.
func underText(flags []string, all int) string {
	if len(flags) == all {
		return fmt.Sprintf("every combination of flags (%d)", all)
	}
	shown := flags
	if len(shown) > 3 {
		shown = shown[:3]
	}
	s := strings.Join(shown, "; ")
	if len(flags) > len(shown) {
		s += fmt.Sprintf("; and %d more", len(flags)-len(shown))
	}
	return fmt.Sprintf("%d of %d combinations of flags: %s", len(flags), all, s)
}

// checkedText says how many of a relation's test cases were checked and,
// apart, which checkers could not decide on how many of them.
func checkedText(st result.RelationStats) string {
	if st.TestCases == 0 {
		return ""
	}
	s := fmt.Sprintf("; %d checked", st.Checked)
	var und []string
	for _, name := range slices.Sorted(maps.Keys(st.Checkers)) {
		if n := st.Checkers[name].Undecided; n > 0 {
			und = append(und, fmt.Sprintf("%s in %d", name, n))
		}
	}
	if len(und) > 0 {
		s += ", undecided: " + strings.Join(und, ", ")
	}
	return s
}

// maxSkipsShown is how many seeds skipped by a relation the summary names;
// report.json has them all.
const maxSkipsShown = 10

// printSkips names the seeds that relations skipped, each with its
// relations and message.
func printSkips(w io.Writer, skips []result.SeedSkip) {
	if len(skips) == 0 {
		return
	}
	cases := 0
	for _, sk := range skips {
		cases += sk.Cases
	}
	fmt.Fprintf(w, "seeds skipped by a relation that failed on them: %d", len(skips))
	if cases > 0 {
		fmt.Fprintf(w, " (%d test case%s of the plan not run)", cases, plural(cases))
	}
	fmt.Fprintln(w)
	for i, sk := range skips {
		if i == maxSkipsShown {
			fmt.Fprintf(w, "  … and %d more in report.json (seeds.skipped)\n", len(skips)-i)
			break
		}
		fmt.Fprintf(w, "  %s, %s: %s\n", sk.Name(), strings.Join(sk.Relations, ", "), sk.Message)
	}
}
