// Package bench measures how fast mcpt is on the bundled CLL example, against
// its own limits: what the consistency checks cost per test case, what MCP
// costs over plain fuzzing, how much of an external transpiler's throughput a
// campaign turns into test cases, how a campaign scales with workers, and how
// fast the grammar yields seeds. Runs that are compared are interleaved and
// repeated in one process, and medians are reported, so that the ratios hold
// on a noisy machine.
package bench

import (
	"context"
	"errors"
	"fmt"
	"github.com/mcpt-tool/mcpt/transpiler/spec"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/mcpt-tool/mcpt/config"
	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/grammar"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/transpiler/cllc"
)

// Defaults of the zero fields of Options, and their values in quick mode.
const (
	DefaultCases        = 2000
	DefaultExecCases    = 300
	DefaultRepeat       = 5
	DefaultCheckCases   = 2000
	DefaultSeedPrograms = 300

	QuickCases        = 20
	QuickExecCases    = 10
	QuickRepeat       = 1
	QuickCheckCases   = 60
	QuickSeedPrograms = 10
)

// Options configure a bench run.
type Options struct {
	// Examples is the directory of the CLL example: mcpt.yaml (cllc in
	// process), mcpt-exec.yaml (cllc as an external command) and
	// cll.grammar.
	Examples string
	// Cllc is the cllc executable for the external-command runs; empty
	// means build it with the go command from the module that holds
	// Examples.
	Cllc string
	// Cases is the max-cases budget of the campaigns with cllc in
	// process, ExecCases that of the campaigns with the external cllc
	// (whose runs take milliseconds, not microseconds).
	Cases, ExecCases int
	// Repeat is how many times each compared run with the external cllc
	// is repeated; the cheap runs in process are repeated InprocRepeats
	// times as often.
	Repeat int
	// CheckCases caps the test cases whose checks are timed.
	CheckCases int
	// SeedPrograms is the number of programs asked of the grammar per
	// seed-generation run.
	SeedPrograms int
	// Workers is the number of workers of the MCP-over-fuzz campaigns and
	// of seed generation; 0 means the number of CPUs.
	Workers int
	// Journal gives every campaign a fresh output directory, so that it
	// writes its journal as `mcpt run` does; by default campaigns keep
	// everything in memory.
	Journal bool
	// Quick shrinks the zero sizes to the Quick values, for tests.
	Quick bool
	// TreePack is the configuration file of a pack whose relations find
	// their spots in the syntax tree, whose campaign is compared with a
	// bare loop of its transpiler (see treePack); empty means none.
	TreePack string
	// Tools are what the build offers TreePack's configuration (its
	// parsers, its checker kinds); nil offers the builtin cllc alone.
	Tools *setup.Tools
	// Log receives a line per step; nil means none.
	Log io.Writer
}

func (o *Options) fill() {
	def := func(v *int, normal, quick int) {
		if *v > 0 {
			return
		}
		*v = normal
		if o.Quick {
			*v = quick
		}
	}
	def(&o.Cases, DefaultCases, QuickCases)
	def(&o.ExecCases, DefaultExecCases, QuickExecCases)
	def(&o.Repeat, DefaultRepeat, QuickRepeat)
	def(&o.CheckCases, DefaultCheckCases, QuickCheckCases)
	def(&o.SeedPrograms, DefaultSeedPrograms, QuickSeedPrograms)
	def(&o.Workers, runtime.NumCPU(), runtime.NumCPU())
}

func (o *Options) logf(format string, args ...any) {
	if o.Log != nil {
		fmt.Fprintf(o.Log, "bench: "+format+"\n", args...)
	}
}

// env is what the measurements share: the example loaded twice, with cllc
// in process and as an external command.
type env struct {
	opt     Options
	inproc  *setup.Setup
	exec    transpiler.Transpiler
	cllc    string
	grammar *grammar.Grammar // cll.grammar
}

// Run performs every measurement and returns the results. It returns an
// error when the example cannot be loaded or a run breaks; a target that is
// missed is a result, not an error.
func Run(ctx context.Context, opt Options) (*Results, error) {
	opt.fill()
	if opt.Examples == "" {
		return nil, errors.New("bench: no examples directory")
	}
	res := &Results{
		Date:    time.Now().UTC().Format(time.RFC3339),
		Machine: thisMachine(),
		Settings: Settings{
			Cases: opt.Cases, ExecCases: opt.ExecCases, Repeat: opt.Repeat, CheckCases: opt.CheckCases,
			SeedPrograms: opt.SeedPrograms, Workers: opt.Workers, Journal: opt.Journal, Quick: opt.Quick,
		},
	}
	stall0, t0 := cpuStall(), time.Now()
	e, cleanup, err := load(ctx, opt)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	steps := []struct {
		name string
		run  func(context.Context, *Results) error
	}{
		{"check time", e.checkTime},
		{"campaigns", e.campaigns},
		{"seed generation", e.seedGeneration},
	}
	if opt.TreePack != "" {
		steps = append(steps, struct {
			name string
			run  func(context.Context, *Results) error
		}{"tree pack", e.treePack})
	}
	for _, s := range steps {
		start := time.Now()
		e.opt.logf("%s…", s.name)
		if err := s.run(ctx, res); err != nil {
			return nil, fmt.Errorf("bench: %s: %w", s.name, err)
		}
		e.opt.logf("%s done in %.1fs", s.name, time.Since(start).Seconds())
	}
	res.Machine.LoadAfter = loadAverage()
	if stall1 := cpuStall(); stall0 >= 0 && stall1 >= stall0 {
		res.Machine.CPUPressure = 100 * float64(stall1-stall0) / float64(time.Since(t0).Microseconds())
	}
	return res, nil
}

// load reads the two configurations of the example and makes the external
// transpiler, building cllc when no executable was given.
func load(ctx context.Context, opt Options) (*env, func(), error) {
	cleanup := func() {}
	inproc, err := setup.Load(filepath.Join(opt.Examples, "mcpt.yaml"), setup.Options{Tools: &setup.Tools{Builtins: cllc.Builtins()}})
	if err != nil {
		return nil, nil, err
	}
	cllc := opt.Cllc
	if cllc == "" {
		root, err := ModuleRoot(opt.Examples)
		if err != nil {
			return nil, nil, fmt.Errorf("bench: no cllc executable given and %v", err)
		}
		dir, err := os.MkdirTemp("", "mcpt-bench-")
		if err != nil {
			return nil, nil, err
		}
		cleanup = func() { _ = os.RemoveAll(dir) }
		opt.logf("building cllc…")
		if cllc, err = BuildCllc(ctx, root, dir); err != nil {
			cleanup()
			return nil, nil, err
		}
	}
	if cllc, err = filepath.Abs(cllc); err != nil {
		cleanup()
		return nil, nil, err
	}
	// The external cllc's configuration as mcpt run reads it, its
	// command pointed at the executable: its transpiler alone.
	execSetup, err := setup.Load(filepath.Join(opt.Examples, "mcpt-exec.yaml"), setup.Options{
		Skip: setup.SkipRelations | setup.SkipSeeds, NoRelease: true,
		Edit: func(cfg *config.Config) error {
			if cfg.Transpiler.Kind != spec.Command {
				return fmt.Errorf("bench: %s: want a transpiler command", cfg.File)
			}
			cfg.Transpiler.Argv[0] = cllc
			return nil
		},
	})
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	g, err := setup.ReadGrammar(filepath.Join(opt.Examples, "cll.grammar"), inproc)
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	return &env{opt: opt, inproc: inproc, exec: execSetup.Transpiler, cllc: cllc, grammar: g}, cleanup, nil
}

// ModulePath is the path of the mcpt module, as its go.mod declares it.
const ModulePath = "github.com/mcpt-tool/mcpt"

// ModuleRoot returns the root of the mcpt module that holds dir: the
// nearest directory above it whose go.mod declares module ModulePath.
func ModuleRoot(dir string) (string, error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if isMcptModule(d) {
			return d, nil
		}
		up := filepath.Dir(d)
		if up == d {
			return "", fmt.Errorf("%s is not inside the mcpt module", dir)
		}
		d = up
	}
}

func isMcptModule(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`) == ModulePath
		}
	}
	return false
}

// FindExamples resolves the examples directory: dir itself when it
// exists, else dir under the root of the mcpt module holding the working
// directory.
func FindExamples(dir string) (string, error) {
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		return dir, nil
	}
	if !filepath.IsAbs(dir) {
		if root, err := ModuleRoot("."); err == nil {
			p := filepath.Join(root, dir)
			if st, err := os.Stat(p); err == nil && st.IsDir() {
				return p, nil
			}
		}
	}
	return "", fmt.Errorf("examples directory %s not found here nor under the mcpt module root: run mcpt bench in a checkout of mcpt, or give --examples CHECKOUT/examples/cll", dir)
}

// BuildCllc builds the cllc command of the module at root into dir and
// returns the executable's path.
func BuildCllc(ctx context.Context, root, dir string) (string, error) {
	bin := filepath.Join(dir, "cllc")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, ModulePath+"/cmd/cllc")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building cllc: %v\n%s", err, out)
	}
	return bin, nil
}

// InprocRepeats is how many more times than Options.Repeat the compared
// campaigns in process run: they take a second, and their ratios are the
// ones most easily moved by noise.
const InprocRepeats = 3

// campaign is an engine campaign on the example of at most cases test
// cases, with the options `mcpt run` would take from the configuration.
func (e *env) campaign(t transpiler.Transpiler, mode engine.Mode, workers, cases int) *engine.Campaign {
	s := e.inproc
	b := s.Config.Budget
	return &engine.Campaign{
		Transpiler: t, Relations: s.Relations, Seeds: s.Seeds,
		Options: engine.Options{
			Mode: mode, Seed: 1, MaxCases: cases, MaxMR: b.MaxMR, MaxSpots: b.MaxSpots,
			Workers: workers, BaseRuns: s.Config.BaseRuns, Normalize: s.Normalize, Style: s.Style(), Config: s.Config.File,
		},
	}
}
