package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"text/tabwriter"
	"time"
)

// MemoryTarget bounds the peak resident memory of the largest campaign
// over that of the smallest: memory must not grow with the campaign.
const MemoryTarget = 1.3

// DefaultMemoryCases are the campaign sizes Memory compares by default.
var DefaultMemoryCases = []int{100_000, 1_000_000}

// MemoryOptions configure Memory.
type MemoryOptions struct {
	// Mcpt is the mcpt executable; each campaign is a child process
	// `mcpt run -q -c Config --max-cases N`, so that its peak resident
	// memory is its own.
	Mcpt string
	// Config is the configuration the campaigns run (the bench uses the
	// example's mcpt.yaml: cllc in process, no finding expected).
	Config string
	// Cases are the campaign sizes, smallest first.
	Cases []int
	// Log receives a line per step; nil means none.
	Log io.Writer
}

// MemoryRun is the measure of one child process.
type MemoryRun struct {
	Name     string  `json:"name"`
	Cases    int     `json:"test_cases"`
	MaxRSSKB int64   `json:"max_rss_kb"`
	WallS    float64 `json:"wall_s"`
}

// MemoryResults compare the peak resident memory of campaigns of growing
// size, and give that of resuming the largest one's journal, all of whose
// cases are done (the resume reads the journal and runs nothing).
type MemoryResults struct {
	Runs []MemoryRun `json:"runs"`
	// Ratio is the peak resident memory of the largest campaign over the
	// smallest's; Met says whether it is within MemoryTarget.
	Ratio  float64 `json:"ratio"`
	Target float64 `json:"target"`
	Met    bool    `json:"met"`
}

// Memory runs the campaigns of opt.Cases and the resume of the largest,
// each in a fresh output directory removed afterwards.
func Memory(ctx context.Context, opt MemoryOptions) (*MemoryResults, error) {
	if len(opt.Cases) == 0 {
		opt.Cases = DefaultMemoryCases
	}
	if opt.Mcpt == "" || opt.Config == "" {
		return nil, errors.New("bench: memory: no mcpt executable or configuration")
	}
	dir, err := os.MkdirTemp("", "mcpt-bench-memory-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	res := &MemoryResults{Target: MemoryTarget}
	var out string
	for i, n := range opt.Cases {
		out = filepath.Join(dir, fmt.Sprintf("out-%d", i))
		r, err := child(ctx, opt, fmt.Sprintf("campaign of %d test cases", n), n, "-o", out)
		if err != nil {
			return nil, err
		}
		res.Runs = append(res.Runs, r)
		if i < len(opt.Cases)-1 {
			if err := os.RemoveAll(out); err != nil {
				return nil, err
			}
		}
	}
	n := opt.Cases[len(opt.Cases)-1]
	r, err := child(ctx, opt, fmt.Sprintf("resume of a journal of %d test cases", n), n, "--resume", out)
	if err != nil {
		return nil, err
	}
	r.Cases = 0 // none run
	res.Runs = append(res.Runs, r)
	first, last := res.Runs[0], res.Runs[len(opt.Cases)-1]
	res.Ratio = float64(last.MaxRSSKB) / float64(first.MaxRSSKB)
	res.Met = res.Ratio <= MemoryTarget
	return res, nil
}

// child runs mcpt run with the budget of n test cases and returns its
// peak resident memory and wall time.
func child(ctx context.Context, opt MemoryOptions, name string, n int, args ...string) (MemoryRun, error) {
	if opt.Log != nil {
		fmt.Fprintf(opt.Log, "bench: memory: %s…\n", name)
	}
	argv := append([]string{"run", "-q", "-c", opt.Config, "--max-cases", strconv.Itoa(n)}, args...)
	cmd := exec.CommandContext(ctx, opt.Mcpt, argv...)
	t0 := time.Now()
	outb, err := cmd.CombinedOutput()
	wall := time.Since(t0)
	if err != nil {
		return MemoryRun{}, fmt.Errorf("bench: memory: %s: %v\n%s", name, err, tail(outb))
	}
	return MemoryRun{Name: name, Cases: n, MaxRSSKB: maxRSS(cmd.ProcessState), WallS: wall.Seconds()}, nil
}

func tail(b []byte) []byte {
	if len(b) > 2000 {
		return b[len(b)-2000:]
	}
	return b
}

// WriteTable writes the figures as a table.
func (m *MemoryResults) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "run\ttest cases\tmax RSS\twall")
	for _, r := range m.Runs {
		fmt.Fprintf(tw, "%s\t%d\t%.1f MB\t%.1f s\n", r.Name, r.Cases, float64(r.MaxRSSKB)/1024, r.WallS)
	}
	met := "yes"
	if !m.Met {
		met = "no"
	}
	fmt.Fprintf(tw, "max RSS, largest over smallest campaign\t%.3f\t(target ≤ %.1f)\tmet: %s\n", m.Ratio, m.Target, met)
	return tw.Flush()
}
