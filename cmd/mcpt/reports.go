package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/report"
	"github.com/mcpt-tool/mcpt/shard"
)

type reportCmd struct {
	Out string `arg:"" help:"Output directory of a campaign (holding report.json and findings/)."`
}

func (c *reportCmd) Run() error {
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
	Dirs []string `arg:"" help:"Output directories of the shards."`
	Out  string   `short:"o" required:"" help:"Directory for the merged output."`
}

func (c *mergeCmd) Run() error {
	for _, d := range c.Dirs {
		if _, err := os.Stat(filepath.Join(d, report.ReportJSON)); err != nil {
			return usageErr("%v", err)
		}
	}
	if err := prepareOut(c.Out); err != nil {
		return usageErr("%v", err)
	}
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
