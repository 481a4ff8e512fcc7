package engine

import (
	"path/filepath"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/transpiler"
)

// bundle writes everything needed to see and reproduce a finding into
// OUT/findings/<id>.tar.gz, atomically.
func (r *runner) bundle(f *result.Finding, seed Seed, followup []byte, base, fres *transpiler.Result) error {
	if r.opt.OutDir == "" {
		return nil
	}
	recipe := r.opt.Recipe
	if r.opt.RecipeFor != nil {
		recipe = r.opt.RecipeFor(f.Relation)
	}
	return writeBundle(r.opt.OutDir, r.opt.Invocation, recipe, f, seed, followup, base, fres)
}

// WriteBundle writes the bundle of finding f, as a campaign does, into
// the output directory outDir (OUT/findings/<id>.tar.gz, atomically) and sets
// f.Bundle: the recipe, the seed and the follow-up, the outputs of the
// base and follow-up runs (either may be nil), and the command that
// reproduces it, for mcpt started as invocation ("" is "mcpt").
func WriteBundle(outDir, invocation string, recipe *bundle.Recipe, f *result.Finding, seed Seed, followup []byte, base, fres *transpiler.Result) error {
	return writeBundle(outDir, invocation, recipe, f, seed, followup, base, fres)
}

func writeBundle(outDir, invocation string, recipe *bundle.Recipe, f *result.Finding, seed Seed, followup []byte, base, fres *transpiler.Result) error {
	f.Bundle = bundle.Path(f.ID)
	b := &bundle.Bundle{Finding: *f, Recipe: recipe, Base: seed.Src, FollowUp: followup, Repro: ReproCommand(invocation, outDir, f)}
	if base != nil {
		b.BaseOut = base.Files
	}
	if fres != nil {
		b.FollowUpOut = fres.Files
	}
	// The bundle appears whole or not at all, which is what kill -9 needs;
	// the journal, synced for every finding, is the durable record.
	return bundle.Write(filepath.Join(outDir, filepath.FromSlash(f.Bundle)), b)
}

// ReproCommand is the one command that reproduces a finding.
func ReproCommand(mcpt, outDir string, f *result.Finding) string {
	return bundle.ReproCommand(mcpt, filepath.Join(outDir, filepath.FromSlash(f.Bundle)))
}
