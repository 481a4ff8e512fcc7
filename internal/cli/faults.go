package cli

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpt-tool/mcpt/faultinject"
	"github.com/mcpt-tool/mcpt/progress"
)

type faultsCmd struct {
	Instrument faultsInstrumentCmd `cmd:"" help:"Copy a Go module and make every branch of the chosen packages forcible by fault id."`
}

type faultsInstrumentCmd struct {
	Dir      string   `arg:"" help:"Root of the Go module to instrument (the directory holding go.mod)." type:"existingdir"`
	Out      string   `short:"o" required:"" help:"Directory for the instrumented copy (must not exist or be empty)."`
	Packages []string `help:"Package patterns to instrument, relative to DIR (default: ./...)."`
	Main     string   `help:"Main package to build in the copy, such as ./cmd/cllc; the binary goes to OUT/bin."`
	Quiet    bool     `short:"q" help:"Show no progress."`
}

func (c *faultsInstrumentCmd) Run() error {
	ctx, stop := interruptible()
	defer stop()
	var steps *progress.Steps
	if !c.Quiet {
		steps = progress.NewSteps(os.Stderr)
	}
	m, err := faultinject.Instrument(ctx, faultinject.Options{ModuleDir: c.Dir, OutDir: c.Out, Packages: c.Packages, Main: c.Main, Progress: steps.Step})
	steps.Done()
	if err != nil {
		return usageErr("%v", err)
	}
	counts := m.Count()
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, counts[k]))
	}
	pkgs := fmt.Sprintf("%d packages", len(m.Packages))
	if len(m.Packages) == 1 {
		pkgs = "1 package"
	}
	fmt.Printf("%s of %s: %d branch sites (%s), %d faults; %d constructs skipped\n",
		pkgs, m.Module, len(m.Sites), strings.Join(parts, ", "), 2*len(m.Sites), len(m.Skipped))
	fmt.Printf("manifest: %s\n", filepath.Join(m.Dir, faultinject.ManifestFile))
	if m.Binary != "" {
		fmt.Printf("binary: %s\n", m.Binary)
	}
	return nil
}
