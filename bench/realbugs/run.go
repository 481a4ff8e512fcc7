package realbugs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/mcpt-tool/mcpt/bench"
	"github.com/mcpt-tool/mcpt/config"
	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

// Defaults of the zero fields of Options.
const (
	DefaultMaxCases = 300
	DefaultMaxTime  = 10 * time.Minute
)

// Options configure a run of the benchmark.
type Options struct {
	// Root is the checkout: the bugs are in Root/bench/realbugs/bugs, and
	// a bug's pack is a path under Root.
	Root string
	// IDs are the bugs to run, all when empty.
	IDs []string
	// MaxCases and MaxTime are the budget of each campaign (one per
	// release); Seed and Workers those of every campaign (default 1, 1).
	MaxCases int
	MaxTime  time.Duration
	Seed     uint64
	Workers  int
	// Tools are what the packs' configurations may name beyond the
	// builtins (Go checker kinds).
	Tools *setup.Tools
	Cache *Cache
	// WithoutSemantic leaves the semantic checks out (bench.SemanticKinds:
	// js-shape, dts-probe, go-probe, protobuf-js): they still compile, so
	// that the packs load as they do with them, but pass everything. A
	// bug is then found, or not, by the text checks alone.
	WithoutSemantic bool
	// BuggyOnly runs the campaigns on the buggy releases alone: a finding
	// is still run again on the fixed release, but that release's own
	// campaign, the false-alarm measure, is not run.
	BuggyOnly bool
	// Derived runs each bug's derived configuration (Bug.Derived) in
	// place of its pack; a bug whose pack has none is a row that says so
	// (Result.NoDerived), not run.
	Derived bool
	// Log, when set, receives a line per step.
	Log io.Writer
}

// Result is one bug's row of the benchmark.
type Result struct {
	ID         string `json:"id"`
	Tracker    string `json:"tracker"`
	Transpiler string `json:"transpiler"`
	Buggy      string `json:"buggy"`
	Fixed      string `json:"fixed"`
	Pack       string `json:"pack"`
	// Found says whether the campaign on the buggy release made a finding
	// whose test case passes on the fixed release; CasesToFirst counts
	// the test cases of that campaign, in plan order, up to and with the
	// first such finding, and Relation and Checker name it; Message is
	// its message, to tell by hand whether it is the bug's.
	Found        bool   `json:"found"`
	CasesToFirst int    `json:"cases_to_first,omitempty"`
	Relation     string `json:"relation,omitempty"`
	Checker      string `json:"checker,omitempty"`
	Message      string `json:"message,omitempty"`
	// BuggyCases are the test cases the campaign on the buggy release ran
	// (it stops at the first finding the fixed release does not have);
	// BuggyShared those of its findings whose test case fails on the fixed
	// release too: false alarms of the pack, or a bug both releases have.
	BuggyCases  int `json:"buggy_cases"`
	BuggyShared int `json:"buggy_shared"`
	// FixedCases and FixedFindings are the test cases of the campaign on
	// the fixed release, run to the budget, and those with findings.
	// FixedKnown of these have findings that known bugs of the fixed
	// release explain, all of them (known.yaml; FixedKnownBugs names
	// them); the others are false alarms of the pack.
	FixedCases     int      `json:"fixed_cases"`
	FixedFindings  int      `json:"fixed_findings"`
	FixedKnown     int      `json:"fixed_known"`
	FixedKnownBugs []string `json:"fixed_known_bugs,omitempty"`
	// FirstAlarm describes the first finding on the fixed release that no
	// known bug explains, when there is one.
	FirstAlarm string `json:"first_alarm,omitempty"`
	// FixedNotRun says that the campaign on the fixed release was not
	// run (Options.BuggyOnly): the Fixed counts say nothing.
	FixedNotRun bool `json:"fixed_not_run,omitempty"`
	// WithoutSemantic says that the campaigns ran with the semantic
	// checks left out (Options.WithoutSemantic); SemanticLeftOut counts
	// the checks left out of the relations of the buggy release's
	// campaign.
	WithoutSemantic bool `json:"without_semantic,omitempty"`
	SemanticLeftOut int  `json:"semantic_checks_left_out,omitempty"`
	// Derived says that the campaigns ran the bug's derived configuration
	// (Options.Derived), which Pack then names; NoDerived that the bug's
	// pack has none, so nothing ran.
	Derived   bool `json:"derived,omitempty"`
	NoDerived bool `json:"no_derived,omitempty"`
	// Error says why the bug could not be run.
	Error string `json:"error,omitempty"`
}

// Run runs the benchmark: for each bug, its pack's campaign against the
// buggy release until a finding whose test case the fixed release passes
// (or the budget), and against the fixed release to the budget. The
// bugs' minimal inputs take no part: the packs run on their own seeds.
func Run(ctx context.Context, opt Options) ([]Result, error) {
	if opt.MaxCases <= 0 {
		opt.MaxCases = DefaultMaxCases
	}
	if opt.MaxTime <= 0 {
		opt.MaxTime = DefaultMaxTime
	}
	if opt.Seed == 0 {
		opt.Seed = 1
	}
	if opt.Workers <= 0 {
		opt.Workers = 1
	}
	// The packs' transpilers run in directories of their own: a relative
	// root would name another place there.
	root, err := filepath.Abs(opt.Root)
	if err != nil {
		return nil, err
	}
	opt.Root = root
	bugs, err := LoadAll(filepath.Join(opt.Root, "bench", "realbugs", "bugs"))
	if err != nil {
		return nil, err
	}
	if len(opt.IDs) > 0 {
		var pick []*Bug
		for _, id := range opt.IDs {
			i := slices.IndexFunc(bugs, func(b *Bug) bool { return b.ID == id })
			if i < 0 {
				return nil, UnknownBugError{ID: id}
			}
			pick = append(pick, bugs[i])
		}
		bugs = pick
	}
	known, err := LoadKnown(filepath.Join(opt.Root, "bench", "realbugs", KnownFile))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	r := &runner{opt: opt, known: known, fixed: map[string]fixedRun{}}
	if opt.WithoutSemantic {
		r.opt.Tools = bench.WithoutSemantic(opt.Tools, &r.leftOut)
	}
	var rows []Result
	for _, b := range bugs {
		if ctx.Err() != nil {
			return rows, ctx.Err()
		}
		row, err := r.bug(ctx, b)
		if err != nil {
			if ctx.Err() != nil {
				return rows, ctx.Err()
			}
			row.Error = err.Error()
		}
		r.logf("%s: %s", b.ID, row.verdict())
		rows = append(rows, row)
	}
	return rows, nil
}

type runner struct {
	opt   Options
	known []*Known
	// fixed holds the campaigns on fixed releases, by pack and release:
	// bugs fixed by the same release share one.
	fixed map[string]fixedRun
	// leftOut counts the semantic checks compiled so far, when they are
	// left out.
	leftOut atomic.Int64
}

type fixedRun struct {
	cases, findings, known int
	knownBugs              []string
	alarm                  string // the first false alarm, for the log
}

func (r *runner) logf(format string, args ...any) {
	if r.opt.Log != nil {
		fmt.Fprintf(r.opt.Log, "realbugs: "+format+"\n", args...)
	}
}

// bug runs the benchmark of one bug.
func (r *runner) bug(ctx context.Context, b *Bug) (Result, error) {
	row := Result{ID: b.ID, Tracker: b.Tracker, Transpiler: b.Transpiler, Buggy: b.Buggy, Fixed: b.Fixed, Pack: b.Pack,
		WithoutSemantic: r.opt.WithoutSemantic, FixedNotRun: r.opt.BuggyOnly, Derived: r.opt.Derived}
	packName := b.Pack
	if r.opt.Derived {
		if b.Derived == "" {
			row.NoDerived = true
			return row, fmt.Errorf("the pack %s has no derived configuration", b.Pack)
		}
		packName, row.Pack = b.Derived, b.Derived
	}
	pack := filepath.Join(r.opt.Root, filepath.FromSlash(packName))
	if _, err := os.Stat(pack); err != nil {
		return row, fmt.Errorf("no pack %s for %s yet", packName, b.Transpiler)
	}
	buggyBins, err := r.opt.Cache.InstallRelease(ctx, b, b.Buggy)
	if err != nil {
		return row, err
	}
	fixedBins, err := r.opt.Cache.InstallRelease(ctx, b, b.Fixed)
	if err != nil {
		return row, err
	}
	fixed, err := r.load(pack, fixedBins, nil)
	if err != nil {
		return row, fmt.Errorf("%s with %s %s: %w", packName, b.Transpiler, b.Fixed, err)
	}
	defer fixed.Close()
	// The same files as the fixed release's campaign, not read again:
	// a finding on the buggy release is run again on the fixed one.
	left0 := r.leftOut.Load()
	buggy, err := r.load(pack, buggyBins, fixed)
	if err != nil {
		return row, fmt.Errorf("%s with %s %s: %w", packName, b.Transpiler, b.Buggy, err)
	}
	defer buggy.Close()
	if r.opt.WithoutSemantic {
		row.SemanticLeftOut = int(r.leftOut.Load() - left0)
		r.logf("%s: %d semantic checks left out of %s's relations", b.ID, row.SemanticLeftOut, packName)
	}

	r.logf("%s: %s %s, to the first finding that %s does not have", b.ID, b.Transpiler, b.Buggy, b.Fixed)
	cf := &confirmer{s: fixed, bases: map[string]*engine.Base{}}
	var confirmErr error
	rep, err := r.campaign(ctx, buggy, func(ctx context.Context, cr *engine.CaseResult) bool {
		if !hasOracleFinding(cr) {
			return false
		}
		passes, err := cf.passes(ctx, cr)
		if err != nil {
			confirmErr = err
			return true
		}
		if !passes {
			row.BuggyShared++
			return false
		}
		f := firstOracle(cr)
		row.Found, row.CasesToFirst, row.Relation, row.Checker, row.Message = true, cr.Index+1, f.Relation, f.Checker, f.Message
		return true
	})
	if err != nil {
		return row, fmt.Errorf("%s %s: %w", b.Transpiler, b.Buggy, err)
	}
	if confirmErr != nil {
		return row, fmt.Errorf("running a finding of %s on %s: %w", b.Buggy, b.Fixed, confirmErr)
	}
	row.BuggyCases = rep.TestCases
	if r.opt.BuggyOnly {
		return row, nil
	}

	key := packName + "\x00" + strings.Join(b.Packages, " ") + "\x00" + b.Fixed
	fr, ok := r.fixed[key]
	if !ok {
		r.logf("%s: %s %s, to the budget", b.ID, b.Transpiler, b.Fixed)
		rep, err := r.campaign(ctx, fixed, nil)
		if err != nil {
			return row, fmt.Errorf("%s %s: %w", b.Transpiler, b.Fixed, err)
		}
		fr = r.classify(b, rep)
		r.fixed[key] = fr
	}
	row.FixedCases, row.FixedFindings, row.FixedKnown, row.FixedKnownBugs, row.FirstAlarm = fr.cases, fr.findings, fr.known, fr.knownBugs, fr.alarm
	return row, nil
}

// load reads the pack's configuration with its transpiler taken from
// bins: a command or worker program named like one of theirs runs from
// there, and every program the transpiler starts finds theirs first on
// PATH (a plugin of protoc), as node finds their packages on NODE_PATH;
// a TypeScript package among them is the one MCPT_TYPESCRIPT names. It
// reads the pack's files through the snapshot of snap, when not nil.
func (r *runner) load(pack string, bins []string, snap *setup.Setup) (*setup.Setup, error) {
	edit := func(cfg *config.Config) error {
		sp := &cfg.Transpiler.Spec
		if sp.Kind != spec.Command && sp.Kind != spec.Worker {
			return fmt.Errorf("the benchmark runs a pack whose transpiler is a command or a worker, not %s", sp.Kind)
		}
		if len(sp.Argv) > 0 {
			if p, err := lookPath(filepath.Base(sp.Argv[0]), strings.Join(bins, string(os.PathListSeparator))); err == nil {
				sp.Argv[0] = p
			}
		}
		path := os.Getenv("PATH")
		if v, ok := envValue(sp.Env, "PATH"); ok {
			path = v
		}
		sp.Env = setEnv(sp.Env, "PATH", strings.Join(append(slices.Clone(bins), path), string(os.PathListSeparator)))
		sp.Env = setEnv(sp.Env, "NODE_PATH", nodePath(bins))
		if ts := typescriptDir(bins); ts != "" {
			sp.Env = setEnv(sp.Env, TypeScriptVar, ts)
		}
		return nil
	}
	return setup.Load(pack, setup.Options{Tools: r.opt.Tools, Edit: edit, Snapshot: snap})
}

// TypeScriptVar names the TypeScript package a program of the TypeScript
// pack loads (tsc-worker.js), in place of the one installed beside it.
const TypeScriptVar = "MCPT_TYPESCRIPT"

// typescriptDir is the TypeScript package installed among bins (the
// release under test when the bug is tsc's), "" when there is none: node
// resolves require("typescript") from the requiring file's directory
// first, so a worker in the pack's directory would load the pack's own
// release rather than the one NODE_PATH names.
func typescriptDir(bins []string) string {
	for _, b := range bins {
		if filepath.Base(b) != ".bin" || filepath.Base(filepath.Dir(b)) != "node_modules" {
			continue
		}
		dir := filepath.Join(filepath.Dir(b), "typescript")
		if fi, err := os.Stat(filepath.Join(dir, "package.json")); err == nil && fi.Mode().IsRegular() {
			return dir
		}
	}
	return ""
}

// campaign runs the pack's campaign in memory; when stop, called with
// each test case that has findings, says so, the campaign stops after it.
func (r *runner) campaign(ctx context.Context, s *setup.Setup, stop func(context.Context, *engine.CaseResult) bool) (*result.Report, error) {
	opt := s.EngineOptions()
	opt.Seed, opt.Workers, opt.MaxCases, opt.MaxTime, opt.OutDir = r.opt.Seed, r.opt.Workers, r.opt.MaxCases, r.opt.MaxTime, ""
	// Every finding keeps its evidence (a counted one drops its diff, which
	// a known bug's pattern reads): the budget bounds them.
	opt.BundlesPerGroup = max(r.opt.MaxCases, 1)
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if stop != nil {
		opt.OnCase = func(cr *engine.CaseResult) {
			if len(cr.Findings) > 0 && cctx.Err() == nil && stop(ctx, cr) {
				cancel()
			}
		}
	}
	c := &engine.Campaign{Transpiler: s.Transpiler, Relations: s.Relations, Seeds: s.Seeds, Options: opt}
	rep, err := c.Run(cctx)
	if err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return rep, nil
}

// confirmer runs test cases of the buggy release's campaign on the fixed
// release.
type confirmer struct {
	s     *setup.Setup
	bases map[string]*engine.Base
}

// passes tells whether the test case of cr passes on the fixed release:
// its base accepted and its follow-up's checks all hold.
func (c *confirmer) passes(ctx context.Context, cr *engine.CaseResult) (bool, error) {
	i := slices.IndexFunc(c.s.Seeds, func(s engine.Seed) bool { return s.Name == cr.Seed })
	rel := c.s.Relation(cr.Relation)
	if i < 0 || rel == nil {
		return false, fmt.Errorf("the fixed release's campaign has no seed %s or relation %s", cr.Seed, cr.Relation)
	}
	// The test case runs under the combination of flags it ran under.
	seed, err := c.s.Seed(c.s.Seeds[i], cr.Flags, nil)
	if err != nil {
		return false, err
	}
	opt := c.s.EngineOptions()
	t := &engine.Tester{
		Transpiler: c.s.Transpiler, Normalize: c.s.Normalize, BaseRuns: opt.BaseRuns,
		ConfirmRuns: opt.ConfirmRuns, Style: opt.Style, Release: c.s.Release,
	}
	key := seed.Name + "\x00" + cr.Flags
	base, ok := c.bases[key]
	if !ok {
		if base, err = t.Base(ctx, seed); err != nil {
			return false, err
		}
		c.bases[key] = base
	}
	if base.Skip != "" {
		return false, nil // the fixed release does not take the seed: no comparison
	}
	spot, err := t.SpotAt(ctx, rel, seed, cr.Spot.Index)
	if err != nil {
		return false, err
	}
	out, err := t.Run(ctx, engine.Test{Index: cr.Index, Base: base, Relation: rel, Spot: spot, CaseSeed: firstOracle(cr).CaseSeed})
	if err != nil {
		return false, err
	}
	return len(out.Findings) == 0 && out.Skip == "", nil
}

func hasOracleFinding(cr *engine.CaseResult) bool { return firstOracle(cr) != nil }

// firstOracle is the first finding of cr that a checker made, nil when
// none did (a crash or a rejected follow-up is not a silent bug's).
func firstOracle(cr *engine.CaseResult) *result.Finding {
	for i := range cr.Findings {
		if cr.Findings[i].Kind == result.Oracle {
			return &cr.Findings[i]
		}
	}
	return nil
}

// classify counts the test cases of the fixed release's campaign that
// have findings, and those whose findings known bugs of the fixed release
// all explain.
func (r *runner) classify(b *Bug, rep *result.Report) fixedRun {
	fr := fixedRun{cases: rep.TestCases}
	explained := map[int]bool{} // by case: every finding so far explained
	var names []string
	for i := range rep.Findings {
		f := &rep.Findings[i]
		k := Explain(r.known, b.Transpiler, b.Fixed, f)
		if k != nil && !slices.Contains(names, k.Name()) {
			names = append(names, k.Name())
		}
		ok, seen := explained[f.Case]
		explained[f.Case] = k != nil && (ok || !seen)
		if k == nil && fr.alarm == "" {
			fr.alarm = fmt.Sprintf("test case %d, %s under %s: %s %s: %s", f.Case, f.Relation, f.Flags, f.Kind, f.Checker, f.Message)
		}
	}
	for _, ok := range explained {
		fr.findings++
		if ok {
			fr.known++
		}
	}
	slices.Sort(names)
	fr.knownBugs = names
	return fr
}

// envValue returns the value of key in env (KEY=value entries).
func envValue(env spec.Env, key string) (string, bool) {
	for _, e := range env {
		if k, v, ok := strings.Cut(e, "="); ok && k == key {
			return v, true
		}
	}
	return "", false
}

// setEnv returns env with key set to value, in the order of the keys.
func setEnv(env spec.Env, key, value string) spec.Env {
	out := slices.DeleteFunc(slices.Clone(env), func(e string) bool { k, _, _ := strings.Cut(e, "="); return k == key })
	out = append(out, key+"="+value)
	slices.Sort(out)
	return out
}

func (r Result) verdict() string {
	switch {
	case r.Error != "":
		return "not run: " + r.Error
	case r.Found:
		return fmt.Sprintf("found after %d test cases (%s: %s: %s); %s", r.CasesToFirst, r.Relation, r.Checker, firstLine(r.Message), r.fixedVerdict())
	default:
		return fmt.Sprintf("not found in %d test cases; %s", r.BuggyCases, r.fixedVerdict())
	}
}

// fixedVerdict says what the campaign on the fixed release found.
func (r Result) fixedVerdict() string {
	if r.FixedNotRun {
		return "the campaign on " + r.Fixed + " not run"
	}
	s := fmt.Sprintf("%d false alarms in %d test cases on %s", r.FixedFindings-r.FixedKnown, r.FixedCases, r.Fixed)
	if r.FixedKnown > 0 {
		s += fmt.Sprintf(", and %d test cases with findings of known bugs of %s: %s", r.FixedKnown, r.Fixed, strings.Join(r.FixedKnownBugs, "; "))
	}
	if r.FirstAlarm != "" {
		s += "; the first false alarm: " + r.FirstAlarm
	}
	return s
}

// WriteTable writes the rows as a table, then how many bugs were found and
// how many fixed releases had findings.
func WriteTable(w io.Writer, rows []Result) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "bug\ttracker\tbuggy → fixed\tfound on buggy\tfalse alarms on fixed\tknown bugs of fixed\tby")
	found, clean, ran, fixedRan, noDerived, without, derived := 0, 0, 0, 0, 0, false, false
	for _, r := range rows {
		releases := r.Buggy + " → " + r.Fixed
		if r.NoDerived {
			noDerived++
			fmt.Fprintf(tw, "%s\t%s\t%s\tno derived configuration\t\t\t%s\n", r.ID, r.Tracker, releases, r.Pack)
			continue
		}
		derived = derived || r.Derived
		if r.Error != "" {
			fmt.Fprintf(tw, "%s\t%s\t%s\tnot run\t\t\t%s\n", r.ID, r.Tracker, releases, r.Error)
			continue
		}
		ran++
		without = without || r.WithoutSemantic
		f := fmt.Sprintf("no (%d test cases)", r.BuggyCases)
		by := ""
		if r.Found {
			found++
			f = fmt.Sprintf("yes, after %d test cases", r.CasesToFirst)
			by = r.Relation + ": " + r.Checker
		}
		alarms, kb := "not run", "-"
		if !r.FixedNotRun {
			fixedRan++
			if r.FixedFindings == r.FixedKnown {
				clean++
			}
			alarms = fmt.Sprintf("%d of %d test cases", r.FixedFindings-r.FixedKnown, r.FixedCases)
			if r.FixedKnown > 0 {
				kb = fmt.Sprintf("%d test cases: %s", r.FixedKnown, strings.Join(r.FixedKnownBugs, "; "))
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Tracker, releases, f, alarms, kb, by)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	pct := 0
	if len(rows) > 0 {
		pct = 100 * found / len(rows)
	}
	how := ""
	if derived {
		how = " with the derived configurations"
		if noDerived > 0 {
			how += fmt.Sprintf(" (%d of them without one)", noDerived)
		}
	}
	if without {
		how += " without the semantic checks"
	}
	if _, err := fmt.Fprintf(w, "found %d of %d bugs (%d %%)%s", found, len(rows), pct, how); err != nil {
		return err
	}
	if fixedRan == 0 && ran > 0 {
		_, err := fmt.Fprintf(w, "; the fixed releases' campaigns not run\n")
		return err
	}
	_, err := fmt.Fprintf(w, "; %d of %d fixed releases run without a false alarm\n", clean, fixedRan)
	return err
}

// UnknownBugError says that a bug asked for is not in the benchmark.
type UnknownBugError struct{ ID string }

func (e UnknownBugError) Error() string {
	return fmt.Sprintf("no bug %s under bench/realbugs/bugs", e.ID)
}

// ErrNoRoot says that the checkout holding the benchmark was not found.
var ErrNoRoot = errors.New("no bench/realbugs/bugs under the working directory or the module root (run in a checkout of mcpt, or give --realbugs-root)")

// firstLine is the first line of a message, cut to a length a log line
// can hold.
func firstLine(m string) string {
	m, _, _ = strings.Cut(m, "\n")
	if r := []rune(m); len(r) > 160 {
		m = string(r[:160]) + "…"
	}
	return m
}
