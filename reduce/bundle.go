package reduce

import (
	"path/filepath"
	"strings"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/result"
)

// ReducedDir is where the reduced bundle of the bundle at p goes: next to
// it, with "-reduced" added to its name (before .tar.gz), always an
// archive (see bundle.Reduced).
func ReducedDir(p string) string {
	p = filepath.Clean(p)
	if !strings.HasSuffix(p, bundle.Ext) {
		// A bundle directory of an earlier mcpt: its reduction is an
		// archive beside it.
		return p + "-reduced" + bundle.Ext
	}
	return bundle.Reduced(p)
}

// WriteBundle saves a reduced finding as the bundle archive dir, in
// place of an earlier reduction (see bundle.Replace). f is the finding to
// record (res.Finding with its ID, Bundle and Config as the caller wants
// them), recipe what its reproduction needs; mcpt is the command that
// starts mcpt, for the bundle's repro command ("" is "mcpt").
func WriteBundle(dir, mcpt string, f *result.Finding, recipe *bundle.Recipe, res *Result) error {
	return bundle.Replace(dir, &bundle.Bundle{
		Finding: *f, Recipe: recipe, Base: res.Base, FollowUp: res.FollowUp,
		BaseOut: res.BaseOut, FollowUpOut: res.FollowUpOut,
		Repro: bundle.ReproCommand(mcpt, dir),
	})
}
