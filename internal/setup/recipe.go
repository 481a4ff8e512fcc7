package setup

import (
	"fmt"
	"io/fs"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/config"
	"github.com/mcpt-tool/mcpt/engine"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/yamlrel"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/snapshot"
)

// Recipe records what reproducing the findings of a campaign on s needs
// (see bundle.Recipe); faults are the --fault flags, if any.
func (s *Setup) Recipe(seed uint64, faults []string) (*bundle.Recipe, error) {
	cfg := s.Config
	sp, err := s.Spec()
	if err != nil {
		return nil, err
	}
	if faults != nil {
		sp.Faults = faults
	}
	r := &bundle.Recipe{
		Config: cfg.File, Seed: seed, Signature: result.Style(cfg.Signature), Transpiler: sp,
		BaseRuns: cfg.BaseRuns, ConfirmRuns: cfg.ConfirmRuns, Flags: s.Flags, Release: s.Release,
		Normalize: s.Normalize,
	}
	for _, g := range cfg.Relations.Go {
		r.GoRelations = append(r.GoRelations, g.Value)
	}
	if s.Files != nil {
		r.Files = s.Files.Subset(func(name string) bool { return !s.seedFiles[name] }).Strings()
		r.Relations = s.relationFiles
	}
	return r, nil
}

// FromRecipe makes the setup a recipe describes, with the given seed
// files, its Go relations and builtin transpiler taken from t. The
// relations compile from the files the recipe records, in memory. The
// version command is not run (ReadRelease): the recipe's release is the
// campaign's.
func (t *Tools) FromRecipe(r *bundle.Recipe, seedFiles []string) (*Setup, error) {
	seeds, err := ReadSeeds(seedFiles)
	if err != nil {
		return nil, cfgErr(err)
	}
	return t.FromRecipeSeeds(r, seeds)
}

// FromRecipeSeeds is FromRecipe with seeds read already (the base input of
// a bundle archive), checked as ReadSeeds checks those it reads.
func (t *Tools) FromRecipeSeeds(r *bundle.Recipe, seeds []engine.Seed) (*Setup, error) {
	// 0 is a recipe of an earlier version: the defaults.
	if r.BaseRuns < 0 || r.BaseRuns > config.MaxBaseRuns {
		return nil, cfgErr(fmt.Errorf("base_runs %d: want 1 to %d (or none)", r.BaseRuns, config.MaxBaseRuns))
	}
	if r.ConfirmRuns < 0 || r.ConfirmRuns > config.MaxConfirmRuns {
		return nil, cfgErr(fmt.Errorf("confirm_runs %d: want 1 to %d (or none)", r.ConfirmRuns, config.MaxConfirmRuns))
	}
	if err := r.Flags.Check(); err != nil {
		return nil, cfgErr(fmt.Errorf("the recipe's flags: %v", err))
	}
	// The patterns compiled as the recipe was read (bundle.Load).
	if err := r.Normalize.Check(); err != nil {
		return nil, cfgErr(err)
	}
	cfg := &config.Config{
		File: r.Config, Normalize: r.Normalize, Transpiler: config.Transpiler{Spec: r.Transpiler}, Signature: config.Signature(r.Signature),
		BaseRuns: r.BaseRuns, ConfirmRuns: r.ConfirmRuns, Flags: config.Flags{Matrix: r.Flags},
	}
	s := &Setup{Config: cfg, Flags: r.Flags, Release: r.Release}
	var err error
	// Faults of the recipe are the campaign's; nil keeps the builtin's own.
	if s.Transpiler, err = t.Transpiler(cfg, nil); err != nil {
		return nil, cfgErr(err)
	}
	if s.Relations, err = recipeRelations(r, t); err != nil {
		return nil, cfgErr(err)
	}
	if err := s.takeFlags(nil); err != nil {
		s.Close()
		return nil, err
	}
	if err := CheckSeeds(seeds); err != nil {
		s.Close()
		return nil, cfgErr(err)
	}
	s.Seeds = seeds
	s.Normalize = r.Normalize
	return s, nil
}

// recipeRelations loads the relations of a recipe from the files it
// records.
func recipeRelations(r *bundle.Recipe, t *Tools) ([]*relation.Relation, error) {
	var rels []*relation.Relation
	if len(r.Relations) > 0 {
		files, err := snapshot.FromStrings(r.Inputs())
		if err != nil {
			return nil, err
		}
		for _, name := range r.Relations {
			if !fs.ValidPath(name) {
				return nil, fmt.Errorf("relation file %q: the path leaves its directory", name)
			}
		}
		if rels, err = yamlrel.LoadWith(yamlrel.Options{Generic: r.Signature.Generic, CheckerKinds: t.checkerKinds(), Parsers: t.linked()}, files, r.Relations...); err != nil {
			return nil, err
		}
	}
	for _, name := range r.GoRelations {
		rel := t.goRelations().Lookup(name)
		if rel == nil {
			return nil, fmt.Errorf("no Go relation named %q in this mcpt", name)
		}
		rels = append(rels, rel)
	}
	return rels, nil
}
