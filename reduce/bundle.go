package reduce

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"

	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/result"
)

// Bundle is a finding bundle as read from disk.
type Bundle struct {
	Dir     string
	Finding result.Finding
	Base    []byte // base/<name of the seed file>
}

// LoadBundle reads the finding and the base input of a bundle directory.
func LoadBundle(dir string) (*Bundle, error) {
	p := filepath.Join(dir, engine.BundleFinding)
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("not a finding bundle: %w", err)
	}
	bd := &Bundle{Dir: dir}
	if err := json.Unmarshal(b, &bd.Finding); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	if bd.Finding.SeedFile == "" {
		return nil, fmt.Errorf("%s: the finding names no seed file", p)
	}
	bd.Base, err = os.ReadFile(filepath.Join(dir, engine.BundleBase, path.Base(bd.Finding.SeedFile)))
	if err != nil {
		return nil, fmt.Errorf("not a finding bundle: %w", err)
	}
	return bd, nil
}

// ReducedDir is where the reduced bundle of the bundle in dir goes: next
// to it, with "-reduced" appended.
func ReducedDir(dir string) string { return filepath.Clean(dir) + "-reduced" }

// WriteBundle saves a reduced finding into dir with the engine's bundle
// layout (finding.json, base/, followup/, base-out/, followup-out/,
// diff.txt, repro.txt). The bundle is made in a temporary directory beside
// dir and renamed into place, so that dir holds the old bundle or the new
// one, never half of one. f is the finding to record (res.Finding with its
// ID, Bundle and Config as the caller wants them).
func WriteBundle(dir string, f *result.Finding, res *Result) error {
	dir = filepath.Clean(dir)
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, ".tmp-"+filepath.Base(dir)+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	write := func(p string, b []byte) error {
		full := filepath.Join(tmp, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		return os.WriteFile(full, b, 0o644)
	}
	name := path.Base(f.SeedFile)
	if err := write(path.Join(engine.BundleBase, name), res.Base); err != nil {
		return err
	}
	if res.FollowUp != nil {
		if err := write(path.Join(engine.BundleFollowUp, name), res.FollowUp); err != nil {
			return err
		}
	}
	if res.BaseOut != nil {
		if err := res.BaseOut.Write(filepath.Join(tmp, engine.BundleBaseOut)); err != nil {
			return err
		}
	}
	if res.FollowUpOut != nil {
		if err := res.FollowUpOut.Write(filepath.Join(tmp, engine.BundleFollowOut)); err != nil {
			return err
		}
	}
	if f.Diff != "" {
		if err := write(engine.BundleDiff, []byte(f.Diff)); err != nil {
			return err
		}
	}
	if err := write(engine.BundleRepro, []byte("mcpt repro "+filepath.ToSlash(dir)+"\n")); err != nil {
		return err
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	if err := write(engine.BundleFinding, append(b, '\n')); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	// A directory cannot be renamed over a non-empty one: move an earlier
	// reduction aside first, and drop it once the new one is in place.
	var old string
	if _, err := os.Stat(dir); err == nil {
		old = tmp + ".old"
		if err := os.Rename(dir, old); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		if old != "" {
			_ = os.Rename(old, dir)
		}
		return fmt.Errorf("saving reduced finding %s: %w", f.ID, err)
	}
	if old != "" {
		return os.RemoveAll(old)
	}
	return nil
}
