package cli

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/internal/printable"
	"github.com/mcpt-tool/mcpt/internal/setup"
	"github.com/mcpt-tool/mcpt/outdir"
	"github.com/mcpt-tool/mcpt/report"
	"github.com/mcpt-tool/mcpt/result"
)

// runCase makes the findings of test case c.Case of the campaign in the
// output directory c.Bundle again: the case is derived from its seed,
// relation, spot and case seed as report.json records them, with the
// configuration -c (the campaign's: the report's word on which one is
// not taken), run and judged as repro judges a bundle; the bundle of
// each finding reproduced is written into the output directory, as the
// campaign would have written it. A finding that has a bundle already is
// left to repro of that bundle.
func (c *reproCmd) runCase(tools *setup.Tools) error {
	out := c.Bundle
	rd, err := bundle.Open(out)
	if err != nil {
		return usageErr("%v", err)
	}
	rep, err := rd.LoadReport(report.ReportJSON)
	if err != nil {
		rd.Close()
		return usageErr("%v", err)
	}
	fp := journalFingerprint(rd)
	rd.Close()
	var recorded []result.Finding
	for _, f := range rep.Findings {
		if f.Case == c.Case && f.Relation != "-" {
			recorded = append(recorded, f)
		}
	}
	if len(recorded) == 0 {
		return usageErr("%s has no finding of test case %d", filepath.Join(out, report.ReportJSON), c.Case)
	}
	for _, f := range recorded {
		if f.Bundle != "" {
			return usageErr("finding %s of test case %d has a bundle: mcpt repro %s", printable.Line(f.ID), c.Case, quoteArg(filepath.Join(out, filepath.FromSlash(f.Bundle))))
		}
	}
	f := recorded[0]
	if c.Config == "" {
		named := ""
		if rep.Config != "" {
			named = fmt.Sprintf(" (the report names %s, which mcpt does not read on its word)", quoteArg(rep.Config))
		}
		return usageErr("--case needs -c, the configuration of the campaign, for its seeds%s", named)
	}
	dir, err := outdir.Open(out, outLayout)
	if err != nil {
		return usageErr("%v", err)
	}
	defer dir.Close()
	s, err := loadSetup(tools, c.Config, f.Faults, setup.Options{})
	if err != nil {
		return err
	}
	defer s.Close()
	w := printable.Writer{W: os.Stdout}
	seed, err := caseSeed(s, &f, fp)
	if err != nil {
		return err
	}
	if seed, err = s.Seed(seed, f.Flags, c.Flags); err != nil {
		return err
	}
	rel := s.Relation(f.Relation)
	if rel == nil {
		return usageErr("relation %s is not in %s", f.Relation, s.Config.File)
	}
	t := &engine.Tester{
		Transpiler: s.Transpiler, Normalize: s.Normalize, Mode: engine.Mode(f.Mode), Style: s.Style(),
		BaseRuns: s.Config.BaseRuns, ConfirmRuns: s.Config.ConfirmRuns, Config: f.Config, Faults: f.Faults,
		Release: s.Release,
	}
	ctx, stop := interruptible()
	defer stop()
	fmt.Fprintf(w, "test case %d: relation %s, %s, spot %d (%s), case seed %d\n", f.Case, f.Relation, f.SeedFile, f.Spot.Index, f.Spot.Desc, f.CaseSeed)
	if fl := seed.Flags.String(); fl != "" {
		fmt.Fprintf(w, "flags: %s\n", fl)
	}
	base, err := t.Base(ctx, seed)
	if ctx.Err() != nil {
		return errInterrupted
	}
	if err != nil {
		return err
	}
	if base.Skip != "" {
		fmt.Fprintf(w, "fails differently: the %s now (the finding had an accepted base)\n", base.Skip)
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
		fmt.Fprintf(w, "note: %s: a checker failed once, but not when run again\n", res.Skip)
	}
	recipe, err := s.Recipe(rep.Seed, f.Faults)
	if err != nil {
		return err
	}
	if rc, ok := s.RecipesByRelation(tools, recipe)[f.Relation]; ok {
		recipe = rc // as the campaign records it
	}
	var errs []error
	for _, want := range recorded {
		i := slices.IndexFunc(res.Findings, func(g result.Finding) bool { return g.Signature == want.Signature })
		if i < 0 {
			errs = append(errs, verdict(w, &want, res.Findings))
			continue
		}
		got := res.Findings[i]
		got.ID = want.ID // the campaign's name for it
		if err := engine.WriteBundle(out, tools.Invocation, recipe, &got, seed, res.FollowUp.Src, base.Result, res.Result); err != nil {
			return fmt.Errorf("writing the bundle: %w", err)
		}
		errs = append(errs, verdict(w, &want, []result.Finding{got}))
		fmt.Fprintf(w, "bundle: %s\n", filepath.Join(out, filepath.FromSlash(got.Bundle)))
	}
	// The strongest verdict: fails differently, reproduced, passes now.
	for _, code := range []int{exitDiffers, exitFindings} {
		for _, e := range errs {
			if ee, ok := e.(*exitError); ok && ee.code == code {
				return e
			}
		}
	}
	return nil
}

// caseSeed returns the seed of finding f among the configuration's seeds,
// checked against the content the campaign's journal fingerprinted (fp,
// when there is one).
func caseSeed(s *setup.Setup, f *result.Finding, fp map[string]string) (engine.Seed, error) {
	for _, sd := range s.Seeds {
		if sd.Name != f.SeedFile {
			continue
		}
		if want, ok := fp["seed "+sd.Name]; ok && want != engine.ContentHash(sd.Src) {
			return sd, usageErr("seed %s of %s is not the one the campaign ran (its content changed since): the test case cannot be made again", sd.Name, s.Config.File)
		}
		return sd, nil
	}
	return engine.Seed{}, usageErr("%s has no seed %s, the seed of the finding: pass -c with the campaign's configuration", s.Config.File, f.SeedFile)
}

// journalFingerprint is the fingerprint of the journal of the output
// directory rd reads, nil when it has none (a merged output).
func journalFingerprint(rd *bundle.Reader) map[string]string {
	data, _, err := rd.ReadFilePrefix(engine.JournalName, 1<<20)
	if errors.Is(err, fs.ErrNotExist) {
		// The journal of a campaign that ran to its end is packed.
		data, err = packedHead(rd, 1<<20)
	}
	if err != nil {
		return nil
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	fp, err := engine.JournalFingerprint(line)
	if err != nil {
		return nil
	}
	return fp
}

// packedHead is the first limit bytes of the packed journal (see
// engine.PackJournal) of the output directory rd reads.
func packedHead(rd *bundle.Reader, limit int64) ([]byte, error) {
	f, err := rd.OpenRegular(engine.JournalPackedName)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(io.LimitReader(zr, limit))
}
