package engine

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"

	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/transpiler"
)

// Bundle layout, relative to a finding's directory.
const (
	BundleFinding    = "finding.json"
	BundleBase       = "base"
	BundleFollowUp   = "followup"
	BundleBaseOut    = "base-out"
	BundleFollowOut  = "followup-out"
	BundleDiff       = "diff.txt"
	BundleRepro      = "repro.txt"
	BundleFindingDir = "findings"
)

// bundleTempPrefix starts the name of a bundle's temporary directory.
const bundleTempPrefix = ".tmp-"

// bundle writes everything needed to see and reproduce a finding into
// OUT/findings/<id>, atomically: into a temporary directory first, renamed
// into place when complete.
func (r *runner) bundle(f *result.Finding, seed Seed, followup []byte, base, fres *transpiler.Result) error {
	if r.opt.OutDir == "" {
		return nil
	}
	rel := path.Join(BundleFindingDir, f.ID)
	f.Bundle = rel
	dir := filepath.Join(r.opt.OutDir, filepath.FromSlash(rel))
	if _, err := os.Stat(dir); err == nil {
		return nil // written before an interruption; the content is the same
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, bundleTempPrefix+f.ID+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	name := path.Base(seed.Name)
	write := func(p string, b []byte) error {
		full := filepath.Join(tmp, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		return os.WriteFile(full, b, 0o644)
	}
	if err := write(path.Join(BundleBase, name), seed.Src); err != nil {
		return err
	}
	if followup != nil {
		if err := write(path.Join(BundleFollowUp, name), followup); err != nil {
			return err
		}
	}
	if base != nil && base.Files != nil {
		if err := base.Files.Write(filepath.Join(tmp, BundleBaseOut)); err != nil {
			return err
		}
	}
	if fres != nil && fres.Files != nil {
		if err := fres.Files.Write(filepath.Join(tmp, BundleFollowOut)); err != nil {
			return err
		}
	}
	if f.Diff != "" {
		if err := write(BundleDiff, []byte(f.Diff)); err != nil {
			return err
		}
	}
	if err := write(BundleRepro, []byte(ReproCommand(r.opt.OutDir, f)+"\n")); err != nil {
		return err
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	if err := write(BundleFinding, append(b, '\n')); err != nil {
		return err
	}
	// The rename makes the bundle appear whole or not at all, which is what
	// kill -9 needs; the journal, synced for every finding, is the durable
	// record.
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("saving finding %s: %w", f.ID, err)
	}
	return nil
}

// ReproCommand is the one command that reproduces a finding.
func ReproCommand(outDir string, f *result.Finding) string {
	return "mcpt repro " + filepath.ToSlash(filepath.Join(outDir, filepath.FromSlash(f.Bundle)))
}
