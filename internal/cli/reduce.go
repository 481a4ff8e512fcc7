package cli

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/printable"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/progress"
	"github.com/mcpt-tool/mcpt/reduce"
)

type reduceCmd struct {
	Bundle  string `arg:"" help:"Finding bundle (OUT/findings/ID.tar.gz)."`
	Config  string `short:"c" help:"Configuration of yours to reduce with (default: what the bundle records)."`
	MaxRuns int64  `name:"max-runs" default:"10000" help:"Budget of transpiler runs; when spent, the smallest base found so far is kept (0: no limit)."`
	Verbose bool   `short:"v" help:"Print a line after each pass."`
	Trust   bool   `help:"Run the transpiler command the bundle records, though it is not the command of a configuration of yours."`
	Quiet   bool   `short:"q" help:"Show no progress."`
}

// Run reduces the base input of a finding by delta debugging, first over
// lines then over tokens, keeping a candidate when the finding's relation
// still fails on it with the same signature, and writes the reduced finding
// as a bundle next to the original.
func (c *reduceCmd) Run(tools *setup.Tools) error {
	if c.MaxRuns < 0 {
		return usageErr("--max-runs must not be negative")
	}
	bd, s, err := loadFinding(tools, c.Bundle, c.Config, c.Trust)
	if err != nil {
		return err
	}
	defer s.Close()
	f := bd.Finding
	rel := s.Relation(f.Relation)
	opt := reduce.Options{MaxRuns: c.MaxRuns}
	if c.Verbose {
		opt.Logf = func(format string, args ...any) { fmt.Fprintf(printable.Writer{W: os.Stderr}, format+"\n", args...) }
	}
	var steps *progress.Steps
	if !c.Quiet && !c.Verbose {
		steps = progress.NewSteps(os.Stderr)
		opt.Progress = func(runs int64) { steps.Step("reducing", "transpiler runs", int(runs), int(c.MaxRuns)) }
	}
	ctx, stop := interruptible()
	defer stop()
	seed, err := s.Seed(engine.Seed{Name: f.SeedFile, Src: bd.Base}, f.Flags, nil)
	if err != nil {
		return err
	}
	if c.Config == "" {
		// The release of the transpiler that runs, from the recipe's
		// version command; a configuration's was read when it loaded.
		if err := s.ReadRelease(ctx); err != nil {
			if ctx.Err() != nil {
				return errInterrupted
			}
			return err
		}
	}
	res, err := reduce.Reduce(ctx, reduce.Target{
		Transpiler: s.Transpiler, Relation: rel, Normalize: s.Normalize, Style: s.Style(), Finding: f, Base: bd.Base,
		Flags: seed.Flags, Release: s.Release,
	}, opt)
	steps.Done()
	var nr *reduce.NotReproducedError
	if errors.As(err, &nr) {
		return &exitError{code: exitFindings, err: fmt.Errorf("%v: nothing to reduce", nr)}
	}
	if errors.Is(err, reduce.ErrBudget) {
		return usageErr("%v: raise --max-runs", err)
	}
	if err != nil {
		return err
	}

	out := reduce.ReducedDir(c.Bundle)
	rf := res.Finding
	rf.ID = f.ID + "-reduced"
	if f.Bundle != "" {
		rf.Bundle = path.Join(path.Dir(f.Bundle), filepath.Base(out))
	}
	recipe := bd.Recipe
	if c.Config != "" {
		rf.Config, rf.Faults = s.Config.File, nil
		var seed uint64
		if recipe != nil {
			seed = recipe.Seed
		}
		if recipe, err = s.Recipe(seed, nil); err != nil {
			return err
		}
	}
	if err := reduce.WriteBundle(out, tools.Invocation, &rf, recipe, res); err != nil {
		return err
	}
	// The finding comes from the bundle: printed escaped.
	w := printable.Writer{W: os.Stdout}
	fmt.Fprintf(w, "reduced %s: %d → %d lines (%.1f%% fewer), %d → %d bytes\n",
		f.ID, res.LinesBefore, res.LinesAfter, 100*res.Ratio(), res.BytesBefore, res.BytesAfter)
	if rf.Relation != "-" {
		fmt.Fprintf(w, "spot %d (%s), case seed %d, signature %s\n", rf.Spot.Index, rf.Spot.Desc, rf.CaseSeed, rf.Signature)
	} else {
		fmt.Fprintf(w, "signature %s\n", rf.Signature)
	}
	fmt.Fprintf(w, "%d transpiler runs, %d candidates\n", res.Runs, res.Candidates)
	switch res.Stopped {
	case "budget":
		fmt.Fprintf(w, "stopped at the budget of %d transpiler runs: the base may reduce further\n", c.MaxRuns)
	case "interrupted":
		fmt.Fprintln(w, "interrupted: the base may reduce further")
	}
	fmt.Fprintf(w, "reduced bundle: %s\n", out)
	fmt.Fprintln(w, bundle.ReproCommand(tools.Invocation, out))
	return nil
}
