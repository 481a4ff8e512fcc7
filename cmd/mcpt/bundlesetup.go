package main

import (
	"os"
	"path/filepath"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/internal/setup"
)

// loadFinding reads the bundle in dir and loads what running its test
// case again needs: the configuration given (config), else the one the
// finding records with the faults it was found with. The bundle's base
// stands in for the configured seeds, which spares generating seeds from a
// grammar.
func loadFinding(dir, config string) (*bundle.Bundle, *setup.Setup, string, error) {
	bd, err := bundle.Load(dir)
	if err != nil {
		return nil, nil, "", usageErr("%s: %v", dir, err)
	}
	f := bd.Finding
	cfg, faults := config, []string(nil)
	if cfg == "" {
		cfg, faults = f.Config, f.Faults
		if cfg == "" {
			return nil, nil, "", usageErr("the finding records no configuration: pass -c")
		}
		if _, err := os.Stat(cfg); err != nil {
			return nil, nil, "", usageErr("the configuration recorded in the finding: %v (pass -c)", err)
		}
	}
	s, err := setup.Load(cfg, setup.Options{
		SeedFiles: []string{filepath.Join(dir, bundle.BaseDir, bd.InputName())},
		Faults:    faults,
	})
	if err != nil {
		return nil, nil, "", err
	}
	if f.Relation != "-" && s.Relation(f.Relation) == nil {
		return nil, nil, "", usageErr("relation %s is not in %s", f.Relation, cfg)
	}
	return bd, s, cfg, nil
}
