package setup

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/syntax"
	"github.com/mcpt-tool/mcpt/syntax/lang"
	"github.com/mcpt-tool/mcpt/transpiler/cllc"
	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

// TestRecipeRoundTrip: a configuration's recipe, through JSON, loads the
// same relations, the included files (../relations/cll.defs.yaml) with
// them, and the same signature style, with no file of the configuration
// read.
func TestRecipeRoundTrip(t *testing.T) {
	for _, cfg := range []string{"mcpt.yaml", "derived.yaml"} {
		path := filepath.Join("..", "..", "examples", "cll", cfg)
		s, err := Load(path, Options{Tools: &Tools{Builtins: cllc.Builtins()}, SeedFiles: []string{filepath.Join("..", "..", "examples", "cll", "traffic.cll")}})
		if err != nil {
			t.Fatal(err)
		}
		r, err := s.Recipe(3, []string{"reverse-enums"})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(r)
		var back bundle.Recipe
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		got, err := (&Tools{Builtins: cllc.Builtins()}).FromRecipe(&back, []string{filepath.Join("..", "..", "examples", "cll", "traffic.cll")})
		if err != nil {
			t.Fatalf("%s: %v", cfg, err)
		}
		if !slices.Equal(names(got.Relations), names(s.Relations)) {
			t.Errorf("%s: relations %v from the recipe, want %v", cfg, names(got.Relations), names(s.Relations))
		}
		if st := got.Style(); !slices.Equal(st.Generic, s.Style().Generic) || len(st.Generic) == 0 {
			t.Errorf("%s: signature style %+v from the recipe, want %+v (the configuration's)", cfg, st, s.Style())
		}
		if back.Transpiler.Builtin != "cllc" || !slices.Equal(back.Transpiler.Faults, []string{"reverse-enums"}) || back.Seed != 3 {
			t.Errorf("%s: transpiler %+v, seed %d", cfg, back.Transpiler, back.Seed)
		}
	}
}

func names(rels []*relation.Relation) []string {
	var n []string
	for _, r := range rels {
		n = append(n, r.Name)
	}
	slices.Sort(n)
	return n
}

// TestRecipeIncludeStaysInside: a recipe's relation file cannot make mcpt
// read a file outside the recipe's relation files.
func TestRecipeIncludeStaysInside(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret.yaml")
	for _, inc := range []string{secret, "../../secret.yaml"} {
		r := &bundle.Recipe{
			Transpiler:    bundle.Transpiler{Kind: spec.Builtin, Builtin: "cllc"},
			RelationFiles: map[string]string{"rel.yaml": "include: ['" + inc + "']\n"},
			Relations:     []string{"rel.yaml"},
		}
		_, err := (&Tools{Builtins: cllc.Builtins()}).FromRecipe(r, []string{filepath.Join("..", "..", "examples", "cll", "traffic.cll")})
		if err == nil || !strings.Contains(err.Error(), "is not among the relation files") {
			t.Errorf("include %s: %v, want a refusal", inc, err)
		}
	}
}

// namedParser is a parser of a program's own: the CLL grammar under
// another name.
type namedParser struct {
	syntax.Parser
	name string
}

func (p namedParser) Lang() string { return p.name }

// TestRecipeParsers: a recipe's relation files find the parsers they name
// among those of the mcpt that runs them (mcpt repro, reduce): one it does
// not link is an error that says so, at its place in the recorded file.
func TestRecipeParsers(t *testing.T) {
	body, err := os.ReadFile(filepath.Join("..", "..", "examples", "cll", "relations", "cll.defs.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	r := &bundle.Recipe{
		Transpiler: bundle.Transpiler{Kind: spec.Builtin, Builtin: "cllc"},
		RelationFiles: map[string]string{
			"defs.yaml": strings.Replace(string(body), "syntax: ../cll.grammar", "syntax: own-cll", 1),
			"rel.yaml":  "include: [defs.yaml]\nrelations:\n  - name: add-timer\n    doc: A timer.\n    spots: {boundaries: declarations}\n    fresh: [n]\n    text: 'timer {{.n}}'\n    checks: [{equivalence: {}}]\n",
		},
		Relations: []string{"rel.yaml"},
	}
	seeds := []string{filepath.Join("..", "..", "examples", "cll", "traffic.cll")}
	tools := &Tools{Builtins: cllc.Builtins()}
	if _, err := tools.FromRecipe(r, seeds); err == nil || !strings.Contains(err.Error(), `defs.yaml:10:9: syntax: no parser "own-cll" in this mcpt`) {
		t.Errorf("without the parser: %v", err)
	}
	if err := tools.Parsers.Add(namedParser{lang.CLL, "own-cll"}); err != nil {
		t.Fatal(err)
	}
	s, err := tools.FromRecipe(r, seeds)
	if err != nil {
		t.Fatal(err)
	}
	ss, err := s.Relations[0].Spots(context.Background(), relation.Input{Name: "traffic.cll", Src: s.Seeds[0].Src})
	if err != nil || len(ss) == 0 {
		t.Errorf("the recipe's relation on its seed: %d spots, %v", len(ss), err)
	}
}
