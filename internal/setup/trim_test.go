package setup

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/transpiler/cllc"
)

// TestRecipesByRelation: each relation of the CLL pack gets the recipe
// narrowed to its own file, the shared definitions and the configuration;
// loaded as a bundle's recipe is, it gives that relation back, as the
// whole recipe does. A relation file that loads only beside another keeps
// the whole recipe.
func TestRecipesByRelation(t *testing.T) {
	tools := &Tools{Builtins: cllc.Builtins()}
	seed := []string{filepath.Join("..", "..", "examples", "cll", "traffic.cll")}
	s, err := Load(filepath.Join("..", "..", "examples", "cll", "mcpt.yaml"), Options{Tools: tools, SeedFiles: seed})
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Recipe(1, nil)
	if err != nil {
		t.Fatal(err)
	}
	byRel := s.RecipesByRelation(tools, r)
	if len(byRel) != len(s.Relations) {
		t.Fatalf("%d narrowed recipes, want one for each of the %d relations", len(byRel), len(s.Relations))
	}
	nr := byRel["add-enumeration"]
	if nr == nil {
		t.Fatal("no recipe for add-enumeration")
	}
	if want := []string{"relations/add-enumeration.yaml", "relations/cll.defs.yaml"}; !slices.Equal(sorted(nr.Relations), want) {
		t.Errorf("relation files %q, want %q", nr.Relations, want)
	}
	if _, ok := nr.Files["mcpt.yaml"]; !ok {
		t.Error("the configuration left out")
	}
	for name := range nr.Files {
		if strings.HasPrefix(name, "relations/") && !slices.Contains(nr.Relations, name) {
			t.Errorf("%s kept, which add-enumeration does not read", name)
		}
	}
	if len(nr.Files) >= len(r.Files) {
		t.Errorf("%d files, the whole recipe %d", len(nr.Files), len(r.Files))
	}
	got, err := tools.FromRecipe(nr, seed)
	if err != nil {
		t.Fatal(err)
	}
	rel := got.Relation("add-enumeration")
	if rel == nil {
		t.Fatalf("add-enumeration not given back: %v", names(got.Relations))
	}
	if rel.Doc != s.Relation("add-enumeration").Doc {
		t.Error("another add-enumeration given back")
	}
	// The whole recipe stays the campaign's.
	if len(r.Relations) == len(nr.Relations) {
		t.Error("the campaign's recipe was narrowed in place")
	}

	// A relation file that needs a sibling's definitions: nothing narrowed.
	needy := *r
	needy.Files = map[string]string{"a.yaml": "relations:\n  - name: x\n    doc: X.\n    spots: {boundaries: items}\n    text: 'x'\n    checks: [{equivalence: {}}]\n", "b.yaml": "regions:\n  items: {from: '^a$', to: '^b$'}\nrelations:\n  - name: y\n    doc: Y.\n    spots: {boundaries: items}\n    text: 'y'\n    checks: [{equivalence: {}}]\n"}
	needy.Relations = []string{"a.yaml", "b.yaml"}
	if _, err := tools.FromRecipe(&needy, seed); err != nil {
		t.Fatalf("the two files together: %v", err)
	}
	if got := s.RecipesByRelation(tools, &needy); got != nil {
		t.Errorf("narrowed a recipe whose relation file does not load alone: %v", got)
	}
}

func sorted(s []string) []string { return slices.Sorted(slices.Values(s)) }
