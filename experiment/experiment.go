// Package experiment runs the fault-injection experiment of section 4 of
// the paper (RQ1 and RQ2) on a transpiler written in Go: it instruments the
// transpiler's branches once, drops the faults that crash or hang it on a
// sample input, then runs pairs of testing sessions with the same campaign
// seed — one with MCP-Tester's relations and checkers, one as the fuzzing
// ablation — each against a fresh fault ledger, confirms offline the faults
// that the oracles revealed, and tabulates the sessions as the paper's
// Figure 4, with a summary per mode, the faults that only MCP detected and
// a score of the relation set over the executed faults.
package experiment

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/faultinject"
	"github.com/mcpt-tool/mcpt/internal/inputfile"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/transpiler"
)

// Config describes an experiment.
type Config struct {
	// Command runs the transpiler under test as the configuration says; its
	// program, Argv[0], is replaced by the instrumented binary, and the
	// rest (arguments with placeholders, working directory, environment,
	// timeout, exit codes) is kept.
	Command   transpiler.Command
	Relations []*relation.Relation
	Seeds     []engine.Seed
	Normalize oracle.Normalizer
	Style     result.Style // of the findings' signatures
	// BaseRuns, MaxMR and MaxSpots are passed to every campaign.
	BaseRuns, MaxMR, MaxSpots int
	// Weights weighs the picks of each campaign by its results (see
	// engine.Options.Exhaustive): the MCP session then picks otherwise
	// than its fuzz twin, whose findings are others. Without it, as the
	// paper's protocol needs, both pick the same test cases.
	Weights bool
	// ConfigFile is the configuration, recorded in the findings.
	ConfigFile string

	// Module is the root of the transpiler's Go module, Packages the
	// patterns of the packages to instrument (none: all) and Main the main
	// package to build, as in faultinject.Options.
	Module   string
	Packages []string
	Main     string
	// Instrumented, when set, is the output directory of an earlier
	// instrumentation (mcpt faults instrument), used instead of
	// instrumenting Module again.
	Instrumented string

	// Sample is the input of the preparatory step, named as given, and
	// SampleSrc its content (nil: read from Sample); empty means the
	// first seed. Either is written under Out/sample and run from there.
	Sample    string
	SampleSrc []byte

	// Sessions is the number of session pairs; session k runs with the
	// campaign seed Seed+k in both modes.
	Sessions int
	Seed     uint64
	// Budget bounds each session's campaign in time, MaxCases in test
	// cases; at least one is needed. The confirmation step is outside the
	// budget.
	Budget   time.Duration
	MaxCases int
	// Workers is the number of transpiler runs at a time, in every step
	// and in each campaign; zero means the number of CPUs.
	Workers int
	// SideBySide runs the MCP and the fuzz campaign of a session at the
	// same time instead of one after the other, so that both see the same
	// load of the machine and their transpiler runs can be compared on a
	// shared one.
	SideBySide bool
	// Triage runs every seed with each executed fault that nothing
	// detected forced, to tell the faults that change an outcome (missed
	// by the relations) from those that change nothing on the seeds.
	Triage bool

	// Out receives everything: instrumented/, preparation.json,
	// sessions/NN-MODE/ and the experiment.{md,csv,json} files. It must not
	// exist or be empty.
	Out string
	// Log, if set, receives a line per step.
	Log io.Writer
	// Progress, if set, is told how far each long step has got: the
	// instrumentation's steps, the preparation's runs, each session's test
	// cases, the faults confirmed and triaged. done counts units of total
	// (0 when unknown; unit "" counts nothing).
	Progress func(step, unit string, done, total int)
}

// progress reports to cfg.Progress, if set.
func (cfg *Config) progress(step, unit string, done, total int) {
	if cfg.Progress != nil {
		cfg.Progress(step, unit, done, total)
	}
}

// Report is the outcome of an experiment, as written to experiment.json.
type Report struct {
	Tool     string   `json:"tool"`
	Config   string   `json:"config,omitempty"`
	Module   string   `json:"module"`   // the module path of the transpiler
	Packages []string `json:"packages"` // the instrumented packages
	Binary   string   `json:"binary"`   // the instrumented transpiler
	Manifest string   `json:"manifest"`
	Sites    int      `json:"sites"`
	Faults   int      `json:"faults"`
	Sample   string   `json:"sample"`
	Excluded []int    `json:"excluded"` // dropped by the preparatory step
	Budget   string   `json:"budget,omitempty"`
	MaxCases int      `json:"max_cases,omitempty"`
	Workers  int      `json:"workers"`
	// SideBySide says that the two campaigns of a session ran at once.
	SideBySide bool     `json:"side_by_side"`
	Seeds      int      `json:"seeds"`
	Relations  []string `json:"relations"`

	PreparationSeconds  float64 `json:"preparation_seconds"`
	ConfirmationSeconds float64 `json:"confirmation_seconds"`
	TriageSeconds       float64 `json:"triage_seconds,omitempty"`

	Sessions []Session `json:"sessions"`
	Analysis
}

// Run runs the experiment and writes its files into cfg.Out. When ctx is
// cancelled, the session in flight is dropped and the files describe the
// sessions that were complete; Run then returns ctx's error with the
// report.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return nil, err
	}
	m, manifestPath, cmd, err := cfg.instrumentStep(ctx)
	if err != nil {
		return nil, err
	}
	prep, err := cfg.prepare(ctx, cmd, m, workers)
	if err != nil {
		return nil, err
	}
	rep := cfg.newReport(m, manifestPath, prep, workers)
	stopErr, err := cfg.sessions(ctx, rep, cmd, prep.Excluded, cfg.newConfirmer(cmd, workers), workers)
	if err != nil {
		return nil, err
	}
	rep.Analysis = *Analyze(rep.Sessions, rep.Relations, m)
	if cfg.Triage && stopErr == nil && len(rep.Score.UndetectedFaults) > 0 {
		if err := cfg.triage(ctx, rep, cmd, workers); err != nil {
			return nil, err
		}
	}
	if err := rep.WriteFiles(cfg.Out); err != nil {
		return nil, err
	}
	return rep, stopErr
}

// logf writes a line to cfg.Log, if set.
func (cfg *Config) logf(format string, args ...any) {
	if cfg.Log != nil {
		fmt.Fprintf(cfg.Log, format+"\n", args...)
	}
}

// instrumentStep instruments the transpiler, once, and gives its manifest,
// the manifest's path and the command that runs the instrumented binary.
func (cfg *Config) instrumentStep(ctx context.Context) (*faultinject.Manifest, string, transpiler.Command, error) {
	t0 := time.Now()
	m, manifestPath, err := cfg.instrument(ctx)
	if err != nil {
		return nil, "", transpiler.Command{}, err
	}
	cfg.logf("instrumented %s: %d branch sites, %d faults in %d package%s (%v); binary %s",
		m.Module, len(m.Sites), 2*len(m.Sites), len(m.Packages), plural(len(m.Packages)), time.Since(t0).Round(time.Millisecond), m.Binary)
	cmd := cfg.Command
	cmd.Argv = slices.Clone(cmd.Argv)
	cmd.Argv[0] = m.Binary
	return m, manifestPath, cmd, nil
}

// prepare runs the preparatory step, once, and writes preparation.json;
// its Excluded are the faults that crash or hang the transpiler on the
// sample.
func (cfg *Config) prepare(ctx context.Context, cmd transpiler.Command, m *faultinject.Manifest, workers int) (*preparation, error) {
	sample, err := cfg.sample()
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	prep := &preparation{Sample: sample, Statuses: map[string]int{}}
	prepRuns := 0
	excluded, err := faultinject.Prepare(ctx, cmd, sample, m, faultinject.PrepareOptions{
		Workers: workers,
		OnStart: func(runs int) { prepRuns = runs; cfg.progress("preparation", "runs", 0, runs) },
		OnRun: func(r faultinject.FaultRun) {
			prep.Runs++
			prep.Statuses[r.Status.String()]++
			cfg.progress("preparation", "runs", prep.Runs, prepRuns)
		},
	})
	if err != nil {
		return nil, err
	}
	prep.Excluded, prep.Seconds = excluded, time.Since(t0).Seconds()
	if err := writeJSON(filepath.Join(cfg.Out, "preparation.json"), prep); err != nil {
		return nil, err
	}
	cfg.logf("preparation on %s: %d forced runs (%s), %d faults dropped (crash or hang), %d kept (%v)",
		sample, prep.Runs, countsText(prep.Statuses), len(excluded), 2*len(m.Sites)-len(excluded), time.Since(t0).Round(time.Millisecond))
	return prep, nil
}

// newReport starts the report of the experiment, before its sessions.
func (cfg *Config) newReport(m *faultinject.Manifest, manifestPath string, prep *preparation, workers int) *Report {
	rep := &Report{
		Tool: "mcpt experiment", Config: cfg.ConfigFile, Module: m.Module, Packages: m.Packages,
		Binary: m.Binary, Manifest: manifestPath, Sites: len(m.Sites), Faults: 2 * len(m.Sites),
		Sample: prep.Sample, Excluded: nonNil(prep.Excluded), MaxCases: cfg.MaxCases, Workers: workers, SideBySide: cfg.SideBySide,
		Seeds: len(cfg.Seeds), PreparationSeconds: prep.Seconds, Sessions: []Session{},
	}
	if cfg.Budget > 0 {
		rep.Budget = cfg.Budget.String()
	}
	for _, r := range cfg.Relations {
		rep.Relations = append(rep.Relations, r.Name)
	}
	return rep
}

// newConfirmer gives the confirmer of the MCP sessions, which runs cmd.
func (cfg *Config) newConfirmer(cmd transpiler.Command, workers int) *confirmer {
	conf := &confirmer{cmd: cmd, relations: map[string]*relation.Relation{}, seeds: map[string]engine.Seed{},
		normalize: cfg.Normalize, style: cfg.Style, workers: workers}
	for _, r := range cfg.Relations {
		conf.relations[r.Name] = r
	}
	for _, s := range cfg.Seeds {
		conf.seeds[s.Name] = s
	}
	return conf
}

// sessions runs the session pairs and adds them to rep, each confirmed by
// conf. When ctx is cancelled it stops before the session in flight and
// returns the reason as stopErr.
func (cfg *Config) sessions(ctx context.Context, rep *Report, cmd transpiler.Command, excluded []int, conf *confirmer, workers int) (stopErr, err error) {
	for k := 1; k <= cfg.Sessions; k++ {
		pair, err := cfg.pair(ctx, k, cmd, excluded, workers)
		if ctx.Err() != nil {
			return fmt.Errorf("experiment interrupted in session %d: %w", k, ctx.Err()), nil
		}
		if err != nil {
			return nil, err
		}
		for _, c := range pair {
			t0 := time.Now()
			if err := cfg.finish(ctx, c, conf, cfg.logf); err != nil {
				return nil, fmt.Errorf("session %d (%s): %w", k, c.s.Mode, err)
			}
			rep.ConfirmationSeconds += time.Since(t0).Seconds()
			rep.Sessions = append(rep.Sessions, *c.s)
		}
	}
	return nil, nil
}

// triage runs the seeds with each undetected fault of rep forced and
// records in rep's score which change an outcome.
func (cfg *Config) triage(ctx context.Context, rep *Report, cmd transpiler.Command, workers int) error {
	t0 := time.Now()
	var faults []int
	for _, n := range rep.Score.UndetectedFaults {
		faults = append(faults, n.Fault)
	}
	visible, err := triage(ctx, cmd, cfg.Seeds, cfg.Normalize, faults, workers, func(done int) { cfg.progress("triage", "faults", done, len(faults)) })
	if err != nil {
		return fmt.Errorf("triage of the undetected faults: %w", err)
	}
	rep.Score.Triage(visible)
	rep.TriageSeconds = time.Since(t0).Seconds()
	cfg.logf("triage: %d of %d undetected faults change the outcome of some seed, %d change nothing (%v)",
		len(faults)-rep.Score.Inert, len(faults), rep.Score.Inert, time.Since(t0).Round(time.Millisecond))
	return nil
}

// countsText writes counts by name as a person reads them, largest first:
// "481 accepted, 33 crashed, 2 timed out".
func countsText(counts map[string]int) string {
	names := slices.Collect(maps.Keys(counts))
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(counts[b], counts[a]), strings.Compare(a, b))
	})
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%d %s", counts[n], n)
	}
	return strings.Join(parts, ", ")
}

// preparation is what preparation.json records.
type preparation struct {
	Sample   string         `json:"sample"`
	Runs     int            `json:"runs"`
	Statuses map[string]int `json:"statuses"`
	Excluded []int          `json:"excluded"`
	Seconds  float64        `json:"seconds"`
}

func (cfg *Config) check() error {
	switch {
	case len(cfg.Command.Argv) == 0:
		return errors.New("experiment: the transpiler must be an external command")
	case len(cfg.Relations) == 0:
		return errors.New("experiment: no relations")
	case len(cfg.Seeds) == 0:
		return errors.New("experiment: no seeds")
	case cfg.Sessions < 1:
		return errors.New("experiment: at least one session is needed")
	case cfg.Budget <= 0 && cfg.MaxCases <= 0:
		return errors.New("experiment: no budget: give a duration or a number of test cases")
	case cfg.Out == "":
		return errors.New("experiment: no output directory")
	case cfg.Module == "" && cfg.Instrumented == "":
		return errors.New("experiment: no module to instrument")
	}
	entries, err := os.ReadDir(cfg.Out)
	if err == nil && len(entries) > 0 {
		return fmt.Errorf("experiment: the output directory %s is not empty", cfg.Out)
	}
	return nil
}

// instrument instruments the module, or loads an earlier instrumentation.
func (cfg *Config) instrument(ctx context.Context) (*faultinject.Manifest, string, error) {
	if cfg.Instrumented != "" {
		p := filepath.Join(cfg.Instrumented, faultinject.ManifestFile)
		m, err := faultinject.ReadManifest(p)
		if err != nil {
			return nil, "", err
		}
		if m.Binary == "" {
			return nil, "", fmt.Errorf("%s: the instrumented copy has no binary (instrument with a main package)", p)
		}
		if _, err := os.Stat(m.Binary); err != nil {
			return nil, "", fmt.Errorf("%s: %w", p, err)
		}
		return m, p, nil
	}
	out := filepath.Join(cfg.Out, "instrumented")
	m, err := faultinject.Instrument(ctx, faultinject.Options{
		ModuleDir: cfg.Module, OutDir: out, Packages: cfg.Packages, Main: cfg.Main, Progress: cfg.Progress,
	})
	if err != nil {
		return nil, "", err
	}
	if m.Binary == "" {
		return nil, "", errors.New("experiment: no main package to build")
	}
	return m, filepath.Join(out, faultinject.ManifestFile), nil
}

// sample returns the path of the preparatory step's input: the
// configured sample, or else the first seed, written into the output
// directory (the sample as it was read with the configuration, not read
// again).
func (cfg *Config) sample() (string, error) {
	name, src := path.Base(cfg.Seeds[0].Name), cfg.Seeds[0].Src
	if cfg.Sample != "" {
		name, src = filepath.Base(cfg.Sample), cfg.SampleSrc
		if src == nil {
			b, err := inputfile.Read(cfg.Sample)
			if err != nil {
				return "", fmt.Errorf("sample: %w", err)
			}
			src = b
		}
	}
	dir := filepath.Join(cfg.Out, "sample")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, src, 0o644); err != nil {
		return "", err
	}
	return filepath.Abs(p)
}

// campaign is a testing session whose campaign has run.
type campaign struct {
	s   *Session
	rep *result.Report
	rec *recorder
}

// pair runs the campaigns of session k, MCP then fuzz, or both at once
// when cfg.SideBySide is set. An interrupted pair is dropped whole, so
// that every row of the table has its twin.
func (cfg *Config) pair(ctx context.Context, k int, cmd transpiler.Command, excluded []int, workers int) ([]*campaign, error) {
	modes := []string{MCP, Fuzz}
	out := make([]*campaign, len(modes))
	errs := make([]error, len(modes))
	if cfg.SideBySide {
		var wg sync.WaitGroup
		var cases atomic.Int64
		step := fmt.Sprintf("session %d", k)
		track := func() { cfg.progress(step, "cases", int(cases.Add(1)), 2*cfg.MaxCases) }
		for i, mode := range modes {
			wg.Go(func() { out[i], errs[i] = cfg.campaign(ctx, k, mode, cmd, excluded, workers, track) })
		}
		wg.Wait()
	} else {
		for i, mode := range modes {
			cases, step := 0, fmt.Sprintf("session %d %s", k, mode)
			track := func() { cases++; cfg.progress(step, "cases", cases, cfg.MaxCases) }
			if out[i], errs[i] = cfg.campaign(ctx, k, mode, cmd, excluded, workers, track); errs[i] != nil {
				break
			}
		}
	}
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("session %d (%s): %w", k, modes[i], err)
		}
	}
	return out, nil
}

// campaign runs the campaign of testing session k in mode through the
// instrumented transpiler, against a fresh ledger holding the prepared
// exclusions; track is called after each test case run.
func (cfg *Config) campaign(ctx context.Context, k int, mode string, cmd transpiler.Command, excluded []int, workers int, track func()) (*campaign, error) {
	dir := filepath.Join(cfg.Out, "sessions", fmt.Sprintf("%02d-%s", k, mode))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	ledger, err := faultinject.OpenLedger(filepath.Join(dir, "ledger"))
	if err != nil {
		return nil, err
	}
	if err := ledger.Exclude(excluded); err != nil {
		return nil, err
	}
	fs, err := faultinject.NewSession(cmd, ledger)
	if err != nil {
		return nil, err
	}
	rec := newRecorder(fs)
	seed := cfg.Seed + uint64(k)
	camp := &engine.Campaign{Transpiler: rec, Relations: cfg.Relations, Seeds: cfg.Seeds, Options: engine.Options{
		Mode: engine.Mode(mode), Seed: seed, MaxTime: cfg.Budget, MaxCases: cfg.MaxCases,
		MaxMR: cfg.MaxMR, MaxSpots: cfg.MaxSpots, Workers: workers, BaseRuns: cfg.BaseRuns,
		Normalize: cfg.Normalize, Style: cfg.Style, OutDir: dir, Config: cfg.ConfigFile,
		OnCase: func(cr *engine.CaseResult) {
			if cr.Status != result.CaseSkip {
				track()
			}
		},
		// Every follow-up run activates another fault: a second run is
		// another transpiler. The confirmation step takes its place.
		NoRecheck:  true,
		Exhaustive: !cfg.Weights,
	}}
	rep, err := camp.Run(ctx)
	if err != nil {
		return nil, err
	}
	if err := rep.Save(filepath.Join(dir, "report.json")); err != nil {
		return nil, err
	}
	executed, err := ledger.Executed()
	if err != nil {
		return nil, err
	}
	crashed, rejected, byRelation := rec.outcomes()
	s := &Session{
		Session: k, Mode: mode, Seed: seed, TestCases: rep.TestCases, TranspilerRuns: rep.TranspilerRuns,
		Seconds: float64(rep.Timing.WallNS) / 1e9, Dir: dir,
		Executed: nonNil(executed), Crashed: crashed, Rejected: rejected,
		Confirmed: []Detection{}, UnconfirmedFaults: []int{}, Activated: byRelation,
	}
	return &campaign{s: s, rep: rep, rec: rec}, nil
}

// finish runs the confirmation step of an MCP session, outside its budget,
// and records the session.
func (cfg *Config) finish(ctx context.Context, c *campaign, conf *confirmer, logf func(string, ...any)) error {
	s := c.s
	if s.Mode == MCP {
		step := fmt.Sprintf("session %d confirmation", s.Session)
		res, err := conf.confirm(ctx, c.rep, c.rec, s.Dir, func(done, total int) { cfg.progress(step, "faults", done, total) })
		if err != nil {
			return err
		}
		s.Confirmed, s.UnconfirmedFaults, s.Unattributed = nonNil(res.confirmed), nonNil(res.unconfirmed), res.unattributed
		for _, w := range res.warnings {
			logf("session %d (%s): %s", s.Session, s.Mode, w)
		}
	}
	s.Tally()
	if err := writeJSON(filepath.Join(s.Dir, "session.json"), s); err != nil {
		return err
	}
	oracleFindings := 0
	for _, f := range c.rep.Findings {
		if f.Kind == result.Oracle {
			oracleFindings++
		}
	}
	logf("session %d %-4s seed %d: %d test cases, %d transpiler runs, %d faults injected, %d crashes, %d oracle failures confirmed (%d oracle findings, %d faults unconfirmed, %d findings without a fault) in %.0fs",
		s.Session, s.Mode, s.Seed, s.TestCases, s.TranspilerRuns, s.InjectedFaults, s.Crashes, s.OracleFailures,
		oracleFindings, s.Unconfirmed, s.Unattributed, s.Seconds)
	return nil
}

func nonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}
