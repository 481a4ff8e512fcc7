package bundle

import (
	"github.com/mcpt-tool/mcpt/matrix"
	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/result"
	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

// RecipeFile is the file of a bundle that holds its Recipe.
const RecipeFile = "recipe.json"

// Recipe is what reproducing a finding needs besides the bundle's inputs
// and the finding itself (relation, spot, case seed): the transpiler and
// its settings, the relations' source, the normalisation rules and the
// campaign's seed. With it a bundle reproduces from any directory, after a
// merge, and on another machine that has the transpiler.
type Recipe struct {
	// Config is the configuration file of the campaign, as given; for
	// people, and to recognise one's own configuration.
	Config     string     `json:"config,omitempty"`
	Transpiler Transpiler `json:"transpiler"`
	// Files are the campaign's input files but its seeds and grammar (a
	// bundle holds its seed): the configuration, the YAML relation files
	// and every file they include, by slash-separated path relative to
	// the directory that holds them all. Relations lists the relation
	// files the configuration names, in its order. Go relations are
	// compiled into mcpt and recorded by name in GoRelations.
	Files     map[string]string `json:"files,omitempty"`
	Relations []string          `json:"relations,omitempty"`
	// RelationFiles are the relation files alone, as recipes written by
	// earlier versions of mcpt record them; Inputs reads either.
	RelationFiles map[string]string `json:"relation_files,omitempty"`
	GoRelations   []string          `json:"go_relations,omitempty"`
	Normalize     oracle.Normalizer `json:"normalize,omitempty"`
	// Signature is what the transpiler's output makes of names, for the
	// signature of a reproduction.
	Signature result.Style `json:"signature,omitzero"`
	Seed      uint64       `json:"seed"`
	// BaseRuns and ConfirmRuns are the campaign's base_runs and
	// confirm_runs, so that a reproduction judges the test case as the
	// campaign did; 0 (recipes of earlier versions) means the defaults.
	BaseRuns    int `json:"base_runs,omitempty"`
	ConfirmRuns int `json:"confirm_runs,omitempty"`
	// Flags is the campaign's matrix of flags (as --flags restricted it):
	// the arguments of the combination a finding records.
	Flags matrix.Matrix `json:"flags,omitempty"`
	// Release is the transpiler's release when the campaign ran, as its
	// version command printed it.
	Release string `json:"release,omitempty"`
}

// Inputs are the recipe's files: Files, or in a recipe of an earlier
// version, RelationFiles.
func (r *Recipe) Inputs() map[string]string {
	if r.Files != nil {
		return r.Files
	}
	return r.RelationFiles
}

// Transpiler is the transpiler of a recipe, a builtin, or a command, a
// worker or a service that the recipient runs only when they say so.
type Transpiler = spec.Spec
