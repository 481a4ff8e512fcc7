package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/outdir"
	"github.com/mcpt-tool/mcpt/report"
	"github.com/mcpt-tool/mcpt/shard"
)

type reportCmd struct {
	Out string `arg:"" help:"Output directory of a campaign (holding report.json and findings/)."`
}

func (c *reportCmd) Run() error {
	dir, err := outdir.Open(c.Out, outLayout)
	if err != nil {
		return usageErr("%v", err)
	}
	defer dir.Close()
	warnNoLock(dir)
	if _, err := os.Stat(filepath.Join(c.Out, report.ReportJSON)); err != nil {
		return usageErr("%v", err)
	}
	if err := report.Rebuild(c.Out); errors.Is(err, bundle.ErrRefused) {
		return usageErr("%v", err)
	} else if err != nil {
		return err
	}
	fmt.Printf("wrote %s and %s\n", filepath.Join(c.Out, report.ReportHTML), filepath.Join(c.Out, report.JUnitXML))
	return nil
}

type mergeCmd struct {
	Dirs  []string `arg:"" help:"Output directories of the shards."`
	Out   string   `short:"o" required:"" help:"Directory for the merged output: new, empty, or an earlier mcpt output (see --force)."`
	Force bool     `help:"Replace an earlier mcpt output in -o, removing only the files mcpt wrote there."`
}

func (c *mergeCmd) Run() error {
	for _, d := range c.Dirs {
		if _, err := os.Stat(filepath.Join(d, report.ReportJSON)); err != nil {
			return usageErr("%v", err)
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
	m, err := shard.Merge(c.Dirs, c.Out)
	if err != nil {
		return usageErr("%v", err)
	}
	printSummary(os.Stdout, m, c.Out)
	if len(m.Findings) > 0 {
		return findingsErr
	}
	return nil
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
