package setup

import (
	"io/fs"
	"maps"
	"slices"
	"sync"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/yamlrel"
	"github.com/mcpt-tool/mcpt/snapshot"
)

// RecipesByRelation returns, for each YAML relation of the campaign on s,
// the recipe r narrowed to what reproducing one of its findings needs:
// of the relation files the configuration names, the one that defines it
// and those that define no relation (shared definitions), with the files
// they read, and every other file of r but those that only the relation
// files left out read. A bundle holds its recipe: Thrift's pack records
// 116 KB of relation files, 24 KB packed, most of a bundle, for the one
// relation a finding needs. Each narrowed recipe is checked by loading
// it as a bundle's recipe is loaded (FromRecipe): a relation it does not
// give back, by name, keeps r whole, as does any relation file that does
// not load on its own (one that needs a sibling's definitions).
func (s *Setup) RecipesByRelation(t *Tools, r *bundle.Recipe) map[string]*bundle.Recipe {
	if r == nil || len(r.Relations) < 2 || r.Files == nil {
		return nil
	}
	files, err := snapshot.FromStrings(r.Files)
	if err != nil {
		return nil
	}
	opt := yamlrel.Options{Generic: r.Signature.Generic, CheckerKinds: t.checkerKinds(), Parsers: t.linked()}
	defines := map[string][]string{}      // the relations of each relation file, alone
	reads := map[string]map[string]bool{} // the files each reads
	readByAny := map[string]bool{}
	for _, name := range r.Relations {
		rec := &recordFS{fsys: files, read: map[string]bool{}}
		rels, err := yamlrel.LoadWith(opt, rec, name)
		if err != nil {
			return nil
		}
		for _, rel := range rels {
			defines[name] = append(defines[name], rel.Name)
		}
		reads[name] = rec.read
		for f := range rec.read {
			readByAny[f] = true
		}
	}
	run := map[string]bool{}
	for _, rel := range s.Relations {
		run[rel.Name] = true
	}
	out := map[string]*bundle.Recipe{}
	for _, file := range r.Relations {
		var mine []string
		for _, name := range defines[file] {
			if run[name] {
				mine = append(mine, name)
			}
		}
		if len(mine) == 0 {
			continue
		}
		nr := narrowed(r, file, defines, reads, readByAny)
		if nr == nil || !givesBack(t, nr, mine) {
			continue
		}
		for _, name := range mine {
			if _, twice := out[name]; twice {
				return nil // defined by two files: which one runs is the loader's
			}
			out[name] = nr
		}
	}
	return out
}

// narrowed is r with, of its relation files, file and those that define
// no relation; nil when that leaves nothing out.
func narrowed(r *bundle.Recipe, file string, defines map[string][]string, reads map[string]map[string]bool, readByAny map[string]bool) *bundle.Recipe {
	var keep []string
	need := map[string]bool{}
	for _, name := range r.Relations {
		if name == file || len(defines[name]) == 0 {
			keep = append(keep, name)
			maps.Copy(need, reads[name])
		}
	}
	if len(keep) == len(r.Relations) {
		return nil
	}
	nr := *r
	nr.Relations = keep
	nr.Files = map[string]string{}
	for name, data := range r.Files {
		if need[name] || !readByAny[name] {
			nr.Files[name] = data
		}
	}
	return &nr
}

// givesBack tells whether the recipe r loads as a bundle's recipe does,
// with the relations names among its relations.
func givesBack(t *Tools, r *bundle.Recipe, names []string) bool {
	rels, err := recipeRelations(r, t)
	if err != nil {
		return false
	}
	for _, name := range names {
		if !slices.ContainsFunc(rels, func(rel *relation.Relation) bool { return rel.Name == name }) {
			return false
		}
	}
	return true
}

// recordFS is an fs.FS that records the names of the files read through
// it.
type recordFS struct {
	fsys fs.FS
	mu   sync.Mutex
	read map[string]bool
}

func (r *recordFS) note(name string) {
	r.mu.Lock()
	r.read[name] = true
	r.mu.Unlock()
}

func (r *recordFS) Open(name string) (fs.File, error) {
	r.note(name)
	return r.fsys.Open(name)
}

func (r *recordFS) ReadFile(name string) ([]byte, error) {
	r.note(name)
	return fs.ReadFile(r.fsys, name)
}
