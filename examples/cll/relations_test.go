// Package cll_test tests the relations of the CLL example, the exact ones
// of relations/ and the derived ones of derived/, with package
// relationtest against the correct cllc.
package cll_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/mcpt-tool/mcpt/grammar"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/relation/relationtest"
	"github.com/mcpt-tool/mcpt/relation/yamlrel"
	"github.com/mcpt-tool/mcpt/transpiler"
	"github.com/mcpt-tool/mcpt/transpiler/cllc"
)

func load(t *testing.T, pattern string) ([]*relation.Relation, transpiler.Transpiler) {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	rels, err := yamlrel.Load(files...)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := cllc.New(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rels, tr
}

// TestRelations runs each exact relation on its test cases,
// testdata/NAME/*.txtar, and checks that each of its checkers can fail at
// every spot of the eight programs and of testdata/siblings.cll.
func TestRelations(t *testing.T) {
	rels, tr := load(t, "relations/*.yaml")
	if len(rels) != 11 {
		t.Fatalf("%d relations, want the eleven of the catalogue", len(rels))
	}
	inputs := relationtest.ReadInputs(t, "*.cll", "testdata/*.cll")
	for _, r := range rels {
		t.Run(r.Name, func(t *testing.T) {
			relationtest.Run(t, filepath.Join("testdata", r.Name), r, tr)
			relationtest.CheckersCanFail(t, r, tr, inputs...)
		})
	}
}

// TestDerivedRelations checks that each checker of the derived relations
// can fail, at every spot of the eight programs and of programs generated
// from cll.grammar, which declare what they never use: the siblings of
// the analogy checks.
func TestDerivedRelations(t *testing.T) {
	rels, tr := load(t, "derived/*.yaml")
	inputs := relationtest.ReadInputs(t, "*.cll", "testdata/*.cll")
	g, err := grammar.ParseFile("cll.grammar")
	if err != nil {
		t.Fatal(err)
	}
	gen, err := grammar.Generate(g, grammar.Options{N: 20, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range gen.Programs {
		inputs = append(inputs, relation.Input{Name: fmt.Sprintf("seed-%04d.cll", i+1), Src: p.Source})
	}
	for _, r := range rels {
		t.Run(r.Name, func(t *testing.T) {
			relationtest.CheckersCanFail(t, r, tr, inputs...)
		})
	}
}
