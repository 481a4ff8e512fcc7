package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

// sample is one timed run: a campaign or a bare loop.
type sample struct {
	wall  time.Duration
	cpu   time.Duration // of the mcpt process
	alloc uint64        // bytes the mcpt process allocated
	cases int           // test cases (0 for a bare loop)
	runs  int           // transpiler runs
	check int64         // the engine's CheckNS
	// sem is what the semantic checkers did in the run.
	sem workerCounts
}

// job is a kind of timed run.
type job struct {
	name string
	run  func(context.Context) (sample, error)
}

// comparison is two jobs run side by side, repeat times each, in
// alternating order; value turns a pair of samples into the figure
// compared, and the figure reported is the median over the pairs.
type comparison struct {
	key    string
	a, b   *job
	value  func(a, b sample) float64
	repeat int
}

// campaigns runs the comparisons of whole campaigns: MCP over fuzz (in
// process and external), utilisation of the external cllc (1 and 2
// workers) and scaling in process (2 workers over 1).
func (e *env) campaigns(ctx context.Context, res *Results) error {
	js := &jobSet{e: e, jobs: map[string]*job{}}
	w := e.opt.Workers
	inproc, ext := e.inproc.Transpiler, e.exec
	rIn, rEx := e.opt.Repeat*InprocRepeats, e.opt.Repeat
	mcpIn := js.campaign(inproc, engine.MCP, w)
	comps := []comparison{
		{"mcp_over_fuzz_inproc", mcpIn, js.campaign(inproc, engine.Fuzz, w), wallRatio, rIn},
		{"scaling_2w_inproc", js.campaign(inproc, engine.MCP, 2), js.campaign(inproc, engine.MCP, 1), throughput, rIn},
		{"mcp_over_fuzz_exec", js.campaign(ext, engine.MCP, w), js.campaign(ext, engine.Fuzz, w), wallRatio, rEx},
		{"utilisation_1w", js.campaign(ext, engine.MCP, 1), js.bare(1), utilisation, rEx},
		{"utilisation_2w", js.campaign(ext, engine.MCP, 2), js.bare(2), utilisation, rEx},
	}
	if err := js.record(ctx); err != nil {
		return err
	}
	if !e.opt.Quick {
		if err := warmUp(ctx, comps); err != nil {
			return err
		}
	}
	t, err := e.timeRounds(ctx, comps, max(rIn, rEx))
	if err != nil {
		return err
	}
	res.setRatios(t, t.samples[mcpIn.name])
	res.addRunStats(comps, t.samples)
	return nil
}

// jobSet makes the jobs of the comparisons, each once by name.
type jobSet struct {
	e    *env
	jobs map[string]*job
	// reqs are the transpiler runs of the external campaign, which the
	// bare loops replay, recorded once before any timing.
	reqs []transpiler.Request
}

// campaign is the job of a campaign of mode with workers workers on t, in
// process or external.
func (js *jobSet) campaign(t transpiler.Transpiler, mode engine.Mode, workers int) *job {
	e := js.e
	where, cases := "in process", e.opt.Cases
	if t == e.exec {
		where, cases = "external", e.opt.ExecCases
	}
	name := fmt.Sprintf("%s %s, %d worker%s", mode, where, workers, plural(workers))
	if j := js.jobs[name]; j != nil {
		return j
	}
	j := &job{name: name, run: func(ctx context.Context) (sample, error) {
		return e.runCampaign(ctx, e.campaign(t, mode, workers, cases))
	}}
	js.jobs[name] = j
	return j
}

// bare is the job of a bare loop of cllc over the recorded runs.
func (js *jobSet) bare(workers int) *job {
	name := fmt.Sprintf("bare cllc loop, %d worker%s", workers, plural(workers))
	j := &job{name: name, run: func(ctx context.Context) (sample, error) {
		return bareLoop(ctx, cllcProcess(js.e.cllc), js.reqs, workers)
	}}
	js.jobs[name] = j
	return j
}

// record runs the external MCP campaign once, untimed, and records its
// transpiler runs for the bare loops.
func (js *jobSet) record(ctx context.Context) error {
	e := js.e
	rec := &recorder{t: e.exec}
	warm, err := e.runCampaign(ctx, e.campaign(rec, engine.MCP, 1, e.opt.ExecCases))
	if err != nil {
		return err
	}
	js.reqs = rec.reqs
	if len(js.reqs) != warm.runs {
		return fmt.Errorf("recorded %d transpiler runs, the report counts %d", len(js.reqs), warm.runs)
	}
	e.opt.logf("campaigns: external: %d test cases, %d transpiler runs each (%d base runs)", warm.cases, warm.runs, warm.runs-warm.cases)
	return nil
}

func wallRatio(a, b sample) float64 { return a.wall.Seconds() / b.wall.Seconds() }

// utilisation compares a campaign c with a bare loop l: both sides make the
// same transpiler runs; the ratio of runs per second is the campaign's
// test cases per second over what a bare loop would make of the same runs.
func utilisation(c, l sample) float64 {
	return (float64(c.runs) / c.wall.Seconds()) / (float64(l.runs) / l.wall.Seconds())
}

func throughput(a, b sample) float64 {
	return (float64(a.cases) / a.wall.Seconds()) / (float64(b.cases) / b.wall.Seconds())
}

// warmUp runs every job once, untimed, so that caches and the page cache
// are as warm for the first timed run as for the last.
func warmUp(ctx context.Context, comps []comparison) error {
	for _, c := range comps {
		for _, j := range []*job{c.a, c.b} {
			if _, err := j.run(ctx); err != nil {
				return fmt.Errorf("%s: %w", j.name, err)
			}
		}
	}
	return nil
}

// timings are the samples of each job and the compared figures of each
// comparison, over the rounds.
type timings struct {
	samples   map[string][]sample
	values    map[string][]float64
	cpuRatios []float64 // CPU time of MCP over fuzz in process
}

// timeRounds runs rounds rounds of the comparisons, each comparison as long as
// it repeats, the two jobs of a pair in alternating order.
func (e *env) timeRounds(ctx context.Context, comps []comparison, rounds int) (*timings, error) {
	t := &timings{samples: map[string][]sample{}, values: map[string][]float64{}, cpuRatios: []float64{}}
	for k := range rounds {
		for _, c := range comps {
			if k >= c.repeat {
				continue
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			sa, sb, err := runPair(ctx, c, k%2 == 1)
			if err != nil {
				return nil, err
			}
			t.samples[c.a.name] = append(t.samples[c.a.name], sa)
			t.samples[c.b.name] = append(t.samples[c.b.name], sb)
			t.values[c.key] = append(t.values[c.key], c.value(sa, sb))
			if c.key == "mcp_over_fuzz_inproc" && sb.cpu > 0 {
				t.cpuRatios = append(t.cpuRatios, sa.cpu.Seconds()/sb.cpu.Seconds())
			}
		}
		if (k+1)%e.opt.Repeat == 0 || k+1 == rounds {
			e.opt.logf("campaigns: %d of %d rounds done", k+1, rounds)
		}
	}
	return t, nil
}

// runPair runs the two jobs of c, b first when swap is set, and returns
// the samples of a and b.
func runPair(ctx context.Context, c comparison, swap bool) (sa, sb sample, err error) {
	first, second := c.a, c.b
	if swap {
		first, second = second, first
	}
	s1, err := first.run(ctx)
	if err != nil {
		return sample{}, sample{}, fmt.Errorf("%s: %w", first.name, err)
	}
	s2, err := second.run(ctx)
	if err != nil {
		return sample{}, sample{}, fmt.Errorf("%s: %w", second.name, err)
	}
	if swap {
		return s2, s1, nil
	}
	return s1, s2, nil
}

// setRatios sets the medians of the compared figures, and the engine's
// checking time per test case over mcpIn, the samples of the MCP campaign
// in process.
func (res *Results) setRatios(t *timings, mcpIn []sample) {
	res.MCPOverFuzzInproc = median(t.values["mcp_over_fuzz_inproc"])
	res.MCPOverFuzzExec = median(t.values["mcp_over_fuzz_exec"])
	res.Utilisation1W = median(t.values["utilisation_1w"])
	res.Utilisation2W = median(t.values["utilisation_2w"])
	res.Scaling2WInproc = median(t.values["scaling_2w_inproc"])
	if len(t.cpuRatios) > 0 {
		res.MCPOverFuzzInprocCPU = median(t.cpuRatios)
	}
	var perCase []float64
	for _, s := range mcpIn {
		if s.cases > 0 {
			perCase = append(perCase, float64(s.check)/float64(s.cases))
		}
	}
	res.EngineCheckMSPerCase = median(perCase) / 1e6
}

// addRunStats adds the statistics of each job of comps, once.
func (res *Results) addRunStats(comps []comparison, samples map[string][]sample) {
	for _, c := range comps {
		for _, j := range []*job{c.a, c.b} {
			if !res.hasRun(j.name) {
				res.Runs = append(res.Runs, runStats(j.name, samples[j.name]))
			}
		}
	}
}

// runStats sums up the samples ss of the job name.
func runStats(name string, ss []sample) RunStats {
	walls := make([]float64, len(ss))
	cpus := make([]float64, len(ss))
	for i, s := range ss {
		walls[i], cpus[i] = s.wall.Seconds(), s.cpu.Seconds()
	}
	r := RunStats{Name: name, Runs: ss[0].runs, TestCases: ss[0].cases, Samples: len(ss), WallS: median(walls), CPUS: median(cpus)}
	r.WallMinS, r.WallMaxS = percentile(walls, 0), percentile(walls, 1)
	r.RunsPerS = float64(r.Runs) / r.WallS
	r.CasesPerS = float64(r.TestCases) / r.WallS
	// The last run's: the first may prepare what the others reuse.
	last := ss[len(ss)-1].sem
	r.SemanticProcesses, r.GoProbeChecks, r.GoProbeBuilt = last.processes, last.goChecks, last.goBuilt
	if r.TestCases > 0 {
		r.AllocKBPerCase = float64(ss[0].alloc) / float64(r.TestCases) / 1024
	}
	return r
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// runCampaign runs a campaign and times it; with Options.Journal it gets a
// fresh output directory, removed after the timing.
func (e *env) runCampaign(ctx context.Context, c *engine.Campaign) (sample, error) {
	if e.opt.Journal {
		dir, err := os.MkdirTemp("", "mcpt-bench-out-")
		if err != nil {
			return sample{}, err
		}
		defer os.RemoveAll(dir)
		c.Options.OutDir = dir
	}
	a0, sem0 := allocated(), semanticCounts()
	t0, c0 := time.Now(), cpuTime()
	rep, err := c.Run(ctx)
	wall, cpu := time.Since(t0), cpuTime()-c0
	alloc, sem := allocated()-a0, semanticCounts().sub(sem0)
	if err != nil {
		return sample{}, err
	}
	if len(rep.Findings) > 0 {
		e.opt.logf("warning: %s campaign found %d findings (the example expects none)", rep.Mode, len(rep.Findings))
	}
	return sample{wall: wall, cpu: cpu, alloc: alloc, cases: rep.TestCases, runs: rep.TranspilerRuns, check: rep.Timing.CheckNS, sem: sem}, nil
}

// allocated is the number of bytes the process has allocated so far.
func allocated() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.TotalAlloc
}

// recorder is a transpiler decorator that keeps a copy of every request.
type recorder struct {
	t    transpiler.Transpiler
	mu   sync.Mutex
	reqs []transpiler.Request
}

func (r *recorder) Transpile(ctx context.Context, req transpiler.Request) (*transpiler.Result, error) {
	r.mu.Lock()
	r.reqs = append(r.reqs, transpiler.Request{Name: req.Name, Src: bytes.Clone(req.Src), Role: req.Role})
	r.mu.Unlock()
	return r.t.Transpile(ctx, req)
}

// bareLoop runs the process p (a transpiler command with its
// placeholders) on every request with the given number of workers (see
// bareRun).
func bareLoop(ctx context.Context, p spec.Process, reqs []transpiler.Request, workers int) (sample, error) {
	return timedLoop(ctx, reqs, workers, func(ctx context.Context, req transpiler.Request) error {
		return bareRun(ctx, p, req)
	})
}

// timedLoop calls run on every request with the given number of workers
// and times the whole.
func timedLoop(ctx context.Context, reqs []transpiler.Request, workers int, run func(context.Context, transpiler.Request) error) (sample, error) {
	var next atomic.Int64
	g, ctx := errgroup.WithContext(ctx)
	t0, c0 := time.Now(), cpuTime()
	for range workers {
		g.Go(func() error {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(reqs) {
					return nil
				}
				if err := run(ctx, reqs[i]); err != nil {
					return err
				}
			}
		})
	}
	err := g.Wait()
	return sample{wall: time.Since(t0), cpu: cpuTime() - c0, runs: len(reqs)}, err
}

// cllcProcess is the external cllc as a bare loop runs it.
func cllcProcess(cllc string) spec.Process {
	return spec.Process{Argv: []string{cllc, transpiler.PlaceholderInput, "-o", transpiler.PlaceholderOutDir}}
}

// bareRun runs p once on req in a fresh directory (in/NAME, out/) that is
// removed afterwards: all a tester must do to run an external transpiler,
// and nothing more. The placeholders of p's arguments are replaced, a
// program named with a slash is relative to p.Dir, p.Env is added to the
// environment. An exit status that p accepts or rejects (by default 0 and
// 1) is a normal run; another failure is an error.
func bareRun(ctx context.Context, p spec.Process, req transpiler.Request) error {
	dir, err := os.MkdirTemp("", "mcpt-bare-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	in, out := filepath.Join(dir, "in", req.Name), filepath.Join(dir, "out")
	if err := os.Mkdir(filepath.Dir(in), 0o755); err != nil {
		return err
	}
	if err := os.Mkdir(out, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(in, req.Src, 0o644); err != nil {
		return err
	}
	args := make([]string, len(p.Argv)-1)
	r := strings.NewReplacer(transpiler.PlaceholderInput, in, transpiler.PlaceholderInputName, req.Name,
		transpiler.PlaceholderOutDir, out, transpiler.PlaceholderWorkDir, dir)
	for i, a := range p.Argv[1:] {
		args[i] = r.Replace(a)
	}
	prog := p.Argv[0]
	if strings.ContainsRune(prog, filepath.Separator) && !filepath.IsAbs(prog) {
		// Absolute: joined with a relative directory, ../gen.sh may
		// clean to a bare name, which would be looked up in $PATH.
		if prog, err = filepath.Abs(filepath.Join(p.Dir, prog)); err != nil {
			return err
		}
	}
	cmd := exec.CommandContext(ctx, prog, args...)
	cmd.Dir = p.Dir
	if len(p.Env) > 0 {
		cmd.Env = append(os.Environ(), p.Env...)
	}
	err = cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		accept, reject := p.Accept, p.Reject
		if accept == nil {
			accept = []int{0}
		}
		if reject == nil {
			reject = []int{1}
		}
		if code := ee.ExitCode(); slices.Contains(accept, code) || slices.Contains(reject, code) {
			return nil
		}
	}
	return err
}
