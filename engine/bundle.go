package engine

import (
	"path/filepath"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/transpiler"
)

// bundle writes everything needed to see and reproduce a finding into
// OUT/findings/<id>, atomically.
func (r *runner) bundle(f *result.Finding, seed Seed, followup []byte, base, fres *transpiler.Result) error {
	if r.opt.OutDir == "" {
		return nil
	}
	f.Bundle = bundle.Path(f.ID)
	b := &bundle.Bundle{Finding: *f, Recipe: r.opt.Recipe, Base: seed.Src, FollowUp: followup, Repro: ReproCommand(r.opt.Invocation, r.opt.OutDir, f)}
	if base != nil {
		b.BaseOut = base.Files
	}
	if fres != nil {
		b.FollowUpOut = fres.Files
	}
	// The bundle appears whole or not at all, which is what kill -9 needs;
	// the journal, synced for every finding, is the durable record.
	return bundle.Write(filepath.Join(r.opt.OutDir, filepath.FromSlash(f.Bundle)), b)
}

// ReproCommand is the one command that reproduces a finding.
func ReproCommand(mcpt, outDir string, f *result.Finding) string {
	return bundle.ReproCommand(mcpt, filepath.Join(outDir, filepath.FromSlash(f.Bundle)))
}
