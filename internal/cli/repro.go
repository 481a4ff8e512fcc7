package cli

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/aymanbagabas/go-udiff"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/printable"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/tree"
)

// exitDiffers is the exit status of a repro whose test case fails, but
// not with the recorded signature.
const exitDiffers = 5

type reproCmd struct {
	Bundle string   `arg:"" help:"Finding bundle (OUT/findings/ID.tar.gz); with --case, the campaign's output directory (OUT)."`
	Case   int      `default:"-1" placeholder:"N" help:"Make the finding of test case N of the campaign in OUT again, counted in its group without a bundle, and write its bundle into OUT/findings (needs -c, the campaign's configuration, for its seeds)."`
	Config string   `short:"c" help:"Configuration of yours to run the test case with (default: what the bundle records)."`
	Trust  bool     `help:"Run the transpiler command the bundle records, though it is not the command of a configuration of yours."`
	Flags  []string `placeholder:"DIMENSION=VALUE" help:"Run the test case with this value of a flag instead of the one the finding records (repeatable, or joined by commas)."`
	// A bundle keeps the output file its check failed on (bundle.Kept):
	// the rest of the outputs are made again here.
	Outputs string `placeholder:"DIR" help:"Write the bundle's inputs into DIR/base and DIR/followup, and the whole output trees of the runs made again into DIR/base-out and DIR/followup-out (a bundle keeps the failing file alone); DIR must be new or empty."`
}

// Run runs a finding's test case again, with the one runner campaigns use:
// the follow-up is derived again from the bundle's base input with the
// recorded relation, spot and case seed, both inputs are transpiled and the
// checkers run (for a base that crashed, the base alone), under the
// combination of flags the finding records (--flags changes values of
// it). It says whether the finding is reproduced (the same signature:
// exit 1), fails differently (exit 5) or passes now (exit 0).
func (c *reproCmd) Run(tools *setup.Tools) error {
	if c.Case >= 0 {
		if c.Outputs != "" {
			return usageErr("--outputs goes with a bundle: mcpt repro --outputs DIR OUT/findings/ID.tar.gz, once --case has written its bundle")
		}
		return c.runCase(tools)
	}
	if err := checkOutputsDir(c.Outputs); err != nil {
		return err
	}
	bd, s, err := loadFinding(tools, c.Bundle, c.Config, c.Trust)
	if err != nil {
		return err
	}
	defer s.Close()
	f := bd.Finding
	// What the bundle holds is printed escaped: it may come from anyone.
	out := printable.Writer{W: os.Stdout}
	if r := bd.Recipe; r != nil && c.Config == "" && len(r.Transpiler.Runs()) > 0 {
		fmt.Fprintf(out, "transpiler: %s (in %s), as the bundle records it\n", quoteArgs(r.Transpiler.Runs()), r.Transpiler.Dir)
		if v := r.Transpiler.Version; len(v) > 0 {
			fmt.Fprintf(out, "version command: %s\n", quoteArgs(v))
		}
	}
	seed, err := s.Seed(engine.Seed{Name: f.SeedFile, Src: bd.Base}, f.Flags, c.Flags)
	if err != nil {
		return err
	}
	// The first interrupt stops the transpiler runs, the version command
	// and the relation's templates.
	ctx, stop := interruptible()
	defer stop()
	if err := releaseNow(ctx, out, s, bd, c.Config != ""); err != nil {
		return err
	}
	if fl := seed.Flags.String(); fl != "" || f.Flags != "" {
		note := ""
		if fl != f.Flags {
			note = fmt.Sprintf(" (the finding's: %s)", cmp.Or(f.Flags, "none"))
		}
		fmt.Fprintf(out, "flags: %s%s\n", cmp.Or(fl, "none"), note)
	}
	// The campaign's base runs and re-runs of a failure, as its
	// configuration sets them: the finding is judged as it was found.
	t := &engine.Tester{
		Transpiler: s.Transpiler, Normalize: s.Normalize, Mode: engine.Mode(f.Mode), Style: s.Style(),
		BaseRuns: s.Config.BaseRuns, ConfirmRuns: s.Config.ConfirmRuns, Release: s.Release,
	}
	base, err := t.Base(ctx, seed)
	if ctx.Err() != nil {
		return errInterrupted
	}
	if err != nil {
		return err
	}
	var got []result.Finding
	// The inputs are the bundle's, as it holds them (an archive is
	// unpacked nowhere else).
	name := bd.InputName()
	outs := map[string]tree.Tree{bundle.BaseOutDir: base.Result.Files, bundle.BaseDir: {name: bd.Base}}
	if bd.FollowUp != nil {
		outs[bundle.FollowUpDir] = tree.Tree{name: bd.FollowUp}
	}
	if f.Relation == "-" {
		fmt.Fprintf(out, "base run of %s\n", f.SeedFile)
		if bf := t.BaseFinding(f.ID, base); bf != nil {
			got = append(got, *bf)
		}
	} else {
		rel := s.Relation(f.Relation)
		fmt.Fprintf(out, "relation %s, %s, spot %d (%s), case seed %d\n", f.Relation, f.SeedFile, f.Spot.Index, f.Spot.Desc, f.CaseSeed)
		if base.Skip != "" {
			fmt.Fprintf(out, "fails differently: the %s now (the finding had an accepted base)\n", base.Skip)
			if bf := t.BaseFinding(f.ID, base); bf != nil {
				printFinding(out, "now", bf)
			}
			return &exitError{code: exitDiffers}
		}
		spot, err := t.SpotAt(ctx, rel, seed, f.Spot.Index)
		if ctx.Err() != nil {
			return errInterrupted
		}
		if err != nil {
			return usageErr("%v", err)
		}
		res, err := t.Run(ctx, engine.Test{Index: f.Case, Base: base, Relation: rel, Spot: spot, CaseSeed: f.CaseSeed})
		if ctx.Err() != nil {
			return errInterrupted
		}
		if err != nil {
			return err
		}
		if res.Skip != "" {
			fmt.Fprintf(out, "note: %s: a checker failed once, but not when run again\n", res.Skip)
		}
		followUpChanged(out, path.Base(f.SeedFile), bd.FollowUp, res.FollowUp)
		got = res.Findings
		if res.Result != nil {
			outs[bundle.FollowOutDir] = res.Result.Files
		}
	}
	if c.Outputs != "" {
		if err := writeOutputs(c.Outputs, outs); err != nil {
			return &exitError{code: exitBroken, err: fmt.Errorf("writing the outputs: %w", err)}
		}
		fmt.Fprintf(out, "inputs: %s\n", filepath.Join(c.Outputs, "{"+bundle.BaseDir+","+bundle.FollowUpDir+"}", name))
		fmt.Fprintf(out, "outputs: %s\n", filepath.Join(c.Outputs, "{"+bundle.BaseOutDir+","+bundle.FollowOutDir+"}"))
	}
	return verdict(out, &f, got)
}

// checkOutputsDir refuses a --outputs directory that holds anything:
// repro writes only where nothing is.
func checkOutputsDir(dir string) error {
	if dir == "" {
		return nil
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return usageErr("--outputs %s: not a directory", dir)
	}
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return usageErr("--outputs %v", err)
	case len(entries) > 0:
		return usageErr("--outputs %s: not empty (repro writes the outputs into a new or empty directory)", dir)
	}
	return nil
}

// writeOutputs writes each output tree of outs (a run that wrote none is
// left out) below dir/NAME, dir new or empty: into a directory beside it,
// renamed into place once whole.
func writeOutputs(dir string, outs map[string]tree.Tree) error {
	if err := checkOutputsDir(dir); err != nil {
		return err
	}
	dir = filepath.Clean(dir)
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".tmp-"+filepath.Base(dir)+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	for name, t := range outs {
		if t == nil {
			continue
		}
		if err := os.Mkdir(filepath.Join(tmp, name), 0o755); err != nil {
			return err
		}
		if err := t.Write(filepath.Join(tmp, name)); err != nil {
			return err
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	_ = os.Remove(dir) // empty, as checked
	return os.Rename(tmp, dir)
}

// releaseNow reads the release of the transpiler the test case runs with
// again, from a recipe's version command (a configuration's was read when
// it loaded), and says when it is not the release the campaign recorded:
// the relations predict for the release that runs.
func releaseNow(ctx context.Context, out io.Writer, s *setup.Setup, bd *bundle.Bundle, ownConfig bool) error {
	recorded := ""
	if bd.Recipe != nil {
		recorded = bd.Recipe.Release
	}
	if !ownConfig {
		if err := s.ReadRelease(ctx); err != nil {
			if ctx.Err() != nil {
				return errInterrupted
			}
			return err
		}
	}
	switch {
	case s.Release == "" && recorded == "":
	case s.Release == recorded:
		fmt.Fprintf(out, "release: %s\n", s.Release)
	case recorded == "":
		fmt.Fprintf(out, "release: %s (the campaign recorded none)\n", s.Release)
	default:
		fmt.Fprintf(out, "release: %s (the campaign's: %s)\n", cmp.Or(s.Release, "unknown"), recorded)
	}
	return nil
}

// followUpChanged says so when the follow-up derived again is not the one
// the bundle holds (recorded), with the first lines of their difference:
// the relation, or mcpt, changed since the finding. A bundle without a
// follow-up says nothing.
func followUpChanged(out io.Writer, name string, recorded []byte, now *relation.FollowUp) {
	if recorded == nil || now == nil || bytes.Equal(recorded, now.Src) {
		return
	}
	fmt.Fprintln(out, "note: the follow-up derived again differs from the one in the bundle: the relation or mcpt changed since the finding")
	diff := udiff.Unified("bundle/followup/"+name, "now/followup/"+name, string(recorded), string(now.Src))
	lines := strings.SplitAfter(diff, "\n")
	if len(lines) > maxFollowUpDiff {
		lines = append(lines[:maxFollowUpDiff], fmt.Sprintf("… %d more lines\n", len(lines)-maxFollowUpDiff))
	}
	fmt.Fprint(out, indent(strings.Join(lines, "")))
}

// maxFollowUpDiff bounds the lines of a changed follow-up's difference
// that repro prints.
const maxFollowUpDiff = 40

// verdict prints whether the findings got again reproduce f.
func verdict(out io.Writer, f *result.Finding, got []result.Finding) error {
	if len(got) == 0 {
		fmt.Fprintln(out, "passes now: the relation holds")
		return nil
	}
	for i := range got {
		if got[i].Signature == f.Signature {
			printFinding(out, "reproduced", &got[i])
			return findingsErr
		}
	}
	fmt.Fprintln(out, "fails differently:")
	printFinding(out, "recorded", f)
	for i := range got {
		printFinding(out, "now", &got[i])
	}
	return &exitError{code: exitDiffers}
}

func printFinding(out io.Writer, label string, f *result.Finding) {
	what := f.Checker
	if what == "" {
		what = string(f.Kind)
	}
	fmt.Fprintf(out, "%s: %s: %s\n", label, what, f.Message)
	if label != "reproduced" {
		fmt.Fprintf(out, "  signature %s\n", f.Signature)
	}
	switch {
	case f.Diff != "":
		fmt.Fprint(out, indent(f.Diff))
	case f.Stderr != "":
		fmt.Fprint(out, indent(strings.TrimSpace(f.Stderr)))
	}
}
