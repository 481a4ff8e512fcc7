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
	"slices"
	"text/tabwriter"
	"time"

	"github.com/mcpt-tool/mcpt/config"
	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/setup"
)

// Defaults of the zero fields of WorkersOptions, and their values in quick
// mode.
const (
	DefaultWorkersCllcCases = 300
	DefaultWorkersTSCases   = 150
	DefaultWorkersRepeat    = 3
	QuickWorkersCllcCases   = 40
	QuickWorkersTSCases     = 4
	QuickWorkersRepeat      = 1
)

// WorkersFault is the cllc fault switched on in one more campaign of each
// mode, so that the findings compared between the modes are not all empty.
const WorkersFault = "reverse-enums"

// WorkersOptions configure Workers.
type WorkersOptions struct {
	// CllExamples is the CLL example directory (mcpt-exec.yaml and
	// mcpt-worker.yaml); TSExamples the TypeScript one (mcpt.yaml and
	// mcpt.worker.yaml, with TypeScript installed under node_modules).
	CllExamples, TSExamples string
	// Cllc is the cllc executable; empty means build it.
	Cllc string
	// CllcCases and TSCases are the max-cases budgets of a campaign.
	CllcCases, TSCases int
	// Repeat is the number of interleaved pairs (exec, worker) per
	// transpiler; medians are reported.
	Repeat int
	// Workers is the number of mcpt workers; 0 means the number of CPUs.
	Workers int
	// Quick shrinks the zero sizes, for tests.
	Quick bool
	// Log receives a line per step; nil means none.
	Log io.Writer
	// Tools are what the build offers the configurations: the
	// TypeScript comparison needs the TypeScript grammar among its
	// parsers.
	Tools *setup.Tools
}

// WorkersResults compare test cases per second with the transpiler run as
// a command per run and as a persistent worker. The TypeScript figures are
// null when TypeScript is not installed, and TSStatus says why.
type WorkersResults struct {
	Date     string  `json:"date"`
	Machine  Machine `json:"machine"`
	Workers  int     `json:"workers"`
	Repeat   int     `json:"repeat"`
	Seed     uint64  `json:"seed"`
	TSStatus string  `json:"ts_status"`

	TestCasesCllc       int      `json:"test_cases_cllc"`
	CasesPerSCllcExec   float64  `json:"cases_per_s_cllc_exec"`
	CasesPerSCllcWorker float64  `json:"cases_per_s_cllc_worker"`
	WorkerSpeedupCllc   float64  `json:"worker_speedup_cllc"`
	SameFindingsCllc    bool     `json:"same_findings_cllc"`
	FindingsCllc        int      `json:"findings_cllc"`
	FindingsCllcFault   string   `json:"findings_cllc_fault"`
	TestCasesTS         *int     `json:"test_cases_ts"`
	CasesPerSTSExec     *float64 `json:"cases_per_s_ts_exec"`
	CasesPerSTSWorker   *float64 `json:"cases_per_s_ts_worker"`
	WorkerSpeedupTS     *float64 `json:"worker_speedup_ts"`
	SameFindingsTS      *bool    `json:"same_findings_ts"`
	FindingsTS          *int     `json:"findings_ts"`
}

// pairResult is what one exec-versus-worker comparison measured.
type pairResult struct {
	cases              int
	exec, worker, gain float64 // medians: cases/s of each mode, worker over exec
	same               bool
	findings           int
}

// Workers runs, for cllc and (when installed) tsc, campaigns of the same
// seed with the transpiler as a command per run and as a persistent
// worker, in interleaved pairs, and compares their speed and findings.
func Workers(ctx context.Context, opt WorkersOptions) (*WorkersResults, error) {
	opt.setDefaults()
	o := Options{Log: opt.Log}
	res := &WorkersResults{
		Date: time.Now().UTC().Format(time.RFC3339), Machine: thisMachine(),
		Workers: opt.Workers, Repeat: opt.Repeat, Seed: 1, FindingsCllcFault: WorkersFault,
	}
	cllc, cleanup, err := workersCllc(ctx, opt, o)
	defer cleanup()
	if err != nil {
		return nil, err
	}
	o.logf("cllc: exec per run against worker, %d test cases, %d pairs…", opt.CllcCases, opt.Repeat)
	c, err := comparePair(ctx, opt, opt.CllcCases,
		filepath.Join(opt.CllExamples, "mcpt-exec.yaml"), filepath.Join(opt.CllExamples, "mcpt-worker.yaml"),
		useCllc(cllc, ""), useCllc(cllc, WorkersFault))
	if err != nil {
		return nil, fmt.Errorf("bench: cllc: %w", err)
	}
	res.TestCasesCllc, res.CasesPerSCllcExec, res.CasesPerSCllcWorker = c.cases, c.exec, c.worker
	res.WorkerSpeedupCllc, res.SameFindingsCllc, res.FindingsCllc = c.gain, c.same, c.findings

	if res.TSStatus = tsMissing(opt.TSExamples, opt.Tools); res.TSStatus != "" {
		o.logf("TypeScript: %s", res.TSStatus)
		return res, nil
	}
	res.TSStatus = "measured"
	o.logf("TypeScript: tsc per run against worker, %d test cases, %d pairs…", opt.TSCases, opt.Repeat)
	c, err = comparePair(ctx, opt, opt.TSCases,
		filepath.Join(opt.TSExamples, "mcpt.yaml"), filepath.Join(opt.TSExamples, "mcpt.worker.yaml"), nil, nil)
	if err != nil {
		return nil, fmt.Errorf("bench: TypeScript: %w", err)
	}
	res.TestCasesTS, res.CasesPerSTSExec, res.CasesPerSTSWorker = &c.cases, &c.exec, &c.worker
	res.WorkerSpeedupTS, res.SameFindingsTS, res.FindingsTS = &c.gain, &c.same, &c.findings
	return res, nil
}

// setDefaults gives the counts left at zero their default, or their quick
// default in quick mode.
func (opt *WorkersOptions) setDefaults() {
	def := func(v *int, normal, quick int) {
		if *v <= 0 {
			*v = normal
			if opt.Quick {
				*v = quick
			}
		}
	}
	def(&opt.CllcCases, DefaultWorkersCllcCases, QuickWorkersCllcCases)
	def(&opt.TSCases, DefaultWorkersTSCases, QuickWorkersTSCases)
	def(&opt.Repeat, DefaultWorkersRepeat, QuickWorkersRepeat)
	def(&opt.Workers, runtime.NumCPU(), runtime.NumCPU())
}

// workersCllc is the absolute path of the cllc executable to compare:
// opt.Cllc, or else one built into a temporary directory that cleanup
// removes; cleanup is never nil.
func workersCllc(ctx context.Context, opt WorkersOptions, o Options) (cllc string, cleanup func(), err error) {
	cleanup = func() {}
	cllc = opt.Cllc
	if cllc == "" {
		root, err := ModuleRoot(opt.CllExamples)
		if err != nil {
			return "", cleanup, fmt.Errorf("bench: no cllc executable given and %v", err)
		}
		dir, err := os.MkdirTemp("", "mcpt-bench-")
		if err != nil {
			return "", cleanup, err
		}
		cleanup = func() { os.RemoveAll(dir) }
		o.logf("building cllc…")
		if cllc, err = BuildCllc(ctx, root, dir); err != nil {
			return "", cleanup, err
		}
	}
	cllc, err = filepath.Abs(cllc)
	return cllc, cleanup, err
}

// useCllc points a configuration's transpiler, a command or a worker, at
// the executable cllc, with the option --fault when fault is set.
func useCllc(cllc, fault string) func(*config.Config) error {
	return func(cfg *config.Config) error {
		t := &cfg.Transpiler
		extra := []string{}
		if fault != "" {
			extra = []string{"--fault", fault}
		}
		switch t.Kind {
		case spec.Command:
			t.Argv = append([]string{cllc}, append(t.Argv[1:], extra...)...)
		case spec.Worker:
			t.Argv = append([]string{cllc}, t.Argv[1:]...)
			t.Arguments = append(slices.Clone(t.Arguments), extra...)
		default:
			return fmt.Errorf("%s: want a transpiler command or worker", cfg.File)
		}
		return nil
	}
}

// tsMissing says why the TypeScript comparison cannot run, or "".
func tsMissing(dir string, tools *setup.Tools) string {
	if dir == "" {
		return "not measured: no TypeScript example directory"
	}
	tsc := filepath.Join(dir, "node_modules", ".bin", "tsc")
	if _, err := os.Stat(tsc); err != nil {
		return fmt.Sprintf("not measured: TypeScript is not installed (no %s; run npm ci --prefix %s)", tsc, dir)
	}
	if _, err := exec.LookPath("node"); err != nil {
		return "not measured: node is not on PATH"
	}
	if ps, err := tools.AllParsers(); err != nil {
		return "not measured: " + err.Error()
	} else if _, ok := ps.Lookup("typescript"); !ok {
		return "not measured: this mcpt has no TypeScript grammar (build it with -tags typescript)"
	}
	return ""
}

// comparePair runs opt.Repeat interleaved pairs of campaigns of the exec
// and worker configurations, then, when fault is set, one more pair with
// that edit, whose findings are compared too.
func comparePair(ctx context.Context, opt WorkersOptions, cases int, execCfg, workerCfg string, edit, fault func(*config.Config) error) (pairResult, error) {
	var r pairResult
	var snap *setup.Setup // the inputs of every campaign of the pair
	var execs, workers, gains []float64
	var fExec, fWorker []string
	for k := range opt.Repeat {
		first, second := execCfg, workerCfg
		if k%2 == 1 {
			first, second = second, first
		}
		s1, err := workerCampaign(ctx, opt.Tools, &snap, first, edit, opt.Workers, cases)
		if err != nil {
			return r, err
		}
		s2, err := workerCampaign(ctx, opt.Tools, &snap, second, edit, opt.Workers, cases)
		if err != nil {
			return r, err
		}
		se, sw := s1, s2
		if k%2 == 1 {
			se, sw = s2, s1
		}
		if se.cases != sw.cases {
			return r, fmt.Errorf("exec ran %d test cases, the worker %d", se.cases, sw.cases)
		}
		r.cases = se.cases
		execs = append(execs, se.perS())
		workers = append(workers, sw.perS())
		gains = append(gains, sw.perS()/se.perS())
		fExec, fWorker = append(fExec, se.findings...), append(fWorker, sw.findings...)
	}
	if fault != nil {
		se, err := workerCampaign(ctx, opt.Tools, &snap, execCfg, fault, opt.Workers, cases)
		if err != nil {
			return r, err
		}
		sw, err := workerCampaign(ctx, opt.Tools, &snap, workerCfg, fault, opt.Workers, cases)
		if err != nil {
			return r, err
		}
		fExec, fWorker = append(fExec, se.findings...), append(fWorker, sw.findings...)
		r.findings = len(se.findings)
	} else {
		r.findings = len(fExec) / opt.Repeat
	}
	r.exec, r.worker, r.gain = median(execs), median(workers), median(gains)
	r.same = slices.Equal(fExec, fWorker)
	return r, nil
}

// modeSample is one campaign of the workers comparison.
type modeSample struct {
	wall     time.Duration
	cases    int
	findings []string // "id signature", sorted
}

func (s modeSample) perS() float64 { return float64(s.cases) / s.wall.Seconds() }

// workerCampaign loads the configuration (with edit applied) through the
// snapshot of *snap (the setup of the pair's first campaign; nil: this
// campaign is the first, and its setup becomes *snap), runs an MCP
// campaign of seed 1 on it and times it, the start and stop of the
// transpiler's worker processes included. Every campaign of a pair thus
// reads the same bytes of the seeds and relation files, each read once.
func workerCampaign(ctx context.Context, tools *setup.Tools, snap **setup.Setup, cfg string, edit func(*config.Config) error, workers, cases int) (modeSample, error) {
	s, err := setup.Load(cfg, setup.Options{Edit: edit, Tools: tools, Snapshot: *snap})
	if err != nil {
		return modeSample{}, err
	}
	if *snap == nil {
		*snap = s
	}
	// The campaign the configuration describes (its release and flags
	// too, which the relations may read), to the bench's budget.
	opt := s.EngineOptions()
	opt.Seed, opt.MaxCases, opt.MaxTime, opt.Workers = 1, cases, 0, workers
	c := &engine.Campaign{Transpiler: s.Transpiler, Relations: s.Relations, Seeds: s.Seeds, Options: opt}
	t0 := time.Now()
	rep, err := c.Run(ctx)
	err = errors.Join(err, s.Close())
	wall := time.Since(t0)
	if err != nil {
		return modeSample{}, fmt.Errorf("%s: %w", cfg, err)
	}
	out := modeSample{wall: wall, cases: rep.TestCases}
	for _, f := range rep.Findings {
		out.findings = append(out.findings, f.ID+" "+f.Signature)
	}
	slices.Sort(out.findings)
	return out, nil
}

// WriteTable writes the figures as a table.
func (w *WorkersResults) WriteTable(out io.Writer) error {
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "transpiler\ttest cases\texec cases/s\tworker cases/s\tworker speedup\tsame findings\n")
	fmt.Fprintf(tw, "cllc\t%d\t%.1f\t%.1f\t%.2f×\t%v (%d with --fault %s)\n", w.TestCasesCllc,
		w.CasesPerSCllcExec, w.CasesPerSCllcWorker, w.WorkerSpeedupCllc, w.SameFindingsCllc, w.FindingsCllc, w.FindingsCllcFault)
	if w.CasesPerSTSExec == nil {
		fmt.Fprintf(tw, "tsc\t%s\n", w.TSStatus)
	} else {
		fmt.Fprintf(tw, "tsc\t%d\t%.2f\t%.2f\t%.2f×\t%v (%d findings)\n", *w.TestCasesTS,
			*w.CasesPerSTSExec, *w.CasesPerSTSWorker, *w.WorkerSpeedupTS, *w.SameFindingsTS, *w.FindingsTS)
	}
	return tw.Flush()
}
