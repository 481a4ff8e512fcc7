package cli

import (
	"errors"
	"fmt"
	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/merge"
	"github.com/mcpt-tool/mcpt/outdir"
	"github.com/mcpt-tool/mcpt/report"
	"github.com/mcpt-tool/mcpt/result"
)

type reportCmd struct {
	Out string `arg:"" help:"Output directory of a campaign (holding report.json and findings/)."`
}

func (c *reportCmd) Run() error {
	wholeReportGC()
	dir, err := outdir.Open(c.Out, outLayout)
	if err != nil {
		return usageErr("%v", err)
	}
	defer dir.Close()
	warnNoLock(dir)
	if _, err := os.Stat(filepath.Join(c.Out, report.ReportJSON)); err != nil {
		return usageErr("%v", err)
	}
	// Damaged or refused input is the input's fault (2), as for merge,
	// repro and reduce; only a write that fails is a broken run (3).
	var ie *report.InputError
	if err := report.Rebuild(c.Out); errors.Is(err, bundle.ErrRefused) || errors.As(err, &ie) {
		return usageErr("%v", err)
	} else if err != nil {
		return err
	}
	fmt.Printf("wrote %s and %s\n", filepath.Join(c.Out, report.ReportHTML), filepath.Join(c.Out, report.JUnitXML))
	return nil
}

type mergeCmd struct {
	Dirs         []string `arg:"" help:"Output directories of the shards."`
	Out          string   `short:"o" required:"" help:"Directory for the merged output: new, empty, or an earlier mcpt output (see --force)."`
	Force        bool     `help:"Replace an earlier mcpt output in -o, removing only the files mcpt wrote there."`
	Partial      bool     `help:"Merge shards that were interrupted and not resumed, into a report marked incomplete (exit status 4); without it such a shard is refused."`
	FindingsExit int      `name:"findings-exit-code" default:"1" help:"Exit status of a complete merge with findings (0 suits batch jobs, where findings are no failure)."`
	SkippedExit  int      `name:"skipped-exit-code" default:"6" help:"Exit status of a complete merge without findings whose shards skipped a seed for a relation that failed on it (0: no failure)."`
	Standalone   bool     `help:"Put the shards' bundles into -o (hard links on one file system, else copies), so that it holds all it shows; without it the merged report refers to the bundles of shards beside -o (below its parent) in place."`
}

func (c *mergeCmd) Run(tools *setup.Tools) error {
	wholeReportGC()
	if err := checkExitCodes(c.FindingsExit, c.SkippedExit); err != nil {
		return err
	}
	for _, d := range c.Dirs {
		// A shard killed before it wrote its report has its journal.
		if _, err := os.Stat(filepath.Join(d, report.ReportJSON)); err != nil {
			if _, jerr := os.Stat(filepath.Join(d, engine.JournalName)); jerr != nil {
				return usageErr("%v", noShardErr(d, err))
			}
		}
	}
	for _, d := range c.Dirs {
		if same, _ := sameDir(d, c.Out); same {
			return usageErr("-o %s is one of the directories to merge", c.Out)
		}
	}
	dir, err := outdir.Create(c.Out, outLayout, c.Force)
	if err != nil {
		return usageErr("%v", err)
	}
	defer dir.Close()
	warnNoLock(dir)
	m, err := merge.Shards(c.Dirs, c.Out, merge.Options{Partial: c.Partial, Invocation: tools.Invocation, Standalone: c.Standalone})
	if err != nil {
		return usageErr("%v", err)
	}
	printSummary(os.Stdout, m, c.Out, tools.Invocation)
	switch {
	case len(m.Incomplete) > 0:
		return &exitError{code: exitInterrupted, err: fmt.Errorf("the merged report is incomplete: %s", incompleteNote(m))}
	}
	return exitOf(m, c.FindingsExit, c.SkippedExit)
}

// incompleteNote says what a merged report lacks.
func incompleteNote(m *result.Report) string {
	var parts []string
	for _, s := range m.Incomplete {
		parts = append(parts, fmt.Sprintf("shard %s %s after %d test cases (%s)", s.Shard, s.Stopped, s.TestCases, s.Dir))
	}
	note := strings.Join(parts, "; ")
	done, ran := m.TestCases, "ran"
	for _, sk := range m.Seeds.Skipped {
		if sk.Cases > 0 {
			done += sk.Cases // cases of the plan skipped for a seed's error
			ran = "ran or were skipped"
		}
	}
	if m.MaxCases > 0 && done < m.MaxCases {
		note += fmt.Sprintf("; %d of the campaign's %d test cases %s, %d are missing", done, m.MaxCases, ran, m.MaxCases-done)
	}
	return note + "; resume the shards with mcpt run --resume DIR and merge again"
}

// sameDir tells whether a and b name the same existing directory.
func sameDir(a, b string) (bool, error) {
	ia, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	ib, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(ia, ib), nil
}

// noShardErr says what a directory to merge that holds no report is.
func noShardErr(dir string, err error) error {
	if strings.ContainsAny(dir, "*?[") {
		if _, serr := os.Stat(dir); serr != nil {
			return fmt.Errorf("%s: no such directory: no directory matched the pattern, which the shell left as it was (were the shards written elsewhere, or not at all?)", dir)
		}
	}
	if fi, serr := os.Stat(dir); serr == nil && fi.IsDir() {
		return fmt.Errorf("%s holds neither %s nor %s: no campaign ran there", dir, report.ReportJSON, engine.JournalName)
	}
	return err
}
