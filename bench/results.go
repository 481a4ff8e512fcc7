package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
)

// Results are the figures of a bench run. Ratios are medians over the
// repeated pairs of runs; times are in milliseconds, rates per second.
type Results struct {
	Date     string   `json:"date"` // UTC, RFC 3339
	Machine  Machine  `json:"machine"`
	Settings Settings `json:"settings"`

	// CheckMSMedian and CheckMSP99 are the median and 99th percentile,
	// over test cases, of the time FollowUp.Check takes (each case's
	// median over Repeat timings); CheckCases is how many cases.
	CheckMSMedian float64 `json:"check_ms_median"`
	CheckMSMean   float64 `json:"check_ms_mean"`
	CheckMSP99    float64 `json:"check_ms_p99"`
	CheckMSMax    float64 `json:"check_ms_max"`
	CheckCases    int     `json:"check_cases"`
	// EngineCheckMSPerCase is the engine's CheckNS over its TestCases in
	// the MCP campaign in process (it includes normalising the follow-up's
	// output and counts rejected follow-ups, which are not checked).
	EngineCheckMSPerCase float64 `json:"engine_check_ms_per_case"`

	// MCPOverFuzzInproc and MCPOverFuzzExec are the wall time of an MCP
	// campaign over that of a fuzz campaign with the same budget, with
	// cllc in process and as an external command.
	MCPOverFuzzInproc float64 `json:"mcp_over_fuzz_inproc"`
	MCPOverFuzzExec   float64 `json:"mcp_over_fuzz_exec"`
	// MCPOverFuzzInprocCPU is the same ratio in CPU time of the mcpt
	// process, which other work on the machine hardly moves.
	MCPOverFuzzInprocCPU float64 `json:"mcp_over_fuzz_inproc_cpu"`

	// Utilisation1W and Utilisation2W are the transpiler runs per second
	// of an MCP campaign with the external cllc over those of a bare loop
	// that runs cllc on the same inputs (base runs included), with 1 and 2
	// workers: the share of the external transpiler's throughput that the
	// campaign turns into test cases.
	Utilisation1W float64 `json:"utilisation_1w"`
	Utilisation2W float64 `json:"utilisation_2w"`
	// TreeUtilisation1W is Utilisation1W for the pack of Options.TreePack,
	// whose relations parse the seeds into syntax trees (see treePack);
	// TreePack names its configuration. Zero when not measured.
	TreeUtilisation1W float64 `json:"tree_utilisation_1w,omitempty"`
	TreePack          string  `json:"tree_pack,omitempty"`

	// Scaling2WInproc is the test cases per second of an MCP campaign in
	// process with 2 workers over that with 1.
	Scaling2WInproc float64 `json:"scaling_2w_inproc"`

	// SeedsAcceptedPerS is the accepted programs per second of grammar
	// generation with acceptance by cllc, with Settings.Workers workers
	// (SeedsAcceptedPerS1W with 1); SeedsYield is accepted over generated.
	SeedsAcceptedPerS   float64 `json:"seeds_accepted_per_s"`
	SeedsAcceptedPerS1W float64 `json:"seeds_accepted_per_s_1w"`
	SeedsYield          float64 `json:"seeds_yield"`

	// Runs are the medians of every kind of timed run.
	Runs []RunStats `json:"runs"`
}

// Machine describes where the figures were measured.
type Machine struct {
	CPUs       int       `json:"cpus"`
	GOMAXPROCS int       `json:"gomaxprocs"`
	CPU        string    `json:"cpu,omitempty"`
	GoVersion  string    `json:"go_version"`
	OS         string    `json:"os"`
	Arch       string    `json:"arch"`
	LoadBefore []float64 `json:"load_before,omitempty"` // 1, 5 and 15 minute load averages
	LoadAfter  []float64 `json:"load_after,omitempty"`
	// CPUPressure is the share of the run's time in which some runnable
	// task waited for a CPU (Linux pressure stall information), in
	// percent: other work on the machine shifts every figure.
	CPUPressure float64 `json:"cpu_pressure_pct,omitempty"`
}

// Settings are the sizes the bench ran with.
type Settings struct {
	Cases        int  `json:"cases"`
	ExecCases    int  `json:"exec_cases"`
	Repeat       int  `json:"repeat"`
	CheckCases   int  `json:"check_cases"`
	SeedPrograms int  `json:"seed_programs"`
	Workers      int  `json:"workers"`
	Journal      bool `json:"journal"`
	Quick        bool `json:"quick"`
}

// RunStats summarises the timed runs of one kind.
type RunStats struct {
	Name      string  `json:"name"`
	TestCases int     `json:"test_cases"`
	Runs      int     `json:"transpiler_runs"`
	Samples   int     `json:"samples"`
	WallS     float64 `json:"wall_s"` // median
	WallMinS  float64 `json:"wall_min_s"`
	WallMaxS  float64 `json:"wall_max_s"`
	CPUS      float64 `json:"cpu_s"` // median CPU time of the mcpt process
	// AllocKBPerCase is what the mcpt process allocated per test case (in
	// the first timed run), which sets how often the garbage collector
	// runs.
	AllocKBPerCase float64 `json:"alloc_kb_per_case,omitempty"`
	CasesPerS      float64 `json:"test_cases_per_s"`
	RunsPerS       float64 `json:"transpiler_runs_per_s"`
	// SemanticProcesses are the node and go processes the semantic
	// checkers started in the job's last run, GoProbeChecks its go-probe
	// checks and GoProbeBuilt those that built the probe (the others read
	// the Go without building).
	SemanticProcesses int64 `json:"semantic_processes,omitempty"`
	GoProbeChecks     int64 `json:"go_probe_checks,omitempty"`
	GoProbeBuilt      int64 `json:"go_probe_built,omitempty"`
}

func (r *Results) hasRun(name string) bool {
	return slices.ContainsFunc(r.Runs, func(s RunStats) bool { return s.Name == name })
}

// WriteJSON writes the results as indented JSON.
func (r *Results) WriteJSON(w io.Writer) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// A figure is a line of the table.
type figure struct {
	what   string
	value  string
	target string
	met    string // "yes", "no" or "" (no target)
}

func (r *Results) figures() []figure {
	ms := func(v float64) string { return fmt.Sprintf("%.3f ms", v) }
	ratio := func(v float64) string { return fmt.Sprintf("%.3f", v) }
	met := func(ok bool) string {
		if ok {
			return "yes"
		}
		return "no"
	}
	figs := []figure{
		{"check time per test case, median", ms(r.CheckMSMedian), "< 1 ms", met(r.CheckMSMedian < 1)},
		{"check time per test case, p99", ms(r.CheckMSP99), "", ""},
		{"check time per test case, mean", ms(r.CheckMSMean), "", ""},
		{"check time per test case, engine (CheckNS/TestCases)", ms(r.EngineCheckMSPerCase), "", ""},
		{"wall time MCP / fuzz, cllc in process", ratio(r.MCPOverFuzzInproc), "≤ 1.05", met(r.MCPOverFuzzInproc <= 1.05)},
		{"CPU time MCP / fuzz, cllc in process", ratio(r.MCPOverFuzzInprocCPU), "", ""},
		{"wall time MCP / fuzz, cllc external", ratio(r.MCPOverFuzzExec), "≤ 1.05", met(r.MCPOverFuzzExec <= 1.05)},
		{"utilisation of external cllc, 1 worker", ratio(r.Utilisation1W), "≥ 0.9", met(r.Utilisation1W >= 0.9)},
		{"utilisation of external cllc, 2 workers", ratio(r.Utilisation2W), "≥ 0.9", met(r.Utilisation2W >= 0.9)},
		{"scaling in process, 2 workers / 1", ratio(r.Scaling2WInproc), "≥ 1.7", met(r.Scaling2WInproc >= 1.7)},
		{fmt.Sprintf("seeds accepted per second, %d worker%s", r.Settings.Workers, plural(r.Settings.Workers)), fmt.Sprintf("%.1f", r.SeedsAcceptedPerS), "≥ 30", met(r.SeedsAcceptedPerS >= 30)},
		{"seeds accepted per second, 1 worker", fmt.Sprintf("%.1f", r.SeedsAcceptedPerS1W), "", ""},
		{"seed yield (accepted / generated)", fmt.Sprintf("%.1f%%", 100*r.SeedsYield), "≥ 95%", met(r.SeedsYield >= 0.95)},
	}
	if r.TreePack != "" {
		figs = append(figs, figure{"utilisation of the tree pack's transpiler, 1 worker", ratio(r.TreeUtilisation1W), "≥ 0.95", met(r.TreeUtilisation1W >= 0.95)})
	}
	return figs
}

// WriteTable writes the figures as a table with their targets, then the
// medians of every kind of timed run and the machine.
func (r *Results) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "figure\tvalue\ttarget\tmet")
	for _, f := range r.figures() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", f.what, f.value, f.target, f.met)
	}
	fmt.Fprintln(tw)
	fmt.Fprintln(tw, "run (median of repeats)\ttest cases\ttranspiler runs\twall\tmcpt CPU\tKB allocated/case\ttest cases/s\truns/s")
	for _, s := range r.Runs {
		cases, cps, alloc := "-", "-", "-"
		if s.TestCases > 0 {
			cases, cps = fmt.Sprint(s.TestCases), fmt.Sprintf("%.0f", s.CasesPerS)
			alloc = fmt.Sprintf("%.0f", s.AllocKBPerCase)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.2fs\t%.2fs\t%s\t%s\t%.0f\n", s.Name, cases, s.Runs, s.WallS, s.CPUS, alloc, cps, s.RunsPerS)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n%s\n%s\n", r.Machine, r.Settings)
	return err
}

func (m Machine) String() string {
	s := fmt.Sprintf("machine: %d CPUs (GOMAXPROCS %d)", m.CPUs, m.GOMAXPROCS)
	if m.CPU != "" {
		s += ", " + m.CPU
	}
	s += fmt.Sprintf(", %s %s/%s", m.GoVersion, m.OS, m.Arch)
	if len(m.LoadBefore) == 3 && len(m.LoadAfter) == 3 {
		s += fmt.Sprintf(", load average %.2f before, %.2f after", m.LoadBefore[0], m.LoadAfter[0])
	}
	if m.CPUPressure > 0 {
		s += fmt.Sprintf(", CPU pressure %.0f%%", m.CPUPressure)
	}
	return s
}

func (s Settings) String() string {
	out := "in memory"
	if s.Journal {
		out = "with a journal"
	}
	return fmt.Sprintf("settings: campaigns of %d test cases in process, %d with the external cllc (%s), %d repeat%s (×%d in process), %d workers, %d check cases, %d seed programs",
		s.Cases, s.ExecCases, out, s.Repeat, plural(s.Repeat), InprocRepeats, s.Workers, s.CheckCases, s.SeedPrograms)
}

func thisMachine() Machine {
	return Machine{
		CPUs: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0), CPU: cpuModel(),
		GoVersion: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH,
		LoadBefore: loadAverage(),
	}
}

// cpuModel is the CPU's model name where Linux tells it.
func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// loadAverage is the 1, 5 and 15 minute load averages where Linux tells
// them: other work on the machine shifts every figure.
func loadAverage() []float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return nil
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return nil
	}
	var l []float64
	for _, s := range f[:3] {
		var v float64
		if _, err := fmt.Sscan(s, &v); err != nil {
			return nil
		}
		l = append(l, v)
	}
	return l
}

// cpuStall is the total time, in microseconds, that some task waited for
// a CPU since boot, where Linux tells it (-1 elsewhere).
func cpuStall() int64 {
	b, err := os.ReadFile("/proc/pressure/cpu")
	if err != nil {
		return -1
	}
	for _, f := range strings.Fields(strings.SplitN(string(b), "\n", 2)[0]) {
		if v, ok := strings.CutPrefix(f, "total="); ok {
			var n int64
			if _, err := fmt.Sscan(v, &n); err == nil {
				return n
			}
		}
	}
	return -1
}

// median of xs (NaN when empty); xs is not changed.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// mean of xs (NaN when empty).
func mean(xs []float64) float64 {
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

// percentile is the nearest-rank p-quantile of xs (0 < p ≤ 1); p = 0
// gives the minimum. xs is not changed.
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(math.Ceil(p*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}
